"""Classes that the seventieth unseen set (server and datacenter NICs on small machines:
tests/captures/corpus/srvnic70_*) showed misread. Every output here is one of the corpus'
bundles (named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.terminal_wrap import join_terminal_wrapped
from tests.corpus_support import CORPUS, corpus_line

# --- an 80-column terminal's hard wrap, padded back into one line -------------------------------

_QEDE = "srvnic70_x86_rr_182_qede_init_values_firmware_missing_probe_11"


def test_a_padded_terminal_wrap_reads_as_the_kernels_line() -> None:
    """The firmware loader's "Direct firmware load for %s failed with error %d"
    (drivers/base/firmware_loader/main.c _request_firmware()) wrapped at column 80 inside the
    file name and padded with spaces to the next row: the user sees the missing firmware."""
    line = corpus_line(_QEDE, "0000:02:00.0: Direct", "000-dmesg.txt")
    assert len(line.split("qed_init_values_z", 1)[0] + "qed_init_values_z") == 80
    inv = inspect_bundle(CORPUS / _QEDE)
    found = [f for f in inv.findings if f.id == "firmware-missing"]
    assert found and "qed/qed_init_values_zipped-8.4.2.0.bin" in " ".join(found[0].evidence)


def test_only_a_run_of_spaces_from_column_80_is_padding() -> None:
    """A kernel line's own spacing, or lines a forum joined with spaces at another column,
    stay as they are."""
    head = "[    3.126387] qede 0000:02:00.0: Direct firmware load for qed/qed_init_values_z"
    assert len(head) == 80
    assert join_terminal_wrapped(head + " " * 157 + "ipped.bin failed") == (
        head + "ipped.bin failed"
    )
    other = "[    5.007103] meson8b-dwmac c9410000.ethernet:         DWMAC1000"
    assert join_terminal_wrapped(other) == other
    joined = "[1.0] r8125: eth0: link up" + " " * 30 + "[1.1] bridge0: port 2(eth0)"
    assert join_terminal_wrapped(joined) == joined
    assert join_terminal_wrapped(head + " " * 40) == head + " " * 40  # trailing only


# --- a server NIC driver names its adapter in its probe message ---------------------------------

_BNXT = "srvnic70_x86srv_rocm_1399_bnxt_bcm57412_eth2_eno1np0_megaraid_ahci"
_BE2NET = "srvnic70_power_linuxppc_106_be2net_lancer_opcode_failed_lpfc_fc_beside"
_CXGB4 = "srvnic70_x86_moongen_295_cxgb4_t62100_pcie_x8_of_x16_lsmod"


def _chip(bundle: str, bus_path: str) -> str | None:
    (nic,) = [n for n in inspect_bundle(CORPUS / bundle).nics if n.bus_path == bus_path]
    return nic.chip


def test_bnxt_en_names_its_board_info_entry() -> None:
    """bnxt.c bnxt_print_device_info(): netdev_info("%s found at mem %lx, node addr %pM",
    board_info[bp->board_idx].name): eth2 is a BCM57412, with no lspci in the paste."""
    assert "BCM57412" in (_chip(_BNXT, "0000:19:00.1") or "")


def test_be2net_names_its_asic_family() -> None:
    """be_main.c be_probe(): dev_info("%s: %s %s port %c", nic_name(pdev), ...), nic_name()
    returning be.h's OC_NAME_LANCER (OC_NAME "(Lancer)"); the lpfc FC function beside it is
    no NIC."""
    assert _chip(_BE2NET, "0045:01:00.0") == "Emulex OneConnect(Lancer)"
    nics = inspect_bundle(CORPUS / _BE2NET).nics
    assert sorted(n.bus_path or "" for n in nics) == ["0045:01:00.0", "0045:01:00.1"]


def test_cxgb4_names_the_cards_vpd_id() -> None:
    """t4_hw.c t4_dump_version_info(): dev_info("Chelsio %s rev %d", adapter->params.vpd.id,
    ...): the name the card's EEPROM holds."""
    assert "T62100-SO-CR" in (_chip(_CXGB4, "0000:0b:00.4") or "")


