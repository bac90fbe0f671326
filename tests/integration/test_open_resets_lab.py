"""An administrative `ip link set down/up` in a real lab (audit 6a row 7): bcmgenet_open ->
bcmgenet_init_tx_ring writes tx-frames 1 for every TX ring, so a `-C tx-frames` is lost at
the next open, while RX coalescing is kept (bcmgenet_init_rx_coalesce); an up of an
interface that is up already opens nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab]


def coalesce(lab: Any, iface: str) -> dict[str, str]:
    out = in_lab(lab, f"ethtool -c {iface}")
    pairs = (line.split(":", 1) for line in out.splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def test_bcmgenet_loses_tx_frames_at_an_administrative_down_up(lab_factory: Any) -> None:
    lab = lab_factory("pi4-ax88179")
    in_lab(lab, "ethtool -C eth0 tx-frames 64 rx-usecs 50")
    in_lab(lab, "ip link set eth0 up")  # up already: dev_open does not call ndo_open
    assert (coalesce(lab, "eth0")["tx-frames"], coalesce(lab, "eth0")["rx-usecs"]) == ("64", "57")
    in_lab(lab, "ip link set eth0 down; ip link set dev eth0 up")
    after = coalesce(lab, "eth0")
    assert (after["tx-frames"], after["rx-usecs"]) == ("1", "57")
