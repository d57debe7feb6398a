"""Records with known labels -> the JSON report, checked against values computed here by
separate, plain code (Wilson by its quadratic, the bootstrap by its documented protocol)."""

from __future__ import annotations

import json
import math
import random
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from adjudicate.report import ScoredReply, build_report, render_json
from tests.present import present

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable


SEED, RESAMPLES, Z = 5, 400, 1.959963984540054
PROBLEMS = [f"q{i:02d}" for i in range(20)]


def truth(p: int, s: int) -> bool:
    return (p * 3 + s) % 5 != 0


def symbolic_accepts(p: int, s: int) -> bool:
    return truth(p, s) and (p + s) % 7 != 0  # never a false accept, some false rejects


def exact_accepts(p: int, s: int) -> bool:
    return symbolic_accepts(p, s) and p % 3 == 0


def known_records(unlabeled: tuple[str, ...] = ("q19",)) -> list[ScoredReply]:
    """Run r1: 20 problems x 3 samples; run r2: the same problems, one sample each. Every queued
    reply is labeled with its truth, except r1's replies to `unlabeled` (a partial queue)."""
    records = []
    rid = 0
    for run, samples in (("r1", 3), ("r2", 1)):
        for p, problem in enumerate(PROBLEMS):
            for s in range(samples):
                rid += 1
                shift = 0 if run == "r1" else 1  # r2 answers differently
                v = {"exact": exact_accepts(p, s + shift),
                     "symbolic": symbolic_accepts(p, s + shift)}
                queued = not all(v.values())
                labeled = queued and not (run == "r1" and problem in unlabeled)
                label = "correct" if truth(p, s + shift) else "incorrect"
                records.append(ScoredReply(
                    rid, run, "B", "math", problem, s,
                    {g: "accept" if ok else "reject" for g, ok in v.items()},
                    queued=queued, extraction_rule="boxed", answer="a", key="k",
                    labels={"ana": label} if labeled else {}))
    return records


def reading_of(record: ScoredReply) -> bool | None:
    if record.labels:
        return record.labels["ana"] == "correct"
    if record.queued:
        return None
    return all(v == "accept" for v in record.verdicts.values())


def wilson(x: int, n: int) -> tuple[float, float]:
    # the roots of (x/n - p)^2 = z^2 p (1 - p) / n, solved as a quadratic in p
    a = 1 + Z * Z / n
    b = -(2 * x / n + Z * Z / n)
    c = (x / n) ** 2
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def draws(n_units: int) -> list[list[int]]:
    rng = random.Random(f"{SEED}:B")
    return [rng.choices(range(n_units), k=n_units) for _ in range(RESAMPLES)]


def quantiles(values: list[float]) -> tuple[float, float]:
    values = sorted(values)

    def q(f: float) -> float:
        pos = f * (len(values) - 1)
        lo = int(pos)
        hi = min(lo + 1, len(values) - 1)
        return values[lo] + (values[hi] - values[lo]) * (pos - lo)

    return q(0.025), q(0.975)


def per_problem(records: Iterable[ScoredReply],
                outcome: Callable[[ScoredReply], bool | None]) -> tuple[list[int], list[int]]:
    num, den = [0] * len(PROBLEMS), [0] * len(PROBLEMS)
    for r in records:
        value = outcome(r)
        if value is not None:
            i = PROBLEMS.index(r.problem)
            den[i] += 1
            num[i] += int(value)
    return num, den


def boot_ratio(num: list[int], den: list[int]) -> tuple[float, float]:
    reps = []
    for drawn in draws(len(PROBLEMS)):
        d = sum(den[i] for i in drawn)
        if d:
            reps.append(sum(num[i] for i in drawn) / d)
    return quantiles(reps)


@pytest.fixture(scope="module")
def report() -> dict:
    return json.loads(render_json(build_report(known_records(), bootstrap=RESAMPLES, seed=SEED)))


