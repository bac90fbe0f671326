"""Classes that the fortieth unseen set (kernel lines in wrappers not yet met: Android's logcat and
kmsg, Samsung's task tags, 2012-era hub.c/mii lines, a blog's code widget;
tests/captures/corpus/wrap40_*) showed misread. Every output here is one of those bundles' (named
beside it, with its SOURCE.md), or one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from sbctune.inventory.parsers.dispatch import resolve_command
from tests.corpus_support import corpus_output, dmesg_inventory, inventory_of

# --- logcat / adb are kernel-log commands; logd's split of a USB interface's name ---

_TESLA = "wrap40_tesla_android_114_logcat_kernel_tag_cdc_mbim"
_ONEPLUS = "wrap40_oneplus5_pixelexp_1040_logcat_r8152_unknown_version_0x6010"


def test_logcat_s_kernel_line_names_the_usb_nic() -> None:
    """Tesla Android's `logcat`: logd copied the kernel's "cdc_mbim 1-1.3:1.3 eth1: register
    ..." in with pid/tid 0 and split it at its first colon (logd/LogKlog.cpp LogKlog::log()),
    which is the USB interface's own (usb_set_configuration(): "%d-%s:%d.%d"). The modem is eth1
    on cdc_mbim at port 1-1.3; lsusb's IDs-only line is the same device, not a second NIC."""
    inv = inventory_of(
        {"lsusb": corpus_output(_TESLA, "000"), "logcat": corpus_output(_TESLA, "001")}
    )
    assert [(n.name, n.driver, n.bus, n.bus_path) for n in inv.nics] == [
        ("eth1", "cdc_mbim", "usb", "1-1.3")
    ]


def test_logcat_s_other_kernel_lines_keep_their_tag_colon() -> None:
    """A tag that is not a USB device's ("usb 1-1.3" before "new high-speed ...") is the message's
    own "device: text"; an app's line (pid 559) is no kernel line to rejoin."""
    inv = dmesg_inventory(
        "01-01 00:08:41.000     0     0 I usb 1-1.3: new high-speed USB device number 4 using"
        " xhci_hcd",
        "11-22 21:55:44.384   559   576 I EthernetTracker: interfaceLinkStateChanged, iface: eth1,"
        " up: false",
        command="logcat",
    )
    assert all(n.usb_speed_mbps in (None, 480) for n in inv.nics)
    assert not [n for n in inv.nics if n.name == "eth1"]


def test_adb_and_su_run_the_device_s_own_commands() -> None:
    """`adb [-s SERIAL] shell dmesg`, `adb logcat -b kernel` and `su -c dmesg` are the kernel's
    log as the device keeps it; adb's own commands are none of the inspector's."""
    for cmd in (
        "logcat",
        "adb logcat -b kernel",
        "adb -s 0123 shell dmesg",
        "adb shell su -c dmesg",
    ):
        assert resolve_command(cmd) == ("dmesg", None), cmd
    assert resolve_command("adb devices") == (None, None)
    assert resolve_command("su root") == (None, None)


def test_a_log_app_s_compact_clock_in_markdown_emphasis_is_read() -> None:
    """The OnePlus 5's lines: a bracketed date_time with the CPU after it (`[20211124_10:56:07.4
    40716]@2`), the whole line in Markdown's `_..._`: r8152's device at 1-1 is found, nothing
    bound ("Unknown Device" is rtl8152_probe()'s dev_err, an error of the driver)."""
    inv = inventory_of({"logcat": corpus_output(_ONEPLUS)})
    assert [(n.bus, n.bus_path, n.driver) for n in inv.nics] == [("usb", "1-1", None)]
    assert "driver-complaint" in {f.id for f in inv.findings}


# --- Samsung's task tag after the kernel's clock ---

_S7 = "wrap40_galaxy_s7_nethunter_168_samsung_task_tag_ar9271"


def test_samsung_s_task_tag_after_the_clock_is_read_past() -> None:
    """A Galaxy S7's dmesg: "[ 3840.032240] [1: kworker/1:3: 9974] usb 1-1: new high-speed USB
    device number 2 using xhci-hcd" (CPU, task and pid in brackets of their own): the AR9271
    dongle at 1-1 is a high-speed USB Wi-Fi NIC with its IDs and ath9k_htc."""
    inv = inventory_of({"dmesg": corpus_output(_S7)})
    assert [(n.bus_path, n.ids, n.usb_speed_mbps, n.wireless, n.driver) for n in inv.nics] == [
        ("1-1", "0cf3:9271", 480, True, "ath9k_htc")
    ]


def test_brackets_in_a_message_are_no_task_tag() -> None:
    """A "[drm] ..." or "[ 2.3] [c0] ..." keep their readings: the tag needs "N: task: pid"."""
    inv = dmesg_inventory(
        "[    9.346320] [drm] 12: r8152 2-1:1.0 eth1: carrier on",
        "[   10.000000] [c0] r8152 2-1:1.0 eth1: carrier off",
    )
    assert [(n.name, n.link_detected) for n in inv.nics] == [("eth1", False)]


