"""Every sample's base inputs run before any sample's plus inputs, and only passers go on.

Which samples run their plus inputs depends on their base outputs, so the choice may be made
only once every base job of the batch has ended: a plus job must never run while another
sample's base verdict is still open (it could tell that sample what it learnt). The order is
checked on the orchestration alone, with a recording runner; the sandbox side is covered by
grading tests through the real sandbox (`test_code_oracle.py`, `tests/grading`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from graders.code.set_phases import base_then_plus


@dataclass(frozen=True)
class Job:
    key: str
    part: str = "all"


@dataclass(frozen=True)
class Result:
    key: str
    verdicts: dict


def test_plus_jobs_start_only_after_every_base_job_has_ended() -> None:
    log: list[str] = []
    passes_base = {"b", "c"}

    def run(jobs: list[Job]) -> Iterator[Result]:
        for job in jobs:
            log.append(f"start {job.key} {job.part}")
        for job in jobs:
            log.append(f"end {job.key} {job.part}")
            if job.part == "base" and job.key in passes_base:
                yield Result(job.key, {"base": "accept"})
            else:
                yield Result(job.key, {"base": "?", "plus": job.part})

    advanced: list[int] = []
    results = list(base_then_plus([Job("a"), Job("b"), Job("c")], run, advanced.append))
    assert sorted(r.key for r in results) == ["a", "b", "c"]
    assert {r.key: r.verdicts["plus"] for r in results} == {"a": "base", "b": "plus",
                                                           "c": "plus"}
    last_base_end = max(i for i, line in enumerate(log) if line.endswith(" base"))
    first_plus = min(i for i, line in enumerate(log) if line.endswith(" plus"))
    assert last_base_end < first_plus, log
    assert not any(line.startswith("start a plus") for line in log)  # a failure runs no more
    assert advanced == [1, 1, 1]
