"""Out-of-tree network drivers known by their public source (resources/kernel_source/
vendor_drivers.json, scripts/regen_vendor_drivers.py): a trace in such a module is a NIC's, of
the bus and kind the driver's build and ID table say, and the device that table lists is the one
it ran for (issue 24, gaps29). Every log here is a corpus bundle's (with its SOURCE.md) or lines
of one; the corpus test checks whole bundles."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.catalog.vendor_drivers import vendor_module, vendor_modules_listing
from sbctune.inventory.model import Inventory
from sbctune.inventory.raw import RawOutputs
from tests.corpus_support import CORPUS, findings_of

_KISMET = "wifi_pi4_kismet_8812au_63_rtw_mlme_warning_hardware_name"
_A6210 = "x86_amd_a6210_2_mt7662u_sta_out_of_tree_warning_no_device"
_KIRKWOOD = "trace58_kirkwood_porjo_21_mt7601usta_khubd_order5_indented"
_ROOT = Path(__file__).resolve().parents[2]


def _stored(bundle: str) -> str:
    (path,) = (CORPUS / bundle / "commands").glob("*-dmesg.txt")
    return path.read_text(encoding="utf-8")


def _log(text: str) -> Inventory:
    return inventory_from_raw(RawOutputs(commands={"dmesg": text}))


def test_a_warning_in_an_out_of_tree_usb_wifi_module_is_that_drivers_nic() -> None:
    """The Pi 4's WARNING names only the module [8812au] (morrownr/8812au-20210629's Makefile:
    MODULE_NAME = 8812au, built for USB): the user sees a USB Wi-Fi NIC on 8812au, its chip
    RTL8812AU, with the WARNING as its driver's complaint."""
    inv = inspect_bundle(CORPUS / _KISMET)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus, nic.wireless, nic.chip) == ("8812au", "usb", True, "RTL8812AU")
    assert findings_of(inv, "driver-complaint")


def test_a_trace_of_a_vendor_module_goes_to_the_stick_its_id_table_lists() -> None:
    """The Kirkwood box's order-5 allocation failure ran in mt7601Usta, whose rtusb_dev_id
    table lists 148f:7601: the complaint is the 1-1.1 stick's, not a second NIC's."""
    inv = inspect_bundle(CORPUS / _KIRKWOOD)
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids) == ("1-1.1", "148f:7601")
    assert findings_of(inv, "driver-complaint")


def test_the_head_of_a_warning_names_the_vendor_module() -> None:
    """The A6210 driver's WARNING line alone ("... NICInitBBP+0x9e/0xd0 [mt7662u_sta]()")."""
    (nic,) = _log(_stored(_A6210)).nics
    assert (nic.driver, nic.bus, nic.wireless) == ("mt7662u_sta", "usb", True)


def test_a_module_the_table_does_not_hold_opens_no_nic() -> None:
    """Edge: the same WARNING in a module no table knows makes no NIC (a trace of any module
    is not a network device's)."""
    text = _stored(_A6210).replace("[mt7662u_sta]", "[mt7662x_sta]")
    assert _log(text).nics == []


def test_the_table_reads_module_names_as_the_kernel_prints_them() -> None:
    """wilc-sdio.ko is [wilc_sdio]; IDs behind an #ifdef the build does not define are left
    out (mt7601Usta's RT6570 entry)."""
    wilc = vendor_module("wilc-sdio")
    assert wilc is not None and (wilc.bus, wilc.module) == ("sdio", "wilc_sdio")
    assert vendor_modules_listing("148f:7601") == ("mt7601Usta",)
    assert vendor_modules_listing("148f:6570") == ()
    assert vendor_module("r8152") is None


def _regen() -> Any:
    spec = importlib.util.spec_from_file_location(
        "regen_vendor_drivers", _ROOT / "scripts" / "regen_vendor_drivers.py"
    )
    assert spec is not None and spec.loader is not None
    regen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(regen)
    return regen


