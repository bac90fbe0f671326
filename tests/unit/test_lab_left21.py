"""Issue 21, rows earlier audits left open (driver_caps_audit8a.md L2, driver_caps_audit8b.md
rows 4-5), as a user of the lab's ``ethtool`` reads them. Texts and numbers of the bitset
argument are Debian's ethtool 1:6.1-1 binary's (``apt-get download ethtool``, run with
``--debug 0x1c`` on a veth in a private namespace, 2026-11-29: ``advertise 010`` sends bit 4,
``0x8/0xc`` value 8 mask 0xc, ``12g`` "flag '12g' for parameter 'advertise' is not followed by
'on' or 'off'", ``0xzz`` "invalid value 'zz'", ``0x`` "invalid value ''")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.lab import load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.lab.fake_ethtool_base import Failure, parse_bitset
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, root, with_link

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _up(tmp_path: Path, driver: str, chip: str = "", **link: Any) -> str:
    return with_link(lab_state(tmp_path, driver, chip, "6.12"), **{**LINK_UP, **link})


def _line(state: str, label: str) -> str:
    out, err, code = ethtool(state, "eth0")
    assert code == 0, err
    lines = out.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.strip().startswith(label + ":"))
    words = lines[at].split(":", 1)[1].split()
    for more in lines[at + 1 :]:  # continuation lines of a mode list
        if ":" in more:
            break
        words += more.split()
    return " ".join(words)


@POSIX
@root
@pytest.mark.parametrize(
    "advertise",
    [["0x0/0x20"], ["0/20"], ["1000baseT/Full", "off"], ["1000baseT/Full", "off", "--"]],
)
def test_advertise_takes_a_mask_and_names_as_ethtool_does(
    tmp_path: Path, advertise: list[str]
) -> None:
    """Row 8b-5: `ethtool -s eth0 advertise 0x0/0x20` (value/mask) and `advertise
    1000baseT/Full off` clear gigabit alone (ethnl_update_bitset), the rest stays advertised.
    Before: "invalid value '0x0/0x20' for parameter 'advertise'", exit 1."""
    state = _up(tmp_path, "r8152", "RTL8153")
    before = _line(state, "Advertised link modes")
    assert "1000baseT/Full" in before
    assert ethtool(state, "-s", "eth0", "advertise", *advertise) == ("", [], 0)
    assert _line(state, "Advertised link modes") == before.replace(" 1000baseT/Full", "")


@POSIX
@root
def test_advertise_numbers_are_hex_without_0x(tmp_path: Path) -> None:
    """`advertise 08` is 0x8 (force_hex: 100baseT/Full alone), and replaces the advertisement
    (no mask: ETHTOOL_A_BITSET_NOMASK)."""
    state = _up(tmp_path, "r8152", "RTL8153")
    assert ethtool(state, "-s", "eth0", "advertise", "08") == ("", [], 0)
    assert _line(state, "Advertised link modes") == "100baseT/Full"


@POSIX
@root
@pytest.mark.parametrize("option", ["-s", "--set-eee"])
@pytest.mark.parametrize(
    ("arg", "err"),
    [
        ("12g", "flag '12g' for parameter 'advertise' is not followed by 'on' or 'off'"),
        ("0xzz", "invalid value 'zz' for parameter 'advertise'"),
        ("0x", "invalid value '' for parameter 'advertise'"),
        ("8/", "invalid value '8/' for parameter 'advertise'"),
    ],
)
def test_advertise_refusals_are_ethtools(tmp_path: Path, option: str, arg: str, err: str) -> None:
    """The binary's own parser errors, exit 1, for both options (one nl_parse_bitset)."""
    state = _up(tmp_path, "lan78xx", "LAN7800")
    assert ethtool(state, option, "eth0", "advertise", arg) == (
        "",
        [f"ethtool ({option}): {err}"],
        1,
    )


@POSIX
@root
@pytest.mark.parametrize("arg", ["0x8", "0x8/0xc", "8"])
def test_set_eee_takes_a_hex_advertise_mask(tmp_path: Path, arg: str) -> None:
    """Row 8b-5: `ethtool --set-eee eth0 advertise 0x8` is parsed (hex) and reaches the driver.
    Before: "invalid value '0x8' for parameter 'advertise'" (the lab took decimal only)."""
    state = _up(tmp_path, "lan78xx", "LAN7800")
    assert ethtool(state, "--set-eee", "eth0", "advertise", arg) == ("", [], 0)


