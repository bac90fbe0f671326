"""Audit 18 (resources/tuning/driver_caps_audit18.md): what a driver does or refuses depending on
the interface's state at the moment of the call, in the lab's fake ethtool.

Row 1: a ring or channel change on a DOWN interface. Every driver of the table closes and
reopens only a running one (igb_set_ringparam stores the sizes for the next open; macb,
aq_set_ringparam, stmmac_reinit_ringparam, igb/igc/stmmac_reinit_queues: `if
(netif_running(dev))`); the lab ran `ip link set down; up` whatever the state, so a down NIC
came up. Row 2: stmmac on 6.12 answers --show-eee/--set-eee "Operation not supported" while
down (stmmac_release -> phylink_disconnect_phy; phylink_ethtool_get/set_eee need pl->phydev).
Row 4: r8169 disconnects its PHY at close (rtl8169_close -> phy_disconnect): `ethtool -s` and
`-r` are "No such device" while down, its EEE (tp->phydev) still answers; the lab's read cache
keeps every read that does not change with IFF_UP. Each test failed before the change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab import fake_ethtool
from tests.fake_ethtool_support import ethtool, lab_state, root

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _dev(state: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    return dict(data["interfaces"]["eth0"])


def _in_lab(state: str) -> str:
    """The state as the lab installs it: its own interfaces, whose restarts bounce the link."""
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    data["bounce_links"] = True
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    return state


@pytest.fixture
def bounces(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The interfaces the fake ethtool took down and up (`ip link set down; up`)."""
    seen: list[str] = []
    monkeypatch.setattr(fake_ethtool, "bounce_link", seen.append)
    return seen


@POSIX
@root
@pytest.mark.parametrize(
    ("driver", "chip", "argv", "shown"),
    [
        ("igb", "Intel I350", ["-G", "eth0", "rx", "4096"], ["-g", "eth0"]),
        ("macb", "", ["-G", "eth0", "rx", "1024"], ["-g", "eth0"]),
        ("stmmac", "", ["-G", "eth0", "rx", "1024"], ["-g", "eth0"]),
        ("igb", "Intel I350", ["-L", "eth0", "combined", "2"], ["-l", "eth0"]),
    ],
)
def test_a_restarting_change_on_a_down_interface_leaves_it_down_and_keeps_the_value(
    tmp_path: Path, bounces: list[str], driver: str, chip: str, argv: list[str], shown: list[str]
) -> None:
    down = _in_lab(lab_state(tmp_path, driver, chip, "6.12", up=False))
    before = ethtool(down, *shown)[0]
    out, err, code = ethtool(down, *argv)
    assert (code, err) == (0, [])
    assert ethtool(down, *shown)[0] != before  # stored for the next open
    assert bounces == []  # never `ip link set up` on a down interface
    assert not any(int(v.get("bounces", 0)) for v in _dev(down).values() if isinstance(v, dict))
    # the same change on a running interface closes and reopens it: the link bounces
    up = _in_lab(lab_state(tmp_path, driver, chip, "6.12", up=True))
    assert ethtool(up, *argv)[2] == 0
    assert bounces == ["eth0"]


@POSIX
@root
def test_a_down_stmmac_keeps_the_coalescing_its_open_would_set_again(
    tmp_path: Path, bounces: list[str]
) -> None:
    """stmmac_reinit_ringparam reopens (stmmac_init_coalesce) only a running interface."""
    down = _in_lab(lab_state(tmp_path, "stmmac", "", "6.12", up=False))
    assert ethtool(down, "-C", "eth0", "tx-frames", "64")[2] == 0
    assert ethtool(down, "-G", "eth0", "rx", "1024")[2] == 0
    assert "tx-frames:\t64" in ethtool(down, "-c", "eth0")[0].replace(" ", "\t")


@POSIX
def test_stmmac_on_6_12_has_no_eee_while_down(tmp_path: Path) -> None:
    up = lab_state(tmp_path, "stmmac", "", "6.12", up=True)
    assert ethtool(up, "--show-eee", "eth0")[2] == 0
    down = lab_state(tmp_path, "stmmac", "", "6.12", up=False)
    out, err, code = ethtool(down, "--show-eee", "eth0")
    assert code != 0
    assert any("Operation not supported" in line for line in err)


@POSIX
@root
def test_stmmac_on_6_12_refuses_an_eee_change_while_down(tmp_path: Path) -> None:
    down = lab_state(tmp_path, "stmmac", "", "6.12", up=False)
    out, err, code = ethtool(down, "--set-eee", "eth0", "eee", "off")
    assert code != 0
    assert any("Operation not supported" in line for line in err)


@POSIX
@root
def test_r8169_has_no_phy_for_link_settings_while_down(tmp_path: Path) -> None:
    down = lab_state(tmp_path, "r8169", "RTL8168h", "6.12", up=False)
    out, err, code = ethtool(down, "-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off")
    assert code != 0
    assert any("No such device" in line for line in err)
    out, err, code = ethtool(down, "-r", "eth0")
    assert code != 0
    assert any("No such device" in line for line in err)
    # rtl8169_get_eee reads the driver's own tp->phydev: still there
    assert ethtool(down, "--show-eee", "eth0")[2] == 0
    up = lab_state(tmp_path, "r8169", "RTL8168h", "6.12", up=True)
    assert ethtool(up, "-r", "eth0")[2] == 0


@POSIX
@pytest.mark.skipif(getattr(os, "geteuid", lambda: -1)() != 0, reason="the shown files are root's")
def test_the_read_cache_drops_only_the_reads_that_follow_iff_up(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "bcmgenet", "", "6.12")
    folder = tmp_path / fake_ethtool.SHOWN_DIR
    folder.mkdir()
    fake_ethtool.write_shown(state, json.loads(Path(state).read_text(encoding="utf-8")))

    def entry(option: str) -> str:
        return (folder / fake_ethtool.shown_name(option, "eth0")).read_text(encoding="utf-8")

    # bcmgenet_get_eee: ENODEV without the PHY bcmgenet_close disconnected: the model answers
    assert entry("--show-eee").splitlines()[0] == fake_ethtool.MODEL
    # its features and rings do not depend on IFF_UP: a `cat`, not a Python start
    assert entry("-k").splitlines()[0] == "0"
    assert entry("-g").splitlines()[0] != fake_ethtool.MODEL
