"""Classes that the twenty-second unseen set (fifteen boards new to the corpus;
tests/captures/corpus) showed unread. Every log here is one of those bundles' (named beside it,
with its SOURCE.md), or a line of one with its device or interface changed to show what must NOT
be read; the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dmesg import parse_dmesg
from tests.corpus_support import corpus_line

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"

_RTD1296 = "ds220j_bbqq_132_rtd1296_vendor_r8169_gmac_link_up_1_gbps_csiar"
_MOVED = "ds218plus_bbqq_5_r8152_vendor_2_12_eth1_replugged_2_2_to_2_3"
_DOCKER = "ds916plus_bbqq_468_rtl8157_vendor_r8152_read_fail_110_trace_docker"


def _link(text: str) -> list[tuple[str, str | None, str | None, str | None]]:
    result, _ = parse_dmesg(text)
    assert result is not None
    return [
        (e.kind, e.iface, e.fields.get("speed"), e.fields.get("unit"))
        for e in result.events
        if e.kind.startswith("link")
    ]


def test_a_link_line_with_a_speed_and_no_duplex_gives_the_speed() -> None:
    """Realtek's RTD129x build of r8169: "r8169 98016000.gmac eth0: link up 1 Gbps"."""
    line = corpus_line(_RTD1296, "link up 1 Gbps")
    assert _link(line) == [("link_up", "eth0", "1", "G")]
    inv = inspect_bundle(CORPUS / _RTD1296)
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert (eth0.link_speed_mbps, eth0.duplex, eth0.link_detected) == (1000, None, True)


def test_a_number_after_link_up_without_a_rate_unit_is_no_speed() -> None:
    line = corpus_line(_RTD1296, "link up 1 Gbps").replace("link up 1 Gbps", "link up 1 time")
    assert _link(line) == [("link_up", "eth0", None, None)]


def test_a_usb_adapter_moved_to_another_port_is_where_the_last_line_saw_it() -> None:
    """eth1 on r8152 at 2-2, then at 2-3 twice: one NIC, at 2-3."""
    inv = inspect_bundle(CORPUS / _MOVED)
    assert [(n.name, n.driver, n.bus_path) for n in inv.nics] == [("eth1", "r8152", "2-3")]


def test_synology_dockers_veth_is_not_a_nic() -> None:
    """Synology's Docker names the host end of a container's veth "docker" and hex digits
    ("docker9b5d5a5"); its ADDRCONF and bridge-port lines make no NIC."""
    inv = inspect_bundle(CORPUS / _DOCKER)
    assert [(n.name, n.driver, n.bus_path) for n in inv.nics] == [(None, "r8152", "2-2")]


_MT7986 = "bpi_r3_openwrt_10781_mt7986_wmac_wa_firmware_timeout_probe_110"


def test_a_platform_driver_named_for_one_chip_names_it() -> None:
    """mt76's mt7986-wmac (mt7915/soc.c, no MODULE_DESCRIPTION, platform only) binds the
    MT7986's Wi-Fi alone: its failed probe's device is that chip's, with no driver bound."""
    from sbctune.catalog.driver_chips import chip_by_platform_name

    assert chip_by_platform_name("mt7986-wmac") is not None
    assert chip_by_platform_name("mt798x-wmac") is None  # a family: driver_chips' other rule
    assert chip_by_platform_name("bcmgenet") is None  # described, and no digits to name
    inv = inspect_bundle(CORPUS / _MT7986)
    assert [(n.chip, n.driver, n.bus_path) for n in inv.nics] == [("MT7986", None, "18000000.wmac")]


_R6C = "nanopi_r6c_ubuntu_rockchip_1013_end1_rtl8211f_rtl8221b_downshift_100"


def test_r8169s_phy_downshift_is_its_pci_nics_link_below_the_phy() -> None:
    """ "RTL8226B_RTL8221B 2.5Gbps PHY r8169-3-3100:00: Downshift occurred ..." (phylib
    phy_check_downshift()) on r8169's MDIO bus "r8169-%x-%x" (pci_domain_nr, pci_dev_id):
    PCI 0003:31:00.0 is up at 100 Mbit/s below its 2.5G PHY."""
    from sbctune.inventory.parsers.dmesg_mii_phy import mii_phy_line

    line = corpus_line(_R6C, "Downshift occurred")
    assert mii_phy_line(line) == (
        "link_up",
        {
            "driver": "r8169",
            "device": "0003:31:00.0",
            "speed": "100",
            "unit": "M",
            "phy": "RTL8226B_RTL8221B 2.5Gbps PHY",
        },
    )
    assert mii_phy_line(line.replace("r8169-3-3100", "stmmac-1")) is None  # no device in it
    inv = inspect_bundle(CORPUS / _R6C)
    (nic,) = [n for n in inv.nics if n.bus_path == "0003:31:00.0"]
    assert (nic.driver, nic.link_speed_mbps, nic.phy) == ("r8169", 100, line.split(" r8169")[0])
    assert "link-below-phy" in {f.id for f in inv.findings}


@given(st.text(max_size=200))
def test_the_mii_phy_reader_never_raises(text: str) -> None:
    from sbctune.inventory.parsers.dmesg_mii_phy import mii_phy_line

    found = mii_phy_line(text + " Downshift occurred")  # past the needle, into the pattern
    assert found is None or found[0] == "link_up"
