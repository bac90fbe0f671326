"""Audit 28 (resources/tuning/driver_caps_audit28.md): every fact the table applies to a 5.10
kernel, read in Debian's linux-source-5.10 (5.10.262-1, fetched by scripts/kernel_source.py).

A hand fact may now cite the 5.10 tree (`"kernels": ["5.10"]`, the table's "cited_kernels"): it
holds exactly where its release range says ("until" the commit that changed it) and never on a
kernel string without a version; the 6.1/6.12 fact it stands for gets the matching "since".
Row 1: stmmac_change_mtu refuses a running interface (EBUSY) until 3470079687448 (6.0).
Row 2: lan78xx_change_mtu's EDOM frame is mtu + 22 (ETH_HLEN + lan78xx_bind's TX_OVERHEAD)
until 0dd87266c133 (5.17), then mtu + 18.
Row 3: usbnet_probe's max_mtu cap reached 5.10.y at 5.10.249 (Debian's 5.10 changelog): the
AX88179's max_mtu is 4088 before it and 1500 from it.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.lab.ethtool_table_drvinfo import driver_info
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read

# Kernel releases as real 5.x systems name them: Debian bullseye, Ubuntu 22.04, Armbian,
# Raspberry Pi OS bullseye
BEFORE_60 = ["5.10.0-23-arm64", "5.15.0-91-generic", "5.10.160-rockchip64", "5.19.17"]
FROM_60 = ["6.0.12", "6.1.0-41-arm64", "6.6.51-rockchip64", "6.12.20+rpt-rpi-2712"]


def _ssh_over(dev: str) -> StepResult:
    # `ip -j route get CLIENT` as iproute2 prints it: the SSH session runs over `dev`
    route = json.dumps([{"dst": "198.18.0.1", "dev": dev}])
    return StepResult(batch.Step(("true",), "ssh-route"), 0, route.encode(), b"")


def mtu_planned(nic: Nic, kernel: str | None, mtu: int = 9000, **options: Any) -> PlannedTweak:
    """mtu-jumbo for `nic` at 1500, running, with the SSH session over another NIC."""
    found = Facts(nic.name)
    found.knobs[f"/sys/class/net/{nic.name}/mtu"] = Read(True, "1500")
    found.steps["ssh-route"] = _ssh_over("wlan0")
    tweak = catalog.tweak("mtu-jumbo")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    opts = {"path_supports_jumbo": True, "mtu": mtu, **options}
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, opts, {}, ("mtu-jumbo",)))


def lab_limit(profile: str, kernel: str | None, driver: str | None = None, chip: str = "") -> Any:
    """What the lab's `ip` refuses on the profile's test NIC, for another kernel (and driver)."""
    base = load_profile(profile)
    spec = next(s for s in base.interfaces if s.driver)
    if driver:
        spec = dataclasses.replace(spec, driver=driver, chip=chip)
    changed = dataclasses.replace(base, kernel=kernel or "", interfaces=(spec,))
    return spec.name, ip_front.limits(changed).get(spec.name, {})


# ------------------------------------------------------------------ row 1: stmmac's EBUSY


@pytest.mark.parametrize("kernel", BEFORE_60)
def test_stmmac_before_60_refuses_a_running_mtu_change(kernel: str) -> None:
    """5.10's stmmac_change_mtu: `if (netif_running(dev)) { ... "must be stopped to change its
    MTU" ...; return -EBUSY; }`: the jumbo tweak on a running stmmac NIC is not possible (it
    was planned as a link restart, the 6.0+ behaviour)."""
    item = mtu_planned(Nic("eth0", driver="stmmac", chip="RK3399"), kernel)
    assert not item.applicable and not item.needs_link_consent, item.reason
    assert "EBUSY" in item.reason and "stmmac_change_mtu" in item.reason, item.reason
    assert not item.restarts_link


@pytest.mark.parametrize("kernel", FROM_60)
def test_stmmac_from_60_restarts_the_interface_for_a_new_mtu(kernel: str) -> None:
    item = mtu_planned(Nic("eth0", driver="stmmac", chip="RK3399"), kernel)
    assert item.applicable and item.restarts_link, item.reason
    assert "EBUSY" not in item.reason


def test_a_510_fact_is_not_claimed_without_a_kernel_version() -> None:
    """A bundle without uname: the kernel may be any; the 5.10 tree's refusal is not claimed and
    the restart (both generated series) stays, as before this read."""
    caps = driver_caps.caps("stmmac", None, "RK3399")
    assert caps is not None and caps.restarts("mtu")
    assert "mtu_refused_when_up" not in caps.facts


@pytest.mark.parametrize(("kernel", "busy"), [("5.10.0-23-arm64", True), ("6.1.0-41-arm64", False)])
def test_the_labs_stmmac_answers_a_running_mtu_change_as_its_kernel(
    kernel: str, busy: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, limit = lab_limit("pi3bplus-lan78xx", kernel, "stmmac", "RK3399")
    monkeypatch.setattr(ip_model, "_is_up", lambda _name: True)
    monkeypatch.setattr(ip_model, "_mtu_now", lambda _name: 1500)
    said = ip_model.refusal({name: limit}, name, 1600)
    assert (said == "RTNETLINK answers: Device or resource busy\n") is busy
    assert limit.get("busy_when_up", False) is busy


# ------------------------------------------------------------------ row 2: lan78xx's EDOM


@pytest.mark.parametrize(
    ("kernel", "refused", "taken"),
    [("5.10.0-23-arm64", 1514, 1518), ("5.15.0-1055-raspi", 1514, 1518),
     ("5.10.103-v7l+", 1514, 1518), ("6.1.0-41-arm64", 1518, 1514),
     ("6.12.25+rpt-rpi-v8", 1518, 1514)],
)  # fmt: skip
def test_lan78xx_edom_mtu_follows_its_release(kernel: str, refused: int, taken: int) -> None:
    """5.10's lan78xx_change_mtu: ll_mtu = mtu + hard_header_len (14 + TX_OVERHEAD 8); from 5.17
    RX_MAX_FRAME_LEN (mtu + 18). On a Pi 3 B+ (USB 2.0, 512-byte packets) 5.10 refuses 1514
    and takes 1518; 6.1 the other way round. The planner and the lab say the same."""
    nic = Nic("eth0", driver="lan78xx", chip="LAN7515", usb_speed_mbps=480)
    no = mtu_planned(nic, kernel, refused)
    assert not no.applicable and "EDOM" in no.reason, no.reason
    assert "lan78xx_change_mtu" in no.reason
    yes = mtu_planned(nic, kernel, taken)
    assert "EDOM" not in yes.reason, yes.reason
    name, limit = lab_limit("pi3bplus-lan78xx", kernel)
    assert ip_model.refusal({name: limit}, name, refused) == (
        "RTNETLINK answers: Numerical argument out of domain\n"
    )
    assert ip_model.refusal({name: limit}, name, taken) is None


# ------------------------------------------------------------------ row 3: ax88179's max_mtu


@pytest.mark.parametrize(
    ("kernel", "top"),
    [("5.10.103-v7l+", 4088), ("5.10.248", 4088), ("5.10.249", 1500),
     ("5.10.262-rockchip64", 1500), ("5.10.0-23-arm64", 4088), ("5.10.0-36-arm64", None)],
)  # fmt: skip
def test_ax88179_max_mtu_on_510_follows_the_stable_backport(kernel: str, top: int | None) -> None:
    """usbnet_probe's cap (c7159e960f14) is in Debian's 5.10 under ChangeLog-5.10.249: before
    it ax88179_bind's 4088, from it 1500. An ABI name says its patch level through Debian's
    changelog (audit 30 row 2: 5.10.0-23 is 5.10.179); past the last ABI it names (35) only
    "5.10.244 or later" is known, on both sides of 5.10.249: unclaimed."""
    caps = driver_caps.caps("ax88179_178a", kernel, "ASIX AX88179")
    assert caps is not None and caps.mtu_max("ASIX AX88179") == top
    _name, limit = lab_limit("pi4-ax88179", kernel)
    assert limit.get("max") == top


def test_the_seed_profiles_kernel_keeps_its_ax88179_maximum() -> None:
    """pi4-ax88179's own kernel (5.15.4-0-rpi4, before 5.15.199): 4088, as before this read."""
    _name, limit = lab_limit("pi4-ax88179", "5.15.4-0-rpi4")
    assert limit.get("max") == 4088


