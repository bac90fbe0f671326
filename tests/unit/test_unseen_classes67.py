"""Classes that the sixty-seventh unseen set (IP cameras and media SoCs on vendor BSP kernels;
tests/captures/corpus/cam67_*) showed misread. Every output here is one of the corpus' bundles
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import json

from sbctune.advice.inspect import inspect_bundle
from sbctune.resources import resource_root
from tests.corpus_support import CORPUS, corpus_line, inventory_of

# --- Ingenic's vendor jz_mac: a built-in out-of-tree MAC names its platform device -------------

_T21 = "cam67_t21_openipc_1209_jz_mac_platform_probe_mtd_lines"
_T31N = "cam67_t31n_thingino_311_jz_mac_v13_console_no_timestamps"


def test_ingenic_jz_mac_probe_line_is_the_cameras_mac() -> None:
    """`jz_mac jz_mac.0: JZ on-chip Ethernet MAC driver, Version 1.0` is printed by the ISVP
    kernel's jz_mac_probe() (OpenIPC/linux drivers/net/ethernet/ingenic/jz_mac.c) after
    register_netdev(): one bound on-chip MAC on the platform device jz_mac.0, wired, with or
    without timestamps."""
    line = corpus_line(_T21, "jz_mac.0", "000-dmesg.txt")
    assert line.endswith("jz_mac jz_mac.0: JZ on-chip Ethernet MAC driver, Version 1.0")
    for bundle in (_T21, _T31N):
        nics = inspect_bundle(CORPUS / bundle).nics
        assert [(n.bus_path, n.driver, n.bus, n.wireless) for n in nics] == [
            ("jz_mac.0", "jz_mac", "platform", False)
        ]


def test_jz_mac_row_cites_its_pinned_source() -> None:
    """The row is generated from a pinned commit of the public tree, not written by hand."""
    path = resource_root() / "kernel_source" / "vendor_drivers.json"
    row = json.loads(path.read_text(encoding="utf-8"))["drivers"]["jz_mac"]
    assert row["bus"] == "platform" and row["wireless"] is False and row["dsa"] is False
    assert row["module_named_by"].startswith(
        "OpenIPC/linux@75541f062a05bc74fe2455cb64624a8142dbe5a2 "
        "drivers/net/ethernet/ingenic/jz_mac.c:"
    )


def test_jz_mii_bus_alone_makes_no_nic() -> None:
    """The MDIO bus the module registers first (`libphy: jz_mii_bus: probed`, jz_mii_bus_probe())
    is not a NIC, and a driver the table does not hold ("jz_eth") is not taken for jz_mac."""
    assert inventory_of({"dmesg": "[    0.586280] libphy: jz_mii_bus: probed\n"}).nics == []
    other = "[    0.611912] jz_eth jz_eth.0: JZ on-chip Ethernet MAC driver, Version 1.0\n"
    assert all(n.driver != "jz_mac" for n in inventory_of({"dmesg": other}).nics)


# --- every word order the kernel uses to say a MAC could not connect its PHY -----------------

_CV300 = "cam67_hi3516cv300_openipc_161_hisi_femac_connect_to_phy_failed_one_line"


def _phy_connect_errors() -> list[str]:
    """The 6.1/6.12 network drivers' error formats saying a PHY could not be connected or
    attached (resources/kernel_source/messages.tsv, from the source), with sample values."""
    path = resource_root() / "kernel_source" / "messages.tsv"
    found = []
    for row in path.read_text(encoding="utf-8").splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) != 5 or cells[1] != "err" or "/net/wireless/" in cells[3]:
            continue
        text = cells[4].lower()
        said = ("connect" in text or "attach" in text) and "phy" in text
        if said and any(w in text for w in ("fail", "unable", "cannot", "could not", "can't")):
            if "phy-connection-type" in text or "dummy netdev" in text or "phylink" in text:
                continue  # a device-tree property read, a netcp allocation, phylink's own
            found.append(
                cells[4]
                .replace("%pOF", "/soc/mdio/phy@1")
                .replace("%pe", "-ENODEV")
                .replace("%s", "eth0")
                .replace("%d", "1")
                .replace("%i", "1")
            )
    return found


def test_every_phy_connect_error_of_the_source_is_a_phy_failure() -> None:
    """Each driver's own words (hisi_femac.c hisi_femac_drv_probe() "connect to PHY failed!",
    bgmac's "PHY connection failed", ll_temac's "phy_connect() failed" ...) are a PHY failure,
    printed on the MAC's platform device."""
    formats = _phy_connect_errors()
    assert len(formats) > 30 and "connect to PHY failed!" in formats
    missed = [
        text
        for text in formats
        if not any(
            n.log.get("phy_failure")
            for n in inventory_of({"dmesg": f"[    1.0] xmac 10050000.ethernet: {text}\n"}).nics
        )
    ]
    assert missed == []


def test_hisi_femac_connect_failure_is_said() -> None:
    """The Hi3516CV300's one line: its MAC could not attach its PHY, so it cannot link."""
    line = corpus_line(_CV300, "hisi-femac")
    assert line.endswith("hisi-femac 10050000.ethernet: connect to PHY failed!")
    inv = inspect_bundle(CORPUS / _CV300)
    assert "phy-attach-failure" in {f.id for f in inv.findings}


# --- a 4.x kernel's device-tree prefix has no space before "Machine model" -------------------

_EV300 = "cam67_hi3516ev300_openipc_1138_demo_board_model_console_head"


def test_4x_fdt_prefix_without_space_still_names_the_board() -> None:
    """4.9's drivers/of/fdt.c pr_fmt is "OF: fdt:" (6.1/6.12: "OF: fdt: "): the Hi3516EV300's
    4.9.37 log prints `OF: fdt:Machine model: Hisilicon HI3516EV300 DEMO Board`."""
    line = corpus_line(_EV300, "Machine model")
    assert line == "OF: fdt:Machine model: Hisilicon HI3516EV300 DEMO Board"
    board = inspect_bundle(CORPUS / _EV300).board
    assert board.model == "Hisilicon HI3516EV300 DEMO Board"
    assert board.kernel == "4.9.37"
    spaced = inventory_of({"dmesg": "[    0.0] OF: fdt: Machine model: Radxa ROCK3 Model A\n"})
    assert spaced.board.model == "Radxa ROCK3 Model A"
