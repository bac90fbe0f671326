"""Classes that the thirty-fifth unseen set (hosts whose network is mostly virtual devices:
Home Assistant, k3s/flannel, Proxmox, Synology Docker; tests/captures/corpus/virt_*) showed
misread. Every output here is one of those bundles' (or an older set's, named beside it), or one
changed to show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.inventory.model import Inventory
from tests.corpus_support import corpus_output, findings_of, inventory_of

_HASSIO = "virt_pi4_dietpi_4709_ip_l_hassio_docker0_veth_masters"
_FLANNEL = "virt_vmware_flannel_959_ip_link_cni0_docker0_no_carrier"
_PROXMOX = "virt_opi5_proxmox_arm64_17_ip_a_eth0_vmbr1_no_carrier"
_K3S = "virt_hetzner_k3s_7013_ip_a_eth0_altname_enp0s31f6_cni0"
_OCI = "virt_oci_k3s_977_ip_a_ens3_flannel_cni0_mtu9000"
_SYNO = "virt_ds920_bbqq_556_ifconfig_docker_hyphen_bridges"
_RTL931X = "rtl931x_openwrt_pr25269_ip_link_sw0s0p_ports_at_eth0"  # an older set's DSA ports
_AQTION = "x86_aqtion_5_atlantic_ethtool_i_join"  # an older set's ethtool -i with a bus
_HIVEAP = "hiveap330_openwrt_12192_ip_l_no_carrier"  # an older set's custom-named device
_QRB2210 = "qrb2210_rb1_meta_qcom_1699_ip_addr_wlan0_permaddr_docker0"  # an older set's Wi-Fi


def _names(inv: Inventory) -> list[str]:
    return sorted(n.name or "?" for n in inv.nics)


# --- an upper device (a veth's `master`) is a bridge, not a NIC ---


def _renamed(text: str) -> str:
    """The paste with the Supervisor's bridge under a name no list knows."""
    return text.replace("hassio", "habridge")


def test_the_bridge_a_veth_names_as_its_master_is_no_nic() -> None:
    """DietPi's Home Assistant Supervised: `veth6064ee3@if5: ... master hassio`. The Supervisor's
    bridge `hassio` (a name sightings._VIRTUAL now lists, after the Supervisor's source: renamed
    here so the rule stays tested); being a master (IFLA_MASTER) makes it a bridge, bond, team
    or VRF, all software. The board's eth0 stays the one NIC."""
    inv = inventory_of({"ip l": _renamed(corpus_output(_HASSIO))})
    assert _names(inv) == ["eth0"]


def test_the_same_bridge_without_its_ports_is_still_no_nic_by_its_qdisc() -> None:
    """Without the veth lines, `hassio` is still `qdisc noqueue`: a bridge's default (br_dev_setup
    sets IFF_NO_QUEUE), so it is not taken for a NIC either."""
    text = "".join(line for line in corpus_output(_HASSIO).splitlines(True) if "veth" not in line)
    assert "master hassio" not in text
    inv = inventory_of({"ip l": _renamed(text)})
    assert _names(inv) == ["eth0"]


# --- a `qdisc noqueue` device with nothing showing hardware is software ---


def test_cni0_without_carrier_is_no_nic_and_no_link_down() -> None:
    """flannel's master: docker0 and cni0 up without carrier, flannel.1. cni0 is a bridge the
    name lists do not know; its `qdisc noqueue` says software. Before: a NIC "cni0" with a
    link-down finding the reader would not state."""
    inv = inventory_of({"ip link": corpus_output(_FLANNEL, "000")})
    assert _names(inv) == ["ens32"]
    assert not findings_of(inv, "link-down")


def test_a_proxmox_bridge_without_carrier_is_no_nic() -> None:
    """Proxmox VE on an arm64 board: vmbr1 up without carrier, `qdisc noqueue`."""
    inv = inventory_of({"ip a": corpus_output(_PROXMOX)})
    assert _names(inv) == ["eth0"]
    assert not findings_of(inv, "link-down")


def test_cni0_with_carrier_beside_a_cloud_nic_is_no_nic() -> None:
    inv = inventory_of({"ip a": corpus_output(_OCI)})
    assert _names(inv) == ["ens3"]