# ------------------------------------------------ rows 5 and 6: ops 5.10's tables do not have

# (driver, chip, ops, first release, a release before it): each from its commit's pull
OPS_LATER = [
    ("smsc95xx", "", ("self_test", "get_strings", "get_sset_count"), "5.18", "5.10"),
    ("smsc95xx", "", ("self_test",), "5.18", "5.15"),
    ("asix", "ASIX AX88772B", ("self_test", "get_sset_count"), "5.14", "5.10"),
    ("stmmac", "RK3399", ("get_per_queue_coalesce", "set_per_queue_coalesce"), "5.13", "5.10"),
]


@pytest.mark.parametrize(("driver", "chip", "ops", "since", "before"), OPS_LATER)
def test_ops_a_510_table_lacks_are_not_claimed_before_their_release(
    driver: str, chip: str, ops: tuple[str, ...], since: str, before: str
) -> None:
    """Debian 5.10.262's smsc95xx_ethtool_ops and ax88772_ethtool_ops have no generic PHY
    selftests (1710b52d7c13, 5.18; 34a1dee6bc44, 5.14), stmmac_ethtool_ops no per-queue
    coalescing (db2f2842e6f5, 5.13): not claimed before, claimed from their release."""
    older = driver_caps.caps(driver, f"{before}.0-23-arm64", chip or None)
    newer = driver_caps.caps(driver, f"{since}.0-1-arm64", chip or None)
    assert older is not None and newer is not None
    for op in ops:
        assert not older.has(op) and newer.has(op), op
        assert older.facts["ops_not_yet"][op]["release"] == since


@pytest.mark.parametrize(("kernel", "test"), [("5.10.0-23-arm64", "no"), ("6.1.0-41-arm64", "yes")])
def test_the_labs_ethtool_i_says_supports_test_as_its_kernel(kernel: str, test: str) -> None:
    """`ethtool -i` prints supports-test from get_sset_count(ETH_SS_TEST) (net/ethtool/ioctl.c
    ethtool_get_drvinfo): a Pi 3 B on 5.10 says "no". The lab's drvinfo read the table without
    the profile's kernel, so every kernel said "yes"."""
    info = driver_info("smsc95xx", kernel)
    assert ("yes" if info["test"] else "no") == test
