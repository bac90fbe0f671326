"""Classes that the eleventh unseen set (16 public pastes in tests/captures/corpus: phone
tethering, LTE/5G modems, multi-gig USB NICs on Synology; 141 of 157 facts before its fixes)
showed unread. Every output here is copied from one of those bundles (named beside it, each
with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.catalog.wwan_ids import wwan_drivers
from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.resources import resource_root
from tests.corpus_support import corpus_output as _output
from tests.corpus_support import inventory_of as _inventory

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"
USB_DEVICES = "cat /sys/kernel/debug/usb/devices"


def _ids(inv: Inventory) -> set[str]:
    return {f.id for f in inv.findings}


def test_a_modems_driver_is_its_network_interfaces_not_its_disks() -> None:
    """huawei_cdc_ncm registers wwan0 on 1-1.4:1.2, then usb-storage takes the stick's CD-ROM
    and card reader (1-1.4:1.3, :1.4): the NIC's driver is huawei_cdc_ncm, and a device with a
    network interface is not stuck in its storage mode."""
    inv = _inventory({"dmesg": _output("pi_openwrt_84_huawei_cdc_ncm_e3372")})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.ids) == ("wwan0", "huawei_cdc_ncm", "12d1:1506")
    assert "usb-nic-in-storage-mode" not in _ids(inv)
    # the same on musb-hdrc with cdc_ether (a Huawei HiLink stick), no "generic driver" advice
    inv = _inventory({"dmesg": _output("bbb_balena_445_huawei_e3531_cdc_ether_musb")})
    (nic,) = inv.nics
    assert (nic.name, nic.driver) == ("eth1", "cdc_ether")
    assert not {"usb-nic-in-storage-mode", "generic-driver"} & _ids(inv)


def test_a_disk_alone_is_still_the_storage_mode() -> None:
    """Without the network interface's line the same stick is only usb-storage's."""
    lines = _output("pi_openwrt_84_huawei_cdc_ncm_e3372").splitlines()
    kept = [line for line in lines if "huawei_cdc_ncm" not in line]
    (nic,) = _inventory({"dmesg": "\n".join(kept) + "\n"}).nics
    assert nic.driver == "usb-storage"


def test_a_line_in_markdown_backticks_keeps_its_clock() -> None:
    """`[   76.669490] usb 1-1.5: ...` (each line in backticks): the clock is read, so the
    excerpt starts mid-log and its missing driver line proves nothing ("not shown")."""
    text = _output("pi_sixfab_1_ec25a_backticked_lines_no_driver")
    result, _warnings = parse_dmesg(text)
    assert result.timestamps and result.starts_mid_log
    assert not any(e.text.endswith("`") for e in result.events)
    (nic,) = _inventory({"dmesg": text}).nics
    assert (nic.ids, nic.driver, nic.driver_state) == ("2c7c:0125", None, "unknown")


def test_a_cut_usb_devices_listing_claims_no_missing_driver() -> None:
    """`C:* #Ifs= 5` but the paste stops inside interface 2: interfaces 3 and 4 (the modem's
    network ones) are not shown, so "no driver" is not said; a whole listing whose every
    interface says Driver=(none) still says it."""
    inv = _inventory({USB_DEVICES: _output("pi4_omr_2850_rm520n_gl_usb_devices_no_driver", "001")})
    (nic,) = inv.nics
    assert (nic.ids, nic.usb_speed_mbps, nic.driver_state) == ("2c7c:0801", 5000, "unknown")
    assert "no-driver" not in _ids(inv)
    whole = ROOT / "tests/captures/usb_devices/ds918_bbqq_13_trendnet_usb_devices_no_driver.txt"
    inv = _inventory({"usb-devices": whole.read_text(encoding="utf-8")})
    assert [n.driver_state for n in inv.nics] == ["none"]


def test_a_storage_mode_devices_disconnect_is_its_mode_switch() -> None:
    """05c6:f000 (usb_modeswitch's data) comes up as a CD-ROM and leaves the bus: that is
    the switch to its modem mode, not a USB fault (the disconnect is read, and not counted)."""
    text = _output("x86_qualcommlte_1_05c6_f000_quoted_storage_mode")
    result, _warnings = parse_dmesg(text)
    assert [e.device for e in result.events if e.kind == "usb_disconnect"] == ["1-1.5"]
    inv = _inventory({"dmesg": text})
    assert "usb-nic-in-storage-mode" in _ids(inv) and "usb-reset" not in _ids(inv)
    (nic,) = inv.nics
    assert "usb_disconnect" not in nic.log_counts


def test_aqc111s_usb_generation_is_the_usb_speed() -> None:
    """ "Link Speed 5000, USB 3": aqc111_configure_rx() prints 3 for USB_SPEED_SUPER."""
    inv = _inventory(
        {"dmesg": _output("ds1019p_bbqq_aqc111_23_kevent_dropped_wrapped_register", "001")}
    )
    (nic,) = inv.nics
    assert (nic.link_speed_mbps, nic.usb_speed_mbps) == (5000, 5000)
    assert "usb3-adapter-at-usb2" not in _ids(inv)


def test_open_vswitchs_interface_is_not_a_nic() -> None:
    inv = _inventory({"dmesg": _output("ds620slim_bbqq_aqc111_117_ovs_eth2_not_ready", "001")})
    assert [n.name for n in inv.nics] == ["eth2"]


def test_a_modem_known_by_the_kernels_modem_tables() -> None:
    """The RM520N-GL has no driver and no "modem" in any name: option's and qmi_wwan's ID
    tables list 2c7c:0801. An RTL8157 sold as "USB 5G Ethernet" is no modem."""
    assert wwan_drivers("2c7c:0801") == ["option", "qmi_wwan"]
    assert wwan_drivers("0bda:8157") == [] and wwan_drivers(None) == []
    inv = _inventory({USB_DEVICES: _output("pi4_omr_2850_rm520n_gl_usb_devices_no_driver", "001")})
    (found,) = [f for f in inv.findings if f.id == "cellular-modem"]
    assert "option" in found.summary and "2c7c:0801" in found.summary
    lsusb = _output("ds920p_bbqq_428_rtl8157_synology_tree_ifconfig_ethtool")
    assert "cellular-modem" not in _ids(_inventory({"lsusb": lsusb}))


def test_a_class_drivers_description_yields_to_the_product_string() -> None:
    """rndis_host's "RNDIS device" names no chip; the device's "MDM9207-MTP" does, and an MDM
    chip is Qualcomm's modem."""
    inv = _inventory({"dmesg": _output("pi4_tesla_android_325_rndis_host_mdm9207")})
    (nic,) = inv.nics
    assert (nic.driver, nic.chip) == ("rndis_host", "MDM9207-MTP _SN:8A86A342")
    assert "cellular-modem" in _ids(inv)


def test_an_socs_radio_joins_its_platform_device_and_a_vlan_filter_names_a_nic() -> None:
    """rt2800_wmac 10180000.wmac, then rt2x00's "RT chipset 6352" on phy0: one Wi-Fi NIC on
    the platform bus with its chip; 8021q's HW filter line names eth0; eth0.1 and br-lan are
    virtual."""
    inv = _inventory({"dmesg": _output("mt7620_openwrt_modemband_4_cdc_mbim_rt2800_wmac")})
    wifi = [n for n in inv.nics if n.wireless]
    assert [(n.bus_path, n.chip, n.driver, n.builtin) for n in wifi] == [
        ("10180000.wmac", "RT6352", "rt2800_wmac", True)
    ]
    assert sorted(n.name or "" for n in inv.nics) == ["", "eth0", "wwan0"]


def test_the_usb_cores_complaint_is_not_called_the_drivers() -> None:
    inv = _inventory({"dmesg": _output("x86_qmodem_145_qmi_wwan_q_rm500q_vendor_driver")})
    (found,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert "the USB core logged" in found.summary and "its driver" not in found.summary


@given(st.text(max_size=40))
def test_any_text_is_a_modem_id_only_if_the_table_lists_it(text: str) -> None:
    table = json.loads(
        resource_root().joinpath("kernel_source", "wwan_usb_ids.json").read_text(encoding="utf-8")
    )["ids"]
    assert bool(wwan_drivers(text)) == (text.lower() in table)


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_modem_table_is_what_the_source_says() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import obtain
    from regen_wwan_ids import GLOBS, build

    data = json.loads(
        resource_root().joinpath("kernel_source", "wwan_usb_ids.json").read_text(encoding="utf-8")
    )
    trees = {
        series: obtain(series, GLOBS, version=version).root
        for series, version in data["linux-source"].items()
    }
    assert build(trees) == data["ids"]
    option = (trees["6.1"] / "drivers/usb/serial/option.c").read_text(encoding="utf-8")
    assert "QUECTEL_PRODUCT_RM520N" in option and "0x0801" in option


def test_a_phone_offering_rndis_by_its_class_is_a_nic_without_a_driver() -> None:
    """The moto g play's interfaces are `Cls=ef(misc ) Sub=04 Prot=01` (RNDIS, which 6.1's
    rndis_host binds by class) and `Driver=(none)`: a USB network device with no driver."""
    bundle = "asus_ac68u_merlin_pr730_moto_g_rndis_no_driver_proc_usb_devices"
    listing = _output(bundle, "000")
    inv = _inventory({USB_DEVICES: listing})
    (nic,) = inv.nics
    assert (nic.ids, nic.driver_state, nic.usb_speed_mbps) == ("22b8:2e24", "none", 480)
    assert "no-driver" in _ids(inv)
    # the same listing without the class codes says nothing of a network function
    plain = listing.replace("Cls=ef(misc ) Sub=04 Prot=01", "Cls=ff(vend.) Sub=ff Prot=ff")
    assert _inventory({USB_DEVICES: plain}).nics == []


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_class_table_is_what_the_source_says() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import obtain
    from regen_usb_net_classes import GLOBS, build

    data = json.loads(
        resource_root()
        .joinpath("kernel_source", "usb_net_classes.json")
        .read_text(encoding="utf-8")
    )
    trees = {
        series: obtain(series, GLOBS, version=version).root
        for series, version in data["linux-source"].items()
    }
    assert build(trees) == data["classes"]
    assert data["classes"]["ef/04/01"] == ["rndis_host"]
    rndis = (trees["6.1"] / "drivers/net/usb/rndis_host.c").read_text(encoding="utf-8")
    assert "USB_INTERFACE_INFO(USB_CLASS_MISC, 4, 1)" in rndis


def test_a_link_line_whose_device_address_is_elided_names_its_nic() -> None:
    """HAOS host-log lines `kernel: macb ... ethernet end0: Link is Up - 1Gbps/Full`: the
    driver, an elision for the address, the device name's tail, then the interface."""
    inv = _inventory({"dmesg": _output("pi5_haos_4881_macb_end0_elided_device_host_log")})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus) == ("end0", "macb", "platform")
    assert (nic.link_detected, nic.link_speed_mbps, nic.duplex) == (True, 1000, "full")
    result, _warnings = parse_dmesg("[    1.0] ... eth0: Link is Up - 10Mbps/Half\n")
    assert [(e.kind, e.iface, e.driver) for e in result.events] == [("link_up", "eth0", None)]
