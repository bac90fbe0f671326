"""Scatter-gather, turned on by the offloads tweak where TSO needs it (issue 21), is read back
by its name in ethtool -k ("scatter-gather"): s13 walk, "tune apply" on the cm4-rtl8125b-r8169
lab failed with "eth1 -K sg: read back None after writing 'on'" and put everything back.
The capture is a real one (tests/captures/ethtool_k/firewalla_purple_eth1.source.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.tuning.knobs import ethtool_value

CAPTURE = Path(__file__).parents[1] / "captures" / "ethtool_k" / "firewalla_purple_eth1.txt"


FULL = {
    "sg": "scatter-gather",
    "gro": "generic-receive-offload",
    "gso": "generic-segmentation-offload",
    "tso": "tcp-segmentation-offload",
}


@pytest.mark.parametrize("param", sorted(FULL))
def test_every_feature_the_offloads_tweak_writes_is_read_back(param: str) -> None:
    text = CAPTURE.read_text(encoding="utf-8")
    shown = {
        name.strip(): value.split()[0]
        for name, _, value in (line.partition(":") for line in text.splitlines()[1:])
        if value.strip()
    }
    assert shown["scatter-gather"] == "on"  # the capture has it, as every ethtool -k does
    assert ethtool_value("-K", param, text) == shown[FULL[param]]
