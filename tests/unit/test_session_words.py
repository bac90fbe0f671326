"""A tuning session as a user knows it (issue 22 walk): by when it was applied, never its id."""

from __future__ import annotations

import datetime as dt

from hypothesis import given
from hypothesis import strategies as st

from sbctune.wording import session_words


def test_a_session_reads_as_when_it_was_applied_in_local_time() -> None:
    local = dt.datetime(2026, 11, 28, 18, 0, tzinfo=dt.timezone.utc).astimezone()
    assert session_words("20261128T180000Z-3fa9c1") == f"tuning applied {local:%Y-%m-%d %H:%M}"
    assert session_words("20261128T180000Z-3fa9c1", day=False) == f"tuning applied at {local:%H:%M}"
    assert session_words("s1") == session_words(None) == "tuning applied earlier"
    assert session_words("20261399T180000Z-x") == "tuning applied earlier"  # no such month


@given(st.one_of(st.none(), st.text(max_size=80), st.integers()))
def test_garbage_is_words_never_a_crash_nor_the_garbage(value: object) -> None:
    words = session_words(value)
    assert words.startswith("tuning applied ") and len(words) < 40


def test_the_what_each_tweak_did_chart_names_tweaks_not_ids() -> None:
    """Walking the app: the chart under "The tuning" was labelled rps-rfs, socket-buffers."""
    from sbctune.compare.attribution import Contribution, Effect
    from sbctune.compare.waterfall import waterfall
    from tests.plain_words import jargon

    flat = Effect("Pi → PC one way", 2.0, -8.0, 12.0, "no_change", "no change detected")
    tweaks = ["rps-rfs", "cpu-governor-performance", "socket-buffers"]
    chart = waterfall([Contribution(t, 2, [flat]) for t in tweaks])
    assert not jargon(chart.to_svg()), jargon(chart.to_svg())
    assert "Receive packet steering (RPS)" in chart.to_svg()
