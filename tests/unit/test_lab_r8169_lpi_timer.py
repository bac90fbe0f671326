"""r8169 on 6.12 (audit 5b row 12): the RTL8125's Tx LPI timer is the driver's own, MTU + 46
bytes (rtl_set_eee_txidle_timer, run again by rtl8169_change_mtu), shown at the link's speed
of the moment (r8169_get_tx_lpi_timer_us); `--set-eee tx-timer` only reaches phylib
(rtl8169_set_eee -> phy_ethtool_set_eee), so the shown timer does not move."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle
root = pytest.mark.skipif(
    getattr(os, "geteuid", lambda: -1)() != 0, reason="ethtool's sets need root, as on a Pi"
)


def lab(tmp_path: Path, **now: Any) -> str:
    iface = interface_state("r8169", EMPTY, "eth0", "RTL8125B", "6.12.47", speed_mbps=2500)
    iface.update(now)  # the interface's MTU and link speed now (the lab reads them in sysfs)
    path = tmp_path / "state.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    return str(path)


def lpi(state: str) -> str:
    result = fake_ethtool.run(["--show-eee", "eth0"], state)
    assert result is not None
    return next(line for line in result[0].splitlines() if "Tx LPI" in line).strip()


@pytest.mark.parametrize(
    ("mtu", "speed", "shown"),
    [
        (1500, 2500, "5"),
        (9000, 2500, "29"),
        (9000, 1000, "72"),
        (1500, 1000, "12"),
        (576, 100, "50"),
    ],
)
def test_the_timer_follows_the_mtu_and_the_link_speed(
    tmp_path: Path, mtu: int, speed: int, shown: str
) -> None:
    # DIV_ROUND_CLOSEST((mtu + 46) * 8, speed): (9000 + 46) * 8 / 2500 = 28.9 -> 29
    assert lpi(lab(tmp_path, mtu=mtu, link_speed=speed)) == f"Tx LPI: {shown} (us)"


@root
def test_set_eee_tx_timer_does_not_move_the_drivers_timer(tmp_path: Path) -> None:
    state = lab(tmp_path, mtu=1500, link_speed=2500)
    result = fake_ethtool.run(["--set-eee", "eth0", "tx-timer", "100"], state)
    assert result == ("", [], 0)  # phy_ethtool_set_eee takes it
    assert lpi(state) == "Tx LPI: 5 (us)"
