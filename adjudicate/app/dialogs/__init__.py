"""Modal dialogs: confirm a decision over many replies, pick its label, write a note, set filters."""