def test_only_a_name_the_driver_can_print_is_read() -> None:
    """A name outside the driver's table, another driver's line, or a VPD id that is no single
    word names nothing."""
    from sbctune.catalog.probe_names import probe_name

    line = "Broadcom BCM57412 NetXtreme-E 10Gb Ethernet found at mem 9da00000, node addr x"
    assert probe_name("bnxt_en", line) == "Broadcom BCM57412 NetXtreme-E 10Gb Ethernet"
    assert probe_name("bnxt_en", line.replace("BCM57412", "BCM99999")) is None
    assert probe_name("tg3", line) is None
    assert probe_name("cxgb4", "Chelsio T520-CR rev 0") == "Chelsio T520-CR"
    assert probe_name("cxgb4", "Chelsio T5 and T6 adapters rev 0") is None
    assert probe_name("cxgb4", "Chelsio T520-CR 10GBASE-R") is None  # another format


def test_probe_names_are_generated_from_the_pinned_sources() -> None:
    import json

    from sbctune.resources import resource_root

    table = json.loads(
        (resource_root() / "kernel_source" / "probe_names.json").read_text(encoding="utf-8")
    )
    assert table["linux_source"] == {"6.1": "6.1.192-3", "6.12": "6.12.117-1~deb12u1"}
    bnxt = table["drivers"]["bnxt_en"]
    assert bnxt["format"] == "%s found at mem %lx, node addr %pM"
    assert "Broadcom BCM57412 NetXtreme-E 10Gb Ethernet" in bnxt["names"]
    assert table["drivers"]["cxgb4"]["names"] is None


# --- a listing that does not show the PCIe link leaves it to the kernel's bandwidth line --------

_ORION = "srvnic70_orion_o6_system64fumo_27_bnxt_bcm57416_lspci_nn_pci_limited_5gt_x8"


def test_plain_lspci_does_not_hide_the_kernels_pcie_bandwidth_line() -> None:
    """`lspci -nn` has no LnkSta/LnkCap lines; the PCI core's "32.000 Gb/s available PCIe
    bandwidth, limited by 5.0 GT/s PCIe x8 link at 0000:c0:00.0 (capable of 63.008 Gb/s with 8.0
    GT/s PCIe x8 link)" (drivers/pci/pci.c __pcie_print_link_status()) is the link the user is
    told about: PCIe 2.0 speed under a PCIe 3.0 card."""
    inv = inspect_bundle(CORPUS / _ORION)
    (nic,) = [n for n in inv.nics if n.bus_path == "0000:c1:00.0"]
    assert nic.pcie is not None
    assert (nic.pcie.speed_gts, nic.pcie.width, nic.pcie.max_speed_gts) == (5.0, 8, 8.0)
    (found,) = [f for f in inv.findings if f.id == "pcie-downgraded"]
    assert "limited by 5.0 GT/s PCIe x8 link" in found.evidence[0]


# --- a listing's firmware version is no later load of the file that failed ----------------------

_BNX2X = "srvnic70_power8_openpower_25_bnx2x_net0_e2_firmware_missing_ethtool_i"


def test_ethtool_firmware_version_does_not_hide_a_missing_firmware_file() -> None:
    """`ethtool -i net0` says "firmware-version: bc 7.10.4": bnx2x's bootcode in the card's
    flash (bnx2x_cmn.c bnx2x_fill_fw_str()), while the log says bnx2x-e2-7.13.1.0.fw could not
    be loaded and the interface did not come up: the user is told the firmware is missing."""
    inv = inspect_bundle(CORPUS / _BNX2X)
    (nic,) = [n for n in inv.nics if n.name == "net0"]
    assert nic.firmware == "bc 7.10.4"
    (found,) = [f for f in inv.findings if f.id == "firmware-missing"]
    assert "bnx2x/bnx2x-e2-7.13.1.0.fw" in " ".join(found.evidence)


