"""Classes that the thirty-fourth unseen set (cellular modems and tethered phones as an SBC's or
a router's uplink; tests/captures/corpus/wwan34_*) showed misread. Every output here is one of
those bundles' (named beside it, with its SOURCE.md), or one changed to show what must NOT be
read; the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.parsers.dispatch import parse_command, resolve_command
from sbctune.inventory.parsers.mmcli import parse_mmcli
from tests.corpus_support import corpus_output, findings_of, inventory_of

_THINKPAD = "wwan34_thinkpad_lenovo_wwan_28_mmcli_rm520n_pcie_mhi_wwan0_net"
_OMR_3050 = "wwan34_omr_3050_mmcli_rm520n_usb_6_1_option1_qmi_wwan_cdc_wdm0"
_ZBT = "wwan34_zbt_z8102ax_omr_3498_mmcli_two_rm520n_wwan0_wwan1_backticks"


# --- ModemManager's `mmcli -m N` block: the modem's net port is a NIC at the modem's device ---


def test_a_pcie_modems_mmcli_block_is_its_wwan0_on_the_pci_function() -> None:
    """The ThinkPad's RM520N-GL on PCIe: `ports: wwan0 (net), ...`, `device: .../0000:08:00.0`,
    `drivers: mhi-pci-generic`. The user sees wwan0, a cellular modem's interface, on PCI."""
    inv = inventory_of({"mmcli -m 0": corpus_output(_THINKPAD)})
    (nic,) = inv.nics
    assert (nic.name, nic.bus, nic.bus_path) == ("wwan0", "pci", "0000:08:00.0")
    assert nic.driver == "mhi-pci-generic"
    assert "RM520N" in (nic.chip or "")
    assert findings_of(inv, "cellular-modem")


def test_a_usb_modems_net_port_takes_the_network_driver_not_the_serial_one() -> None:
    """`drivers: option1, qmi_wwan`: option1 serves the AT ports (a usb-serial driver the
    kernel's network-driver table does not list); wwan0's driver is qmi_wwan, at USB 6-1."""
    inv = inventory_of({"mmcli -m 2": corpus_output(_OMR_3050)})
    (nic,) = inv.nics
    assert (nic.name, nic.bus, nic.bus_path, nic.driver) == ("wwan0", "usb", "6-1", "qmi_wwan")


def test_two_modems_with_wrapped_ports_lines_and_glued_backticks() -> None:
    """The ZBT Z8102AX's two blocks: each `ports:` list wraps onto a line with nothing before
    its `|`, the net port on the second line; the labels carry the post's backticks."""
    inv = inventory_of(
        {"mmcli -m 0": corpus_output(_ZBT, "000"), "mmcli -m 1": corpus_output(_ZBT, "001")}
    )
    got = sorted((n.name, n.bus_path, n.driver) for n in inv.nics)
    assert got == [("wwan0", "2-1.1", "qmi_wwan"), ("wwan1", "2-1.2", "qmi_wwan")]


def test_a_modem_block_without_a_net_port_is_no_nic() -> None:
    """A modem whose ports are all serial (the RM520N-GL bound to option alone) has no network
    interface: nothing to list, and its PCI or USB device is not made one."""
    text = corpus_output(_OMR_3050).replace(", wwan0 (net)", "")
    result, _warnings = parse_mmcli(text)
    assert result.networks == []


def test_mmcli_actions_are_not_read_as_a_modem_block() -> None:
    assert resolve_command("mmcli -m 0")[0] == "mmcli -m"
    assert resolve_command("mmcli -m any")[0] == "mmcli -m"
    assert resolve_command("mmcli -m 0 --simple-connect='apn=internet'")[0] is None
    assert resolve_command("mmcli -L")[0] is None


@given(st.text(max_size=400))
def test_the_mmcli_parser_never_raises(text: str) -> None:
    parsed = parse_command("mmcli -m 0", text)
    assert parsed.parser == "mmcli -m"


# --- /sys/kernel/debug/usb/devices (usb-devices): the T: line's Lev/Prnt/Port are a port path ---

_GARGOYLE = "wwan34_gargoyle_537_debug_usb_devices_e3372_option_huawei_cdc_ncm"
_L850 = "wwan34_3ginfo_82_l850gl_debug_usb_devices_cdc_mbim_cdc_acm_iad"


