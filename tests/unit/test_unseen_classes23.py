"""Classes that the twenty-third unseen set (twelve boards new to the corpus;
tests/captures/corpus) showed unread. Every log here is one of those bundles' (named beside it,
with its SOURCE.md), or a line of one changed to show what must NOT be read; the corpus test
checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.catalog import load_catalog
from sbctune.catalog.kernel_messages import load_messages
from sbctune.inventory.ifnames import bus_from_name, wireless_from_name
from sbctune.inventory.parsers.dmesg import parse_dmesg
from tests.corpus_support import corpus_output, inventory_of

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"

_LAPTOP = "laptop_qmi_setup_2_ip_link_wwp_mbim_usb_realtek_no_carrier"
_POCKET = "pocketbeagle_buildroot_4_simcom_modem_musb_between_systemd_status"
_R8168 = "x86_lede_7357_r8168_vendor_link_lines_then_logread"
_ACER = "acer_cb5_311_linuxonacer_24_mwifiex_sdio_no_free_cmd_node"


# --- systemd's USB names behind a hub: the port chain's dots become "u" (names_usb()) ---


def test_a_usb_name_behind_a_hub_is_on_usb() -> None:
    """``enp0s13f0u2u4``: port 2-2.4 below the PCI host 00:0d.0 (udevadm shows the same scheme,
    ``1-1.3:1.0/net/wlp1s0u1u3``)."""
    assert bus_from_name("enp0s13f0u2u4") == "usb"
    assert bus_from_name("wlp1s0u1u3") == "usb"
    inv = inspect_bundle(CORPUS / _LAPTOP)
    (adapter,) = [n for n in inv.nics if n.name == "enp0s13f0u2u4"]
    assert adapter.bus == "usb"


@given(
    st.sampled_from(["en", "wl", "ww"]),
    st.integers(0, 255),
    st.integers(0, 31),
    st.lists(st.integers(1, 15), min_size=1, max_size=5),
    st.sampled_from(["", "c2", "i1", "c1i3"]),
)
def test_every_usb_port_chain_name_is_usb(
    kind: str, bus: int, slot: int, ports: list[int], tail: str
) -> None:
    """Any depth of hubs, with or without config/interface suffixes, is a USB name."""
    chain = "u".join(str(p) for p in ports)
    assert bus_from_name(f"{kind}p{bus}s{slot}u{chain}{tail}") == "usb"


def test_a_pci_name_is_still_not_usb() -> None:
    assert bus_from_name("enp0s31f6") == "pci"
    assert bus_from_name("enp0s31f6u") is None  # a "u" with no port is no USB path


# --- a USB device the kernel's modem drivers list by ID is a network device ---


def test_a_modem_known_by_its_ids_alone_is_listed_as_a_cellular_modem() -> None:
    """1e0e:9011 (a SIMCom module on a PocketBeagle's musb port) enumerates with no driver line
    after it; option's ID table lists it (kernel_source/wwan_usb_ids.json)."""
    inv = inspect_bundle(CORPUS / _POCKET)
    (modem,) = inv.nics
    assert (modem.ids, modem.bus, modem.bus_path, modem.usb_speed_mbps) == (
        "1e0e:9011",
        "usb",
        "2-1",
        480,
    )
    assert "cellular-modem" in {f.id for f in inv.findings}


def test_a_usb_device_no_modem_driver_lists_is_not_made_a_nic() -> None:
    text = corpus_output(_POCKET).replace("idProduct=9011", "idProduct=0001")
    text = text.replace("idVendor=1e0e", "idVendor=1d6b")  # a root hub's IDs
    assert [n.ids for n in inventory_of({"dmesg": text}).nics] == []


# --- a kernel log whose first clock is past boot starts mid-log, whatever precedes it ---


def test_systemd_status_lines_before_the_first_kernel_line_do_not_make_it_a_whole_log() -> None:
    """The PocketBeagle console shows ``[  OK  ] ...`` lines, then kernel lines from 8.29 s:
    the log starts mid-boot, so "no driver line" cannot say that no driver is bound."""
    result, _ = parse_dmesg(corpus_output(_POCKET))
    assert result is not None and result.starts_mid_log
    inv = inspect_bundle(CORPUS / _POCKET)
    assert inv.nics[0].driver_state != "none"


@given(st.lists(st.sampled_from(["[  OK  ] Started Foo.", "         Starting Bar...", ""])))
def test_non_kernel_lines_before_a_log_from_boot_leave_it_whole(prefix: list[str]) -> None:
    text = "\n".join([*prefix, "[    0.000000] Booting Linux on physical CPU 0x0", "[    8.1] x"])
    result, _ = parse_dmesg(text)
    assert result is not None and not result.starts_mid_log


# --- an out-of-tree vendor driver's bus, from the catalog chip it drives ---


def test_realteks_r8168_is_a_pcie_driver() -> None:
    """``r8168: eth0: link down`` names no device; Realtek's r8168 drives only the PCIe
    RTL8111/RTL8168 family (Debian's r8168-dkms), so its NICs are on PCI."""
    chips = [c for c in load_catalog().chips_by_driver("r8168") if c.kind == "nic"]
    assert {c.bus for c in chips} == {"pci"}
    inv = inspect_bundle(CORPUS / _R8168)
    assert {(n.name, n.driver, n.bus) for n in inv.nics} == {
        ("eth0", "r8168", "pci"),
        ("eth1", "r8168", "pci"),
    }


# --- a driver's debug wrapper with its own severity argument (mwifiex_dbg(adapter, ERROR, ...)) ---


def test_mwifiex_error_class_messages_are_in_the_generated_table() -> None:
    for text in ("PREP_CMD: no free cmd node", "GET_CMD_NODE: cmd node not available"):
        found = load_messages().match(text)
        assert found is not None and found.level == "err"
        assert found.files == ("drivers/net/wireless/marvell/mwifiex/cmdevt.c",)


def test_mwifiex_running_out_of_command_nodes_is_a_driver_complaint() -> None:
    inv = inspect_bundle(CORPUS / _ACER)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus) == ("mwifiex_sdio", "sdio")
    complaints = [f for f in inv.findings if f.id == "driver-complaint"]
    assert complaints and "cmdevt.c" in " ".join([*complaints[0].evidence, complaints[0].summary])


