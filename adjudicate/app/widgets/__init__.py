"""Widgets of the review app: the item views and the lines around them."""
