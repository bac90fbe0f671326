"""`tune plan` shows values as people read them (the s13 walk: `net.ipv4.tcp_wmem:
'4096\\t16384\\t4194304' -> ...`, a Python repr with its escape characters)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.cli.tune_plan_text import plan_lines, value_words
from sbctune.textsafe import is_clean
from sbctune.tuning import catalog
from sbctune.tuning.model import Change, PlannedTweak, TuningPlan


def test_a_sysctl_with_tabs_reads_as_plain_fields() -> None:
    item = PlannedTweak(catalog.tweak("socket-buffers"), True, "buffers raised")
    item.changes.append(
        Change("sysctl", "net.ipv4.tcp_wmem", "4096\t16384\t4194304", "4096\t65536\t16777216")
    )
    item.changes.append(Change("sysctl", "net.core.rmem_max", "212992", "16777216"))
    text = "\n".join(plan_lines(TuningPlan("eth1", [item])))
    assert "  net.ipv4.tcp_wmem: 4096 16384 4194304 -> 4096 65536 16777216" in text
    assert "  net.core.rmem_max: 212992 -> 16777216" in text
    assert "\\t" not in text and "'" not in text


def test_missing_and_empty_values_are_named() -> None:
    assert value_words(None) == "(absent)"
    assert value_words("") == "(empty)"


@given(st.text(max_size=200))
def test_any_value_is_one_clean_line(value: str) -> None:
    shown = value_words(value)
    assert "\n" not in shown and is_clean(shown)