@POSIX
@root
@pytest.mark.parametrize(("driver", "chip"), [("r8152", "RTL8153"), ("ax88179_178a", "")])
def test_a_forced_mii_link_keeps_its_advertisement(tmp_path: Path, driver: str, chip: str) -> None:
    """Row 8a-L2, closed by the source: mii_ethtool_get_link_ksettings (drivers/net/mii.c,
    6.1 and 6.12 alike) ORs mii_get_an(MII_ADVERTISE) into `advertising` whatever BMCR_ANENABLE
    says, and a forced speed (mii_ethtool_set_link_ksettings, rtl8152_set_speed) leaves
    MII_ADVERTISE alone: the advertised modes and pause stay; only the partner's lines go
    (lp_advertising = 0) and "Advertised auto-negotiation" reads No."""
    state = _up(tmp_path, driver, chip)
    modes = _line(state, "Advertised link modes")
    pause = "Advertised pause frame use" in ethtool(state, "eth0")[0]  # ax88179: no fact
    shown = _line(state, "Advertised pause frame use") if pause else ""
    args = ["-s", "eth0", "autoneg", "off", "speed", "100", "duplex", "full"]
    assert ethtool(state, *args) == ("", [], 0)
    assert _line(state, "Advertised link modes") == modes
    assert not pause or _line(state, "Advertised pause frame use") == shown
    assert _line(state, "Advertised auto-negotiation") == "No"
    assert "Link partner" not in ethtool(state, "eth0")[0]


@given(st.text(max_size=40))
def test_the_bitset_parser_takes_any_text(text: str) -> None:
    """Any argument: a parse or ethtool's own refusal, never another error."""
    try:
        parsed, used = parse_bitset("-s", "advertise", [text, "on"])
    except Failure as failure:
        assert failure.code == 1
        assert failure.lines[0].startswith("ethtool (-s): ")
    else:
        assert used in (1, 2)
        assert "names" in parsed or parsed["value"] >= 0


@given(st.integers(min_value=0, max_value=2**64))
def test_a_number_reads_back_as_its_hex(value: int) -> None:
    for text in (f"{value:x}", f"0x{value:x}", f"0X{value:X}"):
        assert parse_bitset("-s", "advertise", [text]) == ({"value": value, "mask": None}, 1)


@POSIX
@root
@pytest.mark.parametrize(
    ("driver", "chip"), [("r8169", "RTL8125B"), ("lan78xx", "LAN7800"), ("bcmgenet", "")]
)
def test_no_pause_asked_is_advertised_as_no(tmp_path: Path, driver: str, chip: str) -> None:
    """Row 8b-4: after `-A rx off tx off` phylib advertises neither Pause nor Asym_Pause
    (phy_set_asym_pause; lan78xx_set_pause, bcmgenet_phy_pause_set: mii_advertise_flowctrl(0)),
    so ethtool's dump_pause prints "No". Audit 8a row 2's fix (the line follows -A) covers it."""
    state = _up(tmp_path, driver, chip)
    assert ethtool(state, "-A", "eth0", "autoneg", "on", "rx", "off", "tx", "off")[2] == 0
    assert _line(state, "Advertised pause frame use") == "No"


@POSIX
@root
def test_smsc95xx_takes_wake_on_lan_as_a_pis_lan951x_can_wake(tmp_path: Path) -> None:
    """Row 8a-L3: smsc95xx_ethtool_set_wol returns device_set_wakeup_enable's EINVAL only for a
    USB device that cannot wake: usb_set_device_state (drivers/usb/core/hub.c) sets can_wakeup
    from the configuration's bmAttributes USB_CONFIG_ATT_WAKEUP, and a Pi's LAN9512/LAN9514
    (0424:ec00) says "bmAttributes 0xe0 Self Powered Remote Wakeup" (real lsusb -v, linux-usb,
    Message-ID <5D224A18.2070907@gmx.net>, 2019-07-07). So `-s wol g` is taken and reads back."""
    bundle = load_profile("pi1b-smsc95xx").bundle  # its real `ethtool eth0`: Supports pumbag
    dev = interface_state("smsc95xx", bundle, "eth0", "", "6.1", None, None, 100)
    dev["link"].update({"carrier": True, "speed": "100", "duplex": "full"})
    path = tmp_path / "smsc95xx.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": dev}}), encoding="utf-8")
    state = str(path)
    assert ethtool(state, "-s", "eth0", "wol", "g") == ("", [], 0)
    assert _line(state, "Wake-on") == "g"
