"""Classes that the ninth unseen set (19 public pastes in tests/captures/corpus: report tools
and wrappers, USB/SDIO Wi-Fi, an LTE modem, an RNDIS gadget; 121 of 169 facts before any fix)
showed unread. Every output here is copied from one of those bundles (named beside it); the
corpus test checks whole bundles."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.ethtool import parse_ethtool_driver
from sbctune.inventory.parsers.hwinfo import parse_hwinfo
from sbctune.inventory.parsers.log_unwrap import join_mail_wrapped
from sbctune.inventory.parsers.lsusb import parse_lsusb, parse_usb_devices
from sbctune.inventory.parsers.netif import parse_ip_text
from sbctune.inventory.parsers.paste_split import needs_split, split_paste
from sbctune.inventory.parsers.wireless_tools import parse_proc_net_wireless
from tests.corpus_support import corpus_output as _output
from tests.corpus_support import inventory_of as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def test_a_chained_command_line_is_cut_into_its_outputs() -> None:
    """`sudo lsusb; rfkill list all; dkms status; iw dev; iw reg get` as one stored output:
    the lsusb lines and the `iw dev` block are each read (rfkill and dkms are not)."""
    text = _output("x86_8821cu_105_chained_lsusb_rfkill_dkms_iw_dev")
    kinds = [cmd for cmd, _ in split_paste(text, None)]
    assert kinds == ["lsusb", "iw dev"]
    inv = _inventory({"sudo lsusb; rfkill list all; dkms status; iw dev; iw reg get": text})
    by_ids = {n.ids: n for n in inv.nics if n.ids}
    assert by_ids["0bda:c811"].wireless is True  # "802.11ac NIC"
    assert [n.name for n in inv.nics if n.name] == ["wlan10"]


def test_a_report_tools_sections_are_read_by_their_shape() -> None:
    """raspinfo's Wi-Fi section: /proc/net/wireless names wlan0, `ethtool -i` (printed without
    its interface) names brcmfmac on an SDIO function; the lone pair is one Wi-Fi NIC."""
    text = _output("pi_utils_186_raspinfo_wifi_section_brcmfmac_mmc")
    kinds = [cmd for cmd, _ in split_paste(text, None)]
    assert "cat /proc/net/wireless" in kinds and "ethtool -i" in kinds
    (nic,) = _inventory({"raspinfo": text}).nics
    assert (nic.name, nic.driver, nic.bus, nic.wireless) == ("wlan0", "brcmfmac", "sdio", True)


def test_prompts_inside_a_stored_output_start_the_next_outputs() -> None:
    """A dmesg paste followed by `root@...# lsusb` and a bare `ifconfig`: the SMSC LAN that
    only the lsusb lines show is listed."""
    text = _output("pi_linux_2164_rtl8192cu_dmesg_then_prompts_lsusb_ifconfig")
    assert needs_split(True, text)
    ids = {n.ids for n in _inventory({"dmesg": text}).nics}
    assert {"0bda:8178", "0424:ec00"} <= ids


def test_a_bare_command_line_after_a_separator_is_read() -> None:
    """`sudo lshw` node, `---`, `smart_sudo ip link list`: wlan0 (r8188eu, set down) and eth0
    (up) are both read."""
    text = _output("x86_rtl8188eu_58_lshw_disabled_iw_list_ip_link_one_paste")
    inv = _inventory({"sudo lshw": text})
    by_name = {n.name: n for n in inv.nics}
    assert by_name["wlan0"].driver == "r8188eu"
    # set down: its carrier unknown (gaps26: nothing opened it), and shown as set down
    assert by_name["wlan0"].link_detected is None and by_name["wlan0"].set_down
    assert by_name["eth0"].link_detected is True


def test_a_long_log_with_no_break_is_not_cut() -> None:
    log = "".join(f"[{i:6d}.000000] usb 1-1: msg {i}\n" for i in range(2000))
    assert not needs_split(True, log)


def test_a_prompt_glued_to_a_kernel_line_does_not_cut_the_log() -> None:
    text = "[   1.0] a: b\nroot@target:~# [   2.0] usb 5-1: new high-speed USB device number 3\n"
    parts = split_paste(text, "dmesg")
    assert [cmd for cmd, _ in parts] == ["dmesg"]


def test_hwinfo_blocks_are_network_records() -> None:
    res, warnings = parse_hwinfo(_output("x86_rtl8188eu_pr45_hwinfo_usb_go_usb_n150"))
    (node,) = res.networks
    assert (node.logical_name, node.driver, node.ids) == ("wlan1", "r8188eu", "2001:3311")
    assert (node.usb_port, node.usb_speed_mbps, node.link) == ("1-1", 480.0, True)
    assert warnings == []


def test_proc_net_wireless_rows_are_wifi_interfaces() -> None:
    text = _output("pi_utils_186_raspinfo_wifi_section_brcmfmac_mmc")
    part = next(body for cmd, body in split_paste(text, None) if cmd.endswith("wireless"))
    res, _ = parse_proc_net_wireless(part)
    assert [(i.name, i.link_type) for i in res.interfaces] == [("wlan0", "ieee802.11")]


def test_an_sdio_bus_info_is_sdio() -> None:
    info, _ = parse_ethtool_driver("driver: brcmfmac\nbus-info: mmc1:0001:1\n")
    assert info.bus_type == "sdio"


def test_a_modems_network_interface_names_its_driver() -> None:
    """EM7565: qcserial on interfaces 0-3, cdc_mbim on 12-13: the NIC's driver is cdc_mbim."""
    text = _output("pi_router_geerling_1_usb_devices_em7565_cdc_mbim")
    (dev,) = parse_usb_devices(text)[0].devices
    assert dev.drivers == ["qcserial", "cdc_mbim"]
    (nic,) = _inventory({"cat /sys/kernel/debug/usb/devices": text}).nics
    assert nic.driver == "cdc_mbim"
    assert "cellular-modem" in {f.id for f in _inventory({"usb-devices": text}).findings}


