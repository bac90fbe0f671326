"""Classes that the seventy-third unseen set (boards of other architectures than ARM and x86:
POWER, LoongArch and MIPS, PowerPC, FPGA SoCs; tests/captures/corpus/arch73_*) showed misread.
Every output here is one of those bundles' (named beside it, with its SOURCE.md); the corpus
test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.asic_revisions import asic_rev_chip
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.parsers.dispatch import resolve_command
from tests.corpus_support import CORPUS

_XA61200 = "arch73_xa61200_loongfw_132_lspci_tv_rtl8111"
_T2P9D01 = "arch73_t2p9d01_opbuild_1974_tg3_5719_petitboot"
_OPENPOWER = "arch73_openpower_opbuild_594_tg3_three_functions"
_BCM5788 = "loc64_hp_nc6320_ubuntuforums_lshw_de_bcm5788_tg3_link_not_ready_ifconfig_de"
_MPC52XX = "arch73_mpc52xx_ozlabs_2010_phy_link_up_quoted"


def _output(bundle: str, name: str) -> str:
    return (CORPUS / bundle / "commands" / name).read_text(encoding="utf-8")


def _ids(inv: Inventory) -> set[str]:
    return {f.id for f in inv.findings}


def _named(inv: Inventory, name: str) -> Nic:
    found = [n for n in inv.nics if n.name == name]
    assert len(found) == 1, [(n.name, n.bus_path, n.driver) for n in inv.nics]
    return found[0]


# --- lspci -t: the bus tree ---------------------------------------------------------------------


def test_lspci_tree_is_read_not_dropped() -> None:
    """`lspci -tv` was "not a supported output": its devices were never read."""
    assert resolve_command("lspci -tv") == ("lspci -t", None)
    assert resolve_command("sudo lspci -t -vnn") == ("lspci -t", None)
    assert resolve_command("lspci -mm") == (None, None)  # machine-readable: still not read


def test_a_device_behind_a_root_port_is_at_the_bridge_s_secondary_bus() -> None:
    """The Loongson XA61200 (3A6000 with the 7A bridge): "+-0a.0-[02]----00.0  Realtek ...
    RTL8111/8168/8211/8411 ..." is device 00.0 on bus 02, behind root port 0a.0 (ls-tree.c
    show_tree_dev() prints the bridge's secondary bus, then its devices): the one NIC, by its
    pci.ids name, with no driver named and none said missing (a tree shows no driver)."""
    text = _output(_XA61200, "000-lspci_tv.txt")
    assert "+-0a.0-[02]----00.0  Realtek Semiconductor" in text
    inv = inspect_bundle(CORPUS / _XA61200)
    assert [(n.bus, n.bus_path) for n in inv.nics] == [("pci", "0000:02:00.0")]
    nic = inv.nics[0]
    assert "RTL8111" in (nic.chip or "") and nic.ids == "10ec:8168"
    assert nic.driver is None and "no-driver" not in _ids(inv)


# --- tg3's probe banner: the ASIC revision names the chip -------------------------------------


def test_tg3_s_revision_id_names_its_asic() -> None:
    """tg3_init_one()'s "Tigon3 [partno(BCM95719) rev 5719001]": 0x5719001 >> 12 is 0x5719,
    ASIC_REV_5719 (tg3.h); IBM's FRU part number "00RX892" names no chip, the revision does."""
    line = _output(_T2P9D01, "000-dmesg.txt").splitlines()[0]
    assert "Tigon3 [partno(BCM95719) rev 5719001]" in line
    said = asic_rev_chip(line.split("] ", 1)[1], "tg3")
    assert said is not None and said[0] == "BCM5719" and "ASIC_REV_5719" in said[1]
    assert asic_rev_chip(line.split("] ", 1)[1], "bnx2") is None  # tg3's banner only
    inv = inspect_bundle(CORPUS / _T2P9D01)
    assert _named(inv, "eth1").chip == "BCM5719"
    inv = inspect_bundle(CORPUS / _OPENPOWER)
    assert [_named(inv, n).chip for n in ("eth1", "eth2")] == ["BCM5719", "BCM5719"]
    assert _named(inv, "eth0").chip is None  # its banner is before the excerpt


def test_a_listing_s_chip_name_outranks_the_asic_family() -> None:
    """The HP nc6320's BCM5788 prints "rev 3003": ASIC_REV_5705, the family's, while lspci
    names the chip itself (NetXtreme BCM5788): the listing's name stays."""
    inv = inspect_bundle(CORPUS / _BCM5788)
    assert "BCM5788" in (_named(inv, "eth0").chip or "")


# --- the 2.6-era IP-Config line --------------------------------------------------------------


def test_old_ip_config_device_line_names_the_interface() -> None:
    """2.6.35's ip_auto_config() printed "     device=%s", ", addr=%pI4" ... in pieces (no
    hwaddr=, which 6.1 prints): the MPC52xx's NFS root came over eth0, quoted in a reply."""
    text = _output(_MPC52XX, "000-dmesg.txt")
    assert ">       device=eth0, addr=192.168.1.245, mask=255.254.0.0, gw=192.168.1.2," in text
    inv = inspect_bundle(CORPUS / _MPC52XX)
    assert [n.name for n in inv.nics] == ["eth0"]
    assert "no-driver" not in _ids(inv)


# --- NetworkManager's driver line, in its 0.9/1.0 form too ---------------------------------------

_CYCLONE_V = "arch73_cyclonev_billauer_nm_stmmaceth_carrier"


def test_network_manager_names_the_driver_it_cannot_detect_a_carrier_of() -> None:
    """nm-device-ethernet.c get_generic_capabilities() (1.42, 1.52) says "driver '%s' does not
    support carrier detection." behind "device (%s): "; NetworkManager 0.9, on the Cyclone V
    SoC's Linux 3.8, printed the same words behind its own "(%s): ": eth0's driver is stmmaceth,
    a platform driver; the kernel's carrier file (1) keeps the link up."""
    line = _output(_CYCLONE_V, "000-dmesg.txt").splitlines()[0]
    assert "NetworkManager[1206]: <info> (eth0): driver 'stmmaceth' does not support" in line
    inv = inspect_bundle(CORPUS / _CYCLONE_V)
    nic = _named(inv, "eth0")
    assert (nic.driver, nic.bus, nic.link_detected) == ("stmmaceth", "platform", True)
    assert not {"no-driver", "link-down"} & _ids(inv)


def test_the_old_prefix_needs_network_manager_s_own_ident() -> None:
    """The prefix "(eth0): " alone is no NetworkManager line: the old form is read only after
    "NetworkManager[PID]: <level> " (the Cyclone V's line without its ident names nothing)."""
    from sbctune.inventory.parsers.daemon_lines import daemon_line

    line = _output(_CYCLONE_V, "000-dmesg.txt").splitlines()[0]
    said = daemon_line(line)
    assert said is not None and said[1]["iface"] == "eth0" and said[1]["driver"] == "stmmaceth"
    assert daemon_line(line.split("<info> ", 1)[1]) is None
