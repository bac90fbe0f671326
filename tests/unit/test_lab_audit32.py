"""Audit 32 (resources/tuning/driver_caps_audit32.md): what the lab PRINTS, against real
captures of the same drivers.

Row 1: bcmgenet's `ethtool -S` is one fixed table (bcmgenet_get_sset_count: BCMGENET_STATS_LEN,
bcmgenet_get_strings copies every entry; drivers/net/ethernet/broadcom/genet/bcmgenet.c, 6.1
and 6.12) that ends with STAT_GENET_Q(0) .. STAT_GENET_Q(4): six counters per ring whose names
the macro builds with __stringify ("txq0_packets" .. "rxq4_dropped"). The generated table
(scripts/regen_ethtool_stats.py) dropped them, so the lab's Pi 4 printed 79 of the 109 names.
The real Pi 4 pastes in the corpus (raspberrypi/linux #6488, #7304, #4485) all stop before the
table's end; every name they show is the lab's, in its order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_ethtool_support import ethtool, lab_state

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "ethtool_s"
POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")

RINGS = [
    f"{side}q{ring}_{what}"
    for ring in range(5)
    for side, what in (("tx", "packets"), ("tx", "bytes"), ("rx", "bytes"),
                       ("rx", "packets"), ("rx", "errors"), ("rx", "dropped"))
]  # fmt: skip


def _names(text: str) -> list[str]:
    """The counter names of an `ethtool -S` text (its "     NAME: VALUE" lines)."""
    out = []
    for line in text.splitlines():
        name, sep, value = line.strip().rpartition(": ")
        if sep and value.strip().isdigit():
            out.append(name)
    return out


@POSIX
@pytest.mark.parametrize("kernel", ["6.1.0-27-arm64", "6.12.47+rpt-rpi-v8", "5.15.4-0-rpi4", ""])
def test_bcmgenet_prints_its_rings_counters(tmp_path: Path, kernel: str) -> None:
    out, err, code = ethtool(lab_state(tmp_path, "bcmgenet", kernel=kernel), "-S", "eth0")
    assert code == 0 and not err
    names = _names(out)
    assert len(names) == 109  # BCMGENET_STATS_LEN, 6.1 and 6.12
    assert names[-31] == "tx_realloc_tsb_failed"
    assert names[-30:] == RINGS
    assert names[:2] == ["rx_packets", "tx_packets"]


@POSIX
@pytest.mark.parametrize(
    "capture", ["rpi4_bcmgenet_6488_rx_errors_excerpt.txt", "rpi4_bcmgenet_7304_end0_excerpt.txt"]
)
def test_every_name_of_a_real_pi4_paste_is_the_labs_in_its_order(
    tmp_path: Path, capture: str
) -> None:
    """The pastes are cut before the rings; what they show the lab shows, in the same order
    (#7304 is linux-rpi 6.18, whose five rx_*_errors after `multicast` are row 7's, left)."""
    real = _names((CAPTURES / capture).read_text(encoding="utf-8"))
    lab = _names(ethtool(lab_state(tmp_path, "bcmgenet", kernel="6.12.47"), "-S", "eth0")[0])
    later = {"rx_missed_errors", "rx_length_errors", "rx_over_errors", "rx_crc_errors",
             "rx_frame_errors"}  # fmt: skip
    shown = [n for n in real if n not in later]
    assert shown == lab[: len(shown)]
