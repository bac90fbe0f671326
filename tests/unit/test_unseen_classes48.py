"""Classes that the forty-eighth unseen set (booting and mounting over the network: NFS roots,
the kernel's IP-Config, U-Boot's own network, the Pi EEPROM bootloader's network boot;
tests/captures/corpus/netboot48_*) showed misread. Every output here is one of those bundles'
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.log_sightings import from_dmesg
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.parsers.boot_firmware_lines import KINDS, boot_firmware_line, linux_name
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.dmesg_classify import classify
from tests.corpus_support import CORPUS

_ARC_HSDK = "netboot48_arc_hsdk_uboot_5_dhcp_tftp_100_full"
_ODROID_C5 = "netboot48_odroidc5_uboot_80_phy_autoneg_timeout_eth_init_failed"
_BEAGLEPLAY = "netboot48_beagleplay_uboot_meld_6_could_not_get_phy_no_ethernet_found"
_NANOPI_NEO2 = "netboot48_nanopi_neo2_uboot_pr2_could_not_get_phy_then_eth0"
_PI4_EEPROM = "netboot48_pi4_eeprom_376_genet_netboot_link_1000_pxe_offers"
_PI5_EEPROM = "netboot48_pi5_eeprom_687_netboot_link_1000_dhcp_ack"


def _dmesg(bundle: str) -> str:
    return (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")


def _only_nic(inv: Inventory) -> Nic:
    assert len(inv.nics) == 1, [(n.name, n.bus_path, n.driver) for n in inv.nics]
    return inv.nics[0]


def _ids(inv: Inventory) -> set[str]:
    return {f.id for f in inv.findings}


# --- U-Boot's own network lines ---------------------------------------------------------------


def test_uboot_names_the_platform_device_linux_makes_of_its_node() -> None:
    """U-Boot names a device by its device-tree node, Linux by "%llx.%pOFn" of the node's
    address (drivers/of/platform.c of_device_make_bus_id()): no leading zeros."""
    assert linux_name("ethernet", "f0008000") == "f0008000.ethernet"
    assert linux_name("ethernet", "020b4000") == "20b4000.ethernet"


def test_uboot_autoneg_then_speed_is_the_link_of_the_device_that_started() -> None:
    """The ARC HS Development Kit: genphy_update_link()'s "ethernet@f0008000 Waiting for PHY
    auto negotiation to complete.. done", then designware.c's "Speed: 100, full duplex" (no
    device: the one that started last). The NIC was not seen at all."""
    text = _dmesg(_ARC_HSDK)
    assert "ethernet@f0008000 Waiting for PHY auto negotiation to complete.. done" in text
    assert "\nSpeed: 100, full duplex\n" in text
    inv = inspect_bundle(CORPUS / _ARC_HSDK)
    nic = _only_nic(inv)
    assert (nic.bus, nic.bus_path) == ("platform", "f0008000.ethernet")
    assert (nic.link_detected, nic.link_speed_mbps, nic.duplex) == (True, 100, "full")
    # U-Boot says nothing of Linux's driver: neither one named nor "none bound"
    assert nic.driver is None and "no-driver" not in _ids(inv)
    assert not {"link-down", "half-duplex"} & _ids(inv)


def test_uboot_autoneg_timeout_is_no_link() -> None:
    """The ODROID-C5's `ping` at its U-Boot prompt: "ethernet@ff3f0000 Waiting for PHY auto
    negotiation to complete......... TIMEOUT !" (genphy_update_link() gives up: no link)."""
    inv = inspect_bundle(CORPUS / _ODROID_C5)
    nic = _only_nic(inv)
    assert (nic.bus, nic.bus_path, nic.link_detected) == ("platform", "ff3f0000.ethernet", False)
    down = [f for f in inv.findings if f.id == "link-down"]
    assert down and any("TIMEOUT !" in line for line in down[0].evidence)


def test_uboot_could_not_get_phy_is_the_mac_s_phy_failure() -> None:
    """BeaglePlay: phy_connect()'s "Could not get PHY for ethernet@8000000port@1: addr 0" after
    board_r.c's "Net:   ", and the CPSW port's "phy_connect() failed": the AM65 CPSW at
    8000000.ethernet has no PHY, which the user is told."""
    inv = inspect_bundle(CORPUS / _BEAGLEPLAY)
    nic = _only_nic(inv)
    assert (nic.bus, nic.bus_path) == ("platform", "8000000.ethernet")
    failure = [f for f in inv.findings if f.id == "phy-attach-failure"]
    assert failure and any("Could not get PHY" in line for line in failure[0].evidence)
    assert "no-driver" not in _ids(inv)


def test_uboot_s_words_are_no_driver_named_for() -> None:
    """NanoPi NEO2: "Could not get PHY for ethernet@1c30000: addr 1" was cut at its "driver
    device:" shape into a NIC driven by "for" at "ethernet@1c30000"; U-Boot's "eth0:
    ethernet@1c30000" is the same EMAC (one NIC, Linux's name, no driver claimed)."""
    inv = inspect_bundle(CORPUS / _NANOPI_NEO2)
    nic = _only_nic(inv)
    assert (nic.bus, nic.bus_path, nic.driver) == ("platform", "1c30000.ethernet", None)
    assert "no-driver" not in _ids(inv)


# --- the Pi EEPROM bootloader's network boot ----------------------------------------------------


