"""The s11 walk (pi4-rtl8153, 800 x 600) read "−0.5 Mbit/s (−0.0 %)" and "no change in latency
(-0.0 ms)" in the Results table: a change that rounds to zero has no sign."""

from __future__ import annotations

from sbctune.compare.latency import LatencyCell, change_text
from sbctune.ui.units import change


def test_a_percentage_that_rounds_to_zero_has_no_sign() -> None:
    assert change(950.4, 950.1, "Mbit/s") == "−0.3 Mbit/s (0.0 %)"
    assert change(100.0, 100.0, "Mbit/s") == "+0.0 Mbit/s (0.0 %)"
    assert change(736.0, 832.3, "Mbit/s") == "+96.3 Mbit/s (+13.1 %)"
    assert change(832.3, 736.0, "Mbit/s") == "−96.3 Mbit/s (−11.6 %)"


def _cell(delta_ms: float) -> LatencyCell:
    return LatencyCell(4.8, 5.4, 9.0, "A+", "", delta_ms=delta_ms)


def test_a_latency_change_that_rounds_to_zero_has_no_sign() -> None:
    assert change_text(_cell(-0.04)) == "no change in latency (0.0 ms)"
    assert change_text(_cell(-0.4)) == "no change in latency (−0.4 ms)"
    assert change_text(_cell(0.3)) == "no change in latency (+0.3 ms)"


def test_every_change_in_a_report_has_the_same_minus_sign() -> None:
    """The s12 walk's Markdown: "-2 Mbit/s (-0.2 %), no change detected (−6 to +3)" and
    "no change in latency (-0.1 ms)"."""
    from sbctune.compare.model import Cell
    from sbctune.export.tables import change_text as report_change

    cell = Cell(None, delta_mbps=-1.67, delta_pct=-0.18, verdict="no_change",
                verdict_text="no change detected (−6 to +3)")  # fmt: skip
    text = report_change(cell)
    assert text == "−2 Mbit/s (−0.2 %), no change detected (−6 to +3)"
    assert "-" not in change_text(_cell(-0.1)) + change_text(_cell(-6.0))


def test_an_interval_end_that_rounds_to_zero_has_no_sign() -> None:
    """The s17 walk (Pi 5 macb) read "no change detected (−0 to +1)" in the change column:
    an end that rounds to zero reads "0", in throughput, latency and UDP changes alike."""
    from sbctune.compare.interval import Change, verdict_text
    from sbctune.compare.latency import interval_text
    from sbctune.compare.model import Cell
    from sbctune.compare.udp import UdpCell, UdpRow
    from sbctune.compare.udp import change_text as udp_change
    from sbctune.export.tables import change_text as report_change

    near = Change(0.2, -0.4, 1.2, 4.0, 9.0, "no_change")
    assert verdict_text(near) == "no change detected (0 to +1)"
    assert interval_text(near) == "no change detected (0 to +1 ms)"
    assert verdict_text(Change(0.0, -0.6, 0.49, 4.0, 9.0, "no_change")).endswith("(−1 to 0)")
    cell = Cell(None, delta_mbps=-0.3, delta_pct=-0.04, verdict="no_change",
                verdict_text=verdict_text(near))  # fmt: skip
    assert report_change(cell) == "0 Mbit/s (0.0 %), no change detected (0 to +1)"
    udp = UdpCell(50.0, 50.0, 0.1, 0.0, compared=True, delta_received_mbps=-0.01,
                  delta_jitter_ms=0.0001, delta_loss_points=-0.004)  # fmt: skip
    assert udp_change(udp, UdpRow("pi_to_pc", "Pi → PC", 50.0)) == (
        "received 0.0 Mbit/s, jitter 0.000 ms, loss 0.00 points"
    )


def test_an_interval_whose_ends_round_to_one_number_keeps_a_decimal() -> None:
    """Walk 18 (Pi 1 B, 100 Mbit/s): Results read "+0.1 Mbit/s (+0.1 %): no change detected
    (0 to 0)", an interval of no width; its ends get the decimal that keeps them apart, in
    throughput and latency alike, and wider intervals stay in whole units."""
    from sbctune.compare.interval import Change, verdict_text
    from sbctune.compare.latency import interval_text

    narrow = Change(0.1, -0.3, 0.4, 4.0, 9.0, "no_change")
    assert verdict_text(narrow) == "no change detected (−0.3 to +0.4)"
    assert interval_text(narrow) == "no change detected (−0.3 to +0.4 ms)"
    assert verdict_text(Change(0.6, 0.3, 0.9, 4.0, 0.2, "faster")) == "faster by 0.3 to 0.9 Mbit/s"
    assert verdict_text(Change(0.0, -0.04, 0.03, 4.0, 9.0, "no_change")).endswith(
        "(−0.04 to +0.03)"
    )
    assert verdict_text(Change(0.2, -0.4, 1.2, 4.0, 9.0, "no_change")).endswith("(0 to +1)")
    assert verdict_text(Change(0.1, 0.04, 0.3, 4.0, 0.01, "faster")) == (
        "faster by 0.04 to 0.30 Mbit/s"
    )
