"""A renamed interface ("lan78xx 1-1.1.1:1.0 enxb827eb04f89e: renamed from eth0", systemd's
eth0 -> end0) is one NIC: its lines under the old name and the new join by the device's
address. And a name the kernel gives to another device after the rename (the SoC's eth0 became
end0; a USB adapter registers next as eth0) does not join the two devices into one NIC: the
device address decides, whatever the order of the lines.

Every line is a real one, from tests/captures/dmesg (each with its .source.md); the tests put
real lines of two pastes side by side, as tests/unit/test_bus_elimination.py does."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.model import Nic
from sbctune.inventory.raw import RawOutputs

DMESG = Path(__file__).resolve().parents[1] / "captures" / "dmesg"


def _lines(name: str) -> list[str]:
    return (DMESG / f"{name}.txt").read_text(encoding="utf-8").splitlines()


def _nics(lines: list[str]) -> list[Nic]:
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": "\n".join(lines) + "\n"}))
    return [n for n in inv.nics if n.driver != "brcmfmac"]


# systemd 252 renamed a Pi 4's bcmgenet eth0 to end0 (its Link lines use end0)
PI4_END0 = _lines("pi4_systemd_25444_human_no_ts")
# a Pi's smsc95xx registered as eth0, then renamed to eth1
HYPRIOT = _lines("pi_hypriot_31_smsc95xx_rename")
SMSC_AS_ETH0 = [line for line in HYPRIOT if "eth0: register" in line]
TWO = [("bcmgenet", "platform", "end0"), ("smsc95xx", "usb", "eth0")]


@pytest.mark.parametrize(
    ("capture", "wanted"),
    [
        ("pi4_systemd_25444_human_no_ts", [("end0", "bcmgenet")]),
        ("pi_hypriot_31_smsc95xx_rename", [("eth1", "smsc95xx")]),
        ("pi3bplus_linux_3636_lan78xx_enx_brcmfmac", [("enxb827eb04f89e", "lan78xx")]),
        (
            "popos_3223_ax88179a_dockcase_cdc_ncm_dmesg_tail_lsusb_grep",
            [("enx9050c080d565", "cdc_ncm")],
        ),
        ("rk3588_heymeco_4_rtl8125b_enp4p65s0", [("enP4p65s0", "r8169")]),
        ("igb_clearlinux_48_renamed_excerpt", [(f"enp{i}s0", "igb") for i in range(1, 5)]),
    ],
)
def test_a_renamed_interface_is_one_nic(capture: str, wanted: list[tuple[str, str]]) -> None:
    """Real pastes: the old name's lines and the new name's are one NIC, not two."""
    assert sorted((n.name, n.driver) for n in _nics(_lines(capture))) == wanted


def test_a_name_given_again_to_another_device_does_not_join_them() -> None:
    nics = _nics(PI4_END0 + SMSC_AS_ETH0)
    assert sorted((n.driver, n.bus) for n in nics) == [
        ("bcmgenet", "platform"),
        ("smsc95xx", "usb"),
    ]
    (genet,) = [n for n in nics if n.driver == "bcmgenet"]
    assert (genet.name, genet.link_speed_mbps) == ("end0", 1000)


@settings(max_examples=30, deadline=None)
@given(st.permutations(PI4_END0 + SMSC_AS_ETH0))
def test_the_devices_do_not_depend_on_the_order_of_the_lines(lines: list[str]) -> None:
    nics = _nics(list(lines))
    assert sorted((n.driver, n.bus) for n in nics) == [
        ("bcmgenet", "platform"),
        ("smsc95xx", "usb"),
    ]


@settings(max_examples=30, deadline=None)
@given(st.permutations(PI4_END0 + HYPRIOT))
def test_two_renamed_devices_stay_two_in_any_order(lines: list[str]) -> None:
    nics = _nics(list(lines))
    assert sorted((n.name, n.driver) for n in nics) == [("end0", "bcmgenet"), ("eth1", "smsc95xx")]