def test_pi4_bootloader_netboot_is_the_genet_at_1000_full() -> None:
    """The Pi 4's bootloader UART log: "GENET: RESET_PHY", "NET_BOOT: e4:5f:01:1f:da:6d wait for
    link", "LINK STATUS: speed: 1000 full duplex": its GENET linked at 1000 full. The DHCP
    servers' MACs in "DHCP src:" lines are no NICs of the board."""
    inv = inspect_bundle(CORPUS / _PI4_EEPROM)
    nic = _only_nic(inv)
    assert "GENET" in (nic.chip or "") and nic.bus == "platform"
    assert nic.mac == "e4:5f:01:1f:da:6d"
    assert (nic.link_detected, nic.link_speed_mbps, nic.duplex) == (True, 1000, "full")
    assert "no-driver" not in _ids(inv)


def test_pi5_bootloader_clock_before_its_lines() -> None:
    """The Pi 5's bootloader puts its clock first (" 10.39 LINK STATUS: speed: 1000 full
    duplex") and says "NETWORK: d8:3a:dd:e4:c9:f0 wait for link"; it names no controller, so
    none is claimed."""
    inv = inspect_bundle(CORPUS / _PI5_EEPROM)
    nic = _only_nic(inv)
    assert nic.mac == "d8:3a:dd:e4:c9:f0"
    assert (nic.link_detected, nic.link_speed_mbps, nic.duplex) == (True, 1000, "full")
    assert nic.chip is None


def test_boot_firmware_lines_are_only_their_formats() -> None:
    """The kernel's own lines, a DHCP server's MAC and lines cut short are none of them."""
    for line in (
        "macb 10090000.ethernet eth0: Link is Up - 100Mbps/Full - flow control tx",
        "DHCP src: 48:8f:5a:c0:e3:06 192.168.1.1",
        "Speed: fast",
        "ethernet@ff3f0000 Waiting for PHY",
        "Using the default device",
        "eth0: link up, 100Mbps, full-duplex, lpa 0x4DE1",
        "x" * 400 + " Waiting for PHY auto negotiation to complete",
    ):
        assert boot_firmware_line(line) is None, line
    assert boot_firmware_line("Speed: 100, full duplex") == (
        "uboot_speed",
        {"speed": "100", "duplex": "full"},
    )
    assert boot_firmware_line("Net:   eth0: ethernet@f0008000") == (
        "uboot_net",
        {"device": "f0008000.ethernet", "says": "registered"},
    )


# --- U-Boot's Allwinner CPU line names the SoC ---------------------------------------------------


def test_uboot_allwinner_cpu_line_names_the_soc() -> None:
    """NanoPi NEO2: "CPU:   Allwinner H5 (SUN50I)" (U-Boot arch/arm/mach-sunxi/cpu_info.c
    print_cpuinfo()); its model "NanoPi H5" is in no device tree, and "H5" is too short a word
    to be read out of a model."""
    assert "\nCPU:   Allwinner H5 (SUN50I)\n" in _dmesg(_NANOPI_NEO2)
    inv = inspect_bundle(CORPUS / _NANOPI_NEO2)
    assert (inv.board.model, inv.board.soc) == ("NanoPi H5", "H5")


def test_allwinner_cpu_line_shapes() -> None:
    """Its other forms (an SRAM id after the family), and lines that only look like it."""
    assert classify("CPU:   Allwinner H3 (SUN8I 1680)") == ("soc_line", {"soc": "H3"})
    assert classify("CPU:   Allwinner A64 (SUN50I)") == ("soc_line", {"soc": "A64"})
    for line in ("CPU:   SUNXI Family", "CPU:   Allwinner Technology", "Allwinner H5 (SUN50I)"):
        found = classify(line)
        assert found is None or found[0] != "soc_line", line


# --- a board file's platform device named as its driver ------------------------------------------

_TINY210 = "netboot48_tiny210_dm9000_uboot_5_nfsroot_link_late_not_responding"


def test_board_file_device_named_as_its_network_driver_is_the_bus_path() -> None:
    """Tiny210: "dm9000 dm9000: eth0: link up, 100Mbps, full-duplex": platform_device_add()
    names a device added with no id "%s" alone, and platform_match() binds the driver of that
    name (drivers/base/platform.c, 6.1 and 6.12): the DM9000's platform device is "dm9000"."""
    inv = inspect_bundle(CORPUS / _TINY210)
    nic = _only_nic(inv)
    assert (nic.name, nic.driver, nic.bus, nic.bus_path) == ("eth0", "dm9000", "platform", "dm9000")
    assert (nic.link_detected, nic.link_speed_mbps, nic.duplex) == (True, 100, "full")


def test_a_speed_line_far_from_any_device_start_names_no_link() -> None:
    """designware.c's "Speed: 100, full duplex" names no device: it is the device that started
    just before it, not one a long log named earlier."""
    near = "ethernet@f0008000 Waiting for PHY auto negotiation to complete.. done\n"
    far = near + "".join(f"BOOTP broadcast {n}\n" for n in range(1, 8))
    for text, linked in ((near, True), (far, False)):
        parsed, _warnings = parse_dmesg(text + "Speed: 100, full duplex\n")
        facts = [f for s in from_dmesg(parsed) for f in s.facts if f.field == "link_speed_mbps"]
        assert bool(facts) is linked, text


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=320))
def test_boot_firmware_lines_never_fail_on_garbage(text: str) -> None:
    found = boot_firmware_line(text)
    assert found is None or (found[0] in KINDS and isinstance(found[1], dict))
    for prefix in ("Speed: ", "LINK STATUS: speed: ", "ethernet@", "Net:   eth0: "):
        found = boot_firmware_line(prefix + text)
        assert found is None or found[0] in KINDS
