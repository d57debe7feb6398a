"""The bindings the queue and the conflicts view share, so a key means one thing everywhere."""

from __future__ import annotations

from textual.binding import Binding

MOVE = Binding.Group("move", compact=True)
SCROLL_KEYS = ("up", "down", "pageup", "pagedown", "home", "end")


def scroll_bindings() -> list[Binding]:
    """↑/↓/PgUp/PgDn/Home/End scroll the reply or program (hidden from the footer)."""
    return [Binding(key, f"scroll('{key}')", "scroll", show=False,
                    tooltip="scroll the reply (math) or the program (code)")
            for key in SCROLL_KEYS]


HELP_BINDING = Binding("question_mark", "help", "help", tooltip="this list of every key")
QUIT_BINDING = Binding("q", "app.quit", "quit",
                       tooltip="quit (every label is already on disk; nothing to save)")
