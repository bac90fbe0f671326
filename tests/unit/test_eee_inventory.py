"""Issue 24: `ethtool --show-eee IFACE` read by the inventory, from real captures only.

Before: the inventory had no parser for --show-eee (dispatch refused the option), so the RevPi
CM5's pasted EEE state (raspberrypi/linux#6855) reached neither the NIC, inspect --json nor the
report; tuning had its own copy of the parser.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers import dispatch
from sbctune.inventory.parsers.ethtool_eee import Eee, parse_eee, parse_show_eee
from sbctune.inventory.report import render
from sbctune.tuning import parsers as tuning_parsers

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
REVPI = CAPTURES / "corpus" / "revpi_linux_6855_modalias_rp1_gem_ethtool_show_eee_active_prompts"

# capture -> (supported, enabled, active, tx_lpi, tx_lpi_us), as each file shows it
SHOWN = {
    "pi3bplus_lan78xx_enabled_active_2882.txt": (True, True, True, True, 600),
    "pi3bplus_lan78xx_6_18_enabled_active_7436.txt": (True, True, True, True, 50),
    "pi3bplus_lan78xx_disabled_2882.txt": (True, False, False, False, None),
    "pi_end0_enabled_inactive_systemd_32032.txt": (True, True, False, False, None),
    "tg3_netdev_2019.txt": (True, True, True, True, 2047),
    "pi5_macb_6_12_not_supported_7115.txt": (None, None, None, None, None),
    "not_supported_openwrt_14192.txt": (None, None, None, None, None),
}


def _capture(name: str) -> str:
    path = CAPTURES / "ethtool_eee" / name
    assert path.with_suffix(".source.md").exists()
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_each_capture_is_read_through_the_dispatch(name: str) -> None:
    for cmd in ("ethtool --show-eee eth0", "sudo /usr/sbin/ethtool --show-eee eth0"):
        out = dispatch.parse_command(cmd, _capture(name))
        assert out.parser == "ethtool --show-eee" and out.interface == "eth0"
        assert isinstance(out.result, Eee)
        assert out.result == Eee(*SHOWN[name])
        assert out.warnings == []  # a driver's refusal is unknown EEE, not an unreadable output


def test_tuning_uses_the_inventory_parser() -> None:
    assert tuning_parsers.parse_eee is parse_eee and tuning_parsers.Eee is Eee


def test_revpi_bundle_shows_eee_in_json_and_report() -> None:
    inventory = inspect_bundle(REVPI)
    nics = {n["name"]: n for n in inventory.to_json()["nics"]}
    assert nics["eth0"]["driver"] == "macb"
    assert nics["eth0"]["eee"] == {
        "supported": True,
        "enabled": True,
        "active": True,
        "tx_lpi": False,
        "tx_lpi_us": None,
    }
    assert "  EEE:     enabled, active, Tx LPI off" in render(inventory).splitlines()


def test_unreadable_text_warns_and_says_unknown() -> None:
    eee, warnings = parse_show_eee("EEE settings for eth0:\n\tsomething else\n")
    assert eee == Eee() and [w.source for w in warnings] == ["ethtool --show-eee"]


@given(st.text(max_size=400), st.sampled_from(["enabled - active", "disabled", "not supported"]))
def test_status_line_wins_whatever_surrounds_it(noise: str, status: str) -> None:
    # Garbage before and after a real status line: never an exception, always the status read
    eee, _ = parse_show_eee(f"{noise}\n\tEEE status: {status}\n{noise}")
    first = parse_eee(f"{noise}\n")
    if first.supported is None:  # the noise held no status line of its own
        assert eee.enabled is {"enabled - active": True, "disabled": False}.get(status)
