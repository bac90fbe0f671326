"""Classes that the eighty-third unseen set (robots, drones and their companion computers;
tests/captures/corpus/robot83_*) showed misread. Every output here is one of the corpus'
bundles (named beside it, with its SOURCE.md) or a line cut from one; the corpus test checks
whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.driver_firmware import brcmfmac_firmware_chip
from sbctune.inventory.parsers.command_echo import echoed
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_EV3_USR5421 = "robot83_ev3_ev3dev_383_usr5421_bcm4320_lsusb_uname_labels"
_PI3BPLUS = "robot83_pi3bplus_ubiquity_115_brcmfmac43455_sdio_nvram_txt_missing"
_NANO_8192EU = "robot83_jetson_nano_rtl8192eu_147_tl_wn823n_lsmod_uname_lshw_grep"
_NANO_EDIMAX = "robot83_jetson_nano_realsense_5374_rtl8192cu_edimax_dmesg_wT_chinese_ctime"

# --- a label or prompt typed before the command, above its output --------------------------


def test_a_label_before_the_command_is_not_output() -> None:
    """ "(EV3DEV)uname -a" above uname's line: the kernel is the line's below it."""
    board = inspect_bundle(CORPUS / _EV3_USR5421).board
    assert board.kernel == "3.16.7-ckt14-6-ev3dev-ev3"


def test_a_sentence_ending_with_the_command_stays() -> None:
    """Only a prompt's or a label's closing character ($ # % > ) ]) before the command makes
    the line an echo; a kernel line's prefix (":") or words do not."""
    text = "[    1.0] audit: comm=x exe=uname -a\nLinux h 6.1.0 #1 SMP aarch64 GNU/Linux\n"
    assert echoed("uname -a", text) == text
    assert echoed("uname -a", "pi@host:~ $ uname -a\nLinux h\n") == "Linux h\n"


# --- brcmfmac's firmware named by the model a chip id does not spell ------------------------


def test_brcmfmac_firmware_model_names_the_chip() -> None:
    """brcmfmac43455-sdio.txt is what sdio.c's BRCMF_FW_DEF(43455, ...) names for the
    BCM4345 from revision 6 (the CYW43455 of a Pi 3B+): the NIC is a BCM43455 on SDIO, and its
    missing file is said."""
    inv = inspect_bundle(CORPUS / _PI3BPLUS)
    (nic,) = inv.nics
    assert "BCM43455" in (nic.chip or "") and "BCM4345 " in (nic.chip or "")
    assert nic.bus == "sdio" and nic.driver == "brcmfmac"


def test_a_firmware_named_as_its_chip_id_stays() -> None:
    """A base whose model is the chip id itself keeps the id alone."""
    assert brcmfmac_firmware_chip("brcm/brcmfmac43430-sdio.txt") == "BCM43430"


# --- lshw's configuration line grep'ed out of its node ---------------------------------------


def test_a_grepped_lshw_configuration_line_is_an_interface() -> None:
    """ "configuration: broadcast=yes driver=rtl8192eu multicast=yes wireless=unassociated":
    the interface flags and driver network.cc sets on an interface node, so a Wi-Fi NIC on
    rtl8192eu."""
    nics = inspect_bundle(CORPUS / _NANO_8192EU).nics
    assert [(n.driver, n.wireless) for n in nics] == [("rtl8192eu", True)]


def test_a_grepped_configuration_line_of_another_node_is_not() -> None:
    """A configuration line without an interface's flags (a storage node's) makes no NIC."""
    text = "       configuration: driver=usb-storage maxpower=500mA speed=480Mbit/s\n"
    assert inventory_of({"lshw -C network": text}).nics == []


# --- a USB Wi-Fi driver's device-less report after its device enumerates ---------------------


def test_a_drivers_report_names_the_driver_of_the_device_its_table_lists() -> None:
    """ "rtl8192cu: Chip version 0x10" after the 7392:7811 at 1-2.3 enumerates (dmesg -T's
    stamps in a Chinese locale): rtl8192cu, whose alias table lists the IDs, drives it."""
    (nic,) = inspect_bundle(CORPUS / _NANO_EDIMAX).nics
    assert nic.bus_path == "1-2.3" and nic.driver == "rtl8192cu" and nic.usb_speed_mbps == 480


def test_a_hot_plug_without_library_lines_ties_the_same() -> None:
    """The module loaded already: no "registered new interface driver" line, no rtl_usb line."""
    dmesg = (
        "[    5.100000] usb 1-1: new high-speed USB device number 2 using dwc2\n"
        "[    5.200000] usb 1-1: New USB device found, idVendor=7392, idProduct=7811\n"
        "[    5.900000] rtl8192cu: Chip version 0x10\n"
    )
    (nic,) = inventory_of({"dmesg": dmesg}).nics
    assert nic.bus_path == "1-1" and nic.driver == "rtl8192cu"


def test_a_report_with_two_listed_devices_ties_neither_and_adds_none() -> None:
    """Two devices its table lists: the report names neither's driver, and is no third NIC."""
    dmesg = (
        "[    5.100000] usb 1-1: new high-speed USB device number 2 using dwc2\n"
        "[    5.200000] usb 1-1: New USB device found, idVendor=7392, idProduct=7811\n"
        "[    5.900000] rtl8192cu: Chip version 0x10\n"
        "[    6.100000] usb 1-2: new high-speed USB device number 3 using dwc2\n"
        "[    6.200000] usb 1-2: New USB device found, idVendor=0bda, idProduct=8176\n"
    )
    nics = inventory_of({"dmesg": dmesg}).nics
    assert sorted((n.bus_path, n.driver) for n in nics) == [("1-1", None), ("1-2", None)]


def test_the_corpus_output_is_the_one_tested() -> None:
    """The lines above are the bundle's (a guard against a test drifting from its capture)."""
    assert "rtl8192cu: Chip version 0x10" in corpus_output(_NANO_EDIMAX)


# --- a device-less complaint between one device's departure and another's arrival ------------


def test_lines_after_a_departure_are_not_the_newcomers() -> None:
    """rtl_usb's "usbctrl_vendorreq TimeOut!" right after "usb 1-2.1: USB disconnect" and
    before the Edimax enumerates at 1-2.3: the unplugged device's, so no complaint on 1-2.3."""
    inv = inspect_bundle(CORPUS / _NANO_EDIMAX)
    assert not [f for f in inv.findings if f.id == "driver-complaint"]


def test_lines_after_the_device_arrived_stay_its() -> None:
    """The same complaint printed after the device enumerated (a disconnect before both) is its."""
    dmesg = (
        "[    1.000000] usb 1-2.1: USB disconnect, device number 3\n"
        "[    5.100000] usb 1-2.3: new high-speed USB device number 5 using tegra-xusb\n"
        "[    5.200000] usb 1-2.3: New USB device found, idVendor=7392, idProduct=7811\n"
        "[    5.900000] rtl8192cu: Chip version 0x10\n"
        "[    9.000000] rtl_usb: reg 0x102, usbctrl_vendorreq TimeOut! status:0xffffffed "
        "value=0x90e1317\n"
    )
    inv = inventory_of({"dmesg": dmesg})
    (nic,) = [n for n in inv.nics if n.bus_path == "1-2.3"]
    assert nic.driver == "rtl8192cu"
    assert [f for f in inv.findings if f.id == "driver-complaint"]
