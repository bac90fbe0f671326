"""Classes that the twenty-ninth unseen set (network devices that are not wired Ethernet: USB,
SDIO and PCIe Wi-Fi, cellular modems, on routers, PCs and SBCs; tests/captures/corpus) showed
misread. Every output here is one of those bundles' (named beside it, with its SOURCE.md), or a
line of one changed to show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, corpus_line, dmesg_events, dmesg_inventory

_RTL8188FU = "openwrt_pr14697_rtl8xxxu_rtl8188fu_chip_line_firmware_ok"
_WRITEN = "x86_rtl8xxxu_a5a5_2_journal_rtl8188eus_writen_eproto"


# --- a network driver's line on the whole USB device (rtl8xxxu's dev_info(&udev->dev, ...)) ---


def test_a_driver_naming_itself_on_a_usb_device_drives_it() -> None:
    """ "usb 1-1: rtl8xxxu: Loading firmware ...": the dongle at 1-1 is rtl8xxxu's Wi-Fi NIC."""
    inv = inspect_bundle(CORPUS / _RTL8188FU)
    assert [(n.bus_path, n.driver, n.bus, n.wireless) for n in inv.nics] == [
        ("1-1", "rtl8xxxu", "usb", True)
    ]


def test_a_function_name_with_the_drivers_prefix_names_the_driver() -> None:
    """ "usb 1-1.2.4: rtl8xxxu_writeN: Failed to write block ... status -71" (__func__ first):
    rtl8xxxu's device, and its -71 is the driver's complaint."""
    inv = inspect_bundle(CORPUS / _WRITEN)
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("1-1.2.4", "rtl8xxxu")]
    assert "driver-complaint" in {f.id for f in inv.findings}


def test_a_word_that_is_no_usb_network_driver_names_none() -> None:
    """The same line under a function of no network driver's prefix, or of a driver that binds
    no USB device, names no driver of the USB device."""
    line = corpus_line(_WRITEN, "addr: 1000", "000-journalctl.txt")
    for other in ("usbfs_writeN", "igb_writeN", "writeN"):
        inv = dmesg_inventory(line.replace("rtl8xxxu_writeN", other))
        assert [n.driver for n in inv.nics if n.driver] == [], other


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=200))
def test_garbage_on_a_usb_device_line_never_raises(tail: str) -> None:
    dmesg_inventory("[   17.4] usb 1-1: " + tail)


# --- a Wi-Fi adapter's "2.4G" is a radio band, not a mobile network's generation ---

_RTL8188FTV = "pi3b_openwrt_rtl8188fu_14_insmod_prompts_garbled_console_bold_enumeration"


def test_a_wifi_dongle_named_for_its_2_4g_band_is_no_cellular_modem() -> None:
    """usb.ids' "RTL8188FTV 802.11b/g/n 1T1R 2.4G WLAN Adapter" (0bda:f179) is Wi-Fi."""
    inv = inspect_bundle(CORPUS / _RTL8188FTV)
    assert [n.ids for n in inv.nics] == ["0bda:f179"]
    assert "cellular-modem" not in {f.id for f in inv.findings}


def test_a_modem_named_for_its_4g_generation_still_is_one() -> None:
    from sbctune.advice.wwan import cellular_reason
    from sbctune.inventory.model import Nic

    for chip in ("Huawei E3372 4G LTE modem", "ZTE 4G USB stick", "Quectel 5G module"):
        assert cellular_reason(Nic(name=None, chip=chip, bus="usb")) is not None, chip
    for chip in ("802.11ac 5G Wi-Fi adapter", "Realtek 2.4G WLAN Adapter"):
        assert cellular_reason(Nic(name=None, chip=chip, bus="usb")) is None, chip


# --- a driver bound before the device left is not the driver of what came back ---

_RTL8188GU = "x86_rtl8188gu_8_realtek_1a2b_disk_then_b711_out_of_tree_8188gu_continuation"


def test_a_driver_cd_switched_to_its_wifi_ids_is_no_longer_in_storage_mode() -> None:
    """0bda:1a2b "DISK" on usb-storage, USB disconnect, back as 0bda:b711 (the RTL8188GU's
    Wi-Fi IDs): usb-storage bound the disk that left, so no storage-mode finding."""
    inv = inspect_bundle(CORPUS / _RTL8188GU)
    assert [(n.bus_path, n.ids, n.driver) for n in inv.nics] == [("1-1", "0bda:b711", None)]
    assert "usb-nic-in-storage-mode" not in {f.id for f in inv.findings}


