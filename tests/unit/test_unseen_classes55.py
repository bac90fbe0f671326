"""Classes that the fifty-fifth unseen set (boxes full of virtual interfaces: Docker and Home
Assistant bridges and veths, bonds, WireGuard, tun, Weave, on Pis and small servers;
tests/captures/corpus/virt55_*) showed misread. Every output here is one of those bundles'
(named beside it, with its SOURCE.md), or its lines rearranged to guard a rule's edge; the
corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_AWS = "virt55_aws_weave_3133_dmesg_ixgbevf_10g_audit_bridge"


# --- an adapter's own link line, on the PCI function, is its interface's link -----------------


def test_ixgbevf_link_line_on_the_pci_function_gives_the_interface_its_speed() -> None:
    """ixgbevf prints "NIC Link is Up 10 Gbps" with dev_info() on the PCI function
    (ixgbevf_main.c ixgbevf_watchdog_link_is_up(), 6.1 and 6.12), and the interface shows up
    only in ADDRCONF: the VM's one NIC, eth0 at 0000:00:03.0, is linked at 10 Gbit/s."""
    inv = inspect_bundle(CORPUS / _AWS)
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus_path) == ("eth0", "ixgbevf", "0000:00:03.0")
    assert nic.link_speed_mbps == 10000
    assert nic.link_detected is True


def test_the_adapter_speed_is_not_the_interface_s_when_the_interface_went_down() -> None:
    """The same lines with the function's own "NIC Link is Down" after them
    (ixgbevf_watchdog_link_is_down()): no speed is the link's now, the earlier line's 10 Gbit/s
    was before the drop."""
    text = corpus_output(_AWS, "000-dmesg")
    down = "[   30.000000] ixgbevf 0000:00:03.0: NIC Link is Down\n"
    inv = inventory_of({"dmesg": text + down})
    (nic,) = inv.nics
    assert nic.link_speed_mbps is None


# --- the bonding driver's lines name the bond's ports ------------------------------------------

_BALENA = "virt55_pi3_balena_812_dmesg_bond_named_test_wlan0_brcmfmac"
_BOND0 = "virt55_pi3bplus_linux_1988_syslog_bond0_eth0_wlan0_sme_warning"


def test_bond_port_lines_make_the_ports_nics_and_not_the_bond() -> None:
    """A Pi 3B+'s 4.19 syslog: "bond0: Releasing backup interface eth0", "bond0: making
    interface wlan0 the new active one" (bond_main.c's netdev_info() before slave_info()): eth0
    and wlan0 are the Pi's two NICs (wlan0 on brcmfmac, the one Wi-Fi driver of the log), bond0
    is software on them."""
    inv = inspect_bundle(CORPUS / _BOND0)
    assert sorted(n.name for n in inv.nics) == ["eth0", "wlan0"]
    (wlan0,) = [n for n in inv.nics if n.name == "wlan0"]
    assert wlan0.wireless and wlan0.driver == "brcmfmac"


def test_a_bond_named_like_anything_is_still_the_bond_and_its_port_link_is_read() -> None:
    """resinOS's bond is named "test": "test: link status definitely down for interface wlan0,
    disabling it" (bond_miimon_commit()) names wlan0 as its port, whose carrier the bond saw
    drop; "test" is no NIC."""
    inv = inspect_bundle(CORPUS / _BALENA)
    (wlan0,) = inv.nics
    assert (wlan0.name, wlan0.driver, wlan0.wireless) == ("wlan0", "brcmfmac", True)
    assert wlan0.link_detected is False


# --- systemd's names say the bus: the PCI slot and on-board names, and an altname -------------

_VMWARE = "virt55_vmware_weave_3696_ip_link_ens224_docker0_datapath_dummy0"
_HA_WG = "virt55_pi_ha_ssd1306_9_ip_a_eth0_altname_end0_wg0_hassio"


def test_a_pci_hotplug_slot_name_is_a_pci_nic() -> None:
    """`ip link show` of a Kubernetes VM: ens224 is net_id's dev_pci_slot() name ("s<slot>",
    a PCI hotplug slot's, names_pci()), so the one NIC among docker0, weave, datapath, a veth
    and dummy0 is on PCI."""
    inv = inspect_bundle(CORPUS / _VMWARE)
    (nic,) = inv.nics
    assert (nic.name, nic.bus, nic.link_detected) == ("ens224", "pci", True)


def test_an_altname_spelling_a_device_tree_alias_places_the_kernel_named_nic() -> None:
    """A Pi's `ip a`: eth0 keeps its kernel name and shows systemd's `altname end0`
    (names_devicetree()'s "d<alias index>"): eth0 is the board's own, platform-bus NIC, as
    an interface named end0 is (ifnames.bus_from_name)."""
    inv = inspect_bundle(CORPUS / _HA_WG)
    (nic,) = inv.nics
    assert (nic.name, nic.bus) == ("eth0", "platform")


# --- ip's header with its flags elided by the poster -------------------------------------------

_BLITZ = "virt55_pi_raspiblitz_1593_ip_addr_elided_eth0_wlan0_veth_br_master"


def test_an_ip_header_whose_flags_the_poster_elided_still_names_the_interface() -> None:
    """RaspiBlitz's `ip addr`, "I've only left the interesting parts": "2: eth0: ..." and
    "3: wlan0: ..." with their addresses under them, then docker0 and a veth on a compose
    bridge: the Pi's NICs are eth0 and wlan0, and no line is left unread."""
    inv = inspect_bundle(CORPUS / _BLITZ)
    assert sorted(n.name for n in inv.nics) == ["eth0", "wlan0"]
    assert not [w for w in inv.warnings if "could not be read" in w]
    (eth0,) = [n for n in inv.nics if n.name == "eth0"]
    assert eth0.link_detected is None  # its flags are not shown: no link is claimed either way


# --- nmcli's overview: each device's kind, driver and NetworkManager's hw/sw ------------------

_HAOS = "virt55_pi4_haos_435_nmcli_bcmgenet_hw_veths_sw_uname"


def test_nmcli_overview_names_the_hardware_nic_and_its_driver() -> None:
    """HassOS 3.3's `nmcli` (NetworkManager's general.c device_overview(): "TYPE (DRIVER),
    HWADDR, hw|sw, mtu N"): eth0 is "ethernet (bcmgenet), HIDDEN, hw", connected; docker0 and
    hassio are bridges and the two veths "ethernet (veth) ... sw": the Pi 4's one NIC is
    eth0 on bcmgenet (a platform driver), up."""
    inv = inspect_bundle(CORPUS / _HAOS)
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus) == ("eth0", "bcmgenet", "platform")
    assert nic.link_detected is True and not nic.wireless


def test_nmcli_sw_devices_of_an_ethernet_kind_are_no_nics() -> None:
    """The same overview without eth0's block: the veths say "ethernet", but NetworkManager
    calls them software (nm_device_is_software()), so nothing left is a NIC."""
    text = corpus_output(_HAOS, "001-nmcli")
    start, end = text.index("eth0: connected"), text.index("docker0: unmanaged")
    inv = inventory_of({"nmcli": text[:start] + text[end:]})
    assert inv.nics == []
