"""Screens of the review app: the queue, the conflicts view, the help screen."""
