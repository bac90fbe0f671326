"""Classes that the sixty-sixth unseen set (old kernels, 2.6.x to early 4.x, and their message
formats; tests/captures/corpus/old66_*) showed misread. Every output here is one of the corpus'
bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.vendor_formats import vendor_function_line
from sbctune.inventory.parsers.dmesg_wrappers import after_prompt
from sbctune.inventory.parsers.system import parse_proc_version
from sbctune.inventory.sightings import Sighting
from sbctune.inventory.usb_replug_ties import replugged_usb_ties
from tests.corpus_support import CORPUS, corpus_line

_SABREAUTO = "old66_sabreauto_imx6q_nxp353253_fec_3_0_phy_driver_line_prompt_glued_busybox_ifconfig"
_NEXUS9 = "old66_nexus9_nethunter1129_3_4_s5p_ehci_realtek_2357_010c_no_driver_line"

# --- an older kernel's line with no clock and no device, glued to a console's prompt ----------


def test_old_format_line_behind_a_prompt_names_its_nic() -> None:
    """3.0's fec printed "%s: Freescale FEC PHY driver [%s] (mii_bus:phy_addr=%s, irq=%d)"
    (drivers/net/fec.c fec_enet_mii_probe(), old_formats.json) with neither clock nor device;
    the console put it behind the shell's prompt. The board's own MAC is eth0 on fec."""
    line = corpus_line(_SABREAUTO, "Freescale FEC", "000-dmesg.txt")
    assert line.startswith("root@sabreauto_6q:/ # eth0: Freescale FEC PHY driver")
    nics = inspect_bundle(CORPUS / _SABREAUTO).nics
    assert [(n.name, n.driver, n.bus, n.builtin) for n in nics] == [
        ("eth0", "fec", "platform", True)
    ]


def test_a_typed_command_behind_a_prompt_stays_noise() -> None:
    """What a user typed after a prompt is no kernel format: it is not read as a kernel line."""
    assert after_prompt("root@sabreauto_6q:/ # ifconfig eth0 up") is None
    assert after_prompt("root@host:~# eth0: hello world") is None
    glued = (
        "root@sabreauto_6q:/ # eth0: Freescale FEC PHY driver [Generic PHY] "
        "(mii_bus:phy_addr=1:01, irq=-1)"
    )
    assert (after_prompt(glued) or "").startswith("eth0: Freescale FEC PHY driver")


# --- /proc/version: the kernel's banner names the release ------------------------------------


def test_proc_version_gives_the_kernel() -> None:
    """`cat /proc/version` prints linux_proc_banner (fs/proc/version.c version_proc_show()):
    "Linux version 3.4.67-00092-g7b02438 (root@kali) (gcc version 4.7 (GCC) ) #1 SMP ...";
    its third word is the release a reader states."""
    assert inspect_bundle(CORPUS / _NEXUS9).board.kernel == "3.4.67-00092-g7b02438"
    parsed, warnings = parse_proc_version(
        "Linux version 6.1.0-28-arm64 (debian-kernel@lists."
        "debian.org) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld "
        "(GNU Binutils for Debian) 2.40) #1 SMP Debian 6.1.119-1"
    )
    assert (parsed.kernel_release, warnings) == ("6.1.0-28-arm64", [])
    assert parsed.kernel_version == "#1 SMP Debian 6.1.119-1"


def test_proc_version_of_another_text_reads_nothing() -> None:
    parsed, warnings = parse_proc_version("cat: /proc/version: No such file or directory\n")
    assert parsed.kernel_release is None and warnings


# --- an out-of-tree driver's line that begins with its own name (CARDNAME) --------------------

_CUBIEBOARD = "old66_cubieboard_sunxi183_sunxi_emac_3_4_kmsg_priority_no_device"


def test_driver_named_by_its_own_first_word_is_a_nic() -> None:
    """sunxi-3.4's sunxi_emac prints pr_info("%s Using mii phy on Port%c\\n", CARDNAME, ...)
    (sunxi_emac.c sunxi_emac_init(), CARDNAME "sunxi_emac"; vendor_formats.json's "prefix"
    row): no device, no interface, yet the line is that driver's, the A10/A20's own MAC."""
    line = corpus_line(_CUBIEBOARD, "sunxi_emac", "000-dmesg.txt")
    assert line == "<6>sunxi_emac Using mii phy on PortA"
    nics = inspect_bundle(CORPUS / _CUBIEBOARD).nics
    assert [(n.driver, n.bus, n.builtin) for n in nics] == [("sunxi_emac", "platform", True)]


def test_another_word_before_the_format_is_not_that_driver() -> None:
    """Only the row's own word reads: another driver's name before the same words is no line
    of sunxi_emac, and a line of other words after "sunxi_emac" is none of its formats."""
    assert vendor_function_line("sunxi_gmac Using mii phy on PortA") is None
    assert vendor_function_line("sunxi_emac Using MAC from SID: 02:92:02:02:73:ae") is None
    found = vendor_function_line("sunxi_emac Using mii phy on PortH")
    assert found is not None and found[0].driver == "sunxi_emac" and found[1] == {"port": "H"}


# --- a USB device listed under a newer number than the log enumerated it at -----------------


def test_replugged_usb_device_is_one_nic() -> None:
    """The log enumerated the TL-WN722N v2 at port 1-1 as "device number 3"; lsusb, run after
    it was plugged in again, lists it as "Bus 001 Device 004: ID 2357:010c": hub.c gives a
    device a new number each time it enumerates, so one stick, one NIC."""
    assert "Bus 001 Device 004: ID 2357:010c" in corpus_line(_NEXUS9, "2357:010c", "002-lsusb.txt")
    nics = inspect_bundle(CORPUS / _NEXUS9).nics
    assert [(n.ids, n.bus_path, n.usb_speed_mbps) for n in nics] == [("2357:010c", "1-1", 480)]


def test_a_listed_number_the_log_gave_another_device_is_not_tied() -> None:
    """The listed number was the log's number of another device: two devices, no tie; IDs two
    listed devices share give none either."""
    log = Sighting([("usb", "1-1"), ("usbdev", "1:3")])
    log.add("ids", "2357:010c", "dmesg", "usb 1-1: New USB device found")
    other = Sighting([("usb", "1-2"), ("usbdev", "1:4")])
    listed = Sighting([("usbdev", "1:4")])
    listed.add("ids", "2357:010c", "lsusb", "Bus 001 Device 004: ID 2357:010c")
    assert replugged_usb_ties([log, other, listed]) == []
    twin = Sighting([("usbdev", "1:5")])
    twin.add("ids", "2357:010c", "lsusb", "Bus 001 Device 005: ID 2357:010c")
    assert replugged_usb_ties([log, listed, twin]) == []
    on_bus_2 = Sighting([("usbdev", "2:4")])
    on_bus_2.add("ids", "2357:010c", "lsusb", "Bus 002 Device 004: ID 2357:010c")
    assert replugged_usb_ties([log, on_bus_2]) == []
    assert [t.keys for t in replugged_usb_ties([log, listed])] == [
        [("usbdev", "1:4"), ("usb", "1-1")]
    ]