# --- a loose interface of a driver and the only adapter that driver's alias table binds ---------

_CX3 = "srvnic70_cm4_pcie_devices_143_connectx3_mlx4_en_link_up_tx_timeout"


def test_a_listing_from_before_the_driver_and_the_drivers_later_interface_are_one_nic() -> None:
    """`lspci -vvvv` (no -nn) names 01:00.0 "Mellanox Technologies MT27500 Family
    [ConnectX-3]", pci.ids' 15b3:1003, which modules.alias binds to mlx4_core; the log's eth1
    is mlx4_core's and placed nowhere: the user sees one ConnectX-3, eth1 at 01:00.0, driven,
    its link up and its transmit timeout, and no "no driver"."""
    inv = inspect_bundle(CORPUS / _CX3)
    (nic,) = inv.nics
    assert (nic.name, nic.bus_path, nic.driver, nic.ids) == (
        "eth1",
        "0000:01:00.0",
        "mlx4_core",
        "15b3:1003",
    )
    assert "ConnectX-3" in (nic.chip or "")
    ids = {f.id for f in inv.findings}
    assert "tx-timeout" in ids and "no-driver" not in ids


def test_ids_from_names_only_for_one_exact_pci_ids_entry() -> None:
    """lspci without -nn prints pci.ids' vendor and device names (names.c): read back only when
    the vendor is named exactly and one of its devices has exactly that name."""
    from sbctune.catalog.ids import load_ids

    db = load_ids()
    cx3 = "Mellanox Technologies MT27500 Family [ConnectX-3]"
    assert db.ids_by_names("pci", cx3) == "15b3:1003"
    assert db.ids_by_names("pci", "Mellanox Technologies MT27500 Family") is None
    assert db.ids_by_names("pci", "Mellanox MT27500 Family [ConnectX-3]") is None
    assert db.ids_by_names("usb", cx3) is None
    assert db.ids_by_name("pci", cx3) is None  # "<vendor> Device %04x" only, as before


# --- systemd's device unit names the adapter's model ---------------------------------------------

_CX4LX = "srvnic70_x86_ethq_8_mlx5_ethtool_i_p3p1_systemd_found_device_connectx4lx"


def test_systemd_found_device_names_the_mlx5_adapter() -> None:
    """ "systemd[1]: Found device MT27710 Family [ConnectX-4 Lx]." (systemd src/core/device.c:
    a device unit's "Found device %s.", its description udev's ID_MODEL_FROM_DATABASE) is
    pci.ids' 15b3:1015, which modules.alias binds to mlx5_core: p3p1's chip."""
    (nic,) = inspect_bundle(CORPUS / _CX4LX).nics
    assert nic.name == "p3p1" and "ConnectX-4 Lx" in (nic.chip or "")


def test_device_units_name_no_chip_when_ambiguous_or_unbound() -> None:
    """Two models the driver binds, a model of another driver, or a device path: no chip."""
    from sbctune.catalog.ids import load_ids
    from sbctune.inventory.model import Inventory, Nic
    from sbctune.inventory.systemd_models import found_models, name_by_device_units

    ids = load_ids()
    head = "[   17.1] systemd[1]: Found device "
    two = f"{head}MT27710 Family [ConnectX-4 Lx].\n{head}MT27800 Family [ConnectX-5].\n"
    assert set(found_models(two + f"{head}/sys/subsystem/net/devices/eth0.\n")) == {
        "MT27710 Family [ConnectX-4 Lx]",
        "MT27800 Family [ConnectX-5]",
    }
    for text, driver in ((two, "mlx5_core"), (f"{head}MT27710 Family [ConnectX-4 Lx].", "igb")):
        inv = Inventory(nics=[Nic(name="p3p1", driver=driver, bus="pci")])
        name_by_device_units(inv, text, ids)
        assert inv.nics[0].chip is None, (text, driver)