def test_the_id_table_parser_keeps_the_entries_the_build_defines() -> None:
    """Each shipped row names its repository, commit and file; the ID table parser keeps
    #ifdef'd entries only when the build defines the guard."""
    regen = _regen()
    entries = ["#ifdef A", "{USB_DEVICE(0x1, 0x2)},", "#else", "{USB_DEVICE(0x3, 0x4)},", "#endif"]
    table = "T t[] = {\n" + "\n".join(entries) + "\n};"
    assert regen.read_table(table, "t", {"A"}) == ["0001:0002"]
    assert regen.read_table(table, "t", set()) == ["0003:0004"]
    shipped = json.loads(
        (_ROOT / "resources" / "kernel_source" / "vendor_drivers.json").read_text("utf-8")
    )
    for name, row in shipped["drivers"].items():
        assert "@" in row["module_named_by"], name
        assert not row["ids"] or "@" in row["id_table"], name


_SKS8300 = "dsa57_sks8300_openwrt_22126_ethtool_lan8_fibre_1000_sfp_selection_failed"


def test_an_out_of_tree_dsa_switch_drivers_interface_is_a_switch_port() -> None:
    """OpenWrt's rtl83xx-switch (target/linux/realtek's common.c: its probe calls
    dsa_register_switch()) prints lan8's SFP line: the user sees lan8 as a port of the switch
    behind the CPU's MAC, not a MAC of its own."""
    inv = inspect_bundle(CORPUS / _SKS8300)
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.switch_port) == ("lan8", "rtl83xx-switch", True)


def test_an_out_of_tree_wifi_driver_is_no_switch_driver() -> None:
    """Edge: only a row marked dsa makes its interfaces switch ports (8812au's are not)."""
    from sbctune.inventory.switch_ports import is_switch_driver

    assert is_switch_driver("rtl83xx-switch")
    assert not is_switch_driver("8812au")
    assert not is_switch_driver("rtl83xx-switchx")


_NUC970 = "trace58_nuc970_nuvoton_12_emac0_eth0_skb_over_panic_65535"


def test_a_vendor_line_on_a_platform_device_named_alone_gives_its_interface() -> None:
    """The NUC970 board file's EMAC is a platform device with no id, named as its driver:
    "nuc970-emac0 nuc970-emac0: eth0 is OPENED" (dev_info() of nuc970_ether_open(), the row of
    vendor_formats.json read from Nuvoton's tree) makes eth0 that device's, on its driver."""
    (nic,) = _log(_stored(_NUC970).splitlines()[0] + "\n").nics
    assert (nic.name, nic.driver, nic.bus) == ("eth0", "nuc970-emac0", "platform")


def test_a_device_named_alone_without_its_drivers_row_is_no_nic() -> None:
    """Edge: the same shape from a driver no row reads, or words the row does not print, say
    nothing of an interface."""
    assert _log("bcm2835-codec bcm2835-codec: eth0 is OPENED\n").nics == []
    assert _log("nuc970-emac0 nuc970-emac0: eth0 was OPENED\n").nics == []


def test_a_vendor_trace_joins_a_stick_its_table_lists_not_a_second_nic() -> None:
    """Edge: the Kirkwood bundle with its stick's IDs and module edited to an RTL8812AU's
    (2357:0101, TP-Link's Archer T4U, in 8812au's rtw_usb_id_tbl under CONFIG_RTL8812A): one
    NIC, the stick at 1-1.1, with the complaint; not the stick plus a device-less 8812au."""
    text = _stored(_KIRKWOOD).replace(
        "idVendor=148f, idProduct=7601", "idVendor=2357, idProduct=0101"
    )
    inv = _log(text.replace("[mt7601Usta]", "[8812au]"))
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids) == ("1-1.1", "2357:0101")
    assert findings_of(inv, "driver-complaint")


def test_the_shipped_table_is_the_scripts_output_over_the_stored_sources() -> None:
    """Where the sources' copies are at hand (~/.cache/sbctune/vendor-src: a clone or the
    search tool's stored excerpts, see the script), the shipped table is what they give."""
    regen = _regen()
    if not regen.DEFAULT_SOURCE.is_dir():
        pytest.skip(f"no copies of the vendor sources in {regen.DEFAULT_SOURCE}")
    shipped = json.loads(regen.OUT.read_text(encoding="utf-8"))
    assert regen.build(regen.DEFAULT_SOURCE) == shipped
