"""Classes that the twenty-eighth unseen set (Pis with SPI Ethernet and SDIO Wi-Fi, x86 routers,
NASes and PCs, MIPS routers; tests/captures/corpus) showed misread. Every output here is one of
those bundles' (named beside it, with its SOURCE.md), or a line of one changed to show what must
NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers import parse_lspci
from tests.corpus_support import (
    CORPUS,
    corpus_line,
    corpus_output_named,
    dmesg_events,
    dmesg_inventory,
    inventory_of,
)

_P8H77I = "x86_p8h77i_mintdrivers_3_lspci_v_unindented_syslog_dev_watchdog_trace_only"
_ZERO2W = "pizero2w_rpi_linux_3702_enc28j60_spi_half_duplex_watchdog"
_R8125 = "x86_asus_r8125_dkms_72_vendor_r8125_warning_phy_ups_resume_sudo_prompt_es"


# --- an lspci -v block whose indentation the post lost: its fields are still the device's ---


def test_an_unindented_lspci_block_keeps_its_driver_and_subsystem() -> None:
    """An ASUS P8H77-I's RTL8111 in a post that put every `lspci -v` line at column 0."""
    devices = parse_lspci(corpus_output_named(_P8H77I, "lspci"))[0].devices
    assert [(d.address, d.driver, d.subsystem) for d in devices] == [
        ("0000:0a:00.0", "r8169", "ASUSTeK Computer Inc. P8H77-I Motherboard")
    ]


def test_a_nic_whose_driver_line_lost_its_indentation_is_not_driverless() -> None:
    inv = inspect_bundle(CORPUS / _P8H77I)
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("0000:0a:00.0", "r8169")]
    assert "no-driver" not in {f.id for f in inv.findings}


def test_a_field_word_before_any_device_opens_none() -> None:
    """A column-0 "Kernel driver in use:" with no device header above it names no device."""
    devices = parse_lspci("Kernel driver in use: r8169\n")[0].devices
    assert [d.driver for d in devices if d.slot is not None] == []


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_garbage_after_a_header_never_breaks_lspci(tail: str) -> None:
    head = "0a:00.0 Ethernet controller: Realtek Semiconductor Co., Ltd. RTL8111 (rev 09)\n"
    result, _warnings = parse_lspci(head + tail)
    assert result.devices[0].address == "0000:0a:00.0"


# --- a link line with the duplex in words and no speed (enc28j60: "link up - Half duplex") ---


def test_the_duplex_alone_in_a_link_line_is_the_links_duplex() -> None:
    """A Zero 2 W's ENC28J60: "enc28j60 spi0.0 eth0: link up - Half duplex" (enc28j60.c
    enc28j60_check_link_status()), then the transmit watchdog."""
    inv = inspect_bundle(CORPUS / _ZERO2W)
    assert [(n.name, n.driver, n.duplex, n.link_detected) for n in inv.nics if not n.wireless] == [
        ("eth0", "enc28j60", "half", True)
    ]
    # its "brcmfmac: brcmf_cfg80211_set_power_mgmt: power save enabled" (a cfg80211 callback's
    # line, catalog.wifi_ops) is the board's own Wi-Fi, listed beside it since the 82nd set
    assert [(n.driver, n.wireless) for n in inv.nics if n.wireless] == [("brcmfmac", True)]
    assert {"half-duplex", "tx-timeout"} <= {f.id for f in inv.findings}


def test_a_duplex_word_not_followed_by_duplex_is_no_duplex() -> None:
    line = corpus_line(_ZERO2W, "link up - Half").replace("Half duplex", "Half measures")
    (nic,) = dmesg_inventory(line).nics
    assert nic.duplex is None


@given(st.sampled_from(["Full", "Half", "full", "half"]), st.sampled_from([" ", "-"]))
def test_each_duplex_spelling_reads_the_same(word: str, joint: str) -> None:
    text = f"[   13.052615] enc28j60 spi0.0 eth0: link up - {word}{joint}duplex"
    kinds = [(k, f.get("duplex")) for k, f in dmesg_events(text) if k == "link_up"]
    assert kinds == [("link_up", word)]


