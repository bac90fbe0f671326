"""Classes that the twelfth unseen set (20 public pastes in tests/captures/corpus: SoC Ethernet
MACs and PCIe/SDIO Wi-Fi; 146 of 185 facts before its fixes) showed unread or misread. Every
output here is copied from one of those bundles (named beside it, with its SOURCE.md); the
corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.catalog.driver_chips import family_by_platform_name
from sbctune.inventory.parsers.dispatch import resolve_command
from sbctune.inventory.parsers.netif import parse_ip_text
from tests.corpus_support import corpus_output as _output
from tests.corpus_support import inventory_of as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


_ATH79 = "ath79_openwrt_14541_qca9561_ag71xx_qca9888_logread"


def test_logread_is_the_kernel_log() -> None:
    """OpenWrt's `logread` (BusyBox/ubox's syslog ring) holds the kernel's lines behind
    `Fri Jun 21 15:31:04 2024 kern.info kernel: `: the radio on the PCIe bus (class 0x028000)
    and the SoC's ag71xx MAC are both found."""
    assert resolve_command("logread") == ("dmesg", None)
    assert resolve_command("logread -e kernel") == ("dmesg", None)
    inv = _inventory({"logread": _output(_ATH79)})
    by_path = {n.bus_path: n for n in inv.nics}
    radio = by_path["0000:00:00.0"]
    assert (radio.ids, radio.bus, radio.wireless) == ("168c:0056", "pci", True)
    assert by_path["19000000.eth"].driver == "ag71xx"


def test_a_kernel_line_behind_any_syslog_prefix_is_told_by_its_shape() -> None:
    """Stored under a command the inventory does not know, the same lines are still a kernel
    log: a `kernel:` tag followed by the printk clock starts one, whatever comes before it."""
    inv = _inventory({"some-log-viewer --all": _output(_ATH79)})
    assert {n.bus_path for n in inv.nics} == {"0000:00:00.0", "19000000.eth"}


def test_a_switch_on_an_mdio_bus_failing_its_probe_is_no_phy_failure() -> None:
    """`mt7530-mdio: probe of mdio-bus:1f failed with error -110` is the MT7530 switch (a device
    ON the MDIO bus, named `<bus>:<addr>` as drivers/net/phy/mdio_bus.c names them) that this
    AX3000T revision does not have; davinci_mdio's failed bus (`8000000.ethernet:mdio@f00`)
    still is one."""
    bundle = "mt7981_openwrt_21259_ax3000t_mt7530_reset_timeout_an8855_ports"
    inv = _inventory({"dmesg": _output(bundle)})
    assert not [f for f in inv.findings if f.id == "phy-attach-failure"]
    assert {n.name for n in inv.nics} == {"eth0", "wan", "lan2", "lan3", "lan4"}
    davinci = (
        "[    3.173866] davinci_mdio: probe of 8000000.ethernet:mdio@f00 failed with error -22\n"
    )
    assert [f for f in _inventory({"dmesg": davinci}).findings if f.id == "phy-attach-failure"]


def test_an_interface_busybox_ip_lists_without_up_has_no_link() -> None:
    """BusyBox `ip a` prints no `state`: `<BROADCAST,MULTICAST> ... qdisc noop` is an interface
    set down, so no link (STM32MP157F-DK2). gaps26: its carrier is unknown, not off (nothing
    opened it; no line says whether a cable answers): link_detected None, set_down true."""
    bundle = "stm32mp157f_dk2_bootlin_35_ip_a_noop_dwmac4_probe"
    parsed, _ = parse_ip_text(_output(bundle, "000"), None)
    (eth0,) = [i for i in parsed.interfaces if i.name == "eth0"]
    assert eth0.has_carrier is None
    inv = _inventory({"ip a": _output(bundle, "000"), "dmesg": _output(bundle, "001")})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.link_detected) == ("eth0", "stm32-dwmac", None)
    assert nic.set_down and nic.link_speed_mbps is None


def test_the_soc_from_its_pcie_root_port() -> None:
    """A Pi 5's `lspci` names its SoC on its root ports ("Broadcom ... BCM2712 PCIe Bridge"); a
    PCIe switch's bridge names none."""
    bundle = "pi5_usbwifi_670_mt7925_lspci_in_lsusb_section_quoted_dmesg"
    inv = _inventory({"lspci": _output(bundle, "001")})
    assert inv.board.soc == "BCM2712"
    switch = "00:00.0 PCI bridge: PLX Technology, Inc. PEX 8605 PCI Express 4-port Gen2 Switch\n"
    assert _inventory({"lspci": switch}).board.soc is None


