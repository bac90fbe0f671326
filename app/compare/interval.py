"""The change between two runs as an interval, from their trials, and a verdict in words.

Each run measured every direction as several trials (sbctune.measure.plans); a trial's mean is
one sample. The seconds inside one TCP test are strongly correlated and cannot be samples:
the old rule that treated them as independent called drift "beyond noise".

Method: Welch's t interval for the difference of two means,

    Δ = m₂ − m₁,   SE = √(s₁²/n₁ + s₂²/n₂),   Δ ± t(0.975, ν) · SE

with ν from Welch–Satterthwaite. The t quantile comes from sbctune.stats (a table, no scipy).

Verdict, with `floor` = the larger of 1 % of the first run's mean and the run-to-run spread
an A/A calibration measured for this Pi (when there is one):
  - the whole interval above +floor: "faster by LOW to HIGH Mbit/s" (below −floor: slower);
  - else, an interval narrower than ±10 % of the first run's mean that holds zero, or that
    lies within ±10 % altogether (a sure change below the floor): "no change detected". An
    interval of +2 to +142 at 736 is neither (bench_noise met one after a trial dipped);
  - else: "too noisy to tell: run the thorough plan".
Fewer than two trials on either side gives no interval and no verdict ("unknown").
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from typing import Literal

from sbctune.stats import MeanInterval, mean_interval, t975

__all__ = [
    "Change",
    "MeanInterval",
    "change",
    "mean_interval",
    "signed",
    "t975",
    "verdict_text",
    "welch",
]

ChangeVerdict = Literal["faster", "slower", "no_change", "too_noisy", "unknown"]

FLOOR_FRACTION = 0.01  # changes smaller than 1 % are not worth calling, however sure
NOISY_FRACTION = 0.10  # an interval wider than ±10 % of the figure tells nothing useful


@dataclass(frozen=True)
class Change:
    """The second run minus the first, with its 95 % interval and the verdict."""

    delta: float
    low: float
    high: float
    df: float
    floor: float
    verdict: ChangeVerdict

    @property
    def text(self) -> str:
        return verdict_text(self)


def welch(first: list[float], second: list[float]) -> tuple[float, float, float]:
    """(Δ, SE, ν) of Welch's t for mean(second) − mean(first); both need ≥ 2 values."""
    n1, n2 = len(first), len(second)
    v1 = statistics.variance(first) / n1
    v2 = statistics.variance(second) / n2
    delta = statistics.fmean(second) - statistics.fmean(first)
    se = math.sqrt(v1 + v2)
    if se == 0:
        return delta, 0.0, float(n1 + n2 - 2)
    df = (v1 + v2) ** 2 / (v1**2 / (n1 - 1) + v2**2 / (n2 - 1))
    return delta, se, df


def change(first: list[float], second: list[float], *, spread: float | None = None) -> Change:
    """The change from `first` to `second` (each a run's trial means). `spread`: the run-to-run
    difference an A/A calibration measured here, in Mbit/s, when there is one."""
    if len(first) < 2 or len(second) < 2:
        delta = statistics.fmean(second) - statistics.fmean(first) if first and second else 0.0
        return Change(delta, math.nan, math.nan, math.nan, math.nan, "unknown")
    delta, se, df = welch(first, second)
    half = t975(df) * se
    low, high = delta - half, delta + half
    base = abs(statistics.fmean(first))
    floor = max(FLOOR_FRACTION * base, spread or 0.0)
    verdict: ChangeVerdict
    if low > floor:
        verdict = "faster"
    elif high < -floor:
        verdict = "slower"
    elif half <= NOISY_FRACTION * base and (
        low <= 0 <= high or max(-low, high) <= NOISY_FRACTION * base
    ):
        verdict = "no_change"
    else:
        verdict = "too_noisy"
    return Change(delta, low, high, df, floor, verdict)


def signed(value: float, digits: int = 0) -> str:
    """A change with its sign and the typographic minus; one that rounds to zero has no sign
    ("0", not "−0" or "+0": the s17 walk read "no change detected (−0 to +1)")."""
    text = f"{value:+.{digits}f}"
    if float(text) == 0:
        return text[1:]
    return text.replace("-", "−")


def interval_digits(low: float, high: float) -> int:
    """Decimals that keep an interval's two ends apart, and a sure change's ends off zero:
    whole units, unless they round to one number (walk 18, a 100 Mbit/s Pi 1: "+0.1 Mbit/s
    (+0.1 %): no change detected (0 to 0)") or a change called sure reads "faster by 0"."""
    if low == high:  # truly no width (identical trials): nothing to keep apart
        return 0
    sure = low > 0 or high < 0
    for digits in (0, 1, 2):
        ends = signed(low, digits), signed(high, digits)
        zero = any(float(end.replace("−", "-")) == 0 for end in ends)
        if ends[0] != ends[1] and not (sure and zero):
            return digits
    return 2


def verdict_text(c: Change) -> str:
    """The verdict in words, always with the interval it rests on."""
    d = interval_digits(c.low, c.high)
    if c.verdict == "faster":
        return f"faster by {c.low:.{d}f} to {c.high:.{d}f} Mbit/s"
    if c.verdict == "slower":
        return f"slower by {-c.high:.{d}f} to {-c.low:.{d}f} Mbit/s"
    interval = f"{signed(c.low, d)} to {signed(c.high, d)}"
    if c.verdict == "no_change":
        return f"no change detected ({interval})"
    if c.verdict == "too_noisy":
        return f"too noisy to tell ({interval}): run the thorough plan"
    return "no interval: fewer than 2 trials"
