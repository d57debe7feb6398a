"""Modal dialogs: confirm a group label, write a note, set filters."""
