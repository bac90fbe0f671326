"""Classes that the twentieth unseen set (kernel logs of SoC families and drivers the corpus had
least of; tests/captures/corpus) showed unread. Every log here is one of those bundles' (named
beside it, with its SOURCE.md), or a line of one with its device or interface changed to show
what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dmesg import parse_dmesg

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"

_BARE = "rocket_m5_aredn_450_ag71xx_bare_eth0_link_down_100m"
_TC956X = "rb3gen2_qcom_kernel_1101_tc956x_pci_eth_probe_error_ansi_console"
_RALINK = "newifi_mini_lede_8899_ralink_soc_eth_watchdog_logread_prefixed"
_WILC = "wilc1000_linux4wilc_100_wilc_sdio_cmd52_etimedout_init_failed"


def _events(text: str) -> list[tuple[str, str | None, dict[str, str]]]:
    result, _ = parse_dmesg(text)
    assert result is not None
    return [(e.kind, e.iface, e.fields) for e in result.events if e.kind.startswith("link")]


def test_a_bare_interface_link_line_is_a_link_change_with_its_speed() -> None:
    """OpenWrt ar71xx's ag71xx prints the interface alone: "eth0: link up (100Mbps/Full
    duplex)" / "eth0: link down" (ag71xx_phy.c ag71xx_phy_link_adjust())."""
    events = _events(
        "[  162.336335] eth0: link up (100Mbps/Full duplex)\n[  329.775114] eth0: link down\n"
    )
    assert [(k, i, f.get("speed"), f.get("duplex")) for k, i, f in events] == [
        ("link_up", "eth0", "100", "Full"),
        ("link_down", "eth0", None, None),
    ]


def test_a_bare_link_line_of_no_network_interface_is_not_read() -> None:
    text = (
        "[    2.1] ata1: link down\n[    2.2] br-lan: link down\n"
        "[    2.3] usb1: link up (100Mbps/Full duplex)\n"
    )
    assert _events(text) == []  # a disk port, a bridge, a USB bus


def test_the_flapping_ag71xx_gets_its_flaps_and_its_last_state() -> None:
    inv = inspect_bundle(CORPUS / _BARE)
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert eth0.link_detected is False  # the paste ends with "eth0: link down"
    assert {"link-flapping", "link-down"} <= {f.id for f in inv.findings}


def test_an_out_of_tree_driver_named_ethernet_failing_its_probe_is_a_nic_without_driver() -> None:
    inv = inspect_bundle(CORPUS / _TC956X)
    (nic,) = inv.nics
    assert (nic.bus, nic.bus_path, nic.driver) == ("pci", "0001:05:00.0", None)
    assert "probe-failed" in {f.id for f in inv.findings}


def test_a_pci_device_of_another_out_of_tree_driver_is_not_a_nic(tmp_path: Path) -> None:
    """The same lines from a driver whose name says nothing of Ethernet (as cdns-usb3's probe
    failure on a VisionFive 2 is no NIC): no NIC is made of them."""
    text = (CORPUS / _TC956X / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    bundle = tmp_path / "b"
    (bundle / "commands").mkdir(parents=True)
    other = text.replace("tc956x_pci-eth", "tc956x_pci-dma")
    (bundle / "commands" / "000-dmesg.txt").write_text(other, encoding="utf-8")
    manifest = (CORPUS / _TC956X / "manifest.json").read_text(encoding="utf-8")
    (bundle / "manifest.json").write_text(manifest, encoding="utf-8")
    assert inspect_bundle(bundle).nics == []


def test_a_driver_named_for_an_soc_s_ethernet_puts_its_nic_on_the_soc() -> None:
    inv = inspect_bundle(CORPUS / _RALINK)
    (eth0,) = inv.nics
    assert (eth0.name, eth0.driver, eth0.bus) == ("eth0", "ralink_soc_eth", "platform")


def test_an_sdio_function_s_name_is_its_nic_s_bus_path() -> None:
    inv = inspect_bundle(CORPUS / _WILC)
    (wlan0,) = inv.nics
    assert (wlan0.name, wlan0.bus, wlan0.bus_path, wlan0.driver) == (
        "wlan0",
        "sdio",
        "mmc1:0001:1",
        "wilc_sdio",
    )


# The second batch's classes -------------------------------------------------------------

_ATH10K_PROMPTS = "qca9377_linux_ath_14_ath10k_sdio_etimedout_prompts"
_EEPRO100 = "netdev_2004_e100_eeprom_checksum_quoted_no_timestamps"
_LAN9115 = "omap3evm_uboot_2010_lan9115_invalid_mac_no_timestamps"


def test_an_interface_paired_with_its_adapter_by_elimination_keeps_the_adapter_s_errors() -> None:
    """wlan0 is named only by ADDRCONF and the shell's prompt; ath10k_sdio's -110 lines name
    only mmc2:0001:1: the pair is made by elimination, and the errors are the NIC's."""
    inv = inspect_bundle(CORPUS / _ATH10K_PROMPTS)
    (wlan0,) = inv.nics
    assert (wlan0.name, wlan0.bus_path) == ("wlan0", "mmc2:0001:1")
    assert wlan0.log_counts.get("kernel_error", 0) >= 9
    complaint = [f for f in inv.findings if f.id == "driver-complaint"]
    assert complaint and "-110" in " ".join(complaint[0].evidence)


def test_a_reply_s_snip_mark_does_not_keep_its_quoted_lines_from_being_read() -> None:
    text = (CORPUS / _EEPRO100 / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    assert "[snip]" in text
    names = {n.name for n in inspect_bundle(CORPUS / _EEPRO100).nics}
    assert names == {"eth1", "eth2"}


def test_eepro100_s_oem_banner_names_its_chip_and_driver_another_banner_none() -> None:
    """torvalds/linux@0795af57 drivers/net/eepro100.c speedo_found1(): the OEM form names the
    chip; tulip's banner of the same shape ("rev 65 at Port ..., MAC, IRQ 5.") is not it."""
    inv = inspect_bundle(CORPUS / _EEPRO100)
    (eth1,) = [n for n in inv.nics if n.name == "eth1"]
    assert (eth1.driver, eth1.bus) == ("eepro100", "pci")
    assert "82557" in (eth1.chip or "")
    result, _ = parse_dmesg(
        "[ 1.0] eth0: Digital DS21143 Tulip rev 65 at Port 0x9000, 00:00:f8:1c:0a:35, IRQ 5.\n"
    )
    assert result is not None
    assert not [e for e in result.events if e.kind == "old_format"]


def test_smc911x_s_2_6_banner_names_the_lan911x_chip_with_its_0x_address() -> None:
    inv = inspect_bundle(CORPUS / _LAN9115)
    (eth0,) = inv.nics
    assert (eth0.chip, eth0.driver, eth0.bus) == ("LAN9115", "smc911x", "platform")
