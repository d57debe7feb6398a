"""Grade code replies: expected outputs (cached), self-check, sandboxed runs, the code queue."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from sqlite_utils import Database

from adjudicate.grading.executor import Executor, LocalExecutor
from adjudicate.grading.probe_stage import probe_failing_inputs
from adjudicate.grading.requeue import with_imported
from adjudicate.grading.shrink_stage import shrink_failures
from db.code_evidence import SCOPES, failures_to_shrink
from db.grading import (
    GradedReply,
    QueueEntry,
    QueueMarks,
    ReplyToGrade,
    cached_reference_outputs,
    failed_selfchecks,
    replies_to_grade,
    save_reference_outputs,
    save_selfcheck,
    selfchecked_problems,
    store_batch,
)
from db.probes import untallied_problems
from db.problems import get_problem
from graders.code import (
    CodeGradeConfig,
    CodeJob,
    CodeProblem,
    ExpectedOutputs,
    SandboxConfig,
    assemble_program,
    extract_program,
)
from graders.code.copies import Copies
from graders.code.evidence import build_verdicts
from graders.code.expected import VERSION as EXPECTED_VERSION
from graders.code.minimal import DEFAULT_SHRINK, ShrinkLimits
from graders.code.probe_budget import DEFAULT_PROBE, ProbeLimits
from graders.code.probes import VERSION as PROBE_VERSION
from graders.progress import Advance, Stage
from graders.queue.disputes import code_dispute
from graders.registry import GRADERS, PLUS
from graders.verdict import ACCEPT, Extraction, Verdict

COMMIT_EVERY = 50  # samples per transaction: a killed run keeps everything before it
CHUNK = 2000  # samples whose programs are held at once (whole problems: may be more)
SELFCHECK_VERSION = f"{PLUS.version}/{EXPECTED_VERSION}"


@dataclass
class CodeSummary:
    """What one `grade` run did to the code replies."""

    graded: int = 0
    queued: int = 0
    problems: int = 0
    # (problem as "benchmark task_id", what failed, the self-check's issues)
    selfcheck_failures: list[tuple[str, str, list[str]]] = field(default_factory=list)
    unusable: list[tuple[str, str]] = field(default_factory=list)  # (problem, why): not graded
    probed: int = 0  # (sample, failing input) pairs answered to show what the other samples did
    shrunk: int = 0  # failing samples given their minimal failing input
    probes_stopped: int = 0  # failing inputs on which the probe budget stopped some samples


def code_problem(row: dict[str, Any]) -> CodeProblem:
    """Rebuild the grader's problem from a stored row (EvalPlus fields, or HumanEval's check)."""
    return CodeProblem.from_fields(row["task_id"], row["statement"], row["reference"] or "",
                                   row["entry_point"] or "", row["tests"])


def problem_name(row: dict[str, Any]) -> str:
    """How messages name a problem: task ids repeat across benchmarks, so both are given."""
    return f"{row['benchmark']} {row['task_id']}"


def grade_code_replies(
    db: Database, *, jobs: int = 2, run: str | None = None,
    on_stage: Stage | None = None, on_progress: Advance | None = None,
    unsafe_no_isolation: bool = False, shrink: ShrinkLimits | None = DEFAULT_SHRINK,
    executor: Executor | None = None, evidence: str = "queued",
    probe: ProbeLimits = DEFAULT_PROBE,
) -> CodeSummary:
    """Grade every code reply missing a current base/plus verdict; resumable batch by batch.

    Problems are keyed by their row id throughout (never by task id, which two benchmarks may
    share). A reply or problem the grader fails on gets `error` verdicts; the rest go on.
    Where the kernel refuses the sandbox's namespaces, `IsolationUnavailable` is raised before
    anything is stored, unless `unsafe_no_isolation` allows running samples without them.
    Each failing sample records its first failing input; then, for the failing samples in
    `evidence` ("queued", "all" or "none"), that input is shrunk within `shrink` (None: not
    shrunk) in a stage of its own, and the other base-passing samples of a problem are run on
    its queued failing inputs within `probe` (not with "none").
    The sandboxes run where `executor` puts them (default: `jobs` on this machine); only this
    process writes to the store.
    """
    if evidence not in SCOPES:
        raise ValueError(f"evidence must be one of {', '.join(SCOPES)}, not {evidence!r}")
    config = CodeGradeConfig(sandbox=SandboxConfig(unsafe_no_isolation=unsafe_no_isolation),
                             probe=probe)
    todo = replies_to_grade(db, "code", GRADERS.versions("code"), run)
    summary = CodeSummary()
    problems: dict[int, CodeProblem] = {}
    _build_problems(db, problems, {r.problem_id for r in todo}, summary)
    todo = [r for r in todo if r.problem_id in problems]
    summary.problems = len(problems)
    executor = executor or LocalExecutor(jobs)
    expected: dict[int, ExpectedOutputs] = {}
    if todo:
        expected = _expected_outputs(db, problems, executor, on_stage, on_progress, config)
        _grade(db, todo, problems, expected, executor, config, summary, on_stage, on_progress)
    if evidence != "none":
        _evidence(db, problems, expected, executor, replace(config, shrink=shrink), evidence,
                  run, summary, on_stage, on_progress)
    return summary


def _build_problems(db: Database, problems: dict[int, CodeProblem], wanted: set[int],
                    summary: CodeSummary) -> None:
    """Add the wanted problems not built yet; one that cannot be built is reported."""
    told = {name for name, _ in summary.unusable}
    for pid in sorted(wanted - problems.keys()):
        row = get_problem(db, pid)
        try:
            problems[pid] = code_problem(row)
        except Exception as exc:  # a problem we cannot build is reported (once), not a crash
            if problem_name(row) not in told:
                summary.unusable.append((problem_name(row), f"{type(exc).__name__}: {exc}"))


def _evidence(db: Database, problems: dict[int, CodeProblem],
              expected: dict[int, ExpectedOutputs], executor: Executor, config: CodeGradeConfig,
              scope: str, run: str | None, summary: CodeSummary, on_stage: Stage | None,
              on_progress: Advance | None) -> None:
    """After the verdicts: minimal inputs for the failing samples in `scope` that lack one,
    then the other samples on the queued failing inputs of every problem that needs it."""
    graded = set(problems)
    if config.shrink is not None:
        failures = failures_to_shrink(db, scope, run)
        _build_problems(db, problems, {f.problem_id for f in failures}, summary)
        summary.shrunk = shrink_failures(db, failures, problems, executor, config, on_stage,
                                         on_progress)
        graded |= {f.problem_id for f in failures}
    wanted = graded | untallied_problems(db, PROBE_VERSION)
    _build_problems(db, problems, wanted, summary)
    probing = {pid: problems[pid] for pid in sorted(wanted) if pid in problems}
    missing = {pid: problem for pid, problem in probing.items() if pid not in expected}
    if missing:
        expected.update(_expected_outputs(db, missing, executor, on_stage, on_progress, config))
    probed = probe_failing_inputs(db, probing, expected, executor, config, on_stage,
                                  on_progress)
    summary.probed, summary.probes_stopped = probed.ran, probed.stopped


def _grade(db: Database, todo: list[ReplyToGrade], problems: dict[int, CodeProblem],
           expected: dict[int, ExpectedOutputs], executor: Executor, config: CodeGradeConfig,
           summary: CodeSummary, on_stage: Stage | None, on_progress: Advance | None) -> None:
    """Every verdict with its first failing input (no shrinking), stored batch by batch."""
    _selfcheck(db, problems, expected, executor, summary, on_stage, on_progress, config)
    if on_stage:
        on_stage("Grading code replies", len(todo))
    for chunk in _chunks(todo, problems):
        _grade_chunk(db, chunk, problems, expected, executor, config, summary, on_progress)


def _chunks(todo: list[ReplyToGrade], problems: dict[int, CodeProblem],
            ) -> Iterator[list[ReplyToGrade]]:
    """Whole problems, heaviest first, about CHUNK samples at a time: only one chunk's
    programs are held at once, however many samples there are."""
    by_problem: dict[int, list[ReplyToGrade]] = {}
    for reply in todo:
        by_problem.setdefault(reply.problem_id, []).append(reply)
    order = sorted(by_problem, key=lambda pid: (-len(problems[pid].suite.payload),
                                                problems[pid].task_id))
    chunk: list[ReplyToGrade] = []
    for pid in order:
        chunk += by_problem.pop(pid)
        if len(chunk) >= CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _grade_chunk(db: Database, todo: list[ReplyToGrade], problems: dict[int, CodeProblem],
                 expected: dict[int, ExpectedOutputs], executor: Executor,
                 config: CodeGradeConfig, summary: CodeSummary,
                 on_progress: Advance | None) -> None:
    jobs_list = []
    extractions: dict[int, tuple[ReplyToGrade, Extraction]] = {}
    copies: Copies[int] = Copies()
    unextracted: list[tuple[ReplyToGrade, Any, dict]] = []
    for reply in todo:
        problem = problems[reply.problem_id]
        kind = "completion" if reply.form == "completion" else "auto"
        try:
            extraction = extract_program(reply.text, problem.entry_point, kind)
            program = assemble_program(extraction, problem.statement)
        except Exception as exc:  # this reply's error verdict, never the run's crash
            unextracted.append((reply, None, _error_verdicts(
                problem, f"program extraction failed: {type(exc).__name__}: {exc}")))
            continue
        extractions[reply.reply_id] = (reply, extraction)
        if copies.runs(reply.reply_id, reply.problem_id, program):
            jobs_list.append(CodeJob(reply.reply_id, program, problem,
                                     expected[reply.problem_id]))
    _store(db, unextracted, summary)
    if on_progress and unextracted:
        on_progress(len(unextracted))
    batch: list[tuple[ReplyToGrade, Any, dict]] = []
    try:
        for result in executor.grade_code(jobs_list, config, on_progress):
            reply, extraction = extractions.pop(result.key)
            batch.append((reply, extraction, result.verdicts))
            for copy in copies.of(result.key):
                batch.append((*extractions.pop(copy), _as_copy(result.verdicts, reply)))
            if on_progress and copies.of(result.key):
                on_progress(len(copies.of(result.key)))
            if len(batch) >= COMMIT_EVERY:
                _store(db, batch, summary)
                batch = []
    finally:  # also on Ctrl-C: every sample graded so far is kept
        _store(db, batch, summary)


def _as_copy(verdicts: dict[str, Verdict], ran: ReplyToGrade) -> dict[str, Verdict]:
    """A copy's verdicts: those of the reply whose identical program ran, saying so."""
    return {name: replace(v, evidence={**v.evidence, "same_program_as_reply": ran.reply_id})
            for name, v in verdicts.items()}