def test_a_noqueue_device_that_ethtool_places_on_a_bus_stays_a_nic() -> None:
    """The rule weighs ip's qdisc against what shows hardware: the same cni0 line beside an
    `ethtool -i` that names a bus device (a real one, given here as cni0's) is a NIC: what
    shows hardware wins."""
    ethtool_i = corpus_output(_AQTION, "001")  # an older set's atlantic card, asked as cni0
    inv = inventory_of({"ip link": corpus_output(_FLANNEL, "000"), "ethtool -i cni0": ethtool_i})
    assert "cni0" in _names(inv)


def test_dsa_ports_stacked_on_their_conduit_stay_nics() -> None:
    """An older set's RTL931x switch: `sw0s0p19@eth0: ... qdisc noqueue master switch`. DSA user
    ports are noqueue too (net/dsa/user.c sets IFF_NO_QUEUE) and are stacked on a device of the
    listing, like a VLAN: the qdisc does not tell them apart, so they stay as they were."""
    inv = inventory_of({"ip link": corpus_output(_RTL931X)})
    assert {"sw0s0p19", "sw0s0p20"} <= set(_names(inv))


def test_mac80211_wifi_is_noqueue_and_stays_a_nic() -> None:
    """An older set's Qualcomm RB1: `wlan0: <NO-CARRIER,...> qdisc noqueue` (mac80211's
    interfaces: ieee80211_if_setup_no_queue()). A Wi-Fi name keeps it a NIC."""
    inv = inventory_of({"ip addr": corpus_output(_QRB2210, "000")})
    assert "wlan0" in _names(inv)


# --- an altname that spells a PCI path places the NIC ---


def test_an_altname_spells_the_pci_address() -> None:
    """k3s server: `eth0` with `altname enp0s31f6` (systemd's path name kept as an altname):
    PCI 0000:00:1f.6 (names_pci(): p0 s31 f6). Before: bus unknown."""
    inv = inventory_of({"ip a": corpus_output(_K3S)})
    (nic,) = inv.nics
    assert (nic.name, nic.bus, nic.bus_path) == ("eth0", "pci", "0000:00:1f.6")


def test_two_altnames_spelling_two_addresses_place_nothing() -> None:
    text = corpus_output(_K3S).replace("altname eno1", "altname enp2s0")
    inv = inventory_of({"ip a": text})
    (nic,) = inv.nics
    assert nic.bus_path is None


# --- Synology's user-defined Docker network bridges, cut by ifconfig's 9 columns ---


def test_synology_docker_network_bridges_are_no_nics() -> None:
    """DS920+'s ifconfig: `docker-30`, `docker-c6` (Synology names its user-defined Docker
    networks' bridges docker-<id>; net-tools prints 9 columns of the name)."""
    inv = inventory_of({"ifconfig": corpus_output(_SYNO)})
    assert _names(inv) == []
    assert not findings_of(inv, "link-down")


def test_a_noqueue_device_with_a_universal_mac_is_not_weighed_by_its_qdisc() -> None:
    """An older set's HiveAP 330: `labb2: ... qdisc noqueue state UP`, MAC 00:02:6f:... (an OUI:
    a radio's own, as a Wi-Fi interface named by the user would have). The software drivers'
    MACs are random (locally administered), so this one stays a NIC."""
    inv = inventory_of({"ip l": corpus_output(_HIVEAP)})
    assert "labb2" in _names(inv)


# --- the one Wi-Fi driver's device-less lines drive the one Wi-Fi interface no line places ---

_HAOS_788 = "virt_pi4_haos_788_bcmgenet_rx_tx_brcmfmac_mmc0_timeout"


def test_the_lone_wifi_interface_gets_the_lone_wifi_drivers_name() -> None:
    """HAOS 5.0 beta: wlan0 only in ADDRCONF lines, brcmfmac only in its device-less
    'brcmf_cfg80211_set_power_mgmt: power save enabled'. One Wi-Fi interface, one Wi-Fi driver
    (drivers.json: wireless), no NIC with it: wlan0 is brcmfmac's."""
    inv = inventory_of({"dmesg": corpus_output(_HAOS_788)})
    (wlan,) = [n for n in inv.nics if n.wireless]
    assert (wlan.name, wlan.driver) == ("wlan0", "brcmfmac")


def test_two_wifi_interfaces_take_no_driver_from_a_device_less_line() -> None:
    text = corpus_output(_HAOS_788)
    line = "[    5.095021] IPv6: ADDRCONF(NETDEV_UP): wlan0: link is not ready\n"
    inv = inventory_of({"dmesg": text + line.replace("wlan0", "wlan1")})
    assert {n.name: n.driver for n in inv.nics if n.wireless} == {"wlan0": None, "wlan1": None}
