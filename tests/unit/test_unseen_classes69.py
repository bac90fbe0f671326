"""Classes that the sixty-ninth unseen set (system-report tools and their own formats;
tests/captures/corpus/sysrep69_*) showed misread. Every output here is one of the corpus' bundles
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.lshw_structured import parse_lshw_json, parse_lshw_xml
from sbctune.inventory.parsers.nixos_facter import parse_nixos_facter
from sbctune.inventory.parsers.xsos import parse_xsos
from tests.corpus_support import CORPUS, inventory_of

# --- lshw's structured formats (-json, -xml), pasted as excerpts ------------------------------

_JSON = "sysrep69_x86_inkscope_41_lshw_json_bcm5720_tg3_link_no"
_XML = "sysrep69_x86_landscape_374_lshw_xml_bnx2_link_no_duplex_half"


def test_lshw_json_node_is_the_nic_it_describes() -> None:
    """hw.cc asJSON()'s members, one a line: a network node cut out of a machine's tree is read
    as its NIC (bus info, name, product, driver, link) though the document is not whole JSON."""
    nics = inspect_bundle(CORPUS / _JSON).nics
    assert [(n.name, n.bus_path, n.driver, n.bus, n.link_detected) for n in nics] == [
        ("eth2", "0000:02:00.0", "tg3", "pci", False)
    ]
    assert "BCM5720" in (nics[0].chip or "")


def test_lshw_xml_excerpt_from_inside_a_node_is_one_nic() -> None:
    """A node of asXML() with every tag prefixed (`<lshw:setting id="driver" value="bnx2"/>`,
    the Landscape client's store), pasted from its configuration on: its `ethernet` capability
    makes it a network node, its driver the NIC's, its bus the driver's (bnx2 is PCI-only); its
    `duplex=half` beside `link=no` is no half-duplex link."""
    inspected = inspect_bundle(CORPUS / _XML)
    assert [(n.driver, n.bus, n.link_detected) for n in inspected.nics] == [("bnx2", "pci", False)]
    assert "half-duplex" not in {f.id for f in inspected.findings}


def test_lshw_json_and_xml_read_the_same_node_alike() -> None:
    """The same node in both formats gives the same record; a list of logical names gives its
    first (an interface, not a path)."""
    as_json = """{
  "id" : "network",
  "class" : "network",
  "claimed" : true,
  "businfo" : "pci@0000:01:00.0",
  "logicalname" : [
    "enp1s0",
    "/dev/fb0"
  ],
  "units" : "bit/s",
  "size" : 1000000000,
  "configuration" : {
    "driver" : "r8169",
    "duplex" : "full",
    "link" : "yes"
  }
}"""
    as_xml = """<node id="network" claimed="true" class="network">
 <businfo>pci@0000:01:00.0</businfo>
 <logicalname>enp1s0</logicalname>
 <size units="bit/s">1000000000</size>
 <configuration>
  <setting id="driver" value="r8169" />
  <setting id="duplex" value="full" />
  <setting id="link" value="yes" />
 </configuration>
</node>"""
    (j,) = parse_lshw_json(as_json)[0].networks
    (x,) = parse_lshw_xml(as_xml)[0].networks
    for node in (j, x):
        assert (node.bus_info, node.logical_name, node.driver, node.link, node.size_mbps) == (
            "pci@0000:01:00.0",
            "enp1s0",
            "r8169",
            True,
            1000.0,
        )
    for command, text in (("lshw -json", as_json), ("sudo lshw -xml", as_xml)):
        nic = inventory_of({command: text}).nics[0]
        assert (nic.name, nic.link_speed_mbps, nic.duplex) == ("enp1s0", 1000, "full")


def test_lshw_structured_nodes_of_other_classes_are_not_nics() -> None:
    """A display or bridge node, and a headless excerpt with no network capability or link
    setting, make no NIC."""
    other = (
        '{\n  "id" : "display",\n  "class" : "display",\n  "configuration" : {\n'
        '    "driver" : "i915"\n  }\n}'
    )
    assert parse_lshw_json(other)[0].networks == []
    assert parse_lshw_xml('  <setting id="driver" value="ahci" />\n')[0].networks == []


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list('{}[]"<>/=:, \nabcdlinkrvetwo0129')), max_size=400))
def test_lshw_structured_parsers_never_raise(text: str) -> None:
    for parse in (parse_lshw_json, parse_lshw_xml):
        result, warnings = parse(text)
        assert isinstance(warnings, list)
        assert all(n.node for n in result.networks)


# --- xsos's ETHTOOL section: one line per interface --------------------------------------------

_XSOS = "sysrep69_x86_xsos_10_lspci_ethtool_ip_summary_forcedeth_e1000"


def test_xsos_ethtool_lines_are_the_interfaces_link_and_driver() -> None:
    """xsos's ETHTOOL() line per interface (`eth0  link=UP 1000Mb/s full (autoneg=Y)  drv
    forcedeth v0.64`): the link, its speed and duplex, and the driver, whose bus the driver's
    ID tables give (forcedeth and e1000 are PCI drivers)."""
    nics = {n.name: n for n in inspect_bundle(CORPUS / _XSOS).nics}
    assert set(nics) == {"eth0", "eth1", "eth2"}
    got = {
        name: (n.driver, n.bus, n.link_detected, n.link_speed_mbps, n.duplex)
        for name, n in nics.items()
    }
    assert got == {
        "eth0": ("forcedeth", "pci", True, 1000, "full"),
        "eth1": ("forcedeth", "pci", False, None, None),
        "eth2": ("e1000", "pci", False, None, None),
    }


def test_xsos_later_lines_with_a_pci_address_and_rings() -> None:
    """From xsos v0.5.9 the line carries ethtool -i's bus-info and, later, the ring sizes; the
    address places the NIC. A section other than ETHTOOL is not read as interfaces."""
    text = (
        "ETHTOOL\n"
        "  Interface Status:\n"
        "    em1  0000:01:00.0  link=up 1000Mb/s full (autoneg=Y)  rx ring 255/4078"
        "  drv tg3 v3.137 / fw 5719-v1.46 NCSI v1.5.18.0\n"
        "IP\n"
        "  em2  link=up 100Mb/s full\n"
    )
    (nic,) = inventory_of({"xsos -e": text}).nics
    assert (nic.name, nic.bus_path, nic.driver, nic.link_speed_mbps) == (
        "em1",
        "0000:01:00.0",
        "tg3",
        1000,
    )


# --- the Amlogic BSP's clock again after dmesg's own, without its opening bracket --------------

_BPI = "sysrep69_bpi_m5_hwprobe_44adec89d8_dmesg_double_stamp_meson6_dwmac_eth_pct_d"


def test_doubled_bsp_clock_reads_as_the_kernel_line() -> None:
    """`[    0.844103]    0.844103@0] meson6-dwmac ff3f0000.ethernet: ...` (a BPI-M5's 4.9 BSP
    log as hw-probe stored it): the board, its kernel and its MAC are read as from the plain
    line."""
    inspected = inspect_bundle(CORPUS / _BPI)
    assert (inspected.board.model, inspected.board.kernel) == ("Bananapi BPI-M5", "4.9.241-BPI-M5")
    assert [(n.bus_path, n.driver, n.bus) for n in inspected.nics] == [
        ("ff3f0000.ethernet", "meson6-dwmac", "platform")
    ]
    line = "meson6-dwmac ff3f0000.ethernet eth0: Link is Up - 1Gbps/Full - flow control rx/tx"
    for head in ("[    7.702055] ", "[    7.702055]    7.702055@0] ", "[    7.702055@0] "):
        nic = inventory_of({"dmesg": head + line + "\n"}).nics[0]
        assert (nic.name, nic.link_speed_mbps) == ("eth0", 1000)


# --- lshw pasted from inside a node, above any "*-network" head ----------------------------------

_CUT = "sysrep69_x86_alphafold_61_lshw_quoted_bnx2_bcm5709_eno1_link_no"


def test_lshw_excerpt_cut_inside_a_node_keeps_that_node() -> None:
    """A paste that begins at a node's "vendor:" line (its head and product above the excerpt)
    is that node, a network one by its ethernet capability and link setting: eno1 on bnx2 with
    no link, beside the next node, eno2, whose driver the excerpt does not reach."""
    nics = {n.name: n for n in inspect_bundle(CORPUS / _CUT).nics}
    assert (nics["eno1"].bus_path, nics["eno1"].driver, nics["eno1"].link_detected) == (
        "0000:02:00.0",
        "bnx2",
        False,
    )
    assert set(nics) == {"eno1", "eno2"} and nics["eno2"].driver is None


def test_lshw_excerpt_of_another_node_makes_no_nic() -> None:
    """The same cut through a disk's node (no ethernet capability, no link) is no NIC."""
    disk = (
        "       vendor: Samsung\n"
        "       bus info: scsi@0:0.0.0\n"
        "       logical name: /dev/sda\n"
        "       configuration: ansiversion=5 logicalsectorsize=512\n"
    )
    assert inventory_of({"sudo lshw": disk}).nics == []


# --- inxi 3.0's ARM devices: no class-ID, the module's name ------------------------------------

_OPI = "sysrep69_opi_one_inxi_153_pinxi_fzxxxy80_sun8i_h3_emac_card_arm"


def test_inxi_arm_card_without_class_id_is_the_socs_mac() -> None:
    """`Card-1: sun8i-h3-emac driver: dwmac_sun8i ... chip ID: allwinner:1c30000` (pinxi 3.0):
    the compatible allwinner,sun8i-h3-emac is dwmac-sun8i's (of_compatibles.json), so the
    device is the platform device 1c30000.ethernet (an Ethernet controller's node is named
    ethernet@ADDR) and the module dwmac_sun8i is that driver."""
    nics = inspect_bundle(CORPUS / _OPI).nics
    assert [(n.bus_path, n.driver, n.bus, n.wireless) for n in nics] == [
        ("1c30000.ethernet", "dwmac-sun8i", "platform", False)
    ]
    # a compatible no network driver lists names no device
    other = (
        "Network:\n  Card-1: sun8i-h3-foo driver: foo v: N/A bus ID: N/A\n  chip ID: acme:1c30000\n"
    )
    assert inventory_of({"inxi -N": other}).nics == []


# --- nixos-facter: hwinfo's records as JSON --------------------------------------------------

_FACTER = "sysrep69_pi5_nixos_facter_174_json_rp1_pci_sdio_wlan_card"


def test_nixos_facter_wlan_record_is_a_nic_and_rp1_is_not() -> None:
    """Record 12 (`"class_list": ["network_controller", "wlan_card"]`, `"bus_type": SDIO`,
    Broadcom's SDIO vendor 02d0) is a Wi-Fi NIC on SDIO, its driver not in the excerpt; the RP1
    south bridge before it (PCI class 0x0200 by its module_alias, 1de4:0001, driver rp1) is no
    NIC of its own."""
    nics = inspect_bundle(CORPUS / _FACTER).nics
    assert [(n.bus, n.wireless, n.driver) for n in nics] == [("sdio", True, None)]


def test_nixos_facter_whole_record_gives_address_ids_driver_and_name() -> None:
    record = """{
  "hardware": {
    "network_controller": [
      {
        "index": 30,
        "attached_to": 29,
        "class_list": [
          "network_controller",
          "pci"
        ],
        "bus_type": {
          "hex": "0004",
          "name": "PCI",
          "value": 4
        },
        "base_class": {
          "hex": "0002",
          "name": "Network controller",
          "value": 2
        },
        "vendor": {
          "hex": "10ec",
          "name": "Realtek Semiconductor Co., Ltd.",
          "value": 4332
        },
        "device": {
          "hex": "8125",
          "value": 33061
        },
        "model": "Realtek Ethernet controller",
        "sysfs_bus_id": "0000:02:00.0",
        "driver": "r8169",
        "unix_device_names": [
          "enp2s0"
        ]
      }
    ]
  }
}"""
    (nic,) = inventory_of({"nixos-facter": record}).nics
    assert (nic.name, nic.bus_path, nic.ids, nic.driver, nic.bus) == (
        "enp2s0",
        "0000:02:00.0",
        "10ec:8125",
        "r8169",
        "pci",
    )


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=st.sampled_from(list('{}[]"=:, \nabcdeilnkrtwx0129@/.-')), max_size=400))
def test_report_parsers_never_raise(text: str) -> None:
    for parse in (parse_nixos_facter, parse_xsos):
        result, warnings = parse(text)
        assert isinstance(warnings, list)
        assert all(n.node for n in result.networks)


# --- a PHY named by its MDIO bus alone (4.19's phy_attached_print()) -----------------------------

_R2S = "sysrep69_nanopi_r2s_hwprobe_515a8a3ea2_dmesg_rtl8211e_100m_rtl8153b_8821cu"


def test_phy_on_a_macs_mdio_bus_is_that_macs() -> None:
    """`RTL8211E Gigabit Ethernet stmmac-0:00: attached PHY driver [...]` names the PHY by the
    MDIO bus stmmac_mdio.c gives every stmmac glue driver ("stmmac-%x"): the log's one such MAC
    (rk_gmac-dwmac ff540000.ethernet) has that gigabit PHY, so its 100 Mbit/s link is below it."""
    inspected = inspect_bundle(CORPUS / _R2S)
    (eth0,) = [n for n in inspected.nics if n.name == "eth0"]
    assert eth0.phy == "RTL8211E Gigabit Ethernet" and eth0.link_speed_mbps == 100
    assert "link-below-phy" in {f.id for f in inspected.findings}


def test_generic_phy_or_unknown_bus_names_no_phy() -> None:
    """phy_device.c's Generic PHY names no chip; a bus no MAC driver's table registers ties to
    no MAC: neither gives the NIC a PHY."""
    mac = "[    5.696072] rk_gmac-dwmac ff540000.ethernet eth0: No Safety Features support found\n"
    for bus, phy in (("stmmac-0", "Generic PHY"), ("mdio-gpio-0", "RTL8211E Gigabit Ethernet")):
        line = (
            f"[    0.569071] {phy} {bus}:00: attached PHY driver [{phy}] "
            f"(mii_bus:phy_addr={bus}:00, irq=POLL)\n"
        )
        assert [n.phy for n in inventory_of({"dmesg": line + mac}).nics] == [None]


def test_inxi_system_and_machine_give_kernel_and_arm_model() -> None:
    """inxi's System `Kernel: 4.14.18-sunxi armv7l` is the release, its Machine `Type: ARM Device
    System: Xunlong Orange Pi One details: ...` the device tree's model (the H3 board's); on a PC
    "System:" is the DMI vendor and names no model."""
    board = inspect_bundle(CORPUS / _OPI).board
    assert (board.model, board.soc, board.kernel) == (
        "Xunlong Orange Pi One",
        "H3",
        "4.14.18-sunxi",
    )
    pc = (
        "System:\n  Host: box Kernel: 6.1.0-13-amd64 arch: x86_64 bits: 64\n"
        "Machine:\n  Type: Desktop System: Dell product: OptiPlex 7010 v: 01\n"
    )
    board = inventory_of({"inxi -Fxz": pc}).board
    assert (board.model, board.kernel) == (None, "6.1.0-13-amd64")
