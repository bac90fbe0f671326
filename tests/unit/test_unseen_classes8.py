"""Classes that the eighth unseen set (17 public pastes in tests/captures/corpus from boards
beyond the Pi: BPI-R3, MT7621/MT7628 routers, VisionFive 2, ROCK 5B, STM32F746, Amlogic boxes,
a balena device ...; 116 of 137 facts before any fix) showed unread. Every output here is
copied from one of those bundles (named beside it); the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.raw import RawOutputs
from tests.corpus_support import corpus_output, inventory_of

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _output(bundle: str, prefix: str = "000-") -> str:
    return corpus_output(bundle, prefix)


def _inventory(dmesg: str) -> Inventory:
    return inventory_of({"dmesg": dmesg})


DSA = _output("bpi_r3_mt76_702_mt7531_dsa_ports_uninitialized_ubi")
WR1300 = _output("wr1300v3_openwrt_25162_mt7621_grep_pattern_wrapped_opkg_lines")
OLD_TX_TIMEOUT = _output("mt7628_mt76_375_old_mtk_soc_eth_transmit_timed_out_rings")
BARE_PHY = _output("balena_supervisor_438_stmmac_phy_not_found_journal_twice")
OLD_STMMAC = _output("a20_itead_rtl8723bs_6_sun7i_dwmac_old_phy_id_lines_after_trace")
TWO_GMACS = _output("visionfive2_dietpi_6212_starfive_eth_plat_two_gmacs_uname_tabs", "001-")


def test_a_dsa_switchs_ports_are_named_even_before_registration() -> None:
    """ "mt7530 mdio-bus:1f lan1 (uninitialized): PHY [...]": the switch is a device on an
    MDIO bus (PHY_ID_FMT "%s:%02x"); its ports are the board's interfaces, the switch is not."""
    names = sorted(n.name or "?" for n in _inventory(DSA).nics)
    assert names == ["lan1", "lan2", "lan3", "lan4"]


def test_a_switch_cpu_link_names_no_interface() -> None:
    """ "mt7530-mdio mdio-bus:1f: Link is Up - 1Gbps/Full" is the switch's CPU port: no NIC
    gets that link, and the switch itself is no NIC."""
    inv = _inventory(WR1300)
    assert sorted(n.name or "?" for n in inv.nics) == ["eth0", "eth1", "lan4"]
    assert all(n.link_speed_mbps is None for n in inv.nics)


def test_a_drivers_own_transmit_timeout_words_are_a_transmit_timeout() -> None:
    inv = _inventory(OLD_TX_TIMEOUT)
    (finding,) = [f for f in inv.findings if f.id == "tx-timeout"]
    assert "transmit timed out" in " ".join(finding.evidence)


def test_a_timeout_that_is_not_a_transmit_timeout_is_not_one() -> None:
    """r8169's "ASPM disabled on Tx timeout" and macb's "BUG: halt tx timed out" mention a
    timeout but are not the timeout itself."""
    lines = (
        "[    5.1] r8169 0000:01:00.0 eth0: ASPM disabled on Tx timeout\n"
        "[    6.2] macb e000b000.ethernet eth1: BUG: halt tx timed out\n"
    )
    events = [e.kind for e in parse_dmesg(lines)[0].events]
    assert "tx_timeout" not in events


def test_a_phy_failure_printed_on_the_interface_alone_is_that_nics() -> None:
    """stmmac's pr_err("%s: Could not attach to PHY", dev->name): "eth0: Could not attach to
    PHY" names the interface only."""
    inv = _inventory(BARE_PHY)
    (finding,) = [f for f in inv.findings if f.id == "phy-attach-failure"]
    assert finding.nic == "eth0"


def test_two_macs_of_one_driver_are_told_apart_by_their_platform_device() -> None:
    paths = sorted(n.bus_path or "?" for n in _inventory(TWO_GMACS).nics)
    assert paths == ["16030000.ethernet", "16040000.ethernet"]


@given(st.sampled_from(["Tx timeout", "transmit timed out", "TX timeout!"]), st.text(max_size=40))
def test_transmit_timeout_words_never_crash_the_parser(words: str, tail: str) -> None:
    text = f"[ 1.0] foo 1e100000.ethernet eth0: {words}{tail}\n"
    result, _warnings = parse_dmesg(text)
    assert result.lines >= 1


def test_an_interface_named_only_by_its_mdio_bus_joins_the_stmmac_device() -> None:
    """Old stmmac: "eth0: PHY ID 001cc915 at 0 IRQ POLL (stmmac-0:00) active" names no driver
    or device, but stmmac-0 is the MDIO bus stmmac_mdio_register() makes: eth0 is the log's one
    device of a stmmac-directory driver (sun7i-dwmac), and says how it was joined."""
    (nic,) = _inventory(OLD_STMMAC).nics
    assert (nic.name, nic.driver, nic.bus) == ("eth0", "sun7i-dwmac", "platform")


def test_an_mdio_bus_of_two_macs_joins_the_one_next_to_it_or_none() -> None:
    """Two stmmac MACs: as for every child device (child_join), the MAC whose own line is next
    to the bare line owns it; when neither is near, eth0 joins neither."""
    bare = "[    1.9] eth0: PHY ID 001cc915 at 0 IRQ POLL (stmmac-0:00) active\n"
    two = "".join(
        f"[    1.{i}] dwmac-sun8i {a}.ethernet: no regulator found\n"
        for i, a in ((1, "5020000"), (2, "5030000"))
    )
    named = [(n.name, n.bus_path) for n in _inventory(two + bare).nics if n.driver]
    assert sorted(named, key=str) == [("eth0", "5030000.ethernet"), (None, "5020000.ethernet")]
    far = "".join(f"[    1.{i}] random: crng init {i}\n" for i in range(3, 9))
    assert all(n.name is None for n in _inventory(two + far + bare).nics if n.driver)


