"""Every grader, one record each: its kind, version, order, description, evidence and vote.

A record here is the only place a grader's name and facts are written; the grading pipelines,
the queue rule, `explain`, the review app, the export and the report read them. The order of
`GRADERS` is the order graders are shown in. A math grader is `(text, key[, config]) ->
Verdict`, where text is the extracted answer (`reads="answer"`) or the whole reply
(`reads="reply"`); `isolated` ones can hang on pathological input and run in worker processes
with a hard timeout (`graders.math.engine`). Code graders are one sandboxed run that yields
both verdicts (`graders.code`). A verdict under a name not registered here was imported with
the replies (a harness's own grading: `--verdict-field`, Inspect scorers, lighteval metrics):
`GRADERS.imported(name)` is its record, a peer in the queue rule, and the rules for its name
are here too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Literal

from graders.named_registry import NamedRegistry
from graders.verdict import Verdict
from graders.versions import (
    EXACT_VERSION,
    FULL_VERSION,
    NORMALIZED_VERSION,
    SYMBOLIC_VERSION,
)

Kind = Literal["math", "code", "imported"]
# How a verdict counts in the queue rule (`graders.queue.disputes`): a `peer` is one vote among the
# reply's peers (disputed when they disagree, or none accepts); `base` and `extended` are the
# two test suites of a code sample (disputed when it passes base and fails extended).
Vote = Literal["peer", "base", "extended"]

# Evidence fields that may hold the answer / the key as a grader saw them, most specific
# first: what an unregistered (imported) grader is read with.
ANSWER_FORMS = ("pred_normalized", "answer_normalized", "answer_parsed", "pred_parsed", "answer",
                "pred", "prediction", "extracted")
KEY_FORMS = ("gold_normalized", "key_normalized", "key_parsed", "gold_parsed", "key", "gold",
             "target")

# An imported grader's name: it is stored in pattern ids (`grader=outcome,...`) and shown in
# every table, so no `=`, `,`, `/` or spaces; `reading` and `reading+edge` are the report's.
IMPORTED_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,39}")
NOT_IN_NAMES = re.compile(r"[^A-Za-z0-9_.-]+")
REPORT_COLUMNS = ("reading", "reading+edge")
HARNESS = "harness"  # the imported grader `--verdict-field F` names when given no name
IMPORTED_DESCRIPTION = "the harness's own verdict, imported with the replies"

# 2: numbers compare by value, CPU-time limits, stdlib dicts as dicts
# 3: HumanEval check() code judged as data on the host; a broken result channel is an error
# 4: the expected output for every first failure; its minimal form (`minimal`) when grading shrinks
# 5: samples run with string hashing pinned (PYTHONHASHSEED=0): set order no longer varies by run
CODE_VERSION = "5"


@dataclass(frozen=True)
class GraderSpec:
    """A grader: what it is, how it is shown and how its verdict counts."""

    name: str
    kind: Kind
    description: str  # one line saying what it measures (the report prints it)
    version: str | None = None  # None: the verdicts carry their source's version (imported)
    answer_fields: tuple[str, ...] = ANSWER_FORMS  # evidence: the answer as graded (first found)
    key_fields: tuple[str, ...] = KEY_FORMS  # evidence: the key as graded (first found)
    vote: Vote = "peer"
    reads: Literal["answer", "reply", "program"] = "answer"
    isolated: bool = False
    reads_question: bool = False  # `grade` takes the problem's statement after its config
    grade: Callable[..., Verdict] | None = None  # None: verdicts come from elsewhere
    # An isolated grader's verdict where it needs no checking process (no SymPy), taking what
    # `grade` takes and giving what `grade` gives, else None (`graders.math.first_look`)
    grade_plain: Callable[..., Verdict | None] | None = None

    def verdict(self, outcome: str, evidence: Mapping[str, Any],
                elapsed_ms: float = 0.0) -> Verdict:
        """A verdict under this grader's name and version."""
        return Verdict(self.name, self.version or "", outcome, evidence, elapsed_ms)

    def graded_forms(self, evidence: Mapping[str, Any]) -> tuple[str | None, str | None]:
        """The evidence fields holding (answer as graded, key as graded), None where absent."""
        return graded_forms(evidence, self.answer_fields, self.key_fields)


def graded_forms(evidence: Mapping[str, Any], answer_fields: tuple[str, ...] = ANSWER_FORMS,
                 key_fields: tuple[str, ...] = KEY_FORMS) -> tuple[str | None, str | None]:
    """The first of `answer_fields` and of `key_fields` present in the evidence (or None)."""
    return (next((f for f in answer_fields if f in evidence), None),
            next((f for f in key_fields if f in evidence), None))