# --- 2012-era hub.c and mii lines (kernels before 6.1 print them differently) ---

_PRIME = "wrap40_transformer_prime_zaurus_android_kmsg_priority_asix_ax88772"


def test_old_hub_and_mii_lines_give_usb_speed_and_link() -> None:
    """An ASUS Transformer Prime's kmsg: hub_port_init()'s old "new high speed USB device using
    tegra-ehci and address 3" (before 'number') and mii_check_media()'s "eth0: link up, 100Mbps,
    full-duplex, lpa 0xC5E1" (printk with the interface's name only, before netdev_info): the
    AX88772 enumerated at 480 Mbit/s and eth0 is up at 100 Mbit/s full duplex."""
    inv = inventory_of({"dmesg": corpus_output(_PRIME, "000")})
    assert [
        (n.name, n.driver, n.bus_path, n.usb_speed_mbps, n.link_speed_mbps, n.duplex)
        for n in inv.nics
    ] == [("eth0", "asix", "1-1.2", 480, 100, "full")]


def test_a_bare_mii_link_down_is_the_interface_s_last_word() -> None:
    """mii_check_media()'s "eth0: link down" after its "link up": the link is down now."""
    inv = dmesg_inventory(
        "<6>[  102.133280] asix 1-1.2:1.0: eth0: register 'asix' at usb-tegra-ehci.2-1.2, ASIX"
        " AX88772 USB 2.0 Ethernet, 4c:e6:76:xx:xx:xx",
        "<6>[  103.807939] eth0: link up, 100Mbps, full-duplex, lpa 0xC5E1",
        "<6>[  200.000000] eth0: link down",
    )
    assert [(n.name, n.link_detected, n.link_speed_mbps) for n in inv.nics] == [
        ("eth0", False, None)
    ]


# --- kernel lines a post ran together with its elision between them ---

_BLOG = "wrap40_ubuntu1404_donghao_blog_code_widget_asix_ax88772b"


def test_an_elision_between_two_kernel_messages_splits_the_line() -> None:
    """A blog's code widget: "asix 3-1.4:1.0 eth5: register 'asix' at ..., ASIX AX88772B USB
    2.0 Ethernet, 00:24:9c:04:44:28 ...... eth3: link up, 100Mbps, full-duplex, lpa 0x45E1 |"
    is two kernel lines: eth5 is an AX88772B on asix at USB port 3-1.4, eth3 is up at 100
    Mbit/s full duplex."""
    inv = inventory_of({"dmesg": corpus_output(_BLOG)})
    got = {n.name: n for n in inv.nics}
    assert sorted(got) == ["eth3", "eth5"]
    assert (got["eth5"].driver, got["eth5"].bus_path) == ("asix", "3-1.4")
    assert "AX88772B" in (got["eth5"].chip or "")
    assert (got["eth3"].link_speed_mbps, got["eth3"].duplex) == (100, "full")


def test_an_elided_driver_before_one_message_is_no_split() -> None:
    """ "[ 6170.238949] ... eth0: Link is Up - 100Mbps/Full" elides ONE message's driver and
    device (an older set's TI E2E post): nothing before the dots, so it stays one line; nor is
    "Loading ... done" split (no kernel message after the dots)."""
    inv = dmesg_inventory(
        "[ 6170.238949] ... eth0: Link is Up - 100Mbps/Full - flow control rx/tx",
        "Loading firmware: ... done",
    )
    assert [(n.name, n.link_speed_mbps) for n in inv.nics] == [("eth0", 100)]


# --- the chip an unknown version code names, by the newer kernels' r8152 tables ---


def test_r8152_s_unknown_version_code_names_the_chip() -> None:
    """The OnePlus 5's r8152 "Unknown version 0x6010": 6.1/6.12's rtl8152_get_version() map
    0x6010 to RTL_VER_09, which rtl_ops_init() runs with r8153b_init (generated
    r8152_versions.json): the adapter is an RTL8153B its kernel's r8152 did not know."""
    inv = inventory_of({"logcat": corpus_output(_ONEPLUS)})
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("1-1", None)]
    assert "RTL8153B" in (inv.nics[0].chip or "")


def test_a_code_no_table_knows_names_no_chip() -> None:
    """0x7010 is RTL_TEST_01, run by no family; another driver's "Unknown version" is not
    r8152's."""
    inv = dmesg_inventory(
        "[    3.1] r8152 2-1:1.0 (unnamed net_device) (uninitialized): Unknown version 0x7010",
        "[    3.2] foo 2-2:1.0 (unnamed net_device) (uninitialized): Unknown version 0x6010",
    )
    assert all(n.chip in (None, "") for n in inv.nics)