def test_a_platform_device_named_as_another_kind_of_controller_is_no_nic() -> None:
    """ "meson-vrtc ff8000a8.rtc: registered as rtc1": the driver's name says meson, the
    device-tree node says RTC (Devicetree Specification 2.2.2 generic names)."""
    vim3 = _output("vim3_armbian_pr8043_meson8b_dwmac_probe_sdio_card_udev")
    (nic,) = _inventory(vim3).nics
    assert (nic.driver, nic.bus_path) == ("meson8b-dwmac", "ff3f0000.ethernet")


def test_the_kernels_ip_config_names_the_nfs_root_interface_and_its_link() -> None:
    """net/ipv4/ipconfig.c: "device=eth0, hwaddr=00:04:4b:..." after "Got DHCP answer": the
    interface exists and its link carried the reply; without an answer, no link is claimed."""
    nano = _output("jetson_nano_meta_tegra_383_uboot_prompt_nfsroot_ip_config")
    (nic,) = _inventory(nano).nics
    assert (nic.name, nic.link_detected) == ("eth0", True)
    static = "\n".join(line for line in nano.splitlines() if "Got DHCP answer" not in line)
    (nic,) = _inventory(static + "\n").nics
    assert (nic.name, nic.link_detected) == ("eth0", None)


def test_a_phy_failure_before_the_interface_is_registered_is_the_devices() -> None:
    """ftgmac100 "(unnamed net_device) (uninitialized): eth%d: no PHY found"."""
    bmc = _output("ast2500_openbmc_linux_182_ftgmac100_mdio_timed_out_indented")
    inv = _inventory(bmc)
    (finding,) = [f for f in inv.findings if f.id == "phy-attach-failure"]
    assert "no PHY found" in " ".join(finding.evidence)


def test_a_second_mac_of_one_driver_on_another_address_stays_its_own_nic() -> None:
    """KR260: macb's eth0 at ff0b0000.ethernet and a nameless GEM at ff0c0000.ethernet are two
    NICs; neither is the Pi 5's RP1 GEM (the one macb chip the catalog has) on a board that is
    no Pi 5."""
    kr260 = _output("kr260_verilog_ethernet_146_macb_gem_two_macs_random_hw_address")
    nics = _inventory(kr260).nics
    assert sorted((n.bus_path, n.name) for n in nics) == [
        ("ff0b0000.ethernet", "eth0"),
        ("ff0c0000.ethernet", None),
    ]
    assert all("RP1" not in (n.chip or "") for n in nics)


def test_a_phy_failure_that_names_no_nic_is_said_for_the_board() -> None:
    """cpsw's 'phy "/ocp/.../ethernet-phy@0" not found on slave 0' (a PHY named by its
    device-tree path, inside Markdown bold marks) names no interface: one finding, no NIC."""
    bbb = _output("bbb_ti_kernel_dev_50_bold_mdio_missing_phy_not_found_on_slave")
    inv = _inventory(bbb)
    (finding,) = [f for f in inv.findings if f.id == "phy-attach-failure"]
    assert inv.nics == [] and finding.nic is None
    assert "not found on slave 0" in finding.evidence[0]


def test_r8169s_older_chip_line_names_the_chip() -> None:
    """3.x r8169: "eth0: RTL8168d/8111d at 0xd096c000, fc:f5:..., XID 083000c0 IRQ 83"."""
    nsa = _output("nsa310_archlinuxarm_1159_r8169_rtl8168d_old_xid_phyar_cond_flood")
    (nic,) = _inventory(nsa).nics
    assert (nic.name, nic.chip) == ("enp1s0", "RTL8168d/8111d")


def test_a_wired_drivers_device_less_complaint_is_its_lone_devices() -> None:
    """ "r8169: rtl_phyar_cond == 1 (loop: 20, delay: 25)." names no device: with one r8169
    device in the log it is that NIC's complaint; with two, it is nobody's."""
    nsa = _output("nsa310_archlinuxarm_1159_r8169_rtl8168d_old_xid_phyar_cond_flood")
    inv = _inventory(nsa)
    (finding,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert finding.nic == "enp1s0" and "rtl_phyar_cond" in " ".join(finding.evidence)
    second = (
        "[    9.1] r8169 0000:02:00.0 eth1: RTL8168d/8111d, 00:11:22:33:44:55, XID 28, IRQ 84\n"
    )
    inv = _inventory(nsa + second)
    assert not [f for f in inv.findings if f.id == "driver-complaint"]


def test_two_interfaces_sharing_a_mac_in_one_listing_stay_two_nics() -> None:
    """AM625 `ip a`: CPSW's eth0 and eth1 carry the same MAC; that joins nothing, and can0
    (link/can) is no NIC."""
    am625 = _output("am625_ti_e2e_1370905_ip_a_two_cpsw_ports_same_mac_can0")
    inv = inventory_from_raw(RawOutputs(commands={"ip a": am625}))
    assert isinstance(inv, Inventory)
    links = sorted((n.name or "?", n.link_detected) for n in inv.nics)
    assert links == [("eth0", False), ("eth1", True)]
