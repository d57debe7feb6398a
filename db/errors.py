"""Errors the store raises with a message a user can act on."""


class StoreError(Exception):
    """A database operation refused: the message says why and what to do next."""