def _error_verdicts(problem: CodeProblem, reason: str) -> dict[str, Verdict]:
    """base and plus `error` verdicts for a reply the grader could not run."""
    return build_verdicts(None, 0, 0, len(problem.base), len(problem.tests), 0.0, error=reason)


def _expected_outputs(
    db: Database, problems: dict[int, CodeProblem], executor: Executor, on_stage: Stage | None,
    on_progress: Advance | None, config: CodeGradeConfig,
) -> dict[int, ExpectedOutputs]:
    """Expected outputs from the database cache, computing (and caching) the missing ones."""
    cached = cached_reference_outputs(db, problems, str(EXPECTED_VERSION))
    expected = {pid: ExpectedOutputs.from_json(payload) for pid, payload in cached.items()}
    missing = {pid: problems[pid] for pid in problems if pid not in expected}
    if missing:
        if on_stage:
            on_stage("Running reference solutions", len(missing))
        for pid, outputs in executor.expected_outputs(missing, config, on_progress):
            if not outputs.missing:  # a sandbox failure is retried next run, not cached
                save_reference_outputs(db, pid, str(EXPECTED_VERSION), outputs.to_json())
            expected[pid] = outputs
    return expected


def _selfcheck(
    db: Database, problems: dict[int, CodeProblem], expected: dict[int, ExpectedOutputs],
    executor: Executor, summary: CodeSummary, on_stage: Stage | None, on_progress: Advance | None,
    config: CodeGradeConfig,
) -> None:
    """Check each problem's reference passes and a stub fails, once per checker version."""
    done = selfchecked_problems(db, SELFCHECK_VERSION)
    todo = {pid: (problems[pid], expected[pid]) for pid in problems if pid not in done}
    if todo:
        if on_stage:
            on_stage("Self-checking references and stubs", len(todo))
        for pid, result in executor.selfcheck(todo, config, on_progress):
            reference_passes = all(v.outcome == ACCEPT for v in result.reference.values())
            stub_fails = all(v.outcome != ACCEPT for v in result.stub.values())
            save_selfcheck(db, pid, SELFCHECK_VERSION, reference_passes, stub_fails,
                           {"issues": result.issues,
                            "summary": "; ".join(result.issues)[:300]})
    for failure in failed_selfchecks(db):
        if failure["problem_id"] in problems:
            summary.selfcheck_failures.append(
                (problem_name(failure),
                 "its reference fails its own tests" if not failure["reference_passes"]
                 else "a `return None` stub passes its tests",
                 failure["details"].get("issues", [])))


def _store(db: Database, batch: list, summary: CodeSummary) -> None:
    if not batch:
        return
    marks = store_batch(db, [GradedReply(reply.reply_id, extraction, list(verdicts.values()))
                             for reply, extraction, verdicts in batch],
                        lambda: _queue_marks(db, batch))
    summary.graded += len(batch)
    summary.queued += len(marks.entries)


def _queue_marks(db: Database, batch: list) -> QueueMarks:
    """The dispute rule over each sample's fresh verdicts and those imported with it."""
    entries = []
    voting = with_imported(db, {reply.reply_id: dict(verdicts) for reply, _, verdicts in batch})
    for reply, _extraction, _verdicts in batch:
        dispute = code_dispute(voting[reply.reply_id], reply.benchmark, reply.task_id)
        if dispute is not None:
            entries.append(QueueEntry(reply.reply_id, "code", dispute.reason, dispute.group_key,
                                      dispute.suggested_label, dispute.pattern.id))
    return QueueMarks([reply.reply_id for reply, _, _ in batch], entries)