@pytest.fixture(scope="module")
def full_report() -> dict:
    """Every queued reply read: the reading is a plain score with the problem bootstrap."""
    return json.loads(render_json(build_report(known_records(unlabeled=()), bootstrap=RESAMPLES,
                                               seed=SEED)))


def run_of(report: dict, name: str) -> dict:
    return next(r for r in report["runs"] if r["run"] == name)


def grader_of(run: dict, name: str) -> dict:
    return next(g for g in run["graders"] if g["grader"] == name)


def test_reading_scores_and_bootstrap_intervals_over_problems(full_report: dict) -> None:
    records = [r for r in known_records(unlabeled=()) if r.run == "r1"]
    num, den = per_problem(records, reading_of)
    score = grader_of(run_of(full_report, "r1"), "reading")["score"]
    assert score["successes"] == sum(num)
    assert score["n_replies"] == sum(den) == 60
    assert score["n_problems"] == 20
    assert score["value"] == pytest.approx(sum(num) / sum(den), abs=1e-6)
    assert score["method"] == "bootstrap"
    assert (score["low"], score["high"]) == pytest.approx(boot_ratio(num, den), abs=1e-6)
    assert run_of(full_report, "r1")["sample"] is None


def test_a_partial_queue_without_a_sample_order_gives_bounds_not_the_labeled_score(report: dict) -> None:
    # q19's 3 replies are queued and unlabeled, and no sample order was drawn: the reading is
    # bounded by those 3 wrong / right over all 60 replies, never the labeled 57 alone
    records = [r for r in known_records() if r.run == "r1"]
    known = sum(1 for r in records if reading_of(r))
    unread = sum(1 for r in records if reading_of(r) is None)
    assert unread == 3
    score = grader_of(run_of(report, "r1"), "reading")["score"]
    assert score["value"] is None and score["method"] == "bounds"
    assert (score["low"], score["high"]) == pytest.approx(
        (known / 60, (known + unread) / 60), abs=1e-6)
    assert (score["n_replies"], score["n_problems"]) == (60, 20)
    assert run_of(report, "r1")["sample"]["mode"] == "bounds"


@pytest.mark.parametrize("grader", ["exact", "symbolic"])
def test_agreement_false_accepts_and_rejects(full_report: dict, grader: str) -> None:
    records = [r for r in known_records(unlabeled=()) if r.run == "r1"]
    pairs = [(r.verdicts[grader] == "accept", reading_of(r)) for r in records]
    row = grader_of(run_of(full_report, "r1"), grader)["agreement"]
    assert row["agree"] == sum(g == t for g, t in pairs)
    assert row["false_accepts"] == sum(g and not t for g, t in pairs) == 0
    assert row["false_rejects"] == sum(bool(t) and not g for g, t in pairs)
    assert row["rate"]["n_replies"] == len(pairs)
    assert row["false_accept_rate"] is None  # counted exactly, nothing to estimate

    def agrees(r: ScoredReply) -> bool | None:
        t = reading_of(r)
        return None if t is None else (r.verdicts[grader] == "accept") == t

    expected = boot_ratio(*per_problem(records, agrees))
    assert (row["rate"]["low"], row["rate"]["high"]) == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("grader", ["exact", "symbolic"])
def test_partial_agreements_are_bounded_too(report: dict, grader: str) -> None:
    records = [r for r in known_records() if r.run == "r1"]
    read = [(r.verdicts[grader] == "accept", reading_of(r)) for r in records
            if reading_of(r) is not None]
    unread = [r.verdicts[grader] == "accept" for r in records if reading_of(r) is None]
    row = grader_of(run_of(report, "r1"), grader)["agreement"]
    agree = sum(g == t for g, t in read)
    assert row["agree"] == agree  # counted on the replies read
    assert row["rate"]["method"] == "bounds" and row["rate"]["value"] is None
    assert (row["rate"]["low"], row["rate"]["high"]) == pytest.approx(
        (agree / 60, (agree + len(unread)) / 60), abs=1e-6)
    fa = sum(g and not t for g, t in read)
    assert (row["false_accept_rate"]["low"], row["false_accept_rate"]["high"]) == pytest.approx(
        (fa / 60, (fa + sum(unread)) / 60), abs=1e-6)


