"""The bootstrap over problems: resample problems (never samples), many statistics per pass.

Protocol (documented so results can be reproduced independently): the units are a fixed,
ordered list of problems; `random.Random(seed)` draws each replicate as
`rng.choices(units, k=len(units))` (problems with replacement); every statistic is a ratio
(sum of a numerator series) / (sum of a denominator series) over the drawn problems, so a
problem with several samples carries them all (a sample-weighted mean). Replicates whose
denominator is 0 are dropped. Intervals are percentile intervals (linear interpolation).

Speed: all integer series of one bootstrap are packed into one Python integer per problem
(byte-aligned fields), so a replicate costs one `choices` and one `sum`, whatever the number
of statistics.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from .stats import percentile_interval

FIXED_POINT = 2**32  # scale for fractional per-problem values (pass@k) packed as integers


class ProblemBootstrap:
    """Collect per-problem integer series, then resample problems and sum every series."""

    def __init__(self, n_units: int) -> None:
        self.n_units = n_units
        self._series: list[tuple[int, ...]] = []
        self._ids: dict[tuple[int, ...], int] = {}

    def add(self, values: Sequence[int]) -> int:
        """Register one series (a non-negative int per problem); returns its id (deduplicated)."""
        series = tuple(int(v) for v in values)
        if len(series) != self.n_units:
            raise ValueError(f"series has {len(series)} values for {self.n_units} problems")
        if any(v < 0 for v in series):
            raise ValueError("series values must be non-negative")
        if series not in self._ids:
            self._ids[series] = len(self._series)
            self._series.append(series)
        return self._ids[series]

    def run(self, resamples: int, seed: int | str, *, extra: Sequence[Sequence[int]] = (),
            each: Callable[[list[int]], None] | None = None) -> list[list[int]]:
        """Sums of every series in each replicate: result[series_id][replicate]. Each
        replicate's sums of the `extra` series, over the same drawn problems, go to `each`."""
        sums: list[list[int]] = [[] for _ in self._series]
        mine = len(self._series)
        for replicate in replicate_sums([*self._series, *extra], self.n_units, resamples, seed):
            for field_sums, value in zip(sums, replicate[:mine], strict=True):
                field_sums.append(value)
            if each is not None:
                each(replicate[mine:])
        return sums


def replicate_sums(series: Sequence[Sequence[int]], n_units: int, resamples: int,
                   seed: int | str) -> Iterator[list[int]]:
    """Each replicate's sum of every series over the problems it draws: `Random(seed)` draws
    `choices(units, k=len(units))` per replicate (the protocol above), so every bootstrap of a
    benchmark seeded alike draws the same problems; identical series are packed once."""
    if not series or n_units == 0:
        return
    distinct: dict[tuple[int, ...], int] = {}
    fields = [distinct.setdefault(tuple(values), len(distinct)) for values in series]
    packing = PackedSeries(list(distinct), n_units)
    rng = random.Random(seed)
    for _ in range(resamples):
        sums = packing.unpack(sum(rng.choices(packing.packed, k=n_units)))
        yield [sums[field] for field in fields]


class PackedSeries:
    """Integer series packed into one Python integer per problem (byte-aligned fields), so the
    sums of every series over a replicate's drawn problems cost one `sum`."""

    def __init__(self, series: Sequence[Sequence[int]], n_units: int) -> None:
        widths = [_field_bytes(max(s, default=0), n_units) for s in series]
        self.offsets = [0]
        for width in widths:
            self.offsets.append(self.offsets[-1] + width)
        self.packed = [0] * n_units
        for values, offset in zip(series, self.offsets, strict=False):
            shift = offset * 8
            for unit, value in enumerate(values):
                if value:
                    self.packed[unit] += value << shift

    def unpack(self, total: int) -> list[int]:
        """The per-series sums held in a sum of packed values."""
        buffer = total.to_bytes(self.offsets[-1], "little")
        return [int.from_bytes(buffer[start:end], "little")
                for start, end in zip(self.offsets, self.offsets[1:], strict=False)]


def _field_bytes(max_value: int, n_units: int) -> int:
    """Bytes one field needs so that n_units draws of max_value never overflow into the next."""
    return max(1, ((max_value * n_units).bit_length() + 7) // 8)


def ratio_replicates(num: Sequence[int], den: Sequence[int], *, scale: int = 1) -> list[float]:
    """Per-replicate ratios num/den (divided by `scale`), dropping replicates with den 0."""
    return [n / d / scale for n, d in zip(num, den, strict=True) if d]


def difference_replicates(
    num_a: Sequence[int],
    den_a: Sequence[int],
    num_b: Sequence[int],
    den_b: Sequence[int],
    *,
    scale_a: int = 1,
    scale_b: int = 1,
) -> list[float]:
    """Per-replicate differences of two ratios on the same drawn problems (a paired bootstrap)."""
    return [
        na / da / scale_a - nb / db / scale_b
        for na, da, nb, db in zip(num_a, den_a, num_b, den_b, strict=True)
        if da and db
    ]


def interval(replicates: Sequence[float], level: float = 0.95) -> tuple[float, float] | None:
    """Percentile interval of replicates, or None when there are none."""
    if not replicates:
        return None
    return percentile_interval(replicates, level)
