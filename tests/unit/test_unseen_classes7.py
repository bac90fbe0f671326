"""Classes that the seventh unseen set (19 public pastes in tests/captures/corpus: USB and SDIO
Wi-Fi, storage-mode dongles, LTE modems, Thunderbolt networking, iwconfig/nmcli; 74 of 122
facts before any fix) showed unread. Every output here is copied from one of those bundles
(named beside it); the corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog.kernel_drivers import (
    chip_by_description,
    chip_by_driver_name,
    driver_for_files,
    load_kernel_drivers,
)
from sbctune.catalog.kernel_messages import errno_in, load_messages
from sbctune.catalog.modeswitch import storage_mode
from sbctune.inventory.ifnames import bus_from_name
from sbctune.inventory.parsers.dispatch import resolve_command, resolve_file
from sbctune.inventory.parsers.wireless_tools import (
    parse_iw_dev,
    parse_iwconfig,
    parse_nmcli_device,
)
from tests.corpus_support import corpus_output as _output
from tests.corpus_support import inventory_of as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


IWCONFIG = _output("pi4_ubuntu_rpi_1_iwconfig_nmcli_device_status", "000-")
NMCLI_STATUS = _output("pi4_ubuntu_rpi_1_iwconfig_nmcli_device_status", "002-")
NMCLI_D = _output("nanopi_r4s_avafinger_4_nmcli_d_wlx_prompts", "000-")


def test_iwconfig_names_wifi_and_other_interfaces() -> None:
    result, warnings = parse_iwconfig(IWCONFIG)
    kinds = {i.name: i.link_type for i in result.interfaces}
    assert kinds == {"eth0": "ether", "wlan0": "ieee802.11"}  # lo is left out
    assert warnings == []


def test_nmcli_device_tables_name_wifi_ethernet_and_the_rest() -> None:
    result, warnings = parse_nmcli_device(NMCLI_D)  # a prompt line before the table
    kinds = {i.name: i.link_type for i in result.interfaces}
    assert kinds == {
        "wlx001f1fa6a4ae": "ieee802.11",
        "enp1s0": "ether",
        "eth0": "ether",
        "lo": "loopback",
    }
    assert warnings == []
    result, _ = parse_nmcli_device(NMCLI_STATUS)
    assert {i.name: i.link_type for i in result.interfaces}["docker0"] == "bridge"


def test_iw_dev_and_iw_info_blocks() -> None:
    captures = Path(__file__).resolve().parents[1] / "captures" / "iw_dev"
    text = (captures / "pi3_wifiphisher_719_iw_dev_wlan1.txt").read_text(encoding="utf-8")
    result, warnings = parse_iw_dev(text)  # phy#0 and tab-indented fields
    (wlan,) = result.interfaces
    assert (wlan.name, wlan.link_type, wlan.mac, warnings) == (
        "wlan1",
        "ieee802.11",
        "b8:27:eb:cc:f9:c5",
        [],
    )
    text = (captures / "wlanpi_migration_61_iw_wlan0_info.txt").read_text(encoding="utf-8")
    result, warnings = parse_iw_dev(text)  # `iw wlan0 info`: no phy# line, spaces
    (wlan,) = result.interfaces
    assert (wlan.name, wlan.mac, warnings) == ("wlan0", "40:a5:ef:46:4d:a3", [])
    assert resolve_command("iw wlan0 info")[0] == "iw dev"
    assert resolve_command("iw phy phy0 info")[0] is None


@given(st.text(max_size=400))
def test_the_wireless_tools_parsers_never_raise(text: str) -> None:
    for parse in (parse_iwconfig, parse_iw_dev, parse_nmcli_device):
        result, warnings = parse(text)
        assert isinstance(warnings, list)
        assert all(i.name for i in result.interfaces)


def test_the_wireless_tools_are_read_as_commands_people_paste() -> None:
    assert resolve_command("iwconfig")[0] == "iwconfig"
    assert resolve_command("nmcli d")[0] == "nmcli device"
    assert resolve_command("nmcli device status")[0] == "nmcli device"
    assert resolve_command("nmcli device wifi connect x")[0] is None  # not a listing
    assert resolve_command("iw dev")[0] == "iw dev"
    assert resolve_command("iw dev wlan0 link")[0] == "iw link"  # read since corpus18
    # log files hold the kernel's lines too; debugfs's devices file is usb-devices' format
    assert resolve_command("cat /var/log/syslog")[0] == "dmesg"
    assert resolve_command("tail -f /var/log/kern.log")[0] == "dmesg"
    assert resolve_file("/sys/kernel/debug/usb/devices")[0] == "usb-devices"


def test_an_nmcli_list_gives_every_nic_once_with_its_kind() -> None:
    inv = _inventory({"nmcli d": NMCLI_D})
    nics = {n.name: n for n in inv.nics}  # type: ignore[attr-defined]
    assert set(nics) == {"wlx001f1fa6a4ae", "enp1s0", "eth0"}  # not lo
    assert nics["wlx001f1fa6a4ae"].wireless and not nics["enp1s0"].wireless
    assert nics["enp1s0"].bus == "pci"  # systemd's p<bus>s<slot> path


def test_predictable_names_say_their_bus() -> None:
    assert bus_from_name("enp1s0") == "pci"
    assert bus_from_name("enP4p65s0") == "pci"
    assert bus_from_name("wlp2s0") == "pci"
    assert bus_from_name("enp0s18f2u1") == "usb"
    assert bus_from_name("end0") == "platform"
    for none in ("eth0", "wlan0", "enx00e04c68001d", "wlx001f1fa6a4ae", "thunderbolt0", None):
        assert bus_from_name(none) is None, none


def test_storage_mode_ids_come_from_usb_modeswitch_and_cited_extras() -> None:
    realtek = storage_mode("0bda:1a2b")  # Debian's usb-modeswitch-data
    assert realtek is not None and realtek.targets
    aic = storage_mode("A69C:5721")  # resources/modeswitch/extra.json, with its sources
    assert aic is not None and "AIC8800" in aic.name
    assert storage_mode("0bda:8153") is None  # an RTL8153 in its network mode


def test_a_storage_mode_dongle_is_listed_and_explained() -> None:
    lsusb = _output("cm3588_dukechocula_15_aic8800_msc_storage_mode_lsusb", "000-")
    inv = _inventory({"lsusb": lsusb})
    (nic,) = inv.nics  # type: ignore[attr-defined]
    assert nic.ids == "a69c:5721" and nic.bus == "usb"
    (found,) = [f for f in inv.findings if f.id == "usb-nic-in-storage-mode"]  # type: ignore[attr-defined]
    assert "usb_modeswitch" in found.summary and "(a69c:5721)" in found.summary


def test_a_wiphy_line_names_its_driver_by_the_format() -> None:
    journal = _output("pizero2w_firmware_1768_journal_brcmf_fw_crashed_phy0", "000-")
    inv = _inventory({"journalctl": journal})
    (nic,) = inv.nics  # type: ignore[attr-defined]
    assert nic.driver == "brcmfmac" and nic.wireless
    (found,) = [f for f in inv.findings if f.id == "driver-complaint"]  # type: ignore[attr-defined]
    assert "Firmware has halted or crashed" in found.summary
    known = load_messages().match("Firmware has halted or crashed")
    assert known is not None
    owner = driver_for_files(known.files)
    assert owner is not None and owner.name == "brcmfmac"
    assert driver_for_files(("net/core/dev.c",)) is None  # shared code names no driver


def test_errnos_after_failed_are_read() -> None:
    assert errno_in("mt7601u 1-3:1.0: Vendor request req:07 off:x101c failed:-110") == -110
    assert errno_in("r8152 3-2:1.0: write type=0x0033, index=0xd630 fail -71") == -71
    assert errno_in("brcmfmac: mmc_submit_one: CMD53 sg block write failed -110") == -110
    assert errno_in("rtw_8821cu 1-1.2:1.2: failed to setup chip information") is None


def test_usb_errors_before_a_netdev_are_the_nics() -> None:
    dmesg = _output("ds1815_bbqq_611_rtl8157_write_eproto_warning", "000-")
    inv = _inventory({"dmesg": dmesg})
    (nic,) = inv.nics  # type: ignore[attr-defined]  # not mlx5/igb/e1000e of a module list
    assert (nic.driver, nic.bus, nic.bus_path) == ("r8152", "usb", "3-2")
    assert {"usb-reset", "driver-complaint"} <= {f.id for f in inv.findings}  # type: ignore[attr-defined]


def test_a_usb_product_string_names_a_wifi_nic() -> None:
    dmesg = _output("x86_rtl8xxxu_9_rtl8192eu_efuse_dump_usb_device", "000-")
    (nic,) = _inventory({"dmesg": dmesg}).nics  # type: ignore[attr-defined]
    assert (nic.bus_path, nic.usb_speed_mbps, nic.wireless) == ("1-6", 480, True)


def test_chips_from_drivers_named_for_them() -> None:
    assert chip_by_driver_name("mt7601u") == "MT7601U"  # usb.ids: "MT7601U Wireless Adapter"
    assert chip_by_driver_name("r8152") is None  # not a model's name
    assert chip_by_driver_name("igc") is None
    assert "RTL8821CU" in (chip_by_description("rtw_8821cu") or "")


def test_a_firmware_directory_names_a_driver_family() -> None:
    table = load_kernel_drivers()
    family = table.for_firmware("rtw88/rtw8812a_fw.bin")  # rtw_8812au: not in 6.1 or 6.12
    assert family and all(d.wireless for d in family)
    assert table.for_firmware("nowhere/thing.bin") == []
    assert table.for_firmware("top-level.bin") == []


def test_a_cellular_modem_is_listed_and_said_to_be_one() -> None:
    """An LTE modem's interface is a network device (listed), but not one to measure or tune
    against this PC: qmi_wwan's wwan0 and an EC25 on the generic cdc_ether (not told to use
    qmi_wwan for "the chip's offloads": QMI is a modem protocol)."""
    bundle = "pi_linux_1880_ec21_qmi_wwan_lsusb_t_smsc95xx"
    inv = _inventory({"dmesg": _output(bundle, "000-"), "lsusb -t": _output(bundle, "001-")})
    (modem,) = [f for f in inv.findings if f.id == "cellular-modem"]  # type: ignore[attr-defined]
    assert modem.nic == "wwan0" and "qmi_wwan" in modem.summary
    bundle = "turingpi_geerling_344_ec25_cdc_ether_lsusb_t"
    inv = _inventory({"lsusb": _output(bundle, "000-"), "lsusb -t": _output(bundle, "001-")})
    ids = {f.id for f in inv.findings}  # type: ignore[attr-defined]
    assert "cellular-modem" in ids and "generic-driver" not in ids
    assert load_kernel_drivers().get("qmi_wwan").protocol  # type: ignore[union-attr]
