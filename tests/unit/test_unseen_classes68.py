"""Classes that the sixty-eighth unseen set (ARM laptops and desktops: Asahi Macs, Snapdragon
laptops, Arm workstations; tests/captures/corpus/arml68_*) showed misread. Every output here is
one of the corpus' bundles (named beside it, with its SOURCE.md); the corpus test checks whole
bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.kernel_drivers import own_files_first, sibling_driver_dir
from tests.corpus_support import CORPUS, inventory_of

# --- a predictable name spells its bus in any output that names the interface ------------------

_AMPEREONE = "arml68_ampereone_sbc_reviews_52_ethtool_25g_dac_netlink_eperm_line"


def test_an_onboard_port_named_only_by_ethtool_is_on_pci() -> None:
    """`ethtool eno2np1` is the whole paste: systemd's "o<index>n<port_name>" name is given to an
    on-board PCI device only (udev-builtin-net_id.c names_pci(), dev_pci_onboard()), so the
    port is on PCI although no listing of `ip` named it."""
    (nic,) = inspect_bundle(CORPUS / _AMPEREONE).nics
    assert (nic.name, nic.bus, nic.link_speed_mbps, nic.duplex) == ("eno2np1", "pci", 25000, "full")


def test_name_bus_from_other_outputs_and_none_from_plain_names() -> None:
    """A USB path name in `ethtool` is USB, a device-tree alias the SoC's; `eth0` says nothing."""
    settings = "Settings for {n}:\n\tSpeed: 1000Mb/s\n\tDuplex: Full\n\tLink detected: yes\n"
    for name, bus in (("enp0s20f0u2", "usb"), ("end0", "platform"), ("eth0", "unknown")):
        (nic,) = inventory_of({f"ethtool {name}": settings.format(n=name)}).nics
        assert (nic.name, nic.bus) == (name, bus)


# --- brcmfmac's firmware file names its chip ------------------------------------------------

_ASAHI_JOURNAL = (
    "arml68_macbook_pro_asahi_70_journal_german_month_brcmfmac4387_variants_systemd_lines"
)


def test_a_brcmfmac_firmware_variant_names_its_chip() -> None:
    """Only board-specific variants of the file are in the paste ("Direct firmware load for
    brcm/brcmfmac4387c2-pcie.apple,maldives-X3.bin failed with error -2"): the base is the one
    pcie.c gives BRCM_CC_4387_CHIP_ID (BRCMF_FW_ENTRY(..., 4387C2)), so the chip is a BCM4387."""
    (nic,) = inspect_bundle(CORPUS / _ASAHI_JOURNAL).nics
    assert (nic.bus_path, nic.driver, nic.chip) == ("0000:01:00.0", "brcmfmac", "BCM4387")
    sdio = (
        "[    9.2] brcmfmac mmc1:0001:1: Direct firmware load for "
        "brcm/brcmfmac43430-sdio.raspberrypi,3-model-b.txt failed with error -2\n"
    )
    (wifi,) = inventory_of({"dmesg": sdio}).nics
    assert wifi.chip == "BCM43430"
    unknown = sdio.replace("brcmfmac43430-sdio", "brcmfmac99999-sdio")
    assert all(n.chip is None for n in inventory_of({"dmesg": unknown}).nics)


# --- a combo chip's Bluetooth function in the network class is no NIC ------------------------

_MAC_LSPCI = "arml68_m1_asahi_68_lspci_v_brcm4378_wifi_and_bluetooth_functions_ethernet_gone"


def test_a_bluetooth_function_in_the_network_class_is_no_nic() -> None:
    """`lspci -v` lists the BCM4378's Wi-Fi (01:00.0, brcmfmac) and its Bluetooth controller
    (01:00.1) both as "Network controller" (hci_bcm4377.c matches the latter by
    PCI_CLASS_NETWORK_OTHER): only the Wi-Fi is a NIC."""
    nics = inspect_bundle(CORPUS / _MAC_LSPCI).nics
    assert [(n.bus_path, n.driver, n.wireless) for n in nics] == [
        ("0000:01:00.0", "brcmfmac", True)
    ]


def test_the_network_class_still_makes_nics_whatever_else_is_named() -> None:
    """A Wi-Fi card with no driver line in class 0280 stays a NIC, and an Ethernet controller
    (0200) is one even if a maker's name mentions Bluetooth."""
    wifi = (
        "61:00.0 Network controller [0280]: MEDIATEK Corp. MT7922 802.11ax PCI Express Wireless "
        "Network Adapter [14c3:0616]\n"
    )
    assert [n.bus_path for n in inventory_of({"lspci -nn": wifi}).nics] == ["0000:61:00.0"]
    eth = "02:00.0 Ethernet controller [0200]: Acme Bluetooth-ready Gigabit NIC [1234:5678]\n"
    assert [n.bus_path for n in inventory_of({"lspci -nn": eth}).nics] == ["0000:02:00.0"]


# --- a line only the same vendor's other driver prints, in the 6.1/6.12 source ---------------

_XPS13 = "arml68_xps13_snapdragon_ms_dev_kit_50_ath12k_pci_wmi_stats_timeout_soft_lockup"


def test_a_format_only_a_sibling_driver_prints_is_not_called_this_drivers() -> None:
    """ath12k_pci's "failed to send WMI_REQUEST_STATS cmd": in 6.1 and 6.12 only ath11k/wmi.c
    prints that format (ath12k gained it later); the complaint says so, not that ath11k's file
    is this driver's source. iwlwifi's own tree (pcie/, mvm/, fw/) is one driver's."""
    inv = inspect_bundle(CORPUS / _XPS13)
    (complaint,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert "ath11k/wmi.c" in complaint.summary
    assert "ath11k, the same vendor's other driver" in complaint.summary
    assert "ath12k_pci's own files there do not" in complaint.summary
    assert sibling_driver_dir(("drivers/net/wireless/intel/iwlwifi/fw/dbg.c",), "iwlwifi") is None
    ath = ("drivers/net/wireless/ath/main.c",)  # ath/'s common code, above ath12k/
    assert sibling_driver_dir(ath, "ath12k_pci") is None


def test_a_complaint_cites_the_drivers_own_tree_first() -> None:
    """iwlwifi is filed under iwlwifi/pcie/; its error dump's format is printed by iwlwifi/dvm/
    and iwlegacy/ alike: the driver's own tree comes first, not the older sibling's file."""
    files = (
        "drivers/net/wireless/intel/iwlegacy/3945-mac.c",
        "drivers/net/wireless/intel/iwlwifi/dvm/main.c",
    )
    assert own_files_first(files, "iwlwifi")[0] == files[1]
