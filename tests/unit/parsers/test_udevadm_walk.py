"""``udevadm info --attribute-walk`` (real pastes in captures/reports) and NetworkManager's
carrier lines in a journal (captures/dmesg)."""

from __future__ import annotations

from sbctune.inventory.parsers import parse_command, parse_dmesg
from sbctune.inventory.parsers.udevadm_walk import parse_udevadm_walk

from .conftest import read_capture

PCI = "reports/x86_systemd_33598_udevadm_attribute_walk_enp130s0f0_carrier_0.txt"
USB = "reports/pi4_dietpi_5445_udevadm_attribute_walk_rtl8812au_parent_480.txt"
NM = "dmesg/pi3_nymea_nm_42_networkmanager_journal_carrier_link_connected.txt"


def test_a_net_device_block_gives_its_name_pci_address_mac_and_carrier() -> None:
    walk, warnings = parse_udevadm_walk(read_capture(PCI))
    assert not [w for w in warnings if "nothing could be read" in w.message]
    [net] = walk.lshw.networks
    assert (net.logical_name, net.pci_address, net.serial, net.link) == (
        "enp130s0f0",
        "0000:82:00.0",
        "b0:26:28:9b:f3:24",
        False,
    )
    assert walk.lsusb.devices == []


def test_a_usb_device_block_gives_ids_port_path_and_speed_its_hub_is_a_hub() -> None:
    walk, _ = parse_udevadm_walk(read_capture(USB))
    assert walk.lshw.networks == []
    [dev] = walk.lsusb.devices  # the hub's block shows no idVendor in this excerpt
    assert (dev.ids, dev.path, dev.speed_mbps, dev.description) == (
        "0bda:8812",
        "1-1.2",
        480.0,
        "Realtek 802.11n NIC",
    )


def test_the_parent_blocks_driver_is_the_nics() -> None:
    text = (
        "  looking at device '/devices/pci0000:00/0000:00:1c.0/0000:02:00.0/net/enp2s0':\n"
        '    KERNEL=="enp2s0"\n    SUBSYSTEM=="net"\n    DRIVER==""\n    ATTR{carrier}=="1"\n'
        "\n  looking at parent device '/devices/pci0000:00/0000:00:1c.0/0000:02:00.0':\n"
        '    KERNELS=="0000:02:00.0"\n    SUBSYSTEMS=="pci"\n    DRIVERS=="r8169"\n'
    )
    [net] = parse_udevadm_walk(text)[0].lshw.networks
    assert (net.driver, net.link) == ("r8169", True)


def test_only_the_attribute_walk_is_dispatched() -> None:
    text = read_capture(PCI)
    assert parse_command("udevadm info -a -p /sys/class/net/eth0", text).parser == "udevadm info"
    assert parse_command("udevadm info --attribute-walk /sys/x", text).parser == "udevadm info"
    assert parse_command("udevadm info -q property /sys/x", text).parser is None


def test_networkmanagers_carrier_line_is_a_link_change() -> None:
    events = [e for e in parse_dmesg(read_capture(NM))[0].events if e.kind == "carrier"]
    assert [(e.iface, e.fields.get("state")) for e in events] == [("eth0", "connected")]
