"""Headless graders: pure functions from (reply, key) to a verdict with its evidence.

Nothing in this package imports Textual or touches the database.
"""
