"""Grading stage: ask every base-passing sample about each queued sample's failing input.

Runs after a problem's replies are graded and queued. For each problem, the distinct failing
inputs of its queued replies (the minimal ones where shrinking found them) are run by every
reply of that problem, from any run, that passes the base tests; only (reply, input) pairs not
run before are run. The tally per input is stored for the review app.
"""

from __future__ import annotations

from sqlite_utils import Database

from adjudicate.grading.executor import Executor
from db.probes import (
    base_passing,
    probe_outputs,
    queued_failures,
    save_probe_outputs,
    save_tallies,
)
from graders.code import CodeGradeConfig, CodeProblem, ExpectedOutputs
from graders.code.engine import ProbeJob
from graders.code.extract import assemble_program, extract_program
from graders.code.probes import VERSION, ProbeAnswer, ProbeInput, probe_input, tally
from graders.progress import Advance, Stage


def probe_failing_inputs(db: Database, problems: dict[int, CodeProblem],
                         expected: dict[int, ExpectedOutputs], executor: Executor,
                         config: CodeGradeConfig, on_stage: Stage | None = None,
                         on_progress: Advance | None = None) -> int:
    """Run and tally the other samples on these problems' queued failing inputs, where
    `executor` runs samples; returns how many (sample, input) pairs ran."""
    inputs = _inputs_by_problem(db, problems, expected, config)
    if not inputs:
        return 0
    voices = {pid: base_passing(db, pid) for pid in inputs}
    done = probe_outputs(db, [v.reply_id for vs in voices.values() for v in vs], VERSION)
    todo: list[ProbeJob] = []
    for pid, probes in inputs.items():
        problem = problems[pid]
        for voice in voices[pid]:
            missing = tuple(p for p in probes.values() if (voice.reply_id, p.key) not in done)
            program = reply_program(voice.text, voice.form, problem)
            if missing and program is not None:
                todo.append(ProbeJob(voice.reply_id, program, problem, missing))
    if todo:
        if on_stage:
            on_stage("Running the other samples on failing inputs", len(todo))
        rows = []
        try:
            for reply_id, answers in executor.probe(todo, config, on_progress):
                for key, answer in answers.items():
                    rows.append((reply_id, key, answer.kind, answer.output))
                    done[(reply_id, key)] = (answer.kind, answer.output)
        finally:  # also on Ctrl-C: every answer so far is kept, the rerun asks the rest
            save_probe_outputs(db, VERSION, rows)
    tallies = []
    for pid, probes in inputs.items():
        for probe in probes.values():
            voiced = [(voice.run, ProbeAnswer(*done[(voice.reply_id, probe.key)]))
                       for voice in voices[pid] if (voice.reply_id, probe.key) in done]
            tallies.append((pid, probe.key, tally(probe, voiced)))
    save_tallies(db, VERSION, tallies)
    return sum(len(job.inputs) for job in todo)


def _inputs_by_problem(db: Database, problems: dict[int, CodeProblem],
                       expected: dict[int, ExpectedOutputs], config: CodeGradeConfig,
                       ) -> dict[int, dict[str, ProbeInput]]:
    found: dict[int, dict[str, ProbeInput]] = {}
    for failure in queued_failures(db, sorted(problems)):
        pid = failure.problem_id
        if pid not in expected:
            continue
        probe = probe_input(problems[pid], failure.first_failure, expected[pid],
                            config.time_limits)
        if probe is not None:
            found.setdefault(pid, {})[probe.key] = probe
    return found


def reply_program(text: str, form: str, problem: CodeProblem) -> str | None:
    """The program a reply holds, extracted as grading extracts it (None if it cannot be)."""
    kind = "completion" if form == "completion" else "auto"
    try:
        return assemble_program(extract_program(text, problem.entry_point, kind),
                                problem.statement)
    except Exception:  # noqa: BLE001 - such a reply is graded `error` and is never base-passing
        return None
