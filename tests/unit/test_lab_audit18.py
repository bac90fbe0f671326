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

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool_shown
from sbctune.tuning import catalog, down_nic, driver_caps, persist_gaps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import Change, PlannedTweak, TuningPlan
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, in_lab, lab_state, record_bounces, root
from tests.plan_one import pi_answer

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _dev(state: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    return dict(data["interfaces"]["eth0"])


@pytest.fixture
def bounces(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    return record_bounces(monkeypatch)


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
    down = in_lab(lab_state(tmp_path, driver, chip, "6.12", up=False))
    before = ethtool(down, *shown)[0]
    _out, err, code = ethtool(down, *argv)
    assert (code, err) == (0, [])
    assert ethtool(down, *shown)[0] != before  # stored for the next open
    assert bounces == []  # never `ip link set up` on a down interface
    assert not any(int(v.get("bounces", 0)) for v in _dev(down).values() if isinstance(v, dict))
    # the same change on a running interface closes and reopens it: the link bounces
    up = in_lab(lab_state(tmp_path, driver, chip, "6.12", up=True))
    assert ethtool(up, *argv)[2] == 0
    assert bounces == ["eth0"]


@POSIX
@root
def test_a_down_stmmac_keeps_the_coalescing_its_open_would_set_again(
    tmp_path: Path, bounces: list[str]
) -> None:
    """stmmac_reinit_ringparam reopens (stmmac_init_coalesce) only a running interface."""
    down = in_lab(lab_state(tmp_path, "stmmac", "", "6.12", up=False))
    assert ethtool(down, "-C", "eth0", "tx-frames", "64")[2] == 0
    assert ethtool(down, "-G", "eth0", "rx", "1024")[2] == 0
    assert "tx-frames:\t64" in ethtool(down, "-c", "eth0")[0].replace(" ", "\t")


@POSIX
def test_stmmac_on_6_12_has_no_eee_while_down(tmp_path: Path) -> None:
    up = lab_state(tmp_path, "stmmac", "", "6.12", up=True)
    assert ethtool(up, "--show-eee", "eth0")[2] == 0
    down = lab_state(tmp_path, "stmmac", "", "6.12", up=False)
    _out, err, code = ethtool(down, "--show-eee", "eth0")
    assert code != 0
    assert any("Operation not supported" in line for line in err)


@POSIX
@root
def test_stmmac_on_6_12_refuses_an_eee_change_while_down(tmp_path: Path) -> None:
    down = lab_state(tmp_path, "stmmac", "", "6.12", up=False)
    _out, err, code = ethtool(down, "--set-eee", "eth0", "eee", "off")
    assert code != 0
    assert any("Operation not supported" in line for line in err)


@POSIX
@root
def test_r8169_has_no_phy_for_link_settings_while_down(tmp_path: Path) -> None:
    down = lab_state(tmp_path, "r8169", "RTL8168h", "6.12", up=False)
    argv = ["-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off"]
    _out, err, code = ethtool(down, *argv)
    assert code != 0
    assert any("No such device" in line for line in err)
    _out, err, code = ethtool(down, "-r", "eth0")
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
    folder = tmp_path / fake_ethtool_shown.SHOWN_DIR
    folder.mkdir()
    fake_ethtool_shown.write_shown(state, json.loads(Path(state).read_text(encoding="utf-8")))

    def entry(option: str) -> str:
        return (folder / fake_ethtool_shown.shown_name(option, "eth0")).read_text(encoding="utf-8")

    # bcmgenet_get_eee: ENODEV without the PHY bcmgenet_close disconnected: the model answers
    assert entry("--show-eee").splitlines()[0] == fake_ethtool_shown.MODEL
    # its features and rings do not depend on IFF_UP: a `cat`, not a Python start
    assert entry("-k").splitlines()[0] == "0"
    assert entry("-g").splitlines()[0] != fake_ethtool_shown.MODEL


# ------------------------------------------- row 3: the planner on a down NIC (app/tuning/down_nic)

DOWN_LINK = json.dumps([{"ifname": "eth0", "flags": ["BROADCAST", "MULTICAST"], "mtu": 1500}])
UP_LINK = json.dumps(
    [{"ifname": "eth0", "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"], "mtu": 1500}]
)


def _plan(
    tweak_id: str, nic: Nic, steps: dict[str, tuple[str, int, str]], ip_link: str,
    kernel: str = "6.12.47+rpt-rpi-v8",
) -> PlannedTweak:  # fmt: skip
    """One tweak planned for eth0 as plan() does it (the kind's planner, then down_nic), from the
    reads `steps` (key -> stdout, exit code, stderr) and `ip -d -j link`'s answer."""
    found = Facts(nic.name)
    for key, (out, code, err) in steps.items():
        found.steps[key] = pi_answer(key, out, code, err)
    found.steps["ip-link"] = pi_answer("ip-link", ip_link)
    route = json.dumps([{"dst": "198.18.0.1", "dev": "wlan0"}])  # SSH over another NIC
    found.steps["ssh-route"] = pi_answer("ssh-route", route)
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak_id,)))
    the_plan = TuningPlan("eth0", [item], {}, [tweak_id])
    the_plan.inventory = inventory
    down_nic.note_plan(the_plan, found.text("ip-link"))
    return item


