"""Classes that the forty-sixth unseen set (industrial and embedded SoC families: Turris Omnia,
EspressoBIN, MikroTik RB5009, Mono Gateway LS1046A, PolarFire SoC kits, BeagleBones, an AM625
board, a SAMA5D3 kit, a VAR-SOM-MX93; tests/captures/corpus/ind46_*) showed misread. Every
output here is one of those bundles' (named beside it, with its SOURCE.md); the corpus test
checks whole bundles."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.dt_boards import load_dt_boards
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_line
from tests.kernel_trees import kernel_trees

# --- a board family's compatible is not the SoC -----------------------------------------------

_BBB_SYSLOG = "ind46_bbb_udemy_beagleboard_276_busybox_syslog_none_host_user_facility_machine_model"


def test_a_beaglebone_s_soc_is_the_am33xx_not_the_original_beaglebone() -> None:
    """The BeagleBone Black's tree (am335x-boneblack.dts, 6.1 and 6.12) lists "ti,am335x-bone-
    black", "ti,am335x-bone", "ti,am33xx": the middle entry is the original BeagleBone's own
    board compatible (am335x-bone.dts writes it first), the SoC is am33xx.dtsi's "ti,am33xx".
    The log of a BeagleBone Black rev. C (BusyBox syslog, `(none) user.info kernel:`) named the
    SoC "AM335X-BONE", a board."""
    line = corpus_line(_BBB_SYSLOG, "Machine model:", "000-cat_var_log_messages.txt")
    assert line.endswith("OF: fdt: Machine model: TI AM335x BeagleBone Black")
    board = inspect_bundle(CORPUS / _BBB_SYSLOG).board
    assert board.model == "TI AM335x BeagleBone Black"
    assert board.soc == "AM33XX", board.soc
    assert "lists it as ti,am33xx" in (board.soc_source or ""), board.soc_source


@pytest.mark.parametrize(
    ("model", "soc"),
    [
        # "shimafuji,kingfisher", "renesas,m3ulcb", "renesas,r8a7796": the ULCB is a board
        ("Renesas M3ULCB Kingfisher board based on r8a77960", "R8A7796"),
        ("Renesas H3ULCB Kingfisher board based on r8a77951", "R8A7795"),
        # "ti,omap4-panda-es", "ti,omap4-panda", "ti,omap4460", ...: the PandaBoard is a board
        ("TI OMAP4 PandaBoard-ES", "OMAP4460"),
        ("TI AM335x PocketBeagle", "AM33XX"),
        # the SoC itself written first by a board's .dts stays the SoC
        ("Hardkernel ODROID-N2Plus", "S922X"),
    ],
)
def test_the_board_table_skips_board_family_compatibles(model: str, soc: str) -> None:
    board = load_dt_boards().by_model(model)
    assert board is not None and board.soc == soc, (model, board)


@pytest.fixture(scope="module")
def dts_trees() -> dict[str, Path]:
    from regen_board_socs import GLOBS

    boards = json.loads(
        resource_root().joinpath("kernel_source", "boards.json").read_text(encoding="utf-8")
    )
    return kernel_trees(GLOBS, packages=boards["packages"])


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_board_compatibles_are_what_the_device_trees_write(dts_trees: dict[str, Path]) -> None:
    """The rule against the .dts/.dtsi files themselves, in both series: am335x-bone.dts writes
    the original BeagleBone's compatible first, am33xx.dtsi the SoC's; armada-385.dtsi writes
    "marvell,armada385" (so it is no board although the Clearfog GTR's list starts with it)."""
    from regen_board_socs import board_compatibles, soc_of

    for series, tree in dts_trees.items():
        dts = tree / "arch/arm/boot/dts"
        ti = dts / "ti/omap" if (dts / "ti/omap").is_dir() else dts  # 6.12 moved them
        marvell = dts / "marvell" if (dts / "marvell").is_dir() else dts
        bone = (ti / "am335x-bone.dts").read_text(encoding="utf-8")
        assert 'compatible = "ti,am335x-bone", "ti,am33xx";' in bone, series
        assert 'compatible = "ti,am33xx";' in (ti / "am33xx.dtsi").read_text(encoding="utf-8")
        a385 = (marvell / "armada-385.dtsi").read_text(encoding="utf-8")
        assert 'compatible = "marvell,armada385", "marvell,armada380";' in a385
        boards = board_compatibles(tree)
        assert {"ti,am335x-bone", "ti,am335x-bone-black", "renesas,m3ulcb"} <= boards, series
        assert not {"ti,am33xx", "marvell,armada385", "renesas,r8a7796"} & boards, series
        black = ["ti,am335x-bone-black", "ti,am335x-bone", "ti,am33xx"]
        assert soc_of(black, boards) == "ti,am33xx"
        assert soc_of(black) == "ti,am335x-bone"  # the rule without the board set


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_table_s_socs_follow_the_rule(dts_trees: dict[str, Path]) -> None:
    """A sample of the shipped rows: the SoC is soc_of() with the tree's board compatibles."""
    from regen_board_socs import COLUMNS, board_compatibles, soc_of

    data = json.loads(
        resource_root().joinpath("kernel_source", "boards.json").read_text(encoding="utf-8")
    )
    rows = [dict(zip(COLUMNS, r, strict=True)) for r in data["boards"]]
    boards = {series: board_compatibles(tree) for series, tree in dts_trees.items()}
    sample = random.Random(46).sample(rows, 150)
    sample += [r for r in rows if "Kingfisher" in r["model"] or "BeagleBone" in r["model"]]
    for row in sample:
        series = row["series"][-1]
        assert row["soc_compatible"] == soc_of(row["compatible"], boards[series]), row["model"]


# --- a network driver registered on another bus (fsl-mc, virtio, vmbus, MHI ...) ------------

_DPAA2 = "ind46_dpaa2_ethq_29_ethtool_i_fsl_dpaa2_eth_dprc_bus_info_stats_cut"


def test_a_dpaa2_interface_s_ethtool_i_is_a_nic() -> None:
    """`ethtool -i` of an NXP DPAA2 interface (isc-projects/ethq#29): `driver: fsl_dpaa2_eth`,
    `bus-info: dprc.1` (dpaa2-ethtool.c: the fsl-mc resource container). dpaa2-eth.c registers
    `struct fsl_mc_driver dpaa2_eth_driver` (.name KBUILD_MODNAME: fsl_dpaa2_eth) and the
    net_device: the driver table read only usb/pci/sdio/platform/spi drivers, so the device was
    no NIC at all."""
    inv = inspect_bundle(CORPUS / _DPAA2)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus_path, nic.wireless) == ("fsl_dpaa2_eth", "dprc.1", False)
    assert "no-driver" not in {f.id for f in inv.findings}


