"""Audit 36b (resources/tuning/driver_caps_audit36b.md): what the lab's Pi answers, command by
command, against the kernel for r8169, igb, igc, atlantic, stmmac and asix.

Row 1: a driver that has the ethtool callback but refuses it on some chips (igb_get_eee before
the I350, rtl_get_coalesce on the RTL8125) answered "Operation not supported" where sbctune
could not name the chip (no lspci, as in the cm4-i340-igb lab): the plan said "the driver does
not offer this setting", which is false for the driver; it now names the refusal and its source.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.model import Nic
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state
from tests.plan_one import pi_answer, plan_one

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
UP_LINK = json.dumps(
    [{"ifname": "eth0", "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"], "mtu": 1500}]
)


def _plan(tweak_id: str, nic: Nic, key: str, answer: tuple[str, list[str], int]) -> PlannedTweak:
    """`tweak_id` planned for eth0 from the lab's answer to one ethtool read (`key`), the SSH
    session over another NIC, on a 6.12 kernel."""
    out, err, code = answer
    found = Facts(nic.name)
    found.steps[key] = pi_answer(key, out, code, "\n".join(err))
    found.steps["ip-link"] = pi_answer("ip-link", UP_LINK)
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": "wlan0"}]))
    return plan_one(tweak_id, found, nic, "6.12.0-1-arm64")


@POSIX
@pytest.mark.parametrize(
    ("tweak", "driver", "chip", "option", "function", "named"),
    [
        ("eee-off", "igb", "82580", "--show-eee", "igb_ethtool.c: igb_get_eee", "82580"),
        ("eee-off", "igb", "82576", "--show-eee", "igb_ethtool.c: igb_get_eee", "82576"),
        ("irq-coalescing", "r8169", "RTL8125B", "-c", "r8169_main.c: rtl_get_coalesce",
         "RTL8125"),
    ],
)  # fmt: skip
def test_a_chip_refusal_read_without_the_chip_names_the_driver_refusal(
    tmp_path: Path, tweak: str, driver: str, chip: str, option: str, function: str, named: str
) -> None:
    """The lab answers as the kernel ("netlink error: Operation not supported"); the NIC's chip
    is unknown to the planner (Inspect: "a chip of the igb driver's family"), so only the read
    tells: the plan says the driver refuses it on such chips, with the source, not that the
    driver lacks the setting."""
    answer = ethtool(lab_state(tmp_path, driver, chip, "6.12"), option, "eth0")
    assert answer[2] != 0 and answer[1] == ["netlink error: Operation not supported"]
    item = _plan(tweak, Nic("eth0", driver=driver), f"ethtool {option}", answer)
    assert not item.applicable
    assert "does not offer" not in item.reason
    assert item.reason.startswith(f"{driver} has this setting but refuses ")
    assert named in item.reason and function in item.reason and "EOPNOTSUPP" in item.reason
    assert item.reason.endswith("refused it here (netlink error: Operation not supported)")


@POSIX
def test_a_driver_without_the_callback_still_lacks_the_setting(tmp_path: Path) -> None:
    """asix has no get_coalesce in any of its three ethtool_ops: there the old words are true."""
    answer = ethtool(lab_state(tmp_path, "asix", "AX88772B", "6.12"), "-c", "eth0")
    assert answer[2] != 0
    item = _plan("irq-coalescing", Nic("eth0", driver="asix"), "ethtool -c", answer)
    assert not item.applicable
    assert "refuses" not in item.reason
