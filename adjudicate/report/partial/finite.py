"""What reading the rest would settle: the full-read score of these very replies, and how many
more replies (in which strata) would narrow its uncertainty to a target.

For the replies as they are (problems fixed), a stratum's unread passes follow the Jeffreys
posterior predictive of its prefix: Beta-binomial(unread, passes + 1/2, fails + 1/2), which
shrinks to nothing as the stratum is read out (the finite-population correction). Known
readings (in the prefix or not) count as read: only the replies without a reading are drawn, so
every draw lies between every unread reply failing and every one passing. Prefix replies without
a reading are bounded (fail at the low end, pass at the high end), and a stratum with no sample
is bounded whole.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Effort
from ..stats import percentile, z_for

PRIOR = 0.5  # Jeffreys: Beta(1/2, 1/2) before anything is read
DRAWS = 2000  # posterior predictive draws for the full-read interval


@dataclass(frozen=True)
class StratumCounts:
    """A stratum as the full-read interval needs it."""

    size: int  # replies
    drawn: int  # prefix length
    respondents: int  # prefix replies with a reading
    passes: int  # of those, passing
    known_passes: int  # every passing reading in the stratum, prefix or not
    unknown: int  # replies without a reading

    @property
    def missing(self) -> int:
        return self.drawn - self.respondents

    @property
    def unread(self) -> int:
        """Replies outside the prefix without a reading: the only ones the share fills in."""
        return self.unknown - self.missing


def binomial(rng: random.Random, n: int, p: float) -> int:
    """A binomial draw: exact (waiting times between successes) when few successes are
    expected, else the normal approximation."""
    if n <= 0 or p <= 0.0:
        return 0
    if p >= 1.0:
        return n
    if p > 0.5:
        return n - binomial(rng, n, 1.0 - p)
    if n * p >= 25:
        value = round(rng.gauss(n * p, math.sqrt(n * p * (1.0 - p))))
        return min(n, max(0, value))
    log_miss = math.log1p(-p)
    successes, position = 0, 0
    while True:
        position += int(math.log(1.0 - rng.random()) / log_miss) + 1
        if position > n:
            return successes
        successes += 1


def full_read_interval(strata: Sequence[StratumCounts], fixed_passes: int, total: int, *,
                       seed: str, level: float = 0.95,
                       draws: int = DRAWS) -> tuple[float, float] | None:
    """The interval for the score every reply would get once read: fixed passes plus each
    stratum's passes, over `total` replies."""
    if total <= 0:
        return None
    rng = random.Random(f"{seed}:full-read")
    lows, highs = [], []
    floor = fixed_passes + sum(s.known_passes for s in strata)
    ceiling = floor + sum(s.unknown for s in strata)
    for _ in range(draws):
        low = high = fixed_passes
        for s in strata:
            if not s.respondents:
                low, high = low + s.known_passes, high + s.known_passes + s.unknown
                continue
            fails = s.respondents - s.passes
            share_low = rng.betavariate(s.passes + PRIOR, fails + s.missing + PRIOR)
            share_high = (rng.betavariate(s.passes + s.missing + PRIOR, fails + PRIOR)
                          if s.missing else share_low)
            low += s.known_passes + binomial(rng, s.unread, share_low)
            high += s.known_passes + s.missing + binomial(rng, s.unread, share_high)
        # half a reply of uniform jitter makes the count continuous (a mid-p percentile), so
        # an interval over a few unread replies does not collapse onto one count and leave the
        # point outside it; clamped to the bounds, which no draw may pass
        lows.append(min(max(low + rng.random() - 0.5, floor), ceiling) / total)
        highs.append(min(max(high + rng.random() - 0.5, floor), ceiling) / total)
    tail = (1.0 - level) / 2.0
    return percentile(sorted(lows), tail), percentile(sorted(highs), 1.0 - tail)


