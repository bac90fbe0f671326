"""Library modules speak for their drivers' device (issue 24): "wlcore: ERROR ..." is printed
by wl1271_error() (drivers/net/wireless/ti/wlcore/debug.h) under the library's name, about the
device of wl12xx_driver or wl18xx_driver. The table library -> users is generated from the
6.1/6.12 Makefiles and Kconfig (scripts/regen_library_modules.py) and checked against them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from sbctune.advice.inspect import inventory_from_raw
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.library_modules import library_of, library_users
from sbctune.inventory.model import Inventory
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root
from tests.kernel_trees import kernel_trees

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"
_WL18XX = CORPUS / "linaro_optee_177_wl18xx_syslog_conf_bin_missing" / "commands"


def _syslog() -> list[str]:
    (path,) = _WL18XX.glob("*syslog*")
    return path.read_text(encoding="utf-8").splitlines()


def _inventory(text: str) -> Inventory:
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": text}))
    assert isinstance(inv, Inventory)
    return inv


def test_the_libraries_the_issue_names_have_their_drivers_as_users() -> None:
    assert {"wl12xx_driver", "wl18xx_driver"} <= library_users("wlcore")
    assert {"rtw_8822bu", "rtw_8821cu", "rtw_8822ce"} <= library_users("rtw88_core")
    assert "rtw89_8852be" in library_users("rtw89_core")
    assert "mt76x2u" in library_users("mt76_usb") and "mt7921e" not in library_users("mt76_usb")
    assert "rt2800usb" in library_users("rt2x00lib")
    assert {"ath9k", "ath9k_htc"} <= library_users("ath9k_common")
    assert {"usb8xxx", "libertas_sdio"} <= library_users("libertas")
    assert {"cdc_ether", "ax88179_178a", "smsc95xx"} <= library_users("usbnet")
    assert "r8152" not in library_users("usbnet")  # r8152 is no usbnet mini-driver
    assert "bcmgenet" in library_users("libphy")
    assert library_users("wl18xx_driver") == frozenset()  # a driver is no library
    drivers = load_kernel_drivers()
    table = json.loads(
        resource_root()
        .joinpath("kernel_source", "library_modules.json")
        .read_text(encoding="utf-8")
    )["libraries"]
    # wlcore, usbnet, rtw88_core print under a name no driver has, so it reads as the library's
    assert not [lib for lib in ("wlcore", "usbnet", "rtw88_core") if drivers.get(lib)]
    assert all(r["users"] and r["series"] for r in table.values())


def test_a_library_complaint_is_its_users_device_finding() -> None:
    """The real syslog: wlcore's ERROR and WARNING lines are the WL18xx's driver complaint,
    named as the library's, not as lines 'the 6.1/6.12 source no longer prints'."""
    inv = _inventory("\n".join(_syslog()))
    (nic,) = inv.nics
    assert nic.driver == "wl18xx_driver"
    (finding,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert finding.evidence[0].startswith("wlcore: ERROR could not get configuration binary")
    assert "wlcore, the library module its driver wl18xx_driver uses" in finding.summary
    assert "no longer prints" not in finding.summary
    assert library_of(finding.evidence[0], "wl18xx_driver") == (
        "wlcore",
        "drivers/net/wireless/ti/wlcore/Makefile",
    )
    assert library_of(finding.evidence[0], "r8152") is None


def test_a_library_complaint_stays_off_a_nic_whose_driver_does_not_use_it() -> None:
    """wlcore's lines beside an r8152 NIC's (a real line of another log) are no complaint of
    the r8152: r8152 does not use wlcore. Without its user's device, the lines make no NIC."""
    wlcore = [line for line in _syslog() if "wlcore:" in line]
    assert len(wlcore) == 2
    r8152 = "[   49.903126] r8152 5-1:1.0 eth0: v1.09.10"
    inv = _inventory("\n".join([r8152, *wlcore]))
    assert [n.driver for n in inv.nics] == ["r8152"]
    assert not [f for f in inv.findings if any("wlcore" in line for line in f.evidence)]
    assert _inventory("\n".join(wlcore)).nics == []


_OBJ = r"^obj_\$\(CONFIG_{config}\)\s*[:+]?=.*\b{module}\.o\b"


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_library_table_is_what_the_source_says() -> None:
    """Each library's Makefile builds it from its CONFIG symbol, and regenerating from the
    trees gives the shipped table."""
    from regen_library_modules import GLOBS, libraries

    trees = kernel_trees(GLOBS)
    table = json.loads(
        resource_root()
        .joinpath("kernel_source", "library_modules.json")
        .read_text(encoding="utf-8")
    )["libraries"]
    drivers = json.loads(
        resource_root().joinpath("kernel_source", "drivers.json").read_text(encoding="utf-8")
    )["drivers"]
    for lib in ("wlcore", "rtw88_core", "mt76_usb", "usbnet", "libphy", "ath9k_common"):
        row = table[lib]
        for series in row["series"]:
            text = (trees[series] / row["makefile"]).read_text(encoding="utf-8")
            text = text.replace("\\\n", " ").replace("-", "_")
            pattern = _OBJ.format(config=row["config"], module=lib)
            assert re.search(pattern, text, re.M), (lib, series)
    for series, root in trees.items():
        files = {n: str(r["file"]) for n, r in drivers.items() if series in r["series"]}
        got = libraries(root, files)
        for lib, row in table.items():
            if series in row["series"]:
                assert set(got[lib]["users"]) <= set(row["users"]), (lib, series)  # type: ignore[call-overload]
                needed = set(got[lib]["needed_by"])  # type: ignore[call-overload]
                assert needed <= set(row["needed_by"]) <= set(row["users"]), (lib, series)