def test_bold_marks_in_lsusb_are_read_through() -> None:
    res, _ = parse_lsusb(_output("pi_8812au_42_lsusb_edimax_ew7822ulc_bold_ids"))
    assert "7392:b822" in {d.ids for d in res.devices}


def test_mail_wrapped_journal_lines_are_joined() -> None:
    text = _output("x86_arch_general_51518_milkv_duo_rndis_host_mail_wrapped_journal", "000")
    joined = join_mail_wrapped(text)
    assert "idVendor=3346, idProduct=1009" in joined
    assert "number 6 using ehci-pci" in joined
    res, _ = parse_dmesg(text)
    assert res.kernel_lines == 9  # 13 lines, 4 of them continuations
    unwrapped = "Jan 05 00:30:34 2pi kernel: usb 2-8: Product: RNDIS\n" * 3
    assert join_mail_wrapped(unwrapped) == unwrapped


def test_an_interface_set_down_has_no_link() -> None:
    """Set down (no UP flag): down, and its carrier unknown rather than off (gaps26: LOWER_UP
    is netif_carrier_ok(), which a driver sets only once the interface is opened)."""
    res, _ = parse_ip_text(
        "4: wlan0: <BROADCAST,MULTICAST> mtu 1500 qdisc mq state DOWN mode DEFAULT qlen 1000\n"
    )
    assert res.interfaces[0].is_up is False
    assert res.interfaces[0].has_carrier is None


_TEXT = st.text(
    alphabet=st.sampled_from(list("ab:#$@~-=*[]0123456789 .\n\tBusDevicID/driv")), max_size=400
)


@settings(max_examples=200)
@given(_TEXT, st.sampled_from([None, "dmesg", "lsusb", "raspinfo"]))
def test_splitting_never_raises_and_keeps_every_kept_line(text: str, first: str | None) -> None:
    parts = split_paste(text, first)
    for cmd, body in parts:
        assert isinstance(cmd, str) and body.endswith("\n")
        for line in body.splitlines():
            assert line in text


@settings(max_examples=200)
@given(_TEXT)
def test_hwinfo_and_proc_net_wireless_never_raise(text: str) -> None:
    parse_hwinfo(text)
    parse_proc_net_wireless(text)
    join_mail_wrapped(text)


def test_networkctl_status_is_a_nic_record() -> None:
    from sbctune.inventory.parsers.report_tools import parse_networkctl_status

    text = _output("vm_systemd_pr15104_networkctl_status_e1000_qdisc_marks")
    (node,) = parse_networkctl_status(text)[0].networks
    assert (node.logical_name, node.driver, node.pci_address) == ("ens38", "e1000", "0000:02:06.0")
    assert (node.size_mbps, node.config.get("duplex"), node.link) == (1000, "full", True)


def test_a_networkctl_speed_that_is_no_line_rate_is_not_taken() -> None:
    """systemd issue 33076: a 2.5 Gbit/s link printed as `2Gbps` (ethtool: 2500Mb/s)."""
    from sbctune.inventory.parsers.report_tools import parse_networkctl_status

    text = _output("x86_systemd_33076_networkctl_status_igc_i226lm")
    (node,) = parse_networkctl_status(text.replace("Model:", "Speed: 2Gbps\n Model:"))[0].networks
    assert node.size_mbps is None
    (nic,) = _inventory({"networkctl status 3": text}).nics
    assert nic.chip is not None and "I226-LM" in nic.chip


def test_inxis_network_section_names_each_card() -> None:
    from sbctune.inventory.parsers.report_tools import parse_inxi_network

    text = _output("x86_inxi_112_inxi_nx_nxx_skge_e1000e")
    nodes = parse_inxi_network(text)[0].networks
    got = {(n.pci_address, n.driver, n.ids) for n in nodes}
    assert ("0000:01:05.0", "skge", "11ab:4320") in got
    assert ("0000:03:00.0", "e1000e", "8086:108b") in got
    assert len(_inventory({"inxi -Nx": text}).nics) == 2


@settings(max_examples=200)
@given(_TEXT)
def test_report_tool_parsers_never_raise(text: str) -> None:
    from sbctune.inventory.parsers.report_tools import parse_inxi_network, parse_networkctl_status

    parse_networkctl_status(text)
    parse_inxi_network("Network: Device-1: " + text)


def test_a_reset_by_the_probe_before_the_drivers_registration_line_is_no_fault() -> None:
    """mt7921u's probe resets the device (usb_reset_device) while usb_register_driver()
    probes the devices already present, before it prints "registered new interface driver":
    the reset line comes first and is the driver's doing, not a lost adapter."""
    text = _output("pi_usbwifi_533_mt7921u_dwc_otg_high_speed")
    inv = _inventory({"dmesg": text})
    assert "usb-reset" not in {f.id for f in inv.findings}
    later = text.replace("[   48.198421] usbcore: registered new interface driver mt7921u\n", "")
    # with the module loaded already (no registration line), mt7921u's own line for the
    # device right after the reset still makes it the probe's (usb_probe_watch, session 15);
    # with no line of that driver at all, nothing explains the reset: a lost adapter
    assert "usb-reset" not in {f.id for f in _inventory({"dmesg": later}).findings}
    unexplained = "\n".join(line for line in later.splitlines() if "mt7921u" not in line)
    assert "usb-reset" in {f.id for f in _inventory({"dmesg": unexplained}).findings}