def test_a_device_on_the_root_hub_is_at_bus_dash_port_plus_one() -> None:
    """`T:  Bus=02 Lev=01 Prnt=01 Port=00`: the kernel prints the 0-based port (devices.c
    usb_device_dump(..., chix - 1, ...)), so the E3372 is at 2-1, where its driver's lines and
    `lsusb -t` would put it."""
    inv = inventory_of({"cat /sys/kernel/debug/usb/devices": corpus_output(_GARGOYLE)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.driver) == ("2-1", "12d1:1506", "huawei_cdc_ncm")


def test_a_deeper_device_extends_its_parents_path_and_needs_its_parents_line() -> None:
    """A hub at 1-1 (Dev# 2) and the L850-GL below it on its port 2 (Port=01): 1-1.2. The
    same device pasted without its parent's T: line has no path: its parent's port is unknown."""
    hub = "T:  Bus=01 Lev=01 Prnt=01 Port=00 Cnt=01 Dev#=  2 Spd=480  MxCh= 4\n"
    hub += "P:  Vendor=05e3 ProdID=0610 Rev= 6.56\nI:* If#= 0 Alt= 0 #EPs= 1 Cls=09(hub  ) "
    hub += "Sub=00 Prot=00 Driver=hub\n"
    alone = corpus_output(_L850)
    inv = inventory_of({"cat /sys/kernel/debug/usb/devices": hub + alone})
    (nic,) = inv.nics
    assert nic.bus_path == "1-1.2"
    (nic,) = inventory_of({"cat /sys/kernel/debug/usb/devices": alone}).nics
    assert nic.bus_path is None and nic.ids == "2cb7:0007"


# --- a usbnet driver whose every driver_info sets FLAG_WWAN drives modems only ---

_TOMATO = "wwan34_freshtomato_315_tab_separated_syslog_switch4g_huawei_cdc_ncm_1_2"


def test_huawei_cdc_ncm_is_a_modems_driver_by_its_flag_wwan() -> None:
    """FreshTomato's log: huawei_cdc_ncm on 1-2. Its MODULE_DESCRIPTION ("USB CDC NCM host
    driver with encapsulated protocol support") names no modem, but its one driver_info sets
    FLAG_WWAN (huawei_cdc_ncm.c huawei_cdc_ncm_info), as usbnet.c reads it to name "wwan%d":
    the user is told it is a cellular modem's interface."""
    inv = inventory_of({"cat /var/log/messages": corpus_output(_TOMATO)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.driver) == ("1-2", "huawei_cdc_ncm")
    assert findings_of(inv, "cellular-modem")


def test_a_driver_with_ethernet_driver_infos_too_is_not_a_modems_driver() -> None:
    """cdc_ether and cdc_ncm have a FLAG_WWAN driver_info for some IDs beside their Ethernet
    ones: their devices may be either, so the driver alone says nothing."""
    from sbctune.catalog.wwan_ids import is_wwan_driver

    assert is_wwan_driver("huawei_cdc_ncm") and is_wwan_driver("kalmia")
    assert not is_wwan_driver("cdc_ether") and not is_wwan_driver("cdc_ncm")
    assert not is_wwan_driver("r8152")


# --- a tethered phone's RNDIS pair in `lsusb -t`, no driver bound: a NIC with no driver ---

_PRAWNOS = "wwan34_prawnos_295_chromebook_lsusb_t_tethered_phone_no_driver_asix"


def test_an_unbound_miscellaneous_and_cdc_data_pair_is_a_nic_with_no_driver() -> None:
    """The Chromebook's Android phone at 5-1.3.3: `Class=Miscellaneous Device, Driver=,` and
    `Class=CDC Data, Driver=,`. Only rndis_host binds class ef interfaces among the kernel's
    USB network drivers (usb_net_classes.json: ef/01/01, ef/04/01), with a CDC Data interface
    beside: the user is told the phone's network function has no driver."""
    inv = inventory_of({"lsusb -t": corpus_output(_PRAWNOS)})
    phone = [n for n in inv.nics if n.bus_path == "5-1.3.3"]
    assert len(phone) == 1 and phone[0].driver is None and phone[0].driver_state == "none"
    assert findings_of(inv, "no-driver")
    assert {n.bus_path for n in inv.nics} == {"5-1.2", "5-1.3.3"}  # not the classless Dev 68


def test_a_communications_and_cdc_data_pair_alone_is_no_nic() -> None:
    """A CDC ACM modem or serial adapter has the same two class names (cdc_acm binds
    Communications 02/02 by class, drivers/usb/class/cdc-acm.c): by `lsusb -t` alone it is
    no network function."""
    tree = corpus_output(_PRAWNOS).replace("Miscellaneous Device", "Communications")
    inv = inventory_of({"lsusb -t": tree})
    assert {n.bus_path for n in inv.nics} == {"5-1.2"}


# --- a USB device whose own product string names a class driver's network model ---

_OPENIPC = "wwan34_openipc_1829_rancam_l850_bare_usb_lines_mbim_3_acm_no_netdev"


def test_a_product_string_naming_mbim_is_a_network_device() -> None:
    """The OpenIPC camera's Fibocom L850: five `usb 1-1:` lines, IDs no table knows
    (2cb7:0007), `Product: MBIM + 3 CDC-ACM`. MBIM is the model cdc_mbim's own description
    names ("USB CDC MBIM host driver"), so the modem is listed at 1-1 with its IDs; "CDC-ACM"
    (serial) and "USB" name none."""
    inv = inventory_of({"dmesg": corpus_output(_OPENIPC)})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids, nic.bus) == ("1-1", "2cb7:0007", "usb")
    serial = corpus_output(_OPENIPC).replace("MBIM + 3 CDC-ACM", "3 CDC-ACM")
    assert inventory_of({"dmesg": serial}).nics == []


def test_the_protocol_words_come_from_the_class_drivers_descriptions() -> None:
    from sbctune.catalog.usb_net_classes import protocol_words

    assert protocol_words() == {
        "EEM": "cdc_eem",
        "MBIM": "cdc_mbim",
        "NCM": "cdc_ncm",
        "RNDIS": "rndis_host",
    }
