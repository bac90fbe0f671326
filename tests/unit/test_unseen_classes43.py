"""Classes that the forty-third unseen set (kernel lines in log formats not yet met:
tests/captures/corpus/fmt43_*) showed misread. Every output here is one of those bundles' (named
beside it, with its SOURCE.md), or one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from sbctune.inventory.ifnames import bus_from_name
from tests.corpus_support import corpus_output, dmesg_inventory, findings_of, inventory_of

# --- Realtek's FUNC_NDEV_FMT: the interface inside a function's parentheses ---

_RTL8821CE = "fmt43_studentfox_rtl8821ce_73_journal_rtw_wlp3s0"
_RTL8812AU = "fmt43_arch_rtl8812au_grawp_4_journal_dotted_host_rtl871x"
_RTL8852CU = "fmt43_rtl8852cu_15_bracketed_iso_zone_clock_rtw_wlan2"


def test_rtw_lines_name_the_wifi_interface_in_parentheses() -> None:
    """rtl8821ce's journal: every line is "RTW: func(wlp3s0) ..." (the vendor tree's
    DRIVER_PREFIX, then FUNC_NDEV_FMT "%s(%s)" with __func__ and the netdev's name, as the
    kernel's staging rtl8723bs/r8188eu define it): one PCI Wi-Fi NIC wlp3s0."""
    inv = inventory_of({"journalctl": corpus_output(_RTL8821CE)})
    got = [(n.name, n.bus, n.wireless) for n in inv.nics]
    assert got == [("wlp3s0", "pci", True)]


def test_rtl871x_lines_of_the_older_vendor_tree_name_wlan0() -> None:
    """The rtl8812au tree's "RTL871X: cfg80211_rtw_scan(wlan0)" and "SetHwReg8812A(wlan0): ...":
    one Wi-Fi NIC; "rtl8812_set_FwPwrMode_cmd: Mode=0" (no parentheses) names none."""
    inv = inventory_of({"journalctl": corpus_output(_RTL8812AU)})
    assert [(n.name, n.wireless) for n in inv.nics] == [("wlan0", True)]


def test_a_tag_and_parentheses_of_other_kinds_name_no_interface() -> None:
    """IPv6's "ADDRCONF(NETDEV_UP)" (a tag with lower case, a macro's word inside), ACPI's
    paths and an upper-case tag whose parentheses hold no interface's shape make no NIC of
    the parentheses' word (the wlx00 that ADDRCONF's line names is an older rule's)."""
    inv = dmesg_inventory(
        "[    1.0] IPv6: ADDRCONF(NETDEV_UP): wlx00: link is not ready",
        r"[    1.1] ACPI: \_SB_.PCI0(LNKA) configured",
        "[    1.2] EDAC: mc_probe(MC0) done",
        "[    1.3] RTW: rtw_ndev_init(0x1234) done",
    )
    names = {n.name for n in inv.nics}
    assert not names & {"NETDEV_UP", "LNKA", "MC0", "0x1234"}


# --- a bracketed wall clock in ISO 8601's other spellings ---


def test_a_bracketed_clock_with_a_blank_and_an_hours_zone_ends_the_wrapper() -> None:
    """rtl8852cu's "[2026-07-28 12:10:06+02] RTW: issue_nulldata(wlan2) to ...": the clock is
    cut off as Talos's "[2025-01-22T15:00:15Z]:" is, and the line names wlan2."""
    inv = inventory_of({"dmesg": corpus_output(_RTL8852CU)})
    assert [(n.name, n.wireless) for n in inv.nics] == [("wlan2", True)]


# --- a USB interface name with no PCI part ---

_PI3 = "fmt43_pi3_meta_rpi_1305_journal_kernel_pid_brcmfmac_enu1u1"


def test_a_usb_name_on_a_host_that_is_no_pci_device_says_usb() -> None:
    """systemd's names_usb() with NAMING_USB_HOST: "on-chip asics that have USB ports, use the
    USB specifier as is", so the Pi 3's Ethernet at 1-1.1 is enu1u1: a USB NIC."""
    assert bus_from_name("enu1u1") == "usb"
    assert bus_from_name("enu1u1u1c2i1") == "usb"
    inv = inventory_of({"ip addr": corpus_output(_PI3, "000")})
    assert [(n.name, n.bus) for n in inv.nics if n.name == "enu1u1"] == [("enu1u1", "usb")]


def test_names_that_only_look_alike_keep_no_bus() -> None:
    """A name with no port after "u" (enu, wlunknown) or another kind is no USB path."""
    assert bus_from_name("enu") is None
    assert bus_from_name("wlunknown") is None
    assert bus_from_name("eth1u1") is None


# --- one enumeration shown twice is one enumeration ---

_TAIL = "fmt43_kali_systemd_4633_tail_f_two_logs_headers_ax88772"


def test_tail_of_two_logs_shows_one_enumeration_not_a_reset() -> None:
    """`tail -f /var/log/syslog /var/log/messages` prints "usb 2-1: new high-speed USB device
    number 3 using ehci-pci" under both headers: hub.c gives every enumeration a new device
    number (choose_devnum()), so the same number twice is one record, not "reset or lost"."""
    inv = inventory_of({"tail -f /var/log/syslog /var/log/messages": corpus_output(_TAIL)})
    assert [(n.bus_path, n.ids, n.usb_speed_mbps) for n in inv.nics] == [("2-1", "0b95:7720", 480)]
    assert findings_of(inv, "usb-reset") == []


def test_a_new_device_number_at_the_same_port_is_still_a_reset() -> None:
    """The device back with another number (it dropped off the bus and came back) stays a
    usb-reset: only the very same record twice is one."""
    inv = dmesg_inventory(
        "[   10.0] usb 2-1: new high-speed USB device number 3 using ehci-pci",
        "[   10.1] usb 2-1: New USB device found, idVendor=0b95, idProduct=7720",
        "[   90.0] usb 2-1: USB disconnect, device number 3",
        "[   91.0] usb 2-1: new high-speed USB device number 4 using ehci-pci",
        "[   91.1] usb 2-1: New USB device found, idVendor=0b95, idProduct=7720",
    )
    assert findings_of(inv, "usb-reset") != []


def test_the_same_number_at_another_clock_is_another_attempt() -> None:
    """hub_port_init()'s retries print the same "device number 3" at later clocks (an RTL8156
    that would not enumerate, corpus/x86_bbqq_29_*): three attempts, so the usb-reset stays;
    only one record shown twice (one clock) is one."""
    inv = inventory_of({"dmesg": corpus_output("x86_bbqq_29_rtl8156_not_top_speed")})
    assert findings_of(inv, "usb-reset") != []