def test_a_platform_driver_named_for_a_family_names_that_family() -> None:
    """TI's wl18xx_driver (no MODULE_DESCRIPTION in 6.1, a platform device with no IDs) drives
    the WL18xx family: the BeagleBone Green Wireless's Wi-Fi is named so, and stays the one
    Wi-Fi NIC with its missing firmware. A driver with a description, or not named for a
    family, gives none (fec, stmmaceth)."""
    inv = _inventory({"dmesg": _output("bbgw_netinstall_75_wl18xx_firmware_missing_bluetooth")})
    (nic,) = inv.nics
    assert (nic.chip, nic.driver, nic.wireless) == ("WL18xx", "wl18xx_driver", True)
    assert [f.id for f in inv.findings if f.id == "firmware-missing"]
    assert family_by_platform_name("ag71xx") is not None
    assert family_by_platform_name("fec") is None and family_by_platform_name("stmmaceth") is None
    assert family_by_platform_name("bcm63xx_enet") is None  # it has a description


def test_a_bare_interface_line_names_an_interface() -> None:
    """Kernels before 3.x print a netdev's lines by its name alone (`eth0: IBM emac, MAC ...`):
    each interface so named is a NIC, and OpenWrt's ag71xx banner (`eth1: Atheros AG71xx at
    0xb9000000 ...`) pairs with the lone ag71xx MAC; a veth renamed into eth0 (`eth0: renamed
    from vethcf0cfbe`, a container's) and a module's prefix (`usbcore:`) name none."""
    inv = _inventory({"logread": _output(_ATH79)})
    (eth1,) = [n for n in inv.nics if n.name == "eth1"]
    assert (eth1.driver, eth1.bus_path, eth1.builtin) == ("ag71xx", "19000000.eth", True)
    veth = "[   16.535364] eth0: renamed from vethcf0cfbe\n"
    usbcore = "[    0.161349] usbcore: registered new interface driver usbfs\n"
    assert _inventory({"dmesg": veth + usbcore}).nics == []


def test_the_one_soc_mac_driver_of_a_log_drives_its_bare_interfaces() -> None:
    """A PPC440GP on 2.6.10: `emac: IBM EMAC Ethernet driver, version 2.0` is the one driver
    the log names, and eth0/eth1 are named only bare: both are that SoC MAC's (platform, built
    in). With a driver tied to a device anywhere in the log, nothing is guessed."""
    inv = _inventory({"dmesg": _output("ppc440gp_ebony_linuxppc_2005_ibm_emac_ffff_mac")})
    assert {(n.name, n.driver, n.bus, n.builtin) for n in inv.nics} == {
        ("eth0", "emac", "platform", True),
        ("eth1", "emac", "platform", True),
    }
    tied = "[    1.0] r8169 0000:01:00.0 eth1: RTL8168h/8111h, 00:e0:4c:68:00:1d, XID 541, IRQ 35\n"
    inv = _inventory({"dmesg": _output("ppc440gp_ebony_linuxppc_2005_ibm_emac_ffff_mac") + tied})
    assert [n.driver for n in inv.nics if n.name == "eth0"] == [None]


def test_a_file_asked_for_beside_firmware_that_runs_is_not_missing_firmware() -> None:
    """mwifiex_sdio says `WLAN FW is active`, then asks for its optional `nxp/rgpower_WW.bin`
    power tables (-2): its firmware runs, so no firmware-missing finding; the same file asked
    for with nothing saying a firmware runs still is one."""
    bundle = "turris_mox_openwrt_24069_ath10k_mwifiex_sdio_rgpower_optional"
    inv = _inventory({"dmesg": _output(bundle)})
    assert not [f for f in inv.findings if f.id == "firmware-missing"]
    by_driver = {n.driver: n for n in inv.nics}
    assert by_driver["mwifiex_sdio"].firmware == "WLAN FW is active"
    assert (by_driver["ath10k_pci"].firmware or "").startswith("firmware ver 10.2.4")
    lines = [x for x in _output(bundle).splitlines() if "rgpower_WW" in x]
    alone = _inventory({"dmesg": "\n".join(lines) + "\n"})
    assert [f for f in alone.findings if f.id == "firmware-missing"]


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=80))
def test_any_prefix_before_a_kernel_tag_reads_the_same_line(prefix: str) -> None:
    """Whatever (one-line) text stands before `kernel: [clock]`, the line is read or ignored,
    never a crash; with a plain date before it, the PCI device is found."""
    line = "kern.info kernel: [    1.851648] pci 0000:00:00.0: [168c:0056] type 00 class 0x028000"
    _inventory({"viewer": prefix.replace("\n", " ").replace("\r", " ") + " " + line + "\n"})
    inv = _inventory({"viewer": "Fri Jun 21 15:31:04 2024 " + line + "\n"})
    assert [n.ids for n in inv.nics] == ["168c:0056"]
