"""The options `review` and `queue` share to serve the queue in the recorded sample order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from adjudicate.sampling.allocation import ALLOCATIONS, DEFAULT_ALLOCATION
from adjudicate.sampling.audit import draw_audit
from adjudicate.sampling.order import DEFAULT_SEED, ensure_order
from adjudicate.words import plural
from db.store import Store

ORDER_HELP = ("review: replies you have not labeled first, problem by problem (the default); "
              "sample: a seeded random order, stratified by run, queue reason and verdicts, "
              "so that labels taken in it are a random sample the report can estimate from.")


def sample_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--order, --allocation, --seed, --reshuffle and --audit, in that order."""
    for option in reversed((
        click.option("--order", type=click.Choice(("review", "sample")), default="review",
                     show_default=True, help=ORDER_HELP),
        click.option("--allocation", type=click.Choice(ALLOCATIONS), default=None,
                     help=f"How the sample order spreads reads over strata: neyman (by size x "
                          "the spread its reads so far show, one reply of each first) or "
                          "proportional (by size). Recorded with the order; default "
                          f"{DEFAULT_ALLOCATION} for a new one. Changing it keeps the sample."),
        click.option("--seed", type=int, default=None,
                     help=f"Seed of the sample order when it is first drawn (default "
                          f"{DEFAULT_SEED}); a different seed later is refused without "
                          "--reshuffle."),
        click.option("--reshuffle", is_flag=True,
                     help="Draw a new sample order (labels taken so far stop counting as the "
                          "sample)."),
        click.option("--audit", type=click.IntRange(min=1), default=None, metavar="N",
                     help="Add N seeded random replies every grader accepted, per math run, to "
                          "the queue as audit items (needs --order sample)."),
    )):
        command = option(command)
    return command


def prepare_sample(db: Store, order: str, seed: int | None, reshuffle: bool,
                   audit: int | None, allocation: str | None = None) -> list[str]:
    """Draw the audit sample and record (or extend) the sample order; returns what was done."""
    if order != "sample":
        if audit is not None or reshuffle or seed is not None or allocation is not None:
            raise click.UsageError(
                "--seed, --reshuffle, --allocation and --audit apply to --order sample")
        return []
    done = []
    if audit is not None:
        added = draw_audit(db, audit, DEFAULT_SEED if seed is None else seed)
        total = sum(added.values())
        if total:
            done.append(f"Audit: added {total:,} unanimous repl{'y' if total == 1 else 'ies'} "
                        f"across {len(added)} run{'' if len(added) == 1 else 's'}.")
        else:
            done.append(f"Audit: no math run needs more (each holds {audit} audit items, or "
                        "has no reply every grader accepted); code runs are not audited.")
    state = ensure_order(db, seed, reshuffle=reshuffle, allocation=allocation)
    if state.created:
        done.append(f"Sample order drawn with seed {state.order.seed}, "
                    f"{state.order.allocation} allocation: {plural(state.added, 'reply')}.")
    elif state.added:
        done.append(f"Sample order (seed {state.order.seed}): "
                    f"{plural(state.added, 'newly queued reply', 'newly queued replies')} ranked.")
    return done
