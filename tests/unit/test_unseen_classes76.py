"""Classes that the seventy-sixth unseen set (network devices beside the NIC that are not
Ethernet or Wi-Fi: CAN, IEEE 802.15.4, modems; tests/captures/corpus/can76_*) showed misread.
Every output here is one of the corpus' bundles (named beside it, with its SOURCE.md); the corpus
test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.link_layers import other_link_layer
from sbctune.inventory.parsers.command_echo import echoed
from sbctune.inventory.parsers.dispatch import parse_command
from tests.corpus_support import CORPUS

_ATUSB = "can76_x86_wpantools_21_atusb_at86rf231_probe_failed_524_ieee802154_usb"
_PCAN = "can76_x86_cangaroo_12_peak_usb_pcan_usb_fd_ip_details_can0_quoted"
_CANDLE = "can76_pi_candlelight_175_gs_usb_ip_details_parentdev_usb_port_dmesg_usb"
_PAD7 = "can76_btt_cb1_pad7_2_mcp251x_spi_can0_ifconfig_eth0_no_running"

# --- a driver of another link layer than Ethernet and Wi-Fi: no NIC ---------------------------


def test_an_ieee802154_usb_radio_is_no_nic() -> None:
    """A PC's ATUSB-design 802.15.4 dongle (20b7:1540) whose atusb probe fails with -524: the
    kernel's atusb (drivers/net/ieee802154/atusb.c) drives a wpan radio, not a NIC, so neither
    the dongle nor its driver's complaint is listed."""
    inv = inspect_bundle(CORPUS / _ATUSB)
    assert inv.nics == []
    assert not [f for f in inv.findings if f.id in ("driver-complaint", "probe-failed")]


def test_each_other_link_layer_by_its_drivers_source() -> None:
    """The drivers' own source files place them (drivers.json, 6.1/6.12): CAN and 802.15.4
    radios are another link layer, an Ethernet or Wi-Fi driver none."""
    table = load_kernel_drivers()
    layers: dict[str, str | None] = {}
    for name in ("atusb", "at86rf230", "mcp251x", "gs_usb", "r8152", "brcmfmac", "cdc_ether"):
        driver = table.get(name)
        assert driver is not None, name
        layers[name] = other_link_layer(driver.file)
    assert layers == {
        "atusb": "IEEE 802.15.4",
        "at86rf230": "IEEE 802.15.4",
        "mcp251x": "CAN",
        "gs_usb": "CAN",
        "r8152": None,
        "brcmfmac": None,
        "cdc_ether": None,
    }


def test_a_can_hat_beside_the_nic_leaves_the_nic_alone() -> None:
    """The BTT Pad 7's MCP2515 (mcp251x spi0.0 can0, UP RUNNING in ifconfig) is no NIC; its eth0
    without RUNNING is the one NIC, down."""
    inv = inspect_bundle(CORPUS / _PAD7)
    assert [(n.name, n.link_detected) for n in inv.nics] == [("eth0", False)]


def test_a_can_adapter_in_lsusb_alone_is_no_nic() -> None:
    """The candleLight's `lsusb -v` (1d50:606f, no driver shown): only gs_usb's ID table
    (drivers/net/can/usb/gs_usb.c) lists it, so it is a CAN adapter, not a NIC; an AX88179 in
    plain `lsusb` (0b95:1790, ax88179_178a's table) stays one."""
    assert inspect_bundle(CORPUS / _CANDLE).nics == []
    (ax,) = inspect_bundle(CORPUS / "rpi_libreelec_8649_ax88179_lsusb_only").nics
    assert ax.ids == "0b95:1790"


# --- `ip -details link show can0`: quoted, typed above, tab-indented detail lines -------------


def test_a_quoted_ip_output_of_a_named_interface_is_read() -> None:
    """The PCAN-USB FD's `ip -details link show can0`, quoted with "> " and its command typed
    above it: read as any other quoted output (no line unread), can0 a CAN link."""
    text = (CORPUS / _PCAN / "commands" / "001-ip_details_link_show_can0.txt").read_text(
        encoding="utf-8"
    )
    parsed = parse_command("ip -details link show can0", text)
    assert parsed.warnings == []
    assert [(i.name, i.link_type) for i in parsed.result.interfaces] == [("can0", "can")]
    assert inspect_bundle(CORPUS / _PCAN).warnings == []


def test_a_link_kinds_tab_indented_detail_lines_are_detail() -> None:
    """iproute2 ip/iplink_can.c prints each CAN detail line after "\\n\\t  " (gs_usb's bit-timing
    limits, the clock, the re-started/bus-errors table): detail lines, not unreadable ones."""
    assert inspect_bundle(CORPUS / _CANDLE).warnings == []


def test_only_the_command_itself_is_taken_as_typed() -> None:
    command = "ip -details link show can0"
    typed = "ip  -details link show can0\n2: can0: <NOARP>\n"
    assert echoed(command, typed) == "2: can0: <NOARP>\n"
    kept = "2: can0: <NOARP>\nip -details link show can0\n"
    assert echoed(command, kept) == kept
    assert echoed("ip", "ip\n1: lo: <LOOPBACK>\n") == "ip\n1: lo: <LOOPBACK>\n"


# --- a journal's clock in a CJK locale: another program's line, not garbage --------------------


def test_a_journal_in_a_chinese_locale_is_other_programs_lines() -> None:
    """The Cube iWork8's `journalctl -u systemd-networkd -f` in zh_CN ("2月 23 18:21:37": glibc's
    abmon "2<U6708>"): networkd's and systemd's lines are other programs' lines, so no "7 of 13
    lines do not look like kernel log lines"; wlan0 is still read from networkd's lines."""
    inv = inspect_bundle(
        CORPUS / "can76_iwork8_canutils_411_gs_usb_networkd_journal_can0_wlan0_ip_details"
    )
    assert inv.warnings == []
    assert [(n.name, n.link_detected) for n in inv.nics] == [("wlan0", True)]