# --- a kernel WARNING in an out-of-tree module that a NIC's driver line names ---


def test_a_warning_in_the_module_of_a_nics_out_of_tree_driver_is_its_complaint() -> None:
    """Realtek's DKMS r8125 enables 0000:01:00.0, then "WARNING: ... at /var/lib/dkms/realtek-
    r8125/.../r8125_n.c:8022 rtl8125_wait_phy_ups_resume+0xb8/0xd0 [r8125]"."""
    inv = inspect_bundle(CORPUS / _R8125)
    (complaint,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert complaint.nic == "0000:01:00.0" or "0000:01:00.0" in complaint.summary
    assert any("[r8125]" in line for line in complaint.evidence)


def test_a_warning_in_another_module_is_no_complaint_of_the_nic() -> None:
    text = corpus_output_named(_R8125, "dmesg").replace("[r8125]", "[snd_hda_intel]")
    inv = inventory_of({"dmesg": text})
    assert "driver-complaint" not in {f.id for f in inv.findings}
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("0000:01:00.0", "r8125")]


def test_a_warning_in_an_unknown_module_with_no_nic_of_it_makes_no_nic() -> None:
    """An out-of-tree module no line binds to a device and no table knows (88x2bu here; since
    gaps29 vendor_drivers.json knows mt7662u_sta, whose trace is a USB Wi-Fi NIC) names no NIC."""
    line = corpus_line(_R8125, "WARNING").replace("[r8125]", "[88x2bu]")
    assert dmesg_inventory(line).nics == []


# --- the device-less "NIC Link is Down" of 3.x e1000e, the pair of its "NIC Link is Up" ---

_DS2413 = "ds2413_bbqq_r8152_252_e1000e_deviceless_nic_link_lines_md_resync"


def test_a_deviceless_nic_link_is_down_line_is_a_link_event_not_a_failure() -> None:
    """A DS2413+ on DSM's 3.10: "e1000e: eth0 NIC Link is Down", then "... Up 1000 Mbps Full
    Duplex": a link that dropped once and came back, no complaint of the driver."""
    inv = inspect_bundle(CORPUS / _DS2413)
    assert [(n.name, n.driver, n.link_speed_mbps, n.link_detected) for n in inv.nics] == [
        ("eth0", "e1000e", 1000, True)
    ]
    assert "driver-complaint" not in {f.id for f in inv.findings}


def test_the_link_is_down_words_inside_another_line_are_no_link_event() -> None:
    line = corpus_line(_DS2413, "NIC Link is Down") + " because the cable was pulled"
    assert [k for k, _f in dmesg_events(line) if k == "link_down"] == []


# --- a switch port's link line on its conduit ("eth0: port 2 link down") is not eth0's link ---

_PORT2 = "mt7621_openwrt_pr2721_angle_priority_mtk_soc_eth_port2_flapping"


def test_a_switch_ports_drops_are_flapping_but_not_the_interfaces_link_state() -> None:
    """An MT7621 on OpenWrt 19.07: swconfig-era mtk_soc_eth prints its switch's port 2 going
    down nine times on eth0; the last line leaves port 2 down, not eth0 (the CPU port)."""
    inv = inspect_bundle(CORPUS / _PORT2)
    assert [(n.name, n.link_detected) for n in inv.nics] == [("eth0", None)]
    ids = {f.id for f in inv.findings}
    assert "link-flapping" in ids and "link-down" not in ids


def test_the_same_line_without_a_port_is_the_interfaces_own_link() -> None:
    line = corpus_line(_PORT2, "port 2 link down").replace("port 2 link down", "link down")
    (nic,) = dmesg_inventory(line).nics
    assert nic.link_detected is False
