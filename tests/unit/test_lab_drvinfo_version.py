"""``ethtool -i``'s version line for the drivers with a get_drvinfo of their own (issue 21,
driver_caps_audit4a.md row 6, closed in session 13).

net/ethtool/ioctl.c ethtool_get_drvinfo writes the running kernel's release into version
(UTS_RELEASE in 6.1, init_uts_ns.name.release in 6.12) before it calls the driver's get_drvinfo;
bcmgenet_get_drvinfo, lan78xx_get_drvinfo, rtl8169_get_drvinfo, igb_get_drvinfo,
igc_ethtool_get_drvinfo, aq_ethtool_get_drvinfo and stmmac_ethtool_getdrvinfo write none, so the
release stays; rtl8152_get_drvinfo writes DRIVER_VERSION ("v1." NETNEXT_VERSION "." NET_VERSION:
v1.12.13 in both series) and asix_get_drvinfo asix.h's DRIVER_VERSION ("22-Dec-2011"). Before,
the lab left the line empty for every one of them (the PCI ones got the release only through
the address the lab gives them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.tuning import driver_caps

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
KERNEL = "6.12.47+rpt-rpi-v8"
WRITTEN = {
    "bcmgenet": KERNEL,
    "lan78xx": KERNEL,
    "r8169": KERNEL,
    "igb": KERNEL,
    "igc": KERNEL,
    "atlantic": KERNEL,
    "stmmac": KERNEL,
    "r8152": "v1.12.13",
    "asix": "22-Dec-2011",
}


def _version(tmp_path: Path, driver: str, kernel: str) -> str:
    path = tmp_path / f"{driver}.json"
    iface = interface_state(driver, EMPTY, "eth0", "", kernel)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["-i", "eth0"], str(path))
    assert result is not None and result[2] == 0
    line = next(x for x in result[0].splitlines() if x.startswith("version:"))
    return line.removeprefix("version:").strip()


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize("driver", sorted(WRITTEN))
def test_ethtool_i_shows_the_version_the_drivers_get_drvinfo_leaves(
    tmp_path: Path, driver: str
) -> None:
    assert _version(tmp_path, driver, KERNEL) == WRITTEN[driver]


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_no_kernel_named_claims_only_a_version_the_driver_writes(tmp_path: Path) -> None:
    assert _version(tmp_path, "bcmgenet", "") == ""  # the release is not known
    assert _version(tmp_path, "r8152", "") == "v1.12.13"  # the driver's own, any kernel


def test_every_pasted_driver_with_its_own_get_drvinfo_says_what_it_writes() -> None:
    """The table answers for each of the 13: a get_drvinfo that is usbnet's or none needs no
    fact (ethtool_table.drvinfo_strings); any other has a cited drvinfo_version."""
    table = driver_caps.table()
    missing = []
    for driver in table["pasted"]:
        own = {v["ops"].get("get_drvinfo") for v in table["drivers"][driver].values()}
        caps = driver_caps.caps(driver)
        if own <= {None, "usbnet_get_drvinfo"}:
            continue
        if caps is None or "drvinfo_version" not in caps.facts or not caps.cite("drvinfo_version"):
            missing.append(driver)
    assert missing == []


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize(
    ("chip", "firmware"),
    [
        ("AX88772B", "ASIX AX88772B USB 2.0 Ethernet"),
        ("AX88178", "ASIX AX88178 USB 2.0 Ethernet"),
        ("AX88772", "ASIX AX88772 USB 2.0 Ethernet"),
        ("AX88772A", ""),  # no description names it: the USB ID decides, not claimed
        ("", ""),
    ],
)
def test_asix_firmware_version_is_usbnets_description_of_the_chip(
    tmp_path: Path, chip: str, firmware: str
) -> None:
    """asix_get_drvinfo inherits usbnet_get_drvinfo: fw_version is the bound driver_info's
    description, as for the other usbnet drivers (smsc95xx, cdc_ncm)."""
    iface = interface_state("asix", EMPTY, "eth0", chip, KERNEL)
    path = tmp_path / "asix.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["-i", "eth0"], str(path))
    assert result is not None and result[2] == 0
    line = next(x for x in result[0].splitlines() if x.startswith("firmware-version:"))
    assert line.removeprefix("firmware-version:").strip() == firmware
    assert "version: 22-Dec-2011" in result[0].splitlines()