def test_one_sample_per_problem_uses_wilson(report: dict) -> None:
    records = [r for r in known_records() if r.run == "r2"]
    for grader in ("exact", "symbolic"):
        x = sum(r.verdicts[grader] == "accept" for r in records)
        score = grader_of(run_of(report, "r2"), grader)["score"]
        assert score["method"] == "wilson"
        assert (score["successes"], score["n_replies"]) == (x, 20)
        assert (score["low"], score["high"]) == pytest.approx(wilson(x, 20), abs=1e-6)


def test_paired_grader_difference_and_mcnemar(report: dict) -> None:
    records = [r for r in known_records() if r.run == "r1"]
    sym, _ = per_problem(records, lambda r: r.verdicts["symbolic"] == "accept")
    exa, den = per_problem(records, lambda r: r.verdicts["exact"] == "accept")
    reps = [sum(sym[i] - exa[i] for i in d) / sum(den[i] for i in d) for d in draws(20)]
    row = next(d for d in run_of(report, "r1")["differences"]
               if (d["a"], d["b"]) == ("symbolic", "exact"))
    assert row["difference"]["value"] == pytest.approx((sum(sym) - sum(exa)) / sum(den), abs=1e-6)
    assert (row["difference"]["low"], row["difference"]["high"]) == pytest.approx(
        quantiles(reps), abs=1e-6)
    only_sym = sum(r.verdicts["symbolic"] == "accept" and r.verdicts["exact"] == "reject"
                   for r in records)
    assert (row["mcnemar"]["a_only"], row["mcnemar"]["b_only"]) == (only_sym, 0)
    assert row["mcnemar"]["p_value"] == pytest.approx(min(1.0, 2 / 2**only_sym), abs=1e-6)


def test_pass_at_k_uses_the_unbiased_estimator(report: dict) -> None:
    records = [r for r in known_records() if r.run == "r1"]
    num, den = per_problem(records, lambda r: r.verdicts["symbolic"] == "accept")
    rows = [p for p in run_of(report, "r1")["pass_at_k"] if p["grader"] == "symbolic"]
    assert [p["k"] for p in rows] == [1, 2, 3]
    for row in rows:
        k = row["k"]
        expected = sum(1 - math.comb(n - c, k) / math.comb(n, k) for c, n in zip(num, den,
                                                                                   strict=True))
        assert row["estimate"]["value"] == pytest.approx(expected / 20, abs=1e-6)


def test_queue_progress_flags_a_partial_queue(report: dict) -> None:
    queue = run_of(report, "r1")["queue"]
    records = [r for r in known_records() if r.run == "r1"]
    queued = [r for r in records if r.queued]
    assert queue["total"] == len(queued)
    assert queue["unlabeled"] == sum(1 for r in queued if not r.labels) == 3
    assert queue["partial"] is True and report["partial"] is True
    assert any(note.startswith("PARTIAL") for note in report["notes"])
    num, den = per_problem(records, reading_of)
    assert queue["reading_if_unresolved_wrong"] == pytest.approx(sum(num) / 60, abs=1e-6)
    assert queue["reading_if_unresolved_right"] == pytest.approx((sum(num) + 3) / 60, abs=1e-6)


