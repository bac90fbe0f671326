"""Audit 40 (resources/tuning/driver_caps_audit40.md): kernels before the series the table is
read from: Raspberry Pi OS bullseye's 5.10 and 5.15 ("5.10.103-v7l+", "5.15.84-v8+") and Ubuntu
22.04's 5.15 ("5.15.0-1034-raspi"), read against Debian's linux-source-5.10 5.10.262-1.

Row 1: before 0b70c256eba8 "ethtool: add support to set/get rx buf len via ethtool" (5.17) the
kernel's ring policy ends at ETHTOOL_A_RINGS_TX. ethtool 6.1's `-G rx-buf-len|cqe-size|tx-push`
then meets genetlink's strict parse (genl_family_rcv_msg_attrs_parse, __nla_validate_parse):
"Unknown attribute type", EINVAL, for every driver; and `-g` shows "TX Push: n/a" (no
ETHTOOL_A_RINGS_TX_PUSH before 4dc84c06a343, 5.19). The lab answered 6.1's "setting tx push not
supported" / EOPNOTSUPP and "TX Push: off".

Row 2: the plan's eee-off words on lan78xx: 6.12's phylib default (EEE on, dated 6.10-6.17)
counted on a 5.10/5.15 kernel, so the plan dropped why EEE is off (5.10's lan78xx_get_eee, as
6.1's: only lan78xx_set_eee sets MAC_CR_EEE_EN_).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state, root
from tests.plan_one import pi_answer

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

BEFORE = ("5.10.103-v7l+", "5.15.84-v8+", "5.15.0-1034-raspi")  # bullseye, bullseye, jammy
SERIES = ("6.1.0-rpi7-rpi-v8", "6.12.25+rpt-rpi-v8")
UNKNOWN = "netlink error: Unknown attribute type"
EINVAL, EOPNOTSUPP = "netlink error: Invalid argument", "netlink error: Operation not supported"
# with ring ops (stmmac, igb), without them (lan78xx): the parse comes before either
DRIVERS = [("stmmac", "RK3568"), ("igb", "I350"), ("lan78xx", "LAN7800")]


@pytest.mark.parametrize("kernel", BEFORE)
@pytest.mark.parametrize(("driver", "chip"), DRIVERS)
@pytest.mark.parametrize("args", [["tx-push", "on"], ["rx-buf-len", "2048"], ["cqe-size", "128"]])
def test_row1_ring_attributes_are_unknown_before_5_17(
    tmp_path: Path, kernel: str, driver: str, chip: str, args: list[str]
) -> None:
    answer = ethtool(lab_state(tmp_path, driver, chip, kernel), "-G", "eth0", *args)
    assert answer == ("", [f"{UNKNOWN} (offset 36)", EINVAL], 81)


@pytest.mark.parametrize("kernel", BEFORE)
def test_row1_the_parser_stops_at_the_first_unknown_attribute(tmp_path: Path, kernel: str) -> None:
    # __nla_validate_parse walks the message: cqe-size (first on the line) is refused, where
    # 6.1's ethnl_set_rings names rx-buf-len first wherever it stands (audit 14)
    path = lab_state(tmp_path, "igb", "I350", kernel)
    answer = ethtool(path, "-G", "eth0", "cqe-size", "128", "rx-buf-len", "5")
    assert answer == ("", [f"{UNKNOWN} (offset 36)", EINVAL], 81)


@pytest.mark.parametrize("kernel", SERIES)
def test_row1_the_series_keep_the_cores_refusal(tmp_path: Path, kernel: str) -> None:
    answer = ethtool(lab_state(tmp_path, "igb", "I350", kernel), "-G", "eth0", "tx-push", "on")
    refused = "netlink error: setting tx push not supported (offset 36)"
    assert answer == ("", [refused, EOPNOTSUPP], 81)


def _tx_push(tmp_path: Path, kernel: str) -> str:
    text = ethtool(lab_state(tmp_path, "r8152", "RTL8153", kernel), "-g", "eth0")[0]
    return next(line for line in text.splitlines() if line.startswith("TX Push:"))


@pytest.mark.parametrize("kernel", BEFORE)
def test_row1_tx_push_is_not_reported_before_5_19(tmp_path: Path, kernel: str) -> None:
    assert _tx_push(tmp_path, kernel) == "TX Push:\tn/a"


@pytest.mark.parametrize("kernel", (*SERIES, ""))
def test_row1_tx_push_is_reported_on_the_series_and_an_unknown_kernel(
    tmp_path: Path, kernel: str
) -> None:
    assert _tx_push(tmp_path, kernel) == "TX Push:\toff"


def _eee_off(tmp_path: Path, kernel: str, turned_off: bool = False) -> PlannedTweak:
    """eee-off planned for a lan78xx eth0 from the lab's --show-eee on `kernel` (after the user
    turned EEE off: `turned_off`), the SSH session over wlan0."""
    state = lab_state(tmp_path, "lan78xx", "LAN7800", kernel)
    if turned_off:
        assert ethtool(state, "--set-eee", "eth0", "eee", "off")[2] == 0
    out, err, code = ethtool(state, "--show-eee", "eth0")
    found = Facts("eth0")
    found.steps["ethtool --show-eee"] = pi_answer("ethtool --show-eee", out, code, "\n".join(err))
    link = [{"ifname": "eth0", "flags": ["UP", "LOWER_UP"], "mtu": 1500}]
    found.steps["ip-link"] = pi_answer("ip-link", json.dumps(link))
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": "wlan0"}]))
    tweak = catalog.tweak("eee-off")
    nic = Nic("eth0", driver="lan78xx")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("eee-off",)))


@pytest.mark.parametrize("kernel", (*BEFORE, "6.1.0-rpi7-rpi-v8"))
def test_row2_lan78xx_eee_off_says_why_on_kernels_before_6_10(tmp_path: Path, kernel: str) -> None:
    item = _eee_off(tmp_path, kernel)
    assert item.applicable
    assert item.reason == (
        "EEE is off already: lan78xx turns it off at start "
        "(drivers/net/usb/lan78xx.c: lan78xx_get_eee)"
    )


@root
@pytest.mark.parametrize("kernel", ["6.12.25+rpt-rpi-v8", "6.18.3+rpt-rpi-v8"])
def test_row2_where_eee_starts_on_off_already_gives_no_why(tmp_path: Path, kernel: str) -> None:
    # 6.12's phylib default and 7.2's phylink default (from 6.17) turn EEE on at start: EEE off
    # there is the user's doing, not the driver's (a guard: the dated default must still count)
    item = _eee_off(tmp_path, kernel, turned_off=True)
    assert item.applicable and item.reason == "EEE is off already"
