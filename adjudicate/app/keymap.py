"""Every key of the app, as data: the bindings of the queue, the conflicts view and the pattern
screens, built from the label specs, and the checks of which label actions apply to an item.

A key means the same thing on every screen. `k` labels "key is wrong", so moving uses ←/→ and
h/l (vim's left/right), never j/k. The screens take their BINDINGS from here and the help
screen lists the same lists, so neither needs the other.
"""

from __future__ import annotations

from textual.binding import Binding, BindingType

from graders.labels import LABELS

MOVE = Binding.Group("move", compact=True)
SCROLL_KEYS = ("up", "down", "pageup", "pagedown", "home", "end")
LABEL_ACTIONS = ("label", "label_group", "adjudicate", "decide", "choose")  # take a label name
DIGIT_ACTIONS = ("label_digit", "adjudicate_digit", "decide_digit", "choose_digit")  # take a digit


def scroll_bindings() -> list[Binding]:
    """↑/↓/PgUp/PgDn/Home/End scroll the reply or program (hidden from the footer)."""
    return [Binding(key, f"scroll('{key}')", "scroll", show=False,
                    tooltip="scroll the reply (math) or the program (code), or the panel Tab "
                            "picked")
            for key in SCROLL_KEYS]


# Tab picks the panel the scroll keys move (on a short terminal the problem, the prompt, the
# verdicts and the tests are cut to a few rows).
PANEL_FOCUS_BINDINGS: list[BindingType] = [
    Binding("tab", "panel(1)", "next panel", show=False,
            tooltip="pick the next panel to scroll: problem or prompt, graders or tests, reply "
                    "or program"),
    Binding("shift+tab", "panel(-1)", "previous panel", show=False,
            tooltip="pick the previous panel to scroll"),
]


HELP_BINDING = Binding("question_mark", "help", "help", tooltip="this list of every key")
QUIT_BINDING = Binding("q", "app.quit", "quit",
                       tooltip="quit (every label is already on disk; nothing to save)")

UNDO_BINDING = Binding("u", "undo", "undo",
                       tooltip="undo your last action (a decision over many replies at once)")


def _digits_in_words() -> str:
    """'math 1 correct, 2 incorrect, 3 bad key; code 1 bug, …'."""
    return "; ".join(
        f"{kind} " + ", ".join(f"{LABELS.digit(s)} {s.short}" for s in LABELS.for_kind(kind))
        for kind in LABELS.kinds())


def label_bindings(action: str, *, groups: bool) -> list[Binding]:
    """Bindings for every label: the letter (shown), its digit and, if `groups`, the capital."""
    bindings = [
        Binding(s.key, f"{action}('{s.name}')", s.short, tooltip=s.description) for s in LABELS
    ]
    digits = max((len(LABELS.for_kind(kind)) for kind in LABELS.kinds()), default=0)
    bindings += [
        Binding(str(digit), f"{action}_digit({digit})", f"label #{digit}", show=False,
                tooltip=f"the item's labels in order: {_digits_in_words()}")
        for digit in range(1, digits + 1)
    ]
    if groups:
        bindings += [
            Binding(s.key.upper(), f"{action}_group('{s.name}')", "whole group", show=False,
                    tooltip="the capital of a label key: label every queued reply with this "
                            "same answer and key; asks first, showing how many")
            for s in LABELS
        ]
    return bindings


# Evidence beside the item, one key each (the screen hides what does not apply).
PANEL_BINDINGS: list[BindingType] = [
    Binding("v", "reference", "reference",
            tooltip="show or hide the reference solution (math: opened at its final answer; "
                    "code: the canonical solution and the input contract)"),
    Binding("o", "original", "original input",
            tooltip="code: the first failing input as grading found it, or its minimal form"),
    Binding("i", "guidelines", "guidelines",
            tooltip="show or hide the labeling guidelines (review --guidelines FILE.md)"),
]

