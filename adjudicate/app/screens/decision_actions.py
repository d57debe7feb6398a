"""The review screen's decisions over many replies: label the group of identical (answer, key)
pairs, label the whole view, and the patterns screen (whose decisions come back here)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from adjudicate.app.filter_language import describe
from adjudicate.app.screens.evidence_actions import EvidenceActions
from adjudicate.app.screens.progress_recount import ProgressRecount
from adjudicate.app.session import DecisionPreview, NotSaved, QueueFilter, QueueItem, Scope, StoreError
from adjudicate.app.widgets.math_view import main_extraction
from adjudicate.safe_text import visible
from adjudicate.words import plural
from graders.labels import LABELS

if TYPE_CHECKING:
    from adjudicate.app.dialogs.decision import Answer


class DecisionActions(EvidenceActions, ProgressRecount):
    """Mixed into the review screen, which provides `action_label` and `_apply_filter`
    besides what EvidenceActions needs."""

    def action_label(self, label: str) -> None:
        raise NotImplementedError

    def _apply_filter(self, flt: QueueFilter | None) -> None:
        raise NotImplementedError

    def action_label_group(self, label: str) -> None:
        item = self.item
        if item is None or not LABELS.applies(item.kind, label):
            return
        members = self.session.group_members()
        if len(members) <= 1:
            self.notify("No other queued reply has this answer and key; labeled this one.")
            self.action_label(label)
            return
        from adjudicate.app.dialogs.decision import DecisionDialog

        what = _group_words(item)
        preview = self.session.preview(members, label)
        self.app.push_screen(
            DecisionDialog(f"Label the group {LABELS.short(label)}", preview, f"Group: {what}"),
            lambda answer: self._decided(preview, answer, "group", item.group_key, what, members))

    def action_label_view(self) -> None:
        rows = self.session.rows
        kinds = {row.kind for row in rows}
        if len(kinds) != 1:
            self.notify("Nothing in this view to label." if not rows else
                        "This view holds math and code replies, and a label fits one kind: "
                        "narrow it first (/, e.g. by benchmark).", severity="warning", timeout=6)
            return
        from adjudicate.app.dialogs.choose_label import ChooseLabelDialog

        view = describe(self.session.filter)
        self.app.push_screen(
            ChooseLabelDialog("Label every reply in this view",
                              f"{len(rows):,} queued replies · view: {view}", kinds.pop()),
            self._label_view)

    def _label_view(self, label: str | None) -> None:
        if label is None:
            return
        from adjudicate.app.dialogs.decision import DecisionDialog

        view = describe(self.session.filter)
        preview = self.session.preview(self.session.view_ids, label)
        self.app.push_screen(
            DecisionDialog(f"Label this view {LABELS.short(label)}", preview, f"View: {view}"),
            lambda answer: self._decided(preview, answer, "view", None, view))

    def _decided(self, preview: DecisionPreview, answer: Answer | None, scope: Scope,
                 subject: str | None, description: str, advance: list[int] | None = None) -> None:
        """Record a confirmed decision over many replies, then say what it did."""
        if answer is None:
            return
        try:
            decision = self.session.decide(preview, scope=scope, subject=subject,
                                           description=description, replace=answer == "replace")
        except NotSaved as exc:
            self.not_saved(exc)
            return
        except StoreError as exc:
            self.notify(visible(str(exc)), severity="error", markup=False)
            return
        if advance:
            self.session.advance_past(advance)
        kept = f", kept {decision.kept:,} of your earlier labels" if decision.kept else ""
        self.notify(f"Labeled {plural(decision.written, 'reply')} "
                    f"{LABELS.short(preview.label)}{kept}.")
        self.show_current()
        self._recount_soon()

    def action_patterns(self) -> None:
        from adjudicate.app.screens.patterns import PatternsScreen

        self.app.push_screen(PatternsScreen(self.session), self._from_patterns)

    def _from_patterns(self, pattern_id: str | None) -> None:
        if pattern_id is not None:
            self._apply_filter(replace(self.session.filter, patterns=(pattern_id,)))
        else:
            self.show_current()
            self._recount_soon()


def _group_words(item: QueueItem) -> str:
    """What a group shares: 'answer 160.0 · key 160' (code: the same first failure)."""
    if item.kind == "math":
        extraction = main_extraction(item)
        answer = extraction.answer if extraction and extraction.answer else "(none)"
        status = item.key_status  # a questioned key: the group is this problem's replies
        key = (f"{item.key} → {status.corrected_key}" if status and status.corrected_key
               else item.key or "(none)")
        return f"answer {answer} · key {key}" + (" (this problem)" if status else "")
    return f"the same first failing input of {item.benchmark} {item.task_id}"