def test_run_differences_pair_problems_and_use_mcnemar_only_when_single_sample() -> None:
    base = known_records()
    # r3: r2's replies with q00 dropped and symbolic flipped on q01; r2 vs r3 pairs 19 problems
    r3 = [replace(r, reply_id=r.reply_id + 1000, run="r3",
                  verdicts=r.verdicts | ({"symbolic": "reject"} if r.problem == "q01" else {}))
          for r in base if r.run == "r2" and r.problem != "q00"]
    report = build_report(base + r3, bootstrap=50, seed=SEED)
    by = {(d.run_a, d.run_b, d.grader): d for d in report.run_differences}
    # later run minus earlier run (import order: r1, r2, r3), every pair once
    assert {(a, b) for a, b, _ in by} == {("r2", "r1"), ("r3", "r1"), ("r3", "r2")}
    r3_r2 = by[("r3", "r2", "symbolic")]
    assert r3_r2.difference.n_problems == 19
    q01 = next(r for r in base if r.run == "r2" and r.problem == "q01")
    flipped = q01.verdicts["symbolic"] == "accept"
    mcnemar = present(r3_r2.mcnemar)
    assert (mcnemar.a_only, mcnemar.b_only) == (0, int(flipped))
    assert r3_r2.difference.value == pytest.approx(-int(flipped) / 19)
    # r1 has three samples per problem: no McNemar between r1 and r2, and it says why
    r2_r1 = by[("r2", "r1", "symbolic")]
    assert r2_r1.mcnemar is None and "one sample per problem" in (r2_r1.note or "")


def test_runs_and_benchmarks_come_in_import_order() -> None:
    # reply ids say what was imported first, whatever the names sort as
    records = [ScoredReply(i, run, bench, "math", "p", 0, {"exact": "accept"})
               for i, (run, bench) in enumerate([("zeta", "M"), ("alpha", "M"), ("beta", "A")])]
    report = build_report(records, bootstrap=20)
    assert [(r.benchmark, r.run) for r in report.runs] == [("M", "zeta"), ("M", "alpha"),
                                                           ("A", "beta")]
    assert [(d.run_a, d.run_b) for d in report.run_differences] == [("alpha", "zeta")] * 2


def test_bad_key_excludes_its_problem_everywhere_and_lists_it() -> None:
    records = known_records()
    flagged = next(r for r in records if r.run == "r1" and r.problem == "q05" and r.queued)
    records = [replace(r, labels={"ana": "bad_key"}) if r is flagged else r for r in records]
    report = build_report(records, bootstrap=20)
    assert [(b.problem, b.flagged_replies, b.replies_excluded) for b in report.bad_keys] == [
        ("q05", (flagged.reply_id,), 4)]  # 3 replies in r1 + 1 in r2
    for run in report.runs:
        assert run.n_problems == 19
        assert all(g.score.n_problems <= 19 for g in run.graders)


def test_edge_cases_option_and_pass_k_choice() -> None:
    records = [
        ScoredReply(i, "c", "HE", "code", f"t{i // 2}", i % 2,
                    {"base": "accept", "plus": "reject"}, queued=True, labels={"ben": label})
        for i, label in enumerate(["edge_case", "bug", "reference_quirk", "edge_case"])
    ]
    plain = build_report(records, bootstrap=20)
    assert [g.grader for g in plain.runs[0].graders] == ["base", "plus", "reading"]
    assert plain.runs[0].graders[2].score.successes == 1
    edge = build_report(records, bootstrap=20, edge_cases_pass=True, pass_k=[2])
    assert [g.grader for g in edge.runs[0].graders] == ["base", "plus", "reading",
                                                        "reading+edge"]
    assert edge.runs[0].graders[3].score.successes == 3
    assert {p.k for p in edge.runs[0].pass_at_k} == {2}


@pytest.mark.parametrize(
    "records",
    [
        # the same reply twice would be counted twice
        [ScoredReply(1, "r", "B", "math", "p", 0, {}),
         ScoredReply(1, "r", "B", "math", "q", 0, {})],
        # one benchmark cannot hold both kinds
        [ScoredReply(1, "r", "B", "math", "p", 0, {}),
         ScoredReply(2, "r", "B", "code", "q", 0, {})],
    ],
)
def test_build_report_refuses_inconsistent_input(records: list) -> None:
    with pytest.raises(ValueError):
        build_report(records)
