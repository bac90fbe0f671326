"""Classes that the eighty-second unseen set (home-automation hosts: Home Assistant OS on Pis,
the Yellow, an ODROID-M1, thin clients, mini PCs and a Proxmox VM, with Zigbee sticks beside
them; tests/captures/corpus/home82_*) showed misread. Every output here is one of the corpus'
bundles (named beside it, with its SOURCE.md) or a variation of one; the corpus test checks
whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.catalog.mdio_bus_names import pci_function_of_bus
from sbctune.inventory.raw import RawOutputs
from sbctune.inventory.sysfs_flags import sysfs_not_up
from tests.corpus_support import CORPUS, dmesg_inventory, inventory_of

_ZOTAC = "home82_zotac_ci327_haos_4550_iwlwifi_wlp1s0_sysfs_operstate_down"
_MINIPC = "home82_minipc_haos_4962_yt6801_absent_ip_link_elided_wlo1"
_M715Q = "home82_m715q_haos_4080_host_log_iso_r8169_mdio_phy_enp1s0f0"
_PI4 = "home82_pi4_haos_1545_bcmgenet_up_1g_brcmfmac_power_save"
_PI3 = "home82_pi3bplus_hassos_117_networkmanager_wlan0_scan_mac_randomized"

# --- /sys/class/net/IFACE/flags without IFF_UP ---------------------------------------------------


def test_sysfs_flags_without_iff_up_is_not_brought_up() -> None:
    """`cat /sys/class/net/wlp1s0/flags` "0x1002" (IFF_BROADCAST|IFF_MULTICAST, no IFF_UP):
    the Zotac's Wi-Fi is shown as not brought up, so its link reads down."""
    (nic,) = inspect_bundle(CORPUS / _ZOTAC).nics
    assert nic.name == "wlp1s0" and nic.driver == "iwlwifi"
    assert nic.set_down is True


def test_sysfs_flags_with_iff_up_or_unreadable_say_nothing() -> None:
    assert sysfs_not_up("0x1002\n") is True
    assert sysfs_not_up("0x1003") is False  # IFF_UP set
    assert sysfs_not_up("cat: flags: No such file or directory") is False
    assert sysfs_not_up(None) is False
    raw = RawOutputs(
        commands={"dmesg": "[    9.1] iwlwifi 0000:01:00.0 wlp1s0: renamed from wlan0\n"},
        files={"/sys/class/net/wlp1s0/flags": "0x1003\n"},
    )
    (nic,) = inventory_from_raw(raw).nics
    assert nic.set_down is False


# --- the Home Assistant Supervisor's bridge ------------------------------------------------------


def test_the_supervisors_hassio_bridge_is_no_nic() -> None:
    """An elided `ip link` ("3: hassio: <BROADCAST,MULTICAST,UP,LOWER_UP> ...") holds nothing
    to tell the Supervisor's Docker bridge from a NIC but its name: only wlo1 is listed."""
    inv = inspect_bundle(CORPUS / _MINIPC)
    assert [n.name for n in inv.nics] == ["wlo1"]


# --- an MDIO bus named after its MAC's PCI function ----------------------------------------------


def test_r8169s_mdio_bus_names_its_pci_function() -> None:
    """r8169_main.c r8169_mdio_register(): "r8169-%x-%x" of pci_domain_nr() and pci_dev_id()
    (bus << 8 | devfn). A bare number (tg3's "%x") and another driver's bus name none."""
    assert pci_function_of_bus("r8169-0-100") == ("r8169", "0000:01:00.0")
    assert pci_function_of_bus("r8169-2-100") == ("r8169", "0002:01:00.0")
    assert pci_function_of_bus("r8169-0-3a1") == ("r8169", "0000:03:14.1")
    assert pci_function_of_bus("100") is None
    assert pci_function_of_bus("stmmac-0") is None


def test_a_phy_on_r8169s_bus_gives_the_interface_its_driver() -> None:
    """The M715q's host log: NetworkManager's enp1s0f0 (PCI 0000:01:00.0 by its name) and the
    kernel's "Generic FE-GE Realtek PHY r8169-0-100:00: attached PHY driver": r8169's."""
    (nic,) = inspect_bundle(CORPUS / _M715Q).nics
    assert (nic.name, nic.bus_path, nic.driver, nic.bus) == (
        "enp1s0f0",
        "0000:01:00.0",
        "r8169",
        "pci",
    )


def test_a_generic_phy_on_r8169s_bus_still_names_the_device() -> None:
    inv = dmesg_inventory(
        "[    3.1] Generic PHY r8169-0-200:00: attached PHY driver "
        "(mii_bus:phy_addr=r8169-0-200:00, irq=MAC)"
    )
    (nic,) = inv.nics
    assert (nic.bus_path, nic.driver) == ("0000:02:00.0", "r8169")


# --- a Wi-Fi driver's callback prints a device-less line -----------------------------------------


def test_a_cfg80211_callbacks_line_is_its_drivers_wifi_nic() -> None:
    """ "brcmfmac: brcmf_cfg80211_set_power_mgmt: power save enabled" (4.x/5.x brcmf_info in a
    cfg80211_ops callback): the Pi 4's built-in Wi-Fi is listed beside its GENET."""
    inv = inspect_bundle(CORPUS / _PI4)
    wifi = [n for n in inv.nics if n.driver == "brcmfmac"]
    assert len(wifi) == 1 and wifi[0].wireless is True
    assert [n.name for n in inv.nics if n.driver == "bcmgenet"] == ["eth0"]


def test_a_drivers_line_from_no_callback_makes_no_nic() -> None:
    """A device-less info line of a function no ops table holds (module init) proves no
    device; nor does a wired driver's."""
    assert dmesg_inventory("[    8.2] brcmfmac: brcmfmac_module_init: hello").nics == []
    assert dmesg_inventory("[    8.2] r8169: rtl8169_change_mtu: hello").nics == []


# --- NetworkManager's supplicant state lines ----------------------------------------------------


def test_networkmanagers_supplicant_lines_show_the_wifi_interface() -> None:
    """A journal of NetworkManager's lines alone ("device (wlan0): supplicant interface state:
    inactive -> disconnected"): one Wi-Fi NIC, whatever random MACs it scanned with."""
    inv = inspect_bundle(CORPUS / _PI3)
    assert [(n.name, n.wireless) for n in inv.nics] == [("wlan0", True)]


def test_an_ethernet_supplicant_line_is_not_wifi() -> None:
    """nm-device-ethernet.c prints the same format for 802.1X: the line names the interface,
    not its kind."""
    inv = inventory_of(
        {
            "journalctl": "Jul 17 20:14:02 host NetworkManager[219]: <info>  [1531858442.8923] "
            "device (enp3s0): supplicant interface state: disconnected -> inactive\n"
        }
    )
    assert [(n.name, n.wireless) for n in inv.nics] == [("enp3s0", False)]
