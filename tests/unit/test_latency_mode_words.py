"""The latency tables name a test's mode in the window's words (the s12 walk: the Markdown and
HTML reports' latency table said "Pi → PC (half duplex)" under a throughput table saying "One
way", and a comparison said "Both (full duplex)")."""

from __future__ import annotations

import re

from sbctune.compare.latency import ROW_LABEL as COMPARE_LABEL
from sbctune.measure.latency.report import row
from sbctune.measure.latency.stats import KEYS, LatencyResult, RttStats
from sbctune.wording import MODE_WORDS

DUPLEX = re.compile(r"\b(?:half|full)\b", re.I)


def _result(key: str) -> LatencyResult:
    stats = RttStats.of([1.0] * 20)
    return LatencyResult(key, stats, stats)


def test_report_rows_say_one_way_and_both_ways() -> None:
    labels = {key: row(_result(key))[0] for key in KEYS}
    assert labels["half/pi_to_pc"] == f"Pi → PC, {MODE_WORDS['half'].lower()}"
    assert labels["half/pc_to_pi"] == f"PC → Pi, {MODE_WORDS['half'].lower()}"
    assert labels["full"] == MODE_WORDS["full"]
    assert labels["full_throttled"] == MODE_WORDS["full_throttled"]
    assert not [label for label in labels.values() if DUPLEX.search(label)]


def test_comparison_rows_say_both_ways() -> None:
    assert COMPARE_LABEL["full"] == MODE_WORDS["full"]
    assert COMPARE_LABEL["full_throttled"] == MODE_WORDS["full_throttled"]
    assert not [label for label in COMPARE_LABEL.values() if DUPLEX.search(label)]


def test_verdicts_name_the_load_without_duplex() -> None:
    from sbctune.measure.latency.stats import LOAD_WORDS

    assert not [words for words in LOAD_WORDS.values() if re.search(r"duplex|throttled", words)]