# --- an interface name only Wi-Fi drivers give (mwifiex's "mlan%d") is a Wi-Fi interface ---

_SNOW = "chromebook_snow_mainline_15_mwifiex_sdio_cmd_resp_errors_mlan0"


def test_a_name_only_wifi_drivers_register_is_wireless() -> None:
    assert wireless_from_name("mlan0") and wireless_from_name("uap1")
    assert not wireless_from_name("eth0") and not wireless_from_name("mlan")
    assert not wireless_from_name("usb0")  # usbnet's, gadgets': every kind's


def test_mwifiex_lines_and_the_mlan0_interface_are_one_wifi_nic() -> None:
    """mwifiex names mmc2:0001:1; mlan0 appears only in IPv6's ADDRCONF line: the only Wi-Fi
    interface and the only Wi-Fi device are one NIC, listed once."""
    inv = inspect_bundle(CORPUS / _SNOW)
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus, nic.bus_path, nic.wireless) == (
        "mlan0",
        "mwifiex_sdio",
        "sdio",
        "mmc2:0001:1",
        True,
    )


# --- a generic class driver's own description is no chip's name ---

_MT7621 = "mt7621_xwrt_201_cdc_ether_register_line_padded_backports"


def test_a_class_drivers_description_names_no_chip() -> None:
    """cdc_ether's register line prints its driver_info's description ("CDC Ethernet Device",
    cdc_ether.c cdc_info): the driver's name for the USB class, so usb0 gets no chip."""
    inv = inspect_bundle(CORPUS / _MT7621)
    (nic,) = [n for n in inv.nics if n.name == "usb0"]
    assert (nic.driver, nic.bus, nic.chip) == ("cdc_ether", "usb", None)


def test_only_class_drivers_descriptions_are_dropped() -> None:
    """The generated usbnet table says whose description it is: cdc_subset (bound by IDs) names
    its devices ("ALi M5632"); cdc_ether, cdc_ncm and rndis_host (bound by class) do not."""
    from sbctune.inventory.usbnet_info import class_description

    assert class_description("CDC Ethernet Device")
    assert class_description("CDC NCM (NO ZLP)")
    assert class_description("RNDIS device")
    assert not class_description("ALi M5632")
    assert not class_description("ASIX AX88179 USB 3.0 Gigabit Ethernet")
    assert not class_description("")


# --- a device-tree node printed by %pOF names a platform device ---

_APM821XX = "apm821xx_openwrt_pr14037_emac_rgmii_generic_mii_u_boot_env_einval"


def test_a_netdev_named_by_its_device_tree_node_is_on_the_platform_bus() -> None:
    """``eth0: EMAC-0 /plb/opb/ethernet@ef600c00, MAC ...`` (ibm/emac/core.c emac_probe(),
    ``printk(KERN_INFO "%s: EMAC-%d %pOF, MAC %pM\\n", ...)``) is eth0's only line that names
    its device: a node the OF core made a device of, a platform device."""
    inv = inspect_bundle(CORPUS / _APM821XX)
    (nic,) = inv.nics
    assert (nic.name, nic.bus, nic.wireless) == ("eth0", "platform", False)


def test_the_node_is_read_only_from_a_format_that_prints_it() -> None:
    """The format says where %pOF is: a path-like word elsewhere in a line names no node."""
    from sbctune.catalog.of_node_formats import of_node_named

    mac = ", MAC 00:01:73:01:23:41"
    assert of_node_named(f"eth0: EMAC-0 /plb/opb/ethernet@ef600c00{mac}") == (
        "/plb/opb/ethernet@ef600c00"
    )
    assert of_node_named("eth0: found Generic MII PHY (0x04)") is None
    assert of_node_named(f"eth0: EMAC-0 ../../etc/passwd{mac}") is None  # no node's path
    assert of_node_named("eth0: firmware /lib/firmware/x@1.bin loaded") is None  # no format


def test_an_of_node_path_elsewhere_gives_no_bus() -> None:
    """A made-up line with a node-like path that no %pOF format prints leaves eth0's bus unknown
    (the line differs from the bundle's in its words only)."""
    line = "eth0: {} /plb/opb/ethernet@ef600c00, MAC 00:01:73:01:23:41"
    made_up = inventory_of({"dmesg": f"[    6.622085] {line.format('attached')}\n"})
    real = inventory_of({"dmesg": f"[    6.622085] {line.format('EMAC-0')}\n"})
    assert [(n.name, n.bus) for n in made_up.nics] == [("eth0", "unknown")]
    assert [(n.name, n.bus) for n in real.nics] == [("eth0", "platform")]


@given(st.text(max_size=300))
def test_of_node_named_takes_any_text(text: str) -> None:
    from sbctune.catalog.of_node_formats import of_node_named

    node = of_node_named(text)
    assert node is None or (node.startswith("/") and node in text and len(node) <= 256)