# The queue. Footer order: the labels, then help (so it shows on narrow terminals), the rest.
QUEUE_BINDINGS: list[BindingType] = [
    *label_bindings("label", groups=True),
    HELP_BINDING,
    Binding("s", "skip", "skip", tooltip="set this reply aside; it stays in the queue"),
    UNDO_BINDING,
    Binding("ctrl+k", "retract_erratum", "retract erratum", key_display="^k",
            tooltip="withdraw your erratum on this problem's key (asks first, saying what it "
                    "changes); relabeling a reply never withdraws it"),
    Binding("n", "note", "note", tooltip="attach a note to this reply"),
    Binding("slash", "filter", "filter",
            tooltip="filter by run, benchmark, problem, grader verdicts, rule, status, answer "
                    "or key text, dispute pattern"),
    Binding("a", "conflicts", "conflicts",
            tooltip="replies reviewers labeled differently, to adjudicate"),
    Binding("left", "move(-1)", "prev", group=MOVE, key_display="←",
            tooltip="previous reply", priority=True),
    Binding("right", "move(1)", "next", group=MOVE, key_display="→",
            tooltip="next reply", priority=True),
    Binding("h", "move(-1)", "prev", show=False, tooltip="previous reply"),
    Binding("l", "move(1)", "next", show=False, tooltip="next reply"),
    Binding("j", "vim_hint", "vim hint", show=False,
            tooltip="does not move: use ←/→ or h/l, because k labels 'bad key'"),
    *scroll_bindings(),
    *PANEL_FOCUS_BINDINGS,
    QUIT_BINDING,
    # last in the footer: on a narrow terminal these give way before quit does
    *PANEL_BINDINGS,
    Binding("p", "patterns", "patterns",
            tooltip="the queue by dispute pattern: look at examples, settle one in one decision"),
    Binding("V", "label_view", "label view", show=False,
            tooltip="label every reply in this view (the filter) in one decision; asks first "
                    "(a capital acts on many replies, as the capital of a label key does)"),
]

# The conflicts view: a label key records the adjudicated label.
CONFLICTS_BINDINGS: list[BindingType] = [
    *label_bindings("adjudicate", groups=False),
    HELP_BINDING,
    Binding("g", "group_by", "group by",
            tooltip="list conflicts one by one, by (answer, key) or by pattern; a label key "
                    "then adjudicates the whole group, after a confirmation"),
    UNDO_BINDING,
    *[Binding(b.key, b.action, b.description, show=False, priority=True,
              tooltip="scroll the reply or program (↑/↓ move in the table)")
      for b in scroll_bindings() if b.key in ("pageup", "pagedown")],
    Binding("escape,a", "close", "back", tooltip="back to the queue"),
    QUIT_BINDING,
]

IN_QUEUE_BINDING = Binding("slash", "show_in_queue", "in queue",
                           tooltip="show this pattern's replies in the queue, to read them")

# The queue by pattern: a table of patterns.
PATTERNS_BINDINGS: list[BindingType] = [
    Binding("enter", "open", "examples", priority=True,
            tooltip="page through random examples of the pattern, then settle it"),
    HELP_BINDING,
    IN_QUEUE_BINDING,
    UNDO_BINDING,
    Binding("escape,p", "close", "back", tooltip="back to the queue"),
    QUIT_BINDING,
]

# One pattern's examples: a label key labels every reply of the pattern (after confirming).
EXAMPLES_BINDINGS: list[BindingType] = [
    *label_bindings("decide", groups=False),
    HELP_BINDING,
    Binding("left", "page(-1)", "prev", group=MOVE, key_display="←", priority=True,
            tooltip="the previous examples"),
    Binding("right", "page(1)", "next", group=MOVE, key_display="→", priority=True,
            tooltip="more random examples"),
    Binding("h", "page(-1)", "prev", show=False, tooltip="the previous examples"),
    Binding("l", "page(1)", "next", show=False, tooltip="more random examples"),
    IN_QUEUE_BINDING,
    UNDO_BINDING,
    Binding("escape", "close", "back", tooltip="back to the patterns"),
    QUIT_BINDING,
]


def duplicate_keys(bindings: list[BindingType]) -> dict[str, list[str]]:
    """Keys bound to more than one action in one screen's list (a label's key must be free)."""
    actions: dict[str, list[str]] = {}
    for binding in Binding.make_bindings(bindings):
        actions.setdefault(binding.key, []).append(binding.action)
    return {key: found for key, found in actions.items() if len(found) > 1}


for _screen in (QUEUE_BINDINGS, CONFLICTS_BINDINGS):
    if duplicate_keys(_screen):
        raise ValueError(f"keys bound twice (is a label's key taken?): {duplicate_keys(_screen)}")


def label_action_applies(action: str, parameters: tuple[object, ...],
                         kind: str | None) -> bool | None:
    """Whether a label action (a name or a digit) applies to an item of `kind` (None: no item);
    None when `action` is not a label action, for the screen to decide."""
    if action in LABEL_ACTIONS:
        return kind is not None and LABELS.applies(kind, parameters[0])
    if action in DIGIT_ACTIONS:
        digit = parameters[0]
        return kind is not None and isinstance(digit, int) and digit <= len(LABELS.for_kind(kind))
    return None


def digit_label(kind: str, digit: int) -> str:
    """The name of an item's `digit`-th label (1-based)."""
    return LABELS.for_kind(kind)[int(digit) - 1].name
