"""Classes that the forty-second unseen set (multi-gig USB NICs: AQC111U, RTL8156/8157 and
AX88179A adapters on Synology NASes, x86 OpenWrt boxes, a Manjaro PC, a Minisforum UN100L and an
R36S; tests/captures/corpus/usbmg42_*) showed misread. Every output here is one of those bundles'
(named beside it, with its SOURCE.md), or one changed to show what must NOT be read; the corpus
test checks whole bundles."""

from __future__ import annotations

from tests.corpus_support import corpus_output_named, dmesg_inventory, findings_of, inventory_of

# --- usbnet's register line with the MAC its author masked ---

_DS1819 = "usbmg42_ds1819p_bbqq_aqc111_2_eth4_register_denverton"


def test_a_register_line_with_a_masked_mac_still_names_the_adapter() -> None:
    """usbnet.c usbnet_probe() (6.1, 6.12): netif_info(dev, probe, dev->net, "register '%s'
    at %s, %s, %pM\\n", ...): the third field is the driver_info's description (aqc111.c
    qnap_info "QNAP QNA-UC5G1T USB to 5GbE Adapter"). The DS1819+ post masked the MAC as
    "24:xx:xx:xx:xx:xx"; the line is still the register line, and its description the NIC's
    name."""
    inv = inventory_of({"dmesg": corpus_output_named(_DS1819, "dmesg")})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus, nic.bus_path) == ("eth4", "aqc111", "usb", "2-3")
    assert "QNA-UC5G1T" in (nic.chip or "")


def test_a_masked_mac_is_no_address_and_joins_nothing() -> None:
    """A masked %pM is not the NIC's address: it is not shown as one, and two adapters whose
    authors masked their MACs alike stay two NICs (a MAC is a join key only when it is one)."""
    inv = dmesg_inventory(
        "[   49.587151] aqc111 2-3:1.0 eth4: register 'aqc111' at usb-0000:00:15.0-3, QNAP "
        "QNA-UC5G1T USB to 5GbE Adapter, 24:xx:xx:xx:xx:xx",
        "[   50.587151] aqc111 2-4:1.0 eth5: register 'aqc111' at usb-0000:00:15.0-4, QNAP "
        "QNA-UC5G1T USB to 5GbE Adapter, 24:xx:xx:xx:xx:xx",
    )
    got = sorted((n.name, n.bus_path, n.mac) for n in inv.nics)
    assert got == [("eth4", "2-3", None), ("eth5", "2-4", None)]


def test_a_register_line_with_its_real_mac_keeps_it() -> None:
    """The unmasked line (the DS1813+ bundle's) is read as before: description and MAC."""
    inv = dmesg_inventory(
        "[   85.766523] aqc111 8-1:1.0 eth4: register 'aqc111' at usb-0000:05:00.0-1, QNAP "
        "QNA-UC5G1T USB to 5GbE Adapter, 24:5e:be:54:18:29"
    )
    (nic,) = inv.nics
    assert nic.mac == "24:5e:be:54:18:29"
    assert "QNA-UC5G1T" in (nic.chip or "")


# --- a log with wall clocks only: where it starts is not known ---

_MANJARO = "usbmg42_manjaro_bbqq_457_dmesg_time_format_iso_rtl8156"


def test_an_iso_clocked_excerpt_proves_no_missing_driver() -> None:
    """util-linux dmesg --time-format iso prints the wall clock instead of the kernel's
    seconds since boot: a paste that starts with a USB enumeration at 21:08:08 (not with the
    kernel's banner) is an excerpt, like a "[ 1316.86]" one, and its end (the adapter's class
    drivers still registering) cannot say that no driver bound the RTL8156."""
    inv = inventory_of(
        {
            "uname -a": corpus_output_named(_MANJARO, "uname"),
            "dmesg": corpus_output_named(_MANJARO, "dmesg"),
        }
    )
    (nic,) = inv.nics
    assert (nic.bus_path, nic.ids) == ("2-4", "0bda:8156")
    assert nic.driver is None and nic.driver_state != "none"
    assert findings_of(inv, "no-driver") == []


def test_a_wall_clocked_log_from_the_kernel_s_banner_still_proves_it() -> None:
    """The same wall clocks on a log that starts at the kernel's banner (init/main.c
    start_kernel() prints linux_banner first, "Linux version %s ...") cover the whole boot: an
    adapter enumerated there that no driver ever speaks of has none."""
    inv = dmesg_inventory(
        "2024-11-17T21:00:00,000000+04:00 Linux version 6.11.2-4-MANJARO (builduser@host) #1",
        "2024-11-17T21:08:08,660080+04:00 usb 2-4: new SuperSpeed USB device number 2 using "
        "xhci_hcd",
        "2024-11-17T21:08:08,678329+04:00 usb 2-4: New USB device found, idVendor=0bda, "
        "idProduct=8156, bcdDevice=31.04",
        "2024-11-17T21:20:12,836331+04:00 usbcore: registered new interface driver cdc_ether",
    )
    (nic,) = inv.nics
    assert nic.driver_state == "none"
    assert findings_of(inv, "no-driver") != []


# --- the USB core's lines about a device, under the device driver that holds it ---

_RYZEN = "usbmg42_ryzen4700u_proxmox_qiita_rtl8153_watchdog_cfgselector_reset"


def test_hub_s_reset_line_under_r8152_s_selector_is_a_usb_reset() -> None:
    """hub.c usb_reset_and_verify_device() → hub_port_init(): dev_info(&udev->dev, "%s %s USB
    device number %d using %s\\n", "reset", ...). With r8152's configuration selector bound to
    the whole device (r8152.c rtl8152_cfgselector_driver, 6.1 and 6.12) the line reads
    "r8152-cfgselector 2-2: reset SuperSpeed USB device number 2": the adapter was reset at
    SuperSpeed after its transmit timeouts."""
    inv = inventory_of({"dmesg": corpus_output_named(_RYZEN, "dmesg")})
    (nic,) = inv.nics
    assert (nic.name, nic.bus_path, nic.usb_speed_mbps) == ("enx00e04c133180", "2-2", 5000)
    assert findings_of(inv, "usb-reset") != []
    assert findings_of(inv, "tx-timeout") != []


def test_a_word_that_names_no_usb_device_driver_is_no_hub_line() -> None:
    """Only the device drivers the kernel has (resources/kernel_source/usb_device_drivers.json)
    stand before hub.c's words: a line from anything else is not read as the core's reset."""
    from sbctune.inventory.parsers.dmesg import parse_dmesg

    log = "[    9.0] mytool 2-2: reset SuperSpeed USB device number 2 using xhci_hcd\n"
    kinds = [e.kind for e in parse_dmesg(log)[0].events]
    assert "usb_reset" not in kinds
    log = "[    9.0] usbip-host 2-2: reset SuperSpeed USB device number 2 using xhci_hcd\n"
    kinds = [e.kind for e in parse_dmesg(log)[0].events]
    assert "usb_reset" in kinds