@POSIX
def test_coalescing_a_down_r8169_is_left_out_as_its_open_sets_it_back(tmp_path: Path) -> None:
    """rtl_hw_start (rtl8169_open -> rtl_open) writes IntrMitigate 0 at every open: a value
    written while down is gone once the interface comes up."""
    nic = Nic("eth0", driver="r8169", chip="RTL8168h/8111h")
    state = lab_state(tmp_path, "r8169", "RTL8168h/8111h", "6.12", speed=1000.0)
    text = ethtool(state, "-c", "eth0")[0]
    up = _plan("irq-coalescing", nic, {"ethtool -c": (text, 0, "")}, UP_LINK)
    assert up.applicable, up.reason
    down = _plan("irq-coalescing", nic, {"ethtool -c": (text, 0, "")}, DOWN_LINK)
    assert not down.applicable
    assert not down.commands and not down.changes
    assert "eth0 is down" in down.reason
    assert "sets it back each time eth0 is opened" in down.reason
    assert "r8169_main.c" in down.reason
    assert "Bring it up (`sudo ip link set eth0 up`) and plan again" in down.reason


@pytest.mark.parametrize(
    ("driver", "kernel", "said", "errno", "function"),
    [
        ("bcmgenet", "6.12.47+rpt-rpi-v8", "netlink error: No such device", "ENODEV",
         "bcmgenet.c: bcmgenet_get_eee"),
        ("stmmac", "6.12.47-arm64", "netlink error: Operation not supported", "EOPNOTSUPP",
         "phylink.c: phylink_ethtool_get_eee"),
        ("stmmac", "6.1.0-31-arm64", "netlink error: Device or resource busy", "EBUSY",
         "stmmac_ethtool.c: stmmac_check_if_running"),
    ],
)  # fmt: skip
def test_eee_off_on_a_down_nic_says_the_driver_refuses_it_while_down(
    driver: str, kernel: str, said: str, errno: str, function: str
) -> None:
    """bcmgenet_get_eee (no PHY after bcmgenet_close), phylink_ethtool_get_eee on 6.12 (no PHY
    after stmmac_release), stmmac_check_if_running on 6.1: the plan no longer says the NIC
    has no EEE ("does not offer this setting"), it says why and what to do."""
    nic = Nic("eth0", driver=driver)
    item = _plan("eee-off", nic, {"ethtool --show-eee": ("", 1, said)}, DOWN_LINK, kernel)
    assert not item.applicable
    assert "does not offer" not in item.reason
    assert f"eth0 is down (not IFF_UP): the {driver} driver" in item.reason
    assert errno in item.reason
    assert function in item.reason  # the op's own function, not the first refusal's
    assert "Bring it up (`sudo ip link set eth0 up`) and plan again" in item.reason


@POSIX
def test_rings_on_a_down_igb_announce_no_link_drop(tmp_path: Path) -> None:
    """igb_set_ringparam keeps the sizes of a down interface for its next open (no close/open)."""
    nic = Nic("eth0", driver="igb", chip="Intel I350")
    text = ethtool(lab_state(tmp_path, "igb", "Intel I350", "6.12"), "-g", "eth0")[0]
    up = _plan("nic-rings", nic, {"ethtool -g": (text, 0, "")}, UP_LINK)
    assert up.applicable and up.restarts_link
    assert "the link drops briefly" in up.reason
    down = _plan("nic-rings", nic, {"ethtool -g": (text, 0, "")}, DOWN_LINK)
    assert down.applicable, down.reason
    assert not down.restarts_link
    assert "link drops briefly" not in down.reason
    assert "eth0 is down, so igb keeps it for the next open" in down.reason
    assert down.commands == up.commands


def test_unreadable_flags_count_as_up() -> None:
    assert not down_nic.is_down("")
    assert not down_nic.is_down("not json")
    assert not down_nic.is_down('[{"ifname": "eth0"}]')
    assert down_nic.is_down(DOWN_LINK) and not down_nic.is_down(UP_LINK)


@pytest.mark.parametrize(
    ("change", "function"),
    [(Change("ethtool", "eth0 -A rx", "off", "on"), "bcmgenet_set_pauseparam"),
     (Change("ethtool", "eth0 --set-eee eee", "on", "off"), "bcmgenet_set_eee")],
)  # fmt: skip
def test_persist_words_cite_the_op_the_driver_refuses_while_down(
    change: Change, function: str
) -> None:
    """Row 5: the four bcmgenet ops refused while down were all cited as the first one's
    function (bcmgenet_get_link_ksettings, EINVAL) in --persist's words."""
    caps = driver_caps.caps("bcmgenet", "6.12.47+rpt-rpi-v8")
    why = persist_gaps.why_lost(change, caps, None, "eth0")
    assert f"bcmgenet.c: {function}" in why
    assert "bcmgenet_get_link_ksettings" not in why
