"""One Inspect AI sample as a problem, a reply and the scorers' verdicts.

The problem is the sample id (the statement its input, the key its target, its metadata kept);
the reply is the epoch's final answer (the output's completion, else the last assistant
message), sample index epoch - 1; each scorer's value is a verdict named after the scorer
(`verdict_values` maps C/I/P/N, booleans and numbers; a scorer with another value anywhere is
left out, with a note). The eval's model, task args and generation config are the run's.
"""

from __future__ import annotations

from typing import Any

from adjudicate.importers.reading import CarriedRun, Parsed, RecordAt
from adjudicate.importers.verdict_values import harness_verdict, shown
from db.records import ImportedVerdict, ProblemRecord, ReplyRecord

ATTACHMENT = "attachment://"
READING_MARK = "adjudicate_reply_id"  # in the provenance of every score edit adjudicate makes
UNCHANGED = "UNCHANGED"  # inspect_ai's mark, in a score edit, of a field the edit leaves
MAX_EPOCH = 1_000_000  # an epoch is a sample index: it must fit SQLite's integers, with room


def read_inspect_sample(record: dict[str, Any], at: RecordAt) -> Parsed:
    """A sample of an Inspect log (`inspect_files` hands over each with its eval)."""
    spec, sample = record["eval"], record["sample"]
    at.file.id_field = "id"
    if at.file.run is None:
        at.file.run = carried_run(spec)
        if record.get("status") not in (None, "success"):
            at.file.tally("status", f"the log's status is {record['status']!r}: it may hold "
                          "only some of the samples; samples read", str(at.location))
    attachments = _dict(sample.get("attachments"))
    task_id = _id(sample, at)
    epoch = sample.get("epoch")
    if isinstance(epoch, bool) or not isinstance(epoch, int) or not 1 <= epoch <= MAX_EPOCH:
        raise at.error(f"expected the epoch as a positive integer up to {MAX_EPOCH:,}, found "
                       f"{shown(epoch)}", "epoch")
    benchmark = at.options.benchmark or _task(spec, at)
    problem = ProblemRecord(
        benchmark=benchmark, task_id=task_id, kind="math",
        statement=_statement(sample, attachments, at), answer=_key(sample, attachments, at),
        metadata=_metadata(sample), source=at.location)
    text = _reply(sample, attachments, at)
    if text is None:
        at.file.tally("errored", "samples that ended in an error with no reply (skipped)",
                      str(at.location))
        return Parsed(carried=[problem])
    return Parsed(carried=[problem], replies=[ReplyRecord(
        task_id=task_id, sample_index=at.options.fields.sample_offset + epoch - 1, text=text,
        source=at.location, benchmark=benchmark, verdicts=_verdicts(sample, at))])


def carried_run(spec: dict[str, Any]) -> CarriedRun:
    """The run an eval is: its model, with its task args and generation settings."""
    model = spec.get("model") if isinstance(spec.get("model"), str) else None
    config = _dict(spec.get("config"))
    settings = {name: value for name, value in (
        ("task_args", spec.get("task_args")), ("generate_config", spec.get("model_generate_config")),
        ("model_args", spec.get("model_args")), ("epochs", config.get("epochs")),
    ) if value not in (None, {}, [])}
    return CarriedRun(model or "inspect", model, settings)


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _id(sample: dict[str, Any], at: RecordAt) -> str:
    value = sample.get("id")
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise at.error(f"expected the sample id as a string or integer, found {shown(value)}",
                       "id")
    return str(value)


def _task(spec: dict[str, Any], at: RecordAt) -> str:
    task = spec.get("task")
    if not isinstance(task, str) or not task:
        raise at.error("the eval names no task; name the benchmark with --benchmark", "eval.task")
    return task


def _resolved(value: Any, attachments: dict[str, Any]) -> Any:
    """Text stored once as `attachment://HASH` (Inspect's de-duplication), resolved."""
    if isinstance(value, str) and value.startswith(ATTACHMENT):
        return attachments.get(value[len(ATTACHMENT):], value)
    return value