def test_other_bus_drivers_are_network_drivers_without_a_contract_bus() -> None:
    from sbctune.catalog.kernel_drivers import load_kernel_drivers

    table = load_kernel_drivers()
    dpaa2 = table.get("fsl_dpaa2_eth")
    assert dpaa2 is not None and dpaa2.file.endswith("freescale/dpaa2/dpaa2-eth.c")
    assert dpaa2.buses == () and dpaa2.bus is None  # fsl-mc is none of contract 2's buses
    for name in ("virtio_net", "hv_netvsc", "mhi_net", "mlx5_core.eth"):
        assert table.get(name) is not None, name
    assert table.get("eth") is None  # an auxiliary driver is named "module.name"
    assert table.get("Generic PHY") is None  # phy_device.c only mentions register_netdevice()


@pytest.fixture(scope="module")
def net_trees() -> dict[str, Path]:
    from regen_kernel_source import GLOBS

    return kernel_trees(GLOBS)


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_other_bus_drivers_are_what_the_source_registers(net_trees: dict[str, Path]) -> None:
    from regen_kernel_source import _drivers

    for series, tree in net_trees.items():
        folder = tree / "drivers/net/ethernet/freescale/dpaa2"
        text = (folder / "dpaa2-eth.c").read_text(encoding="utf-8")
        assert "static struct fsl_mc_driver dpaa2_eth_driver = {" in text, series
        assert "err = register_netdev(net_dev);" in text, series
        assert "fsl-dpaa2-eth.o" in (folder / "Makefile").read_text(encoding="utf-8"), series
        drivers = _drivers(tree)[0]
        assert drivers["fsl_dpaa2_eth"]["buses"] == ["fsl_mc"], series
        assert "Generic PHY" not in drivers and "eth" not in drivers, series
        assert drivers["mlx5_core.eth"]["buses"] == ["auxiliary"], series
