"""Classes that the eighteenth unseen set (tool outputs pasted in threads: mii-tool, ubus,
iw link, indented and Markdown-escaped pastes; tests/captures/corpus) showed unread. Every
output is one of those bundles' (named beside it, with its SOURCE.md); the corpus test checks
whole bundles."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.ifnames import pci_address_from_name
from sbctune.inventory.listing_sightings import from_mac_names
from sbctune.inventory.parsers.dispatch import parse_command
from sbctune.inventory.parsers.lshw import LshwResult
from sbctune.inventory.parsers.mii_tool import parse_mii_tool
from sbctune.inventory.parsers.netif import NetInterfaces
from sbctune.inventory.parsers.paste_split import split_known
from sbctune.inventory.parsers.ubus_device import parse_ubus_device_status
from tests.corpus_support import corpus_output_named

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"

_MII_TWO_RUNS = "pi_firmware_217_mii_tool_1000_half_then_100_full"
_MII_VV = "pi4_linux_3108_syslog_bcmgenet_flap_mii_tool_vv_registers"
_I350 = "server_nettools_15_lspci_vvv_i350_domain1_mii_tool_enP1p44s0f3"
_UBUS = "vr2020_luci_1683_ubus_network_device_status_cut"
_IW_LINK = "x86_cinnamon_9301_iw_dev_link_wlp0s20f3_vht"
_TABBED = "tof_ips_12_iwconfig_every_line_tab_indented"
_ESCAPED = "pi4_rpios64_214_ethtool_grep_speed_cpuinfo_model_escaped_prompts"


def test_mii_tool_status_lines_give_link_speed_and_duplex_the_last_run_wins() -> None:
    result, warnings = parse_mii_tool(corpus_output_named(_MII_TWO_RUNS))
    assert isinstance(result, LshwResult) and not warnings
    (eth0,) = result.networks
    assert (eth0.logical_name, eth0.link, eth0.size_mbps, eth0.config.get("duplex")) == (
        "eth0",
        True,
        100.0,
        "full",
    )  # "negotiated 1000baseT-HD" was the first run; "100baseTx-FD, link ok" the last


def test_mii_tool_vv_register_dump_and_no_link_then_link_ok() -> None:
    result, _ = parse_mii_tool(corpus_output_named(_MII_VV, "mii_tool"))
    (eth0,) = result.networks
    assert (eth0.link, eth0.size_mbps, eth0.config.get("duplex")) == (True, 1000.0, "full")
    first_run = corpus_output_named(_MII_VV, "mii_tool").split("\n\n")[0]
    (down,) = parse_mii_tool(first_run)[0].networks
    assert (down.link, down.size_mbps) == (False, None)  # "eth0: no link": no speed either


def test_mii_tool_negotiated_without_a_medium_is_a_link_without_a_speed() -> None:
    (nic,) = parse_mii_tool(corpus_output_named(_I350, "mii_tool"))[0].networks
    assert (nic.logical_name, nic.link, nic.size_mbps) == ("enP1p44s0f3", True, None)


def test_a_pci_path_name_joins_the_device_at_the_address_it_spells() -> None:
    assert pci_address_from_name("enP1p44s0f3") == "0001:2c:00.3"
    assert pci_address_from_name("enp130s0f0") == "0000:82:00.0"
    assert pci_address_from_name("wlp0s20f3") == "0000:00:14.3"
    assert pci_address_from_name("enp0s20f0u1") is None  # USB: the PCI part is the host's
    assert pci_address_from_name("enxb827eb04f89e") is None
    inv = inspect_bundle(CORPUS / _I350)
    (nic,) = inv.nics
    assert (nic.name, nic.bus_path, nic.driver, nic.link_detected) == (
        "enP1p44s0f3",
        "0001:2c:00.3",
        "igb",
        True,
    )


def test_a_function_with_several_port_names_is_not_joined_by_name() -> None:
    keys = [s.keys for s in from_mac_names(["enp1s0", "enp1s0d1", "enp2s0"])]
    assert keys == [[("if", "enp2s0"), ("pci", "0000:02:00.0")]]


def test_ubus_device_status_cut_mid_object_keeps_its_device() -> None:
    result, _ = parse_ubus_device_status(corpus_output_named(_UBUS))
    (eth0,) = result.networks
    assert (eth0.logical_name, eth0.link, eth0.serial) == ("eth0", True, "00:01:49:01:d8:cb")


def test_iw_link_is_an_associated_wifi_interface() -> None:
    parsed = parse_command("iw dev wlp0s20f3 link", corpus_output_named(_IW_LINK))
    assert parsed.parser == "iw link" and isinstance(parsed.result, NetInterfaces)
    (wifi,) = parsed.result.interfaces
    assert (wifi.name, wifi.link_type, wifi.has_carrier) == ("wlp0s20f3", "ieee802.11", True)


def test_an_output_indented_as_a_whole_is_read_as_if_it_were_not() -> None:
    parsed = parse_command("iwconfig", corpus_output_named(_TABBED))
    assert isinstance(parsed.result, NetInterfaces)
    kinds = {i.name: i.link_type for i in parsed.result.interfaces}
    assert kinds == {"eth0": "ether", "wlan0": "ieee802.11"}


def test_a_markdown_escaped_prompt_starts_anothercorpus_output_named() -> None:
    parts = split_known(corpus_output_named(_ESCAPED), "ethtool eth0")
    assert [cmd for cmd, _ in parts][:2] == ["ethtool eth0", "cat /proc/cpuinfo | grep Model"]
    inv = inspect_bundle(CORPUS / _ESCAPED)
    assert inv.board.model == "Raspberry Pi 4 Model B Rev 1.4"


def test_mii_tool_failing_on_a_phy_says_so_not_that_nothing_was_read() -> None:
    inv = inspect_bundle(CORPUS / "pi3bplus_linux_3939_ip_a_admin_down_mii_tool_vv_einval")
    said = " ".join(inv.warnings)
    assert "eth0's PHY could not be read (invalid argument)" in said
    assert "nothing could be read" not in said


def test_two_names_spelling_one_address_join_neither() -> None:
    """`enp2s0` and `wlp2s0` cannot both be 0000:02:00.0 on one machine: two machines' logs
    or a card changed, and which name is which device is not said."""
    keys = [s.keys for s in from_mac_names(["enp2s0", "wlp2s0", "enp3s0"])]
    assert keys == [[("if", "enp3s0"), ("pci", "0000:03:00.0")]]