def half_width(strata: Sequence[StratumCounts], total: int, extra: Sequence[int],
               level: float = 0.95) -> float:
    """The full-read interval's half-width (normal approximation) once `extra[h]` more replies
    of stratum h are read, none of them skipped: sampling error without replacement, plus half
    the width the prefix's missing readings leave."""
    z = z_for(level)
    variance = 0.0
    bounded = 0.0
    for s, more in zip(strata, extra, strict=True):
        drawn = min(s.size, s.drawn + more)
        read = s.respondents + (drawn - s.drawn)
        if read <= 0:
            bounded += s.unknown / 2.0
            continue
        share = (s.passes + PRIOR) / (s.respondents + 2 * PRIOR)  # assumed to stay as read
        variance += s.size ** 2 * (1.0 - drawn / s.size) * share * (1.0 - share) / read
        bounded += s.missing * s.size / drawn / 2.0
    return (z * math.sqrt(variance) + bounded) / total


@dataclass(frozen=True)
class MoreToRead:
    """How many more replies would narrow the full-read uncertainty to the target."""

    per_stratum: tuple[int, ...]  # best allocation
    in_order: int | None  # reading on in the sample order instead (proportional)
    reachable: bool  # False: the missing readings alone keep it wider than the target


def more_to_read(strata: Sequence[StratumCounts], total: int, target: float = 0.01,
                 level: float = 0.95) -> MoreToRead:
    """The fewest more replies (greedily where they shrink the half-width most) that bring it to
    `target`; and how far to read on in the sample order for the same."""
    room = [s.size - s.drawn for s in strata]
    extra = [0] * len(strata)
    current = half_width(strata, total, extra, level)
    while current > target and any(r > e for r, e in zip(room, extra, strict=True)):
        step = max(1, sum(room) // 400)
        best, best_width = None, current
        for h in range(len(strata)):
            if extra[h] >= room[h]:
                continue
            trial = list(extra)
            trial[h] = min(room[h], extra[h] + step)
            width = half_width(strata, total, trial, level)
            if best is None or width < best_width:
                best, best_width = h, width
        assert best is not None
        extra[best] = min(room[best], extra[best] + step)
        current = best_width
    reachable = current <= target
    for h in range(len(strata)):  # undo the coarse steps' overshoot, one reply at a time
        while reachable and extra[h] > 0:
            extra[h] -= 1
            if half_width(strata, total, extra, level) > target:
                extra[h] += 1
                break
    in_order = None
    left = sum(room)
    if left:
        low, high = 0, left
        while low < high:  # the fewest n, spread in proportion to what each stratum has left
            middle = (low + high) // 2
            share = [round(middle * r / left) for r in room]
            if half_width(strata, total, share, level) <= target:
                high = middle
            else:
                low = middle + 1
        in_order = low if half_width(strata, total, [round(low * r / left) for r in room],
                                     level) <= target else None
    if reachable and in_order is not None and sum(extra) > in_order:
        # reading on in the order does it with fewer: that is the best known allocation
        extra = [round(in_order * r / left) for r in room]
    return MoreToRead(tuple(extra) if reachable else tuple(room), in_order, reachable)


EFFORT_TARGETS = (0.05, 0.02, 0.01)  # the precisions the effort table offers: +-5, 2, 1 points




def effort(strata: Sequence[StratumCounts], total: int, allocation: str,
           level: float = 0.95) -> tuple[Effort, ...]:
    """The effort table: for +-5, +-2 and +-1 points, the more reads the allocation in use
    needs (neyman: greedily where they cut the half-width most; proportional: reading on in
    the sample order). A stratum not read yet is assumed to pass half its replies (p = 1/2,
    the widest), which is all there is to go on before any read."""
    rows = []
    for target in EFFORT_TARGETS:
        advice = more_to_read(strata, total, target, level)
        if half_width(strata, total, [0] * len(strata), level) <= target:
            reads: int | None = 0
        elif allocation == "proportional":
            reads = advice.in_order
        else:
            reads = sum(advice.per_stratum) if advice.reachable else None
        rows.append(Effort(round(target * 100), reads))
    return tuple(rows)
