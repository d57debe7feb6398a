"""The review screen's evidence keys: the reference and guidelines panels, the original input,
`k` asking what is wrong with the key (then regrading a corrected key in a worker), and
ctrl+k retracting that erratum after a confirmation."""

from __future__ import annotations

import subprocess
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

from adjudicate.app.messages import ErrataRegraded
from adjudicate.app.session import Erratum, NotSaved, QueueItem, ReviewSession
from adjudicate.app.widgets.code_view import CodeItemView
from adjudicate.app.widgets.item_lines import describe_item
from adjudicate.app.widgets.side_panels import GuidelinesPanel, ReferencePanel
from adjudicate.safe_text import visible
from adjudicate.words import plural
from graders.labels import LABELS

if TYPE_CHECKING:
    from adjudicate.app.dialogs.key_erratum import KeyFinding


def is_key_label(label: str) -> bool:
    """The label that blames the key (asked about before it is recorded)."""
    return label in LABELS and LABELS[label].reading == "excluded"


class EvidenceActions(Screen[None]):
    """Mixed into the review screen, which provides `session`, `item` and `show_current`."""

    session: ReviewSession
    item: QueueItem | None
    erratum: Erratum | None = None  # this reviewer's standing erratum on the item's problem

    def show_current(self) -> None:
        raise NotImplementedError

    def not_saved(self, refused: NotSaved) -> None:
        raise NotImplementedError

    def evidence_check(self, action: str) -> bool | None:
        """Which evidence keys apply now (None: not one of them)."""
        if action == "reference":
            return self.item is not None
        if action == "guidelines":
            return bool(self.query(GuidelinesPanel))
        if action == "original":
            return self.item is not None and self.item.kind == "code"
        return None

    def refresh_panels(self) -> None:
        """Keep an open reference panel on the item now shown."""
        panel = self.query_one(ReferencePanel)
        if panel.display and self.item is not None:
            panel.show(self.item.kind, self.session.reference(self.item))
        elif panel.display:
            panel.display = False

    def open_panel(self) -> ReferencePanel | GuidelinesPanel | None:
        for panel in (*self.query(ReferencePanel), *self.query(GuidelinesPanel)):
            if panel.display:
                return panel
        return None

    def action_reference(self) -> None:
        panel = self.query_one(ReferencePanel)
        for other in self.query(GuidelinesPanel):
            other.display = False
        panel.display = not panel.display and self.item is not None
        self.refresh_panels()

    def action_guidelines(self) -> None:
        for panel in self.query(GuidelinesPanel):
            panel.display = not panel.display
            self.query_one(ReferencePanel).display = False

    def action_original(self) -> None:
        view = self.query_one(CodeItemView)
        view.original = not view.original
        self.show_current()

    # -- `k`: what is wrong with the key ----------------------------------------------------
    def ask_about_key(self) -> None:
        from adjudicate.app.dialogs.key_erratum import KeyErratumDialog

        item = self.item
        if item is not None:
            self.app.push_screen(KeyErratumDialog(item.key, describe_item(item)),
                                 self._record_key)

    def _record_key(self, finding: KeyFinding | None) -> None:
        if finding is None:
            return
        try:
            erratum = self.session.key_erratum(finding.kind, finding.new_key, finding.note)
        except NotSaved as exc:
            self.not_saved(exc)
            return
        self.show_current()
        if erratum is not None and erratum.corrects:
            self.notify(f"Key {erratum.old_key!r} recorded as wrong; grading this problem's "
                        f"replies against {erratum.new_key!r}…", markup=False)
            self.regrade_errata()
        elif erratum is not None:
            self.notify(f"Key recorded as {erratum.kind}; the problem leaves every score.")

    def action_retract_erratum(self) -> None:
        from adjudicate.app.dialogs.retract_erratum import RetractErratumDialog

        erratum = self.erratum
        if erratum is None:
            return

        def answered(retract: bool | None) -> None:
            if retract:
                try:
                    self.session.retract(erratum)
                except NotSaved as exc:
                    self.not_saved(exc)
                    return
                self.notify(visible(f"Retracted your erratum on {erratum.benchmark} "
                                    f"{erratum.task_id}'s key."), markup=False)
                self.show_current()
                self.regrade_errata()  # the queue goes back to the key now in force

        self.app.push_screen(RetractErratumDialog(
            "Retract the key erratum", self.session.retraction_effect(erratum)), answered)

    @work(thread=True, exclusive=True, group="errata")
    def regrade_errata(self) -> None:
        try:
            count = self.session.regrade_errata()
            self.post_message(ErrataRegraded(count, queued=self.session.queued_now()))
        except (RuntimeError, OSError, subprocess.SubprocessError) as error:
            self.post_message(ErrataRegraded(None, str(error)))

    def on_errata_regraded(self, message: ErrataRegraded) -> None:
        if message.count is None:
            self.notify(visible(f"{message.error}; `adjudicate grade` will do it."),
                        severity="warning", markup=False, timeout=8)
            return
        joined = self.session.take_newly_queued(message.queued)  # the child marked it again
        self.show_current()
        said = []
        if message.count:
            said.append(f"Graded {plural(message.count, 'reply')} against the corrected key; "
                        "the report scores the problem with it.")
        if joined:
            said.append(f"{plural(joined, 'reply')} disputed against the key now in force "
                        f"joined this view.")
        if said:
            self.notify(" ".join(said), timeout=8)