def _content_text(content: Any, attachments: dict[str, Any]) -> str | None:
    """A message's text: a string, or the text parts of a content list."""
    content = _resolved(content, attachments)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = [_resolved(part.get("text"), attachments) for part in content
                 if isinstance(part, dict) and part.get("type") == "text"]
        return "\n".join(p for p in parts if isinstance(p, str))
    return None


def _statement(sample: dict[str, Any], attachments: dict[str, Any], at: RecordAt) -> str:
    """The input: a string, or (a chat) the last user message's text."""
    value = _resolved(sample.get("input"), attachments)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        users = [m for m in value if isinstance(m, dict) and m.get("role") == "user"]
        text = _content_text(users[-1].get("content"), attachments) if users else None
        if text is not None:
            return text
    raise at.error(f"expected the input as text or chat messages, found {shown(value)}", "input")


def _key(sample: dict[str, Any], attachments: dict[str, Any], at: RecordAt) -> str:
    """The target; of a list of targets, the first (the whole list is kept in the metadata)."""
    value = _resolved(sample.get("target"), attachments)
    if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        value = value[0]
    if not isinstance(value, str) or not value.strip():
        raise at.error(f"expected the key as non-empty text, found {shown(value)}: a sample "
                       "without a target cannot be graded", "target")
    return value.strip()


def _metadata(sample: dict[str, Any]) -> dict[str, Any]:
    metadata = dict(sample["metadata"]) if isinstance(sample.get("metadata"), dict) else {}
    if isinstance(sample.get("target"), list) and len(sample["target"]) > 1:
        metadata["targets"] = sample["target"]
    return metadata


def _reply(sample: dict[str, Any], attachments: dict[str, Any], at: RecordAt) -> str | None:
    """The output's completion, else the last assistant message; None for a sample that
    ended in an error before answering."""
    output = _dict(sample.get("output"))
    completion = _resolved(output.get("completion"), attachments)
    if isinstance(completion, str) and completion:
        return completion
    messages = sample["messages"] if isinstance(sample.get("messages"), list) else []
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "assistant":
            text = _content_text(message.get("content"), attachments)
            if text:
                return text
    if sample.get("error"):
        return None
    if not isinstance(completion, str):
        raise at.error("missing: no completion and no assistant message", "output.completion")
    return completion


def _verdicts(sample: dict[str, Any], at: RecordAt) -> tuple[ImportedVerdict, ...]:
    scores = sample.get("scores")
    if not isinstance(scores, dict):
        return ()
    verdicts = []
    for scorer, given in scores.items():
        score = harness_score(given, at)
        value = score.get("value") if isinstance(score, dict) else None
        if value is None:  # not scored by this scorer
            continue
        evidence = {"value": value, "scorer": scorer, "source": str(at.location)}
        for field in ("answer", "explanation"):
            if isinstance(score, dict) and isinstance(score.get(field), str):
                evidence[field] = score[field]
        verdict = harness_verdict(value, scorer, "scorer", "inspect", evidence, at)
        if verdict is not None:
            verdicts.append(verdict)
    return tuple(verdicts)


def harness_score(score: Any, at: RecordAt) -> Any:
    """The score as the harness gave it: edits `adjudicate export --format inspect` made (their
    provenance carries READING_MARK) taken back, and a score it added (its `reading`) left out
    (None), each counted in a note: readings are not the harness's verdicts, and read as a
    grader they would agree with the reading by construction."""
    history = score.get("history") if isinstance(score, dict) else None
    if not isinstance(history, list) or not any(_by_adjudicate(e) for e in history):
        return score
    if _by_adjudicate(history[0]):
        at.file.tally("adjudicate-added", "scores adjudicate added (its readings, from `export "
                      "--format inspect`) left out", str(at.location))
        return None
    at.file.tally("adjudicate-edited", "scorer values adjudicate edited (`export --edit`) read "
                  "as the harness gave them", str(at.location))
    before: dict[str, Any] = {}
    for entry in history:
        if isinstance(entry, dict) and not _by_adjudicate(entry):
            before.update({k: v for k, v in entry.items() if v != UNCHANGED})
    return before


def _by_adjudicate(entry: Any) -> bool:
    provenance = entry.get("provenance") if isinstance(entry, dict) else None
    metadata = provenance.get("metadata") if isinstance(provenance, dict) else None
    return isinstance(metadata, dict) and READING_MARK in metadata