def test_a_disk_that_comes_back_with_the_same_ids_keeps_its_driver() -> None:
    """The same disconnect, but the port enumerates the disk's IDs again: still usb-storage."""
    text = (CORPUS / _RTL8188GU / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    lines = text.replace("idProduct=b711", "idProduct=1a2b").splitlines()
    inv = dmesg_inventory(*lines[:14])
    assert [(n.ids, n.driver) for n in inv.nics] == [("0bda:1a2b", "usb-storage")]


# --- a serial console's garbled bytes between a prompt and the kernel's line ---


def test_a_kernel_line_after_a_prompt_and_garbled_bytes_is_read() -> None:
    line = corpus_line(_RTL8188FTV, "new high-speed")
    assert line.startswith("root@OpenWrt:")  # the prompt, noise bytes, then "[  352.311072]"
    assert dmesg_events(line + "\n") == [
        (
            "usb_new_device",
            {"device": "1-1.4", "speed": "high-speed", "number": "5", "hcd": "dwc_otg"},
        )
    ]
    inv = inspect_bundle(CORPUS / _RTL8188FTV)
    assert [(n.bus_path, n.usb_speed_mbps) for n in inv.nics] == [("1-1.4", 480)]


@given(
    st.text(
        alphabet=st.characters(min_codepoint=0x80, blacklist_categories=("Cs",)),
        min_size=1,
        max_size=16,
    )
)
def test_noise_bytes_after_a_prompt_read_the_same(noise: str) -> None:
    line = "[  352.311072] usb 1-1.4: new high-speed USB device number 5 using dwc_otg\n"
    assert dmesg_events("root@OpenWrt:~# " + noise + line) == dmesg_events(line)


# --- a probe's reset in a log with no clock: "right after" is a few lines later ---

_PRIO = "x86_usbwifi_410_mt7921u_priority_prefix_debug_cmds_ehci_elisions"


def test_a_probes_reset_without_a_clock_is_no_fault() -> None:
    """ "<6>usb 2-7: new high-speed ...", "<6>usb 2-7: reset high-speed ...", then mt7921u's
    own line on 2-7:1.3: mt7921u's probe resets its device (usb_probe_resets.json)."""
    inv = inspect_bundle(CORPUS / _PRIO)
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("2-7", "mt7921u")]
    assert "usb-reset" not in {f.id for f in inv.findings}


