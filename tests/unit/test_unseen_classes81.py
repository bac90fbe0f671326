"""Classes that the eighty-first unseen set (3D-printer hosts: OctoPi, Klipper and Mainsail on
Pis, BIGTREETECH CB1/CB2, Creality's Sonic Pad, QIDI's printers; tests/captures/corpus/print81_*)
showed misread. Every output here is one of the corpus' bundles (named beside it, with its
SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_OCTOPI_OOPS = "print81_pi3b_octopi_207_brcmfmac_event_worker_oops_syslog_bcm2709_4_1_18"

# --- an oops in a workqueue: the worker's line names the driver ---------------------------------


def test_the_workqueue_line_names_the_driver_the_oops_ran_for() -> None:
    """A Pi 3's oops in cfg80211 reached from brcmfmac's firmware-event worker: kernel/workqueue.c
    print_worker_info() prints "Workqueue: events brcmf_fweh_event_worker [brcmfmac]", so the
    trace is the Wi-Fi NIC's, on brcmfmac (a multi-bus driver: no bus claimed)."""
    (nic,) = inspect_bundle(CORPUS / _OCTOPI_OOPS).nics
    assert nic.driver == "brcmfmac" and nic.wireless is True
    assert nic.bus == "unknown"


def test_a_worker_of_no_network_driver_names_no_nic() -> None:
    """The same oops run by the MMC core's rescan worker (a function of no network driver): no
    NIC is made of it."""
    text = corpus_output(_OCTOPI_OOPS).replace(
        "Workqueue: events brcmf_fweh_event_worker [brcmfmac]", "Workqueue: events mmc_rescan"
    )
    assert inventory_of({"dmesg": text}).nics == []


# --- a WARNING in an out-of-tree module built in the kernel's Wi-Fi drivers' directory -----------

_CB1_8189FS = "print81_manta_m8p_cb1_29_8189fs_sdio_warning_syslog_hardware_name_first_char_lost"


def test_an_unknown_module_warning_in_the_wifi_tree_is_a_wifi_nic_on_sdio() -> None:
    """A BTT CB1's WARNING at drivers/net/wireless/rtl8189fs/...sdio_ops.c in [8189fs] (a
    module no table knows: its name starts with a digit, as KBUILD_MODNAME may) run by
    "Comm: ksdioirqd/mmc0", the SDIO interrupt thread (drivers/mmc/core/sdio_irq.c): a Wi-Fi
    NIC on 8189fs, on SDIO."""
    (nic,) = inspect_bundle(CORPUS / _CB1_8189FS).nics
    assert nic.driver == "8189fs" and nic.bus == "sdio" and nic.wireless is True


def test_another_task_says_no_bus() -> None:
    """The same trace run by a kworker: the module is still a Wi-Fi NIC's, its bus unknown."""
    text = corpus_output(_CB1_8189FS).replace("Comm: ksdioirqd/mmc0", "Comm: kworker/2:1")
    (nic,) = inventory_of({"dmesg": text}).nics
    assert nic.driver == "8189fs" and nic.bus == "unknown" and nic.wireless is True


def test_an_unknown_module_outside_the_wifi_tree_is_no_nic() -> None:
    """A WARNING in an unknown module built elsewhere (a display driver) makes no NIC."""
    text = corpus_output(_CB1_8189FS).replace(
        "drivers/net/wireless/rtl8189fs/hal/rtl8188f/sdio/sdio_ops.c", "drivers/gpu/drm/x/x.c"
    )
    assert inventory_of({"dmesg": text}).nics == []


# --- a netdev line of a platform device added with no id, named otherwise than its driver -------

_SONIC_PAD = "print81_sonicpad_jpe230_10_sunxi_gmac_phy_id_terminal_wrapped_dmesg_wlan0"


def test_a_platform_device_named_alone_by_another_name_is_the_nics() -> None:
    """A Sonic Pad's "sunxi-gmac gmac0 eth0: eth0: Type(7) PHY ID ...": __netdev_printk()'s
    "%s %s %s: " of the driver, a platform device added with no id ("gmac0",
    platform_device_add()) and the interface: eth0 is the SoC's MAC on sunxi-gmac."""
    inv = inspect_bundle(CORPUS / _SONIC_PAD)
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert eth0.driver == "sunxi-gmac" and eth0.bus == "platform"
    assert eth0.bus_path == "gmac0" and eth0.builtin is True


def test_a_third_word_that_is_no_interface_ties_nothing() -> None:
    """The same shape whose third word is no interface name of the kernel's templates (a
    character device: "lp0") says nothing of a NIC."""
    inv = inventory_of({"dmesg": "[    8.7] usblp usbdev lp0: USB Bidirectional printer dev 3\n"})
    assert inv.nics == []


def test_a_sentence_of_two_words_before_an_interface_ties_nothing() -> None:
    """Prose in that shape ("the ethernet0 eth0: ...", a plain word before a numbered one) is no
    driver's line: no device is made of it."""
    inv = inventory_of({"dmesg": "[    8.7] the ethernet0 eth0: went down again\n"})
    assert all(n.bus_path != "ethernet0" for n in inv.nics)
