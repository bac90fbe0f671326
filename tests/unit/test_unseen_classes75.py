"""Classes that the seventy-fifth unseen set (Ethernet through docks, hubs and Thunderbolt
tunnels; tests/captures/corpus/dock75_*) showed misread. Every output here is one of the corpus'
bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.counters import counter_findings
from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.ifnames import bus_from_name, usb_by_mac_name
from sbctune.inventory.model import Nic
from tests.corpus_support import CORPUS

_SURFACE_DOCK = "dock75_surfacebook_jakeday_247_surface_dock_ifconfig_tx_errors_quoted"
_X280 = "dock75_thinkpad_x280_aqtion_37_tb3_dock_solo10g_absent_ifconfig_a_short"
_HUB_CHAIN = "dock75_pi4_boat_rtw88_270_hub_chain_rtl8153_hub_no_nic_rtl8814au_lsusb_backtick"

# --- enx<MAC> as an interface's own name: udev's 73-usb-net-by-mac.rules, a USB device -------


def test_a_mac_named_interface_alone_is_on_usb() -> None:
    """The Surface Dock's enxbc8385f8358d (ifconfig only) and the X280's dock NIC
    enx083a8854e6af (ifconfig -a's first lines only): no driver or listing places them, and
    udev's default rules give a MAC name to USB devices alone; the PCI and Wi-Fi names beside
    them keep their own buses."""
    (dock,) = inspect_bundle(CORPUS / _SURFACE_DOCK).nics
    assert (dock.name, dock.bus) == ("enxbc8385f8358d", "usb")
    nics = {n.name: n.bus for n in inspect_bundle(CORPUS / _X280).nics}
    assert nics == {"enp0s31f6": "pci", "enx083a8854e6af": "usb", "wlp59s0": "pci"}


def test_what_a_mac_name_does_not_say() -> None:
    """A locally administered MAC (second bit set: thunderbolt-net's random 02:a1:…) is not
    renamed by the rule; nor are names of other shapes; and the predictable-path reader still
    leaves MAC names to this rule alone."""
    assert usb_by_mac_name("enx083a8854e6af") and usb_by_mac_name("wlx001f1fa6a4ae")
    for name in ("enx02a159562cc2", "enx5e00", "eth0", "enp0s31f6", "thunderbolt0", None):
        assert not usb_by_mac_name(name), name
    assert bus_from_name("enxbc8385f8358d") is None


def test_a_driver_or_an_altname_outranks_the_mac_name() -> None:
    """A Yocto Pi 3 (NamePolicy=mac) calls its SDIO brcmfmac wlxb827eb8ca80c: the driver's own
    bus wins; an `ip a` altname enx… (every device's, by 99-default.link) makes no USB NIC."""
    fmt43 = inspect_bundle(CORPUS / "fmt43_pi3_meta_rpi_1305_journal_kernel_pid_brcmfmac_enu1u1")
    assert {n.name: n.bus for n in fmt43.nics}["wlxb827eb8ca80c"] == "sdio"
    hetzner = "stack45_hetzner_uncloud_228_ip_a_eth0_altname_enx_enp1s0_docker0_down"
    assert [(n.name, n.bus) for n in inspect_bundle(CORPUS / hetzner).nics] == [("eth0", "pci")]


# --- interface errors are outside the packets they are judged against ------------------------


def test_transmit_errors_with_no_packet_sent_are_all_of_them() -> None:
    """rtnl_link_stats64 (include/uapi/linux/if_link.h): tx_packets counts packets sent,
    tx_errors the failures beside them. 266 errors and 0 packets is every send failing, said
    as such, not "266 of 0"."""
    inv = inspect_bundle(CORPUS / _SURFACE_DOCK)
    (found,) = [f for f in inv.findings if f.id == "interface-errors"]
    assert found.severity == "warning"
    assert "266 errors against 0 packets sent (100 %)" in found.summary
    assert "1 of 1,231" not in found.summary  # one receive drop: below any share remarked


def test_errors_beside_packets_keep_their_share() -> None:
    """Errors beside many packets are judged as before (the share of all attempts), drops as
    a share of the packets they were counted in."""
    nic = Nic("eth0", driver="igb")
    nic.counters = {"rx_packets": 1_000_000, "rx_errors": 5_000, "tx_packets": 10}
    (found,) = counter_findings(nic, "eth0")
    assert "5,000 errors against 1,000,000 packets received" in found.summary
    nic.counters = {"rx_packets": 0, "rx_dropped": 50, "tx_packets": 0}
    assert counter_findings(nic, "eth0") == []  # drops of no packet: nothing to judge against


# --- a device usb.ids names a hub is the hub, whatever its name adds --------------------------


def test_a_hub_with_gigabit_ethernet_is_a_hub() -> None:
    """0bda:5401 "RTL 8153 USB 3.0 hub with gigabit ethernet" is the hub function of a hub
    chip; its Ethernet would be a device of its own (0bda:8153), not listed here. The boat's
    Pi lists one NIC: the ASUS USB-AC68 (RTL8814AU)."""
    nics = inspect_bundle(CORPUS / _HUB_CHAIN).nics
    assert [(n.ids, n.wireless) for n in nics] == [("0b05:1817", True)]


# --- a line's own driver names the source of its format ---------------------------------------

_TX_STATUS = "dock75_surface_jakeday_259_surface_dock_r8152_tx_status_71_one_line"
_PROBE_13 = "dock75_x1carbon_gen10_firmware_lenovo_206_tb4_dock_igc_probe_13_link_lost_unnamed"


def test_an_r8152_line_is_read_as_r8152s_own_message() -> None:
    """r8152.c write_bulk_callback() prints netdev_warn "Tx status %d"; rtl8150.c's dev_info
    "%s: Tx status %d" matches more literal text, but the line names r8152: the finding cites
    r8152.c at warning level. The -71 it reports is no reset, so hub_port_init() (which prints
    resets) is not named as its source."""
    inv = inspect_bundle(CORPUS / _TX_STATUS)
    (said,) = [f.summary for f in inv.findings if f.id == "driver-complaint"]
    assert "(level warn, drivers/net/usb/r8152.c in the 6.1 and 6.12 kernel source)" in said
    assert "rtl8150" not in said
    (reset,) = [f.summary for f in inv.findings if f.id == "usb-reset"]
    assert "1 USB error: -71 EPROTO" in reset and "hub_port_init" not in reset


def test_a_driver_whose_probe_failed_is_still_the_lines_source() -> None:
    """igc's probe failed, so no driver is bound to 0000:79:00.0, but dev_printk's prefix
    "igc 0000:79:00.0" names who printed "PCIe link lost, device now detached": igc_main.c is
    cited first, not fm10k_pci.c, which prints the same words."""
    inv = inspect_bundle(CORPUS / _PROBE_13)
    (said,) = [f.summary for f in inv.findings if f.id == "driver-complaint"]
    assert "drivers/net/ethernet/intel/igc/igc_main.c (+1 more)" in said
    assert "fm10k" not in said
