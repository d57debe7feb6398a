"""A copy of an Inspect AI log carrying the readings, written by inspect_ai itself.

Each sample/epoch with a reading gets an added score (`reading`: C or I, with the label, the
reviewers and the note in its explanation and metadata), or, with `edit`, a ScoreEdit of that
scorer where a person's reading differs from its value, with ProvenanceData (author: the
reviewers, reason: the label and note). Metrics are then recomputed by inspect_ai's
`recompute_metrics`. Samples are matched to replies by where `import` read them.
"""

from __future__ import annotations

from datetime import datetime
from importlib import import_module
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.inspect_files import inspect_records
from adjudicate.importers.inspect_samples import READING_MARK
from adjudicate.importers.verdict_values import outcome_of
from adjudicate.readback.readings import Copying, CopySummary, Reading, WriteNew
from adjudicate.safe_text import visible
from db.errors import StoreError

EXTRA = "pip install 'adjudicate[inspect]'"


def inspect_api() -> Any:
    """inspect_ai's log module, or one line naming the extra that brings it."""
    try:
        return import_module("inspect_ai.log")
    except ImportError:
        raise StoreError(f"--format inspect writes logs with inspect_ai, which is not installed: "
                         f"{EXTRA}") from None


def write_inspect_copy(copying: Copying, *, score: str, edit: str | None,
                       write_new: WriteNew) -> CopySummary:
    """Read the log, put the readings into it, write it to the copy's target."""
    api = inspect_api()
    path = copying.path
    by_sample = _readings_by_sample(copying)
    log = api.read_eval_log(str(path))
    samples = list(log.samples or [])
    names = {name for sample in samples for name in (sample.scores or {})}
    compared = edit or _first_scorer(log, samples)
    if edit is not None and edit not in names:
        raise InputError(str(path), f"no scorer {edit!r} in this log; its scorers: "
                         f"{', '.join(sorted(names)) or 'none'}")
    if edit is None and score in names:
        _drop_own_readings(samples, score, path)
    found: list[Reading] = []
    changed = 0
    for sample in samples:
        reading = by_sample.get((sample.id, sample.epoch))
        if reading is None:
            continue
        found.append(reading)
        current = (sample.scores or {}).get(compared)
        differs = current is not None and _differs(current.value, reading)
        changed += int(reading.read and differs)
        if edit is None and reading.passed is not None:
            _edit(api, log, sample, score, _added(api, reading))
        elif edit is not None and reading.read and differs and current is not None:
            _edit(api, log, sample, edit, _changed(api, reading, current.value))
    log.samples = samples
    api.recompute_metrics(log)
    summary = copying.summary(found, changed, mode=f"edit {edit}" if edit else f"score {score}",
                              compared_with=compared, samples=len(samples), replies=len(found))
    log.eval.metadata = {**(log.eval.metadata or {}), "adjudicate": summary.counts}
    write_new(copying.target, lambda made: api.write_eval_log(log, str(made)))
    return summary


def _drop_own_readings(samples: list[Any], score: str, path: Any) -> None:
    """A copy imported again carries the `score` an earlier export added: drop it, for the
    readings of today; a score of that name the harness wrote is refused."""
    given = [sample.scores[score] for sample in samples if score in (sample.scores or {})]
    if not all(_added_by_adjudicate(found) for found in given):
        raise InputError(str(path), f"the log already has a score named {score!r}; name the "
                         "added one with --as-score NAME")
    for sample in samples:
        (sample.scores or {}).pop(score, None)


def _added_by_adjudicate(score: Any) -> bool:
    """The score's first state is an edit an export of ours made (its provenance marked)."""
    history = getattr(score, "history", None) or []
    provenance = getattr(history[0], "provenance", None) if history else None
    return READING_MARK in (getattr(provenance, "metadata", None) or {})


def _readings_by_sample(copying: Copying) -> dict[tuple[Any, Any], Reading]:
    """(sample id, epoch) -> the reading of the reply `import` read from that sample."""
    found = {}
    for location, record in inspect_records(copying.path):
        replies = copying.at(location.record or location.line)
        if replies:
            sample = record["sample"]
            found[(sample.get("id"), sample.get("epoch"))] = replies[0]
    return found


def _first_scorer(log: Any, samples: list[Any]) -> str | None:
    if log.results is not None and log.results.scores:
        return str(log.results.scores[0].name)
    return next((name for sample in samples for name in (sample.scores or {})), None)


def _differs(value: Any, reading: Reading) -> bool:
    """The scorer's value says otherwise than the reading (partial credit always does)."""
    outcome = outcome_of(value)
    if outcome is None or reading.passed is None:
        return False
    verdict, partial = outcome
    return partial or (verdict == "accept") != reading.passed


def _edit(api: Any, log: Any, sample: Any, name: str, change: Any) -> None:
    """inspect_ai's edit_score on this one sample (it looks samples up by id, which over a
    whole log would cost a scan per edit); metrics are recomputed once, at the end."""
    whole = log.samples
    log.samples = [sample]
    try:
        api.edit_score(log, sample.id, name, change, recompute_metrics=False, epoch=sample.epoch)
    finally:
        log.samples = whole


def _provenance(api: Any, reading: Reading) -> Any:
    """Who and why; when: the label's time (the export's for the graders' verdict)."""
    when = {"timestamp": datetime.fromisoformat(reading.when)} if reading.when else {}
    return api.ProvenanceData(author=reading.author, reason=reading.reason(),
                              metadata={READING_MARK: reading.reply_id}, **when)


def _added(api: Any, reading: Reading) -> Any:
    """The added `reading` score: C or I, explained."""
    by = f" (read by {reading.author})" if reading.read else ""
    return _score_edit()(value="C" if reading.passed else "I",
                     explanation=visible(reading.reason() + by),
                     metadata=reading.detail(),
                     provenance=_provenance(api, reading))


def _changed(api: Any, reading: Reading, value: Any) -> Any:
    """The scorer's value set to the reading, in the scorer's own kind of value."""
    return _score_edit()(value=_same_kind(value, bool(reading.passed)),
                     explanation=visible(f"{reading.reason()} (read by {reading.author})"),
                     provenance=_provenance(api, reading))


def _score_edit() -> Any:
    return import_module("inspect_ai.scorer").ScoreEdit


def _same_kind(value: Any, passed: bool) -> Any:
    if isinstance(value, bool):
        return passed
    if isinstance(value, int):
        return int(passed)
    if isinstance(value, float):
        return float(passed)
    return "C" if passed else "I"

