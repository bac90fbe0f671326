"""Student's t quantile and a mean's 95 % interval: the statistics both the measurement (its
extra trials) and the comparison of runs use, kept below both.

The t quantile comes from a table (the standard two-sided 95 % values for ν = 1…30, 40, 60,
120 and ∞), interpolated linearly in 1/ν between entries, which is within 0.2 % of the exact
quantile for ν ≥ 1 (no scipy needed).
"""

from __future__ import annotations

import math
import statistics
from bisect import bisect_left
from dataclasses import dataclass

# Two-sided 95 % quantiles of Student's t (any statistics table, e.g. NIST/SEMATECH
# e-Handbook 1.3.6.7.2).
_T975: tuple[tuple[float, float], ...] = (
    (1, 12.706), (2, 4.303), (3, 3.182), (4, 2.776), (5, 2.571), (6, 2.447), (7, 2.365),
    (8, 2.306), (9, 2.262), (10, 2.228), (11, 2.201), (12, 2.179), (13, 2.160), (14, 2.145),
    (15, 2.131), (16, 2.120), (17, 2.110), (18, 2.101), (19, 2.093), (20, 2.086), (21, 2.080),
    (22, 2.074), (23, 2.069), (24, 2.064), (25, 2.060), (26, 2.056), (27, 2.052), (28, 2.048),
    (29, 2.045), (30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980),
)  # fmt: skip
_T_INFINITY = 1.960


def t975(df: float) -> float:
    """The 97.5th percentile of Student's t with `df` degrees of freedom (df ≥ 1)."""
    if not df >= 1:  # also catches NaN
        return _T975[0][1]
    dfs = [d for d, _ in _T975]
    i = bisect_left(dfs, df)
    if i < len(dfs) and dfs[i] == df:
        return _T975[i][1]
    lo_df, lo_t = _T975[i - 1]
    hi_df, hi_t = _T975[i] if i < len(dfs) else (math.inf, _T_INFINITY)
    # Linear in 1/df: the quantile is very nearly linear in 1/df between table entries.
    x, x0, x1 = 1 / df, 1 / lo_df, (0.0 if hi_df == math.inf else 1 / hi_df)
    return hi_t + (lo_t - hi_t) * (x - x1) / (x0 - x1)


@dataclass(frozen=True)
class MeanInterval:
    """A run's figure from its trials: the mean and its 95 % interval half-width."""

    mean: float
    half_width: float
    trials: int


def mean_interval(trials: list[float]) -> MeanInterval | None:
    if len(trials) < 2:
        return None
    mean = statistics.fmean(trials)
    se = statistics.stdev(trials) / math.sqrt(len(trials))
    return MeanInterval(mean, t975(len(trials) - 1) * se, len(trials))