def test_a_reset_far_from_the_enumeration_without_a_clock_is_still_one() -> None:
    text = (CORPUS / _PRIO / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    lines = text.splitlines()
    filler = ["<6>usb 1-1: Product: something else"] * 20
    inv = dmesg_inventory(lines[0], *filler, *lines[1:])
    assert "usb-reset" in {f.id for f in inv.findings}


# --- the firmware directory a driver's own line names says its chip ---

_RUTX10 = "rutx10_openwrt_5091_ath10k_ahb_qca4019_board_file_enomem_two_radios"


def test_a_firmware_directory_in_a_drivers_line_names_the_chip() -> None:
    """a000000.wifi's lines name only "from ath10k/QCA4019/hw1.0" (hw_params.fw.dir): a
    QCA4019, as firmware_chips.json's prefix for that directory says."""
    inv = inspect_bundle(CORPUS / _RUTX10)
    chips = {n.bus_path: (n.chip or "").lower() for n in inv.nics}
    assert "qca4019" in chips["a000000.wifi"]


def test_a_path_that_is_no_firmware_directory_names_no_chip() -> None:
    from sbctune.catalog.driver_firmware import firmware_dir_in

    line = corpus_line(_RUTX10, "failed to fetch board-2.bin or board.bin")
    assert firmware_dir_in(line) == "ath10k/QCA4019/hw1.0/"
    assert firmware_dir_in(line.replace("QCA4019", "QCA9999")) is None
    assert firmware_dir_in(line.replace("ath10k/", "xath10k/")) is None


def test_rtl8xxxus_chip_line_on_the_usb_device_names_the_chip() -> None:
    """rtl8xxxu_print_chipinfo()'s "usb 1-1: RTL8188FU rev B (SMIC) romver 0, 1T1R, ..."."""
    inv = inspect_bundle(CORPUS / _RTL8188FU)
    assert [(n.bus_path, n.chip) for n in inv.nics] == [("1-1", "RTL8188FU")]
    line = corpus_line(_RTL8188FU, "romver")
    assert dmesg_events(line + "\n") == [("chip", {"device": "1-1", "chip": "RTL8188FU"})]
    # a product string in the same words is no chip line of the driver
    assert dmesg_events(line.replace("romver 0, 1T1R", "rom") + "\n")[0][0] != "chip"


# --- a driver's line that is its chip's name alone (ath11k's hw_params.name) ---

_MX8500 = "mx8500_openwrt_pr16731_ath11k_pci_qcn9074_boot_debug_firmware2_enomem_fallback"


def test_a_line_that_is_the_chips_name_beats_a_pci_ids_name_of_several() -> None:
    """ "ath11k_pci 0000:01:00.0: qcn9074 hw1.0" names one model of pci.ids' 17cb:1104
    "QCN6024/9024/9074 Wireless Network Adapter"."""
    inv = inspect_bundle(CORPUS / _MX8500)
    assert [(n.ids, (n.chip or "").lower()) for n in inv.nics] == [("17cb:1104", "qcn9074 hw1.0")]


def test_a_line_that_only_starts_with_a_chips_name_names_none() -> None:
    from sbctune.catalog.driver_firmware import chip_named_alone

    assert chip_named_alone("qcn9074 hw1.0") == "qcn9074 hw1.0"
    assert chip_named_alone("qcn9074 hw1.0 failed to boot") is None
    assert chip_named_alone("FW memory mode: 2") is None


# --- a WWAN interface registered before the device switched to another mode ---

_HOTSPOT = "omr_3761_portable_wifi_qmi_wwan_then_rndis_host_register_unregister_xhci_platform"


def test_a_hotspot_that_registered_a_wwan_interface_is_a_modem() -> None:
    """wwan2 on qmi_wwan, then usb0 on rndis_host: the NIC's last driver is rndis_host, but
    the device registered a mobile-network interface."""
    inv = inspect_bundle(CORPUS / _HOTSPOT)
    assert [(n.bus_path, n.driver) for n in inv.nics] == [("3-1.5", "rndis_host")]
    assert "cellular-modem" in {f.id for f in inv.findings}


def test_rndis_alone_is_no_modem() -> None:
    text = (CORPUS / _HOTSPOT / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if "qmi_wwan" not in line]
    inv = dmesg_inventory(*lines)
    assert "cellular-modem" not in {f.id for f in inv.findings}


# --- a USB device that left and came back elsewhere with its IDs and serial number ---

_RTW8812AU = "x86_rtw88_365_rtw8812au_tplink_2357_0101_usb3_mode_switch_duplicate_symbol"


def test_a_dongle_switched_to_usb3_is_one_nic_at_its_new_port() -> None:
    """rtw_8812au at 1-1 (high speed), "USB disconnect", then 2-1 at SuperSpeed with the same
    IDs and serial number: one NIC, at 2-1, at 5000 Mbit/s."""
    inv = inspect_bundle(CORPUS / _RTW8812AU)
    assert [(n.bus_path, n.ids, n.usb_speed_mbps) for n in inv.nics] == [("2-1", "2357:0101", 5000)]


def test_another_serial_number_is_another_device() -> None:
    text = (CORPUS / _RTW8812AU / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    head, _, tail = text.partition("usb 2-1: new SuperSpeed")
    tail = tail.replace("SerialNumber: 123456", "SerialNumber: 654321")
    inv = dmesg_inventory(*(head + "usb 2-1: new SuperSpeed" + tail).splitlines())
    assert sorted(n.bus_path or "" for n in inv.nics) == ["1-1", "2-1"]


def test_a_drivers_line_on_its_interface_keeps_its_driver() -> None:
    """ "smsc95xx 1-1.1:1.0: eth0: kevent 2 may have been dropped" is in words only lan78xx's
    source prints, but smsc95xx printed it on its own interface: the USB-device rule (a line on
    the whole device, "usb 1-1: ...") does not rename its driver."""
    inv = inspect_bundle(CORPUS / "pi1b_linux_153_smsc95xx_kevent_dropped_page_alloc_failure")
    assert [(n.name, n.driver) for n in inv.nics] == [("eth0", "smsc95xx")]
