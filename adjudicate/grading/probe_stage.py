"""Grading stage: ask every base-passing sample about each queued sample's failing input.

Runs after a problem's replies are graded and queued. For each problem, the distinct failing
inputs of its queued replies (the minimal ones where shrinking found them) are run by every
reply of that problem, from any run, that passes the base tests; only (reply, input) pairs not
run before are run, within the problem's probe budget (`probe_budget`): a sample that has
spent its own allowance is asked no more, and the tally says how many samples ran. The tally
per input is stored for the review app.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from sqlite_utils import Database

from adjudicate.grading.executor import Executor
from db.probes import (
    BasePassing,
    base_passing,
    probe_outputs,
    queued_failures,
    save_probe_outputs,
    save_tallies,
)
from graders.code import CodeGradeConfig, CodeProblem, ExpectedOutputs
from graders.code.copies import Copies
from graders.code.engine import ProbeJob
from graders.code.extract import assemble_program, extract_program
from graders.code.probe_budget import NOT_RUN, RUNS_SPENT, SAMPLE_SPENT, ProbeLimits, stop_note
from graders.code.probes import VERSION, ProbeAnswer, ProbeInput, probe_input, tally
from graders.progress import Advance, Stage


def probe_failing_inputs(db: Database, problems: dict[int, CodeProblem],
                         expected: dict[int, ExpectedOutputs], executor: Executor,
                         config: CodeGradeConfig, on_stage: Stage | None = None,
                         on_progress: Advance | None = None) -> ProbeSummary:
    """Run and tally the other samples on these problems' queued failing inputs, where
    `executor` runs samples, within `config.probe` per problem."""
    summary = ProbeSummary()
    inputs = _inputs_by_problem(db, problems, expected, config)
    if not inputs:
        return summary
    voices = {pid: base_passing(db, pid) for pid in inputs}
    done = probe_outputs(db, [v.reply_id for vs in voices.values() for v in vs], VERSION)
    plan = _plan(inputs, voices, problems, done, config.probe)
    if plan.todo:
        copies: Copies[int] = Copies()
        todo = [job for job in plan.todo if copies.runs(
            job.key, (plan.problem_of[job.key], tuple(p.key for p in job.inputs)), job.program)]
        if on_stage:
            on_stage("Running the other samples on failing inputs", len(todo))
        rows = []
        try:
            for ran, answers in executor.probe(todo, config, on_progress):
                for reply_id in (ran, *copies.of(ran)):  # a copy answers as its program did
                    for key, answer in answers.items():
                        if answer.kind == NOT_RUN:
                            plan.stopped[(plan.problem_of[reply_id], key)].add(SAMPLE_SPENT)
                            continue
                        rows.append((reply_id, key, answer.kind, answer.output))
                        done[(reply_id, key)] = (answer.kind, answer.output)
                        summary.ran += 1
        finally:  # also on Ctrl-C: every answer so far is kept, the rerun asks the rest
            save_probe_outputs(db, VERSION, rows)
    tallies = []
    for pid, probes in inputs.items():
        for probe in probes.values():
            voiced = [(voice.run, ProbeAnswer(*done[(voice.reply_id, probe.key)]))
                      for voice in voices[pid] if (voice.reply_id, probe.key) in done]
            asked = plan.asked[pid]
            note = (stop_note(len(voiced), asked, plan.stopped[(pid, probe.key)], config.probe)
                    if len(voiced) < asked and plan.stopped[(pid, probe.key)] else None)
            tallies.append((pid, probe.key, tally(probe, voiced, note)))
            summary.stopped += note is not None
    save_tallies(db, VERSION, tallies)
    return summary


@dataclass
class ProbeSummary:
    """What the probe stage did: (sample, input) pairs answered (a copy of a program answers
    with its run), and inputs whose tally the budget stopped (fewer samples ran on them than
    pass the base tests)."""

    ran: int = 0
    stopped: int = 0


@dataclass
class _Plan:
    """The (sample, inputs) jobs to run, and what the budget left out before any ran."""

    todo: list[ProbeJob] = field(default_factory=list)
    asked: dict[int, int] = field(default_factory=dict)  # problem -> samples with a program
    problem_of: dict[int, int] = field(default_factory=dict)  # reply id -> problem id
    # (problem, input key) -> why some samples were not run on it (probe_budget's reasons)
    stopped: defaultdict[tuple[int, str], set[str]] = field(
        default_factory=lambda: defaultdict(set))


def _plan(inputs: dict[int, dict[str, ProbeInput]], voices: dict[int, list[BasePassing]],
          problems: dict[int, CodeProblem], done: dict[tuple[int, str], tuple[str, str]],
          limits: ProbeLimits) -> _Plan:
    """Each sample's inputs not run before, in reply order, until the problem's runs are all
    planned; the samples left out are recorded against the inputs they were not asked."""
    plan = _Plan()
    for pid, probes in inputs.items():
        problem, room = problems[pid], limits.runs
        plan.asked[pid] = 0
        for voice in voices[pid]:
            program = reply_program(voice.text, voice.form, problem)
            if program is None:
                continue
            plan.asked[pid] += 1
            missing = tuple(p for p in probes.values() if (voice.reply_id, p.key) not in done)
            taken = missing[:max(room, 0)]
            room -= len(taken)
            for left in missing[len(taken):]:
                plan.stopped[(pid, left.key)].add(RUNS_SPENT)
            if taken:
                plan.todo.append(ProbeJob(voice.reply_id, program, problem, taken))
                plan.problem_of[voice.reply_id] = pid
    return plan


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
