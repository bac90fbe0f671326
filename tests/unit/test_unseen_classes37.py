"""Classes that the thirty-seventh unseen set (industrial and vendor SoMs: STM32MP13x, i.MX8M,
i.MX28, Zynq, Jetson, SAMA5, an X15 with an EVB-KSZ9897; tests/captures/corpus/som37_*) showed
misread. Every output here is one of those bundles' (named beside it, with its SOURCE.md), or
one changed to show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from tests.corpus_support import corpus_output, dmesg_inventory, inventory_of

_IMX8MM = "som37_imx8mm_openwrt_pr14434_fec_registered_phc_soc_line"


# --- the SoC named by the kernel's SoC-info line ---


def test_the_imx8m_soc_info_line_names_the_soc() -> None:
    """An i.MX8MM OpenWrt console: drivers/soc/imx/soc-imx8m.c prints "SoC: %s revision %s"
    with the SoC's soc_id (6.1 and 6.12 alike); the board is otherwise unnamed."""
    inv = inventory_of({"dmesg": corpus_output(_IMX8MM)})
    assert inv.board.soc == "i.MX8MM"
    assert [n.name for n in inv.nics] == ["eth0"]


def test_the_atmel_soc_line_and_lantiq_s_still_name_the_soc() -> None:
    """drivers/soc/atmel/soc.c: "Detected SoC: %s, revision %X"; Lantiq's prom.c "SoC: %s" with
    its sys_type "xRX200 rev 1.1" (an older set's line) keeps its reading."""
    assert dmesg_inventory("Detected SoC: sama5d36, revision 2").board.soc == "sama5d36"
    assert dmesg_inventory("[    0.000000] SoC: xRX200 rev 1.1").board.soc == "xRX200"


def test_a_soc_sentence_is_read_by_its_format_and_a_soc_family_line_names_no_soc() -> None:
    """ath79's "SoC: Qualcomm Atheros QCA9558 ver 1 rev 0" is a sentence: not taken whole for
    the SoC, but read by the format arch/mips/ath79/setup.c builds it with ("Qualcomm Atheros
    QCA%s ver %u rev %u", corpus62's mips_system_types.json); atmel's "Detected SoC family:
    sama5" names a family: not taken for the SoC."""
    assert dmesg_inventory("SoC: Qualcomm Atheros QCA9558 ver 1 rev 0").board.soc == "QCA9558"
    assert dmesg_inventory("Detected SoC family: sama5").board.soc is None


# --- a MAC known only by the name of the MDIO bus its driver registers ---

_IMX8MN = "som37_imx8mn_evb_ksz9477_79_fec_phy_sw0_not_found_tab_indented"
_TIOGA = "openbmc_docs_49_ast2500_ftgmac100_ncsi_bold_lines"


def test_the_fec_s_mdio_bus_alone_stands_for_its_mac() -> None:
    """An i.MX8MN EVK: "libphy: fec_enet_mii_bus: probed" (the name fec_main.c
    fec_enet_mii_init() gives its bus, resources/kernel_source/mdio_bus_names.json) then
    "libphy: PHY sw.0:00 not found": the fec's MAC is there, on the platform bus, and its PHY is
    missing. The ksz9897 switch at I2C 2-005f is no NIC."""
    inv = inventory_of({"dmesg": corpus_output(_IMX8MN)})
    assert [(n.driver, n.bus, n.builtin) for n in inv.nics] == [("fec", "platform", True)]
    assert [f.id for f in inv.findings] == ["phy-attach-failure"]


def test_a_library_s_or_an_unknown_mdio_bus_stands_for_no_mac() -> None:
    """The "Fixed MDIO Bus" is fixed_phy's (no network driver's), "stmmac" stmmac_mdio.c's (shared
    by every dwmac glue driver): neither says which MAC is there."""
    inv = dmesg_inventory(
        "[    1.092717] libphy: Fixed MDIO Bus: probed",
        "[    1.100000] libphy: stmmac: probed",
        "[    1.200000] libphy: no_such_bus: probed",
    )
    assert inv.nics == []


def test_an_mdio_bus_beside_its_driver_s_devices_adds_no_nic() -> None:
    """A TiogaPass BMC: two ftgmac100 MACs (eth0, eth1) and "libphy: ftgmac100_mdio: probed":
    the bus is one of theirs, so the inventory lists the two MACs and nothing more."""
    inv = inventory_of({"dmesg": corpus_output(_TIOGA)})
    assert sorted(n.name or "" for n in inv.nics) == ["eth0", "eth1"]


def test_the_mdio_bus_table_is_read_from_the_driver_s_source() -> None:
    """Each name's driver is the one drivers.json lists for the file that sets it: fec_main.c,
    lan78xx.c, macb_main.c (6.1 and 6.12)."""
    from sbctune.catalog.mdio_bus_names import mdio_bus_driver

    assert mdio_bus_driver("fec_enet_mii_bus") == "fec"
    assert mdio_bus_driver("lan78xx-mdiobus") == "lan78xx"
    assert mdio_bus_driver("MACB_mii_bus") == "macb"
    assert mdio_bus_driver("Fixed MDIO Bus") is None


# --- a USB NIC's MDIO bus named by its USB bus and device number ---

_X15 = "som37_x15_evb_ksz9477_2_lan78xx_superspeed_mdiobus"


def test_the_usb_numbered_mdio_bus_ties_lan78xx_to_its_usb_device() -> None:
    """A BeagleBoard-X15 with an EVB-KSZ9897: "usb 2-1: new SuperSpeed USB device number 4",
    then "mdio_bus usb-002:004: ..." (lan78xx.c lan78xx_mdio_init() names its bus
    "usb-%03d:%03d" by the device's bus and device number) and "libphy: lan78xx-mdiobus:
    probed": the LAN7801 at 2-1 is lan78xx's, at SuperSpeed, not a USB 3 NIC held at 480M."""
    inv = inventory_of({"dmesg": corpus_output(_X15)})
    nic = next(n for n in inv.nics if n.bus_path == "2-1")
    assert (nic.driver, nic.bus, nic.usb_speed_mbps) == ("lan78xx", "usb", 5000)
    assert not [f for f in inv.findings if f.id == "usb3-adapter-at-usb2"]


def test_two_usb_numbered_mdio_buses_tie_nothing() -> None:
    """Two LAN78xx adapters (bus 2 device 4 and bus 1 device 3) and one "lan78xx-mdiobus"
    line: which bus the line is is not said, so neither device gets the driver from it."""
    inv = dmesg_inventory(
        "[  637.710166] usb 2-1: new SuperSpeed USB device number 4 using xhci-hcd",
        "[  637.751157] mdio_bus usb-002:004: GPIO lookup for consumer reset",
        "[  638.710166] usb 1-1: new high-speed USB device number 3 using xhci-hcd",
        "[  638.751157] mdio_bus usb-001:003: GPIO lookup for consumer reset",
        "[  638.757509] libphy: lan78xx-mdiobus: probed",
    )
    assert not [n for n in inv.nics if n.bus_path in ("2-1", "1-1") and n.driver == "lan78xx"]