def _loaded_on_first_use(module: str, name: str) -> Callable[..., Any]:
    """A grader whose module (SymPy, Math-Verify) is imported only when it first grades, so
    listing graders and their versions stays cheap (`adjudicate grade` with nothing to do)."""
    function: list[Callable[..., Any]] = []

    def grade(*args: Any, **kwargs: Any) -> Any:
        if not function:
            function.append(getattr(import_module(module), name))
        return function[0](*args, **kwargs)

    grade.__name__ = grade.__qualname__ = name
    grade.__doc__ = f"`{module}.{name}`, imported on first use."
    return grade


class GraderRegistry(NamedRegistry[GraderSpec]):
    """The registered graders, in display order."""

    def check(self, spec: GraderSpec) -> None:
        """Names imported verdicts take by default, or the report's columns, stay theirs."""
        if spec.name == HARNESS or spec.name in REPORT_COLUMNS:
            raise ValueError(f"grader name {spec.name!r} is reserved for imported verdicts or "
                             "the report")

    def spec(self, name: str) -> GraderSpec:
        """The registered grader `name`, or what a verdict imported under that name is."""
        return self[name] if name in self else self.imported(name)

    @staticmethod
    def imported(name: str) -> GraderSpec:
        """An imported grader (a harness's own verdicts): a peer in the queue rule, versioned
        by the file it came from, its answer and key read from whichever evidence names them."""
        return GraderSpec(name, "imported", IMPORTED_DESCRIPTION, vote="peer")

    def imported_name_problem(self, name: str) -> str | None:
        """Why `name` cannot name an imported verdict (a harness's grading), or None."""
        if name in self or name in REPORT_COLUMNS:
            return (f"{name!r} is already a grader or column of this tool; give the imported "
                    "verdicts another name")
        if not IMPORTED_NAME.fullmatch(name):
            return (f"{name!r} is not a grader name: up to 40 letters, digits, '_', '.' or '-', "
                    "starting with a letter or digit")
        return None

    def imported_name(self, name: str, source: str) -> str:
        """The name a harness's scorer or metric is stored under: characters names cannot hold
        replaced by '-', prefixed `SOURCE-` where it would be one of this tool's names (Inspect
        has an `exact` scorer too)."""
        cleaned = NOT_IN_NAMES.sub("-", name).strip("-.")[:40] or source
        if self.imported_name_problem(cleaned) is not None:
            cleaned = f"{source}-{cleaned}"[:40]
        return cleaned

    def of_kind(self, kind: Kind) -> tuple[GraderSpec, ...]:
        return tuple(spec for spec in self if spec.kind == kind)

    def voting(self, vote: Vote) -> tuple[GraderSpec, ...]:
        return tuple(spec for spec in self if spec.vote == vote)

    def first_voting(self, vote: Vote, names: Iterable[str]) -> str | None:
        """The first registered grader among `names` that votes `vote` (e.g. the extended
        tests of a code sample), or None."""
        present = set(names)
        return next((spec.name for spec in self.voting(vote) if spec.name in present), None)

    def versions(self, kind: Kind) -> dict[str, str]:
        """{name: version} of the graders of `kind` this program runs (what is current)."""
        return {spec.name: spec.version for spec in self.of_kind(kind) if spec.version}


_STRING = "graders.math.string_graders"
_SYMBOLIC = "graders.math.symbolic"
EXACT = GraderSpec(
    "exact", "math", "the extracted answer equals the key after trimming", EXACT_VERSION,
    ("answer",), ("key",), grade=_loaded_on_first_use(_STRING, "grade_exact"))
NORMALIZED = GraderSpec(
    "normalized", "math", "equal after the MATH repository's normalization", NORMALIZED_VERSION,
    ("answer",), ("key",), grade=_loaded_on_first_use(_STRING, "grade_normalized"))
SYMBOLIC = GraderSpec(
    "symbolic", "math", "Math-Verify (SymPy) on the extracted answer", SYMBOLIC_VERSION,
    ("answer",), ("key",), isolated=True, reads_question=True,
    grade=_loaded_on_first_use(_SYMBOLIC, "grade_symbolic"),
    grade_plain=_loaded_on_first_use("graders.math.first_look", "grade_symbolic_plain"))
MATHVERIFY_FULL = GraderSpec(
    "mathverify-full", "math", "Math-Verify with its own extraction on the whole reply",
    FULL_VERSION, ("answer_parsed",), ("key_parsed",), reads="reply", isolated=True,
    grade=_loaded_on_first_use(_SYMBOLIC, "grade_mathverify_full"))
BASE = GraderSpec("base", "code", "the original tests", CODE_VERSION, (), (), vote="base",
                  reads="program")
PLUS = GraderSpec("plus", "code", "the original and the extended tests", CODE_VERSION, (), (),
                  vote="extended", reads="program")

GRADERS = GraderRegistry("grader", (EXACT, NORMALIZED, SYMBOLIC, MATHVERIFY_FULL, BASE, PLUS))
