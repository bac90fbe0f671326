"""Classes that the thirty-second unseen set (log wrappers and USB trouble around a network
device; tests/captures/corpus) showed misread. Every output here is one of those bundles' (named
beside it, with its SOURCE.md), or a line of one changed to show what must NOT be read; the
corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.static_board import _port_path
from sbctune.inventory.parsers.dmesg_classify import classify
from tests.corpus_support import (
    CORPUS,
    corpus_line,
    corpus_output,
    dmesg_events,
    dmesg_inventory,
    findings_of,
    inventory_of,
)

_PI3BPLUS = "pi3bplus_re4son_6_poe_hat_over_current_flood_lsusb_t_lan78xx"
_PI_HUB = "pi_hexxeh_fw_42_syslog_hub_cannot_enable_port_smsc95xx_asix_ax88772b"
_SURFACE = "surface_linux_surface_813_syslog_ax88179_dock_epipe_mtp_probe"


# --- the Pi 3 B+'s own LAN7515, by its place below the SoC's USB ---


def test_the_3bplus_lan7515_at_its_place_is_the_boards_own_nic_on_usb2() -> None:
    """`lsusb -t` of a Pi 3 B+ (no model line): lan78xx at port 1 of a 3-port hub on port 1 of
    a 4-port hub on the dwc_otg root hub, the place the kernel's lan78xx binding example gives
    the 3 B+'s LAN7515. It is the board's own USB 2.0 NIC, not "a USB 3 adapter in a USB 2.0
    port" (the LAN7800 dongles' family name said so before)."""
    inv = inspect_bundle(CORPUS / _PI3BPLUS)
    (nic,) = inv.nics
    assert (nic.bus_path, nic.chip, nic.builtin) == ("1-1.1.1", "Microchip LAN7515", True)
    assert findings_of(inv, "usb3-adapter-at-usb2") == []
    assert [s for s in findings_of(inv, "builtin-nic-on-usb2") if "LAN7515" in s]


def test_a_lan78xx_dongle_elsewhere_on_a_pi_without_ids_is_no_usb3_adapter() -> None:
    """The same tree with the lan78xx moved to port 3 of the board's hub: not the board's own;
    `lsusb -t` shows no IDs, and lan78xx also binds the LAN7850, which lan78xx.c
    lan78xx_init_ltm calls USB 2.0, so a 480M link is no "USB 3 adapter at USB 2.0" (chips24;
    with 0424:7800 shown it is: test_catalog_usb_generations)."""
    tree = corpus_output(_PI3BPLUS, "001-lsusb_t").replace(
        "        |__ Port 1: Dev 3, If 0, Class=Hub, Driver=hub/3p, 480M\n"
        "            |__ Port 1: Dev 5,",
        "        |__ Port 3: Dev 5,",
    )
    inv = inventory_of({"lsusb -t": tree})
    (nic,) = inv.nics
    assert (nic.bus_path, nic.builtin) == ("1-1.3", False)
    assert findings_of(inv, "usb3-adapter-at-usb2") == []


# --- a class driver's "driver device: name:" line names its char device, not an interface ---


def test_a_printer_class_drivers_device_name_is_no_interface() -> None:
    """usblp.c prints "usblp 1-1.2:1.0: usblp0: USB Bidirectional printer ..." in the shape
    kernels before 3.x gave network drivers ("smsc95xx 1-1.1:1.0: eth0: ..."); usblp0 is a
    printer's character device: the Pi's NICs are eth0 and eth1 only."""
    inv = inspect_bundle(CORPUS / _PI_HUB)
    assert sorted(n.name or "" for n in inv.nics) == ["eth0", "eth1"]
    printer = next(line for line in corpus_output(_PI_HUB).splitlines() if "usblp0" in line)
    assert dmesg_events(printer) == [("device", {"driver": "usblp", "device": "1-1.2:1.0"})]


def test_a_network_drivers_old_shape_still_names_its_interface() -> None:
    """A 3.x Pi's "smsc95xx 1-1.1:1.0: eth0: register 'smsc95xx' at usb-bcm2708_usb-1.1, ..."
    (corpus/pi_linux_168_*): smsc95xx is a network driver, eth0 its interface."""
    line = corpus_line("pi_linux_168_smsc95xx_register_index_syslog", "eth0: register")
    assert [e for e in dmesg_events(line) if e[1].get("iface") == "eth0"]
    # an unknown (out-of-tree) driver's line on an interface the kernel's templates name
    fields = classify("foo_eth 1-1:1.0: eth1: link up")
    assert fields is not None and fields[1].get("iface") == "eth1"


@given(
    driver=st.from_regex(r"[a-z][a-z0-9_]{1,12}", fullmatch=True),
    name=st.from_regex(r"[a-z][a-z0-9]{1,10}", fullmatch=True),
    rest=st.text(max_size=60),
)
def test_the_old_shape_never_raises_and_names_only_network_interfaces(
    driver: str, name: str, rest: str
) -> None:
    found = classify(f"{driver} 1-1.2:1.0: {name}: {rest}")
    iface = (found[1] if found else {}).get("iface")
    if iface is not None and not driver.startswith(("usb", "r81", "rtl", "rtw", "mt7")):
        assert iface == name


# --- a USB error finding says the errors the lines show ---


def test_usb_errors_of_a_stalled_adapter_are_named_not_called_a_reset() -> None:
    """A Surface dock's ax88179_178a: every register access fails with -32 (EPIPE, a stalled
    request) and no line resets or disconnects the device: the finding names -32 EPIPE and
    does not say the adapter was reset or lost, nor "-71/-110"."""
    inv = inspect_bundle(CORPUS / _SURFACE)
    (summary,) = findings_of(inv, "usb-reset")
    assert "-32 EPIPE" in summary
    assert "reset or lost" not in summary and "-71" not in summary


# --- over-current on a hub's ports ---


def test_an_over_current_flood_on_the_hubs_ports_is_a_finding() -> None:
    """The Pi 3 B+ with a PoE HAT: "usb 1-1-port2: over-current change" again and again on
    five ports of its two hubs (drivers/usb/core/hub.c port_event()), nothing plugged in. The
    finding counts the lines and names the ports; the LAN7515 at 1-1.1.1 is below none."""
    inv = inspect_bundle(CORPUS / _PI3BPLUS)
    (found,) = [f for f in inv.findings if f.id == "usb-over-current"]
    assert "15 times on 5 ports (1-1-port2, 1-1.1-port3" in found.summary
    assert found.nic is None and "over-current change" in found.evidence[0]


def test_over_current_on_the_port_of_a_usb_nic_names_that_nic() -> None:
    lines = [
        "[   12.000000] usb 1-1.2: new high-speed USB device number 4 using dwc_otg",
        "[   12.100000] usb 1-1.2: New USB device found, idVendor=0b95, idProduct=772b",
        "[   12.300000] asix 1-1.2:1.0 eth1: register 'asix' at usb-3f980000.usb-1.2, ASIX",
        "[   40.000000] usb 1-1-port2: over-current condition",
    ]
    inv = dmesg_inventory(*lines)
    (found,) = [f for f in inv.findings if f.id == "usb-over-current"]
    assert found.nic == "eth1" and "1 port (1-1-port2)" in found.summary
    inv = dmesg_inventory(*lines[:3], "[   40.000000] usb 1-1-port21: over-current condition")
    (found,) = [f for f in inv.findings if f.id == "usb-over-current"]
    assert found.nic is None  # port 21's devices are 1-1.21..., not 1-1.2


@given(st.text(max_size=40))
def test_a_port_name_of_any_text_is_read_without_raising(name: str) -> None:
    path = _port_path(name)
    assert path is None or "-" in path
