"""Classes that the fiftieth unseen set (cluster boards, PoE HATs and on-board switches: a
Clearfog Pro's networkctl, b53/mt7530 DSA ports, Pi 4 PoE HAT nodes, a ClusterHAT controller;
tests/captures/corpus/cluster50_*) showed misread. Every output here is one of those bundles'
(named beside it, with its SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.report_tools import parse_networkctl_status
from tests.corpus_support import CORPUS

_CLEARFOG = "cluster50_clearfog_systemd_7478_networkctl_status_a_mvneta_no_carrier_dsa_cut"


def _clearfog_networkctl() -> str:
    path = CORPUS / _CLEARFOG / "commands" / "000-networkctl_status_a.txt"
    return path.read_text(encoding="utf-8")


# --- networkctl's udev path of a platform device ------------------------------------------------


def test_networkctl_platform_path_places_the_soc_mac() -> None:
    """udev's path_id names a device-tree platform device "platform-<sysname>" (systemd
    src/udev/udev-builtin-path_id.c); networkctl prints it as `Path:`. The Clearfog's mvneta
    eth0 is the SoC's f1070000.ethernet: the inventory now shows that device."""
    text = _clearfog_networkctl()
    assert "            Path: platform-f1070000.ethernet" in text
    inv = inspect_bundle(CORPUS / _CLEARFOG)
    eth0 = next(n for n in inv.nics if n.name == "eth0")
    assert eth0.bus == "platform"
    assert eth0.bus_path == "f1070000.ethernet"
    assert eth0.driver == "mvneta"


def test_a_platform_path_with_a_usb_or_pci_child_or_a_wlan_is_not_the_nic_s_device() -> None:
    """A USB NIC under a SoC's xHCI (`platform-xhci-hcd.0-usb-0:1.4:1.0`) and an SDIO Wi-Fi
    below its MMC host (udev's path stops at the host: the host is not the NIC) name no
    platform device of the NIC."""
    usb_path = "platform-xhci-hcd.0-usb-0:1.4:1.0"
    usb = f"* 3: eth1\n            Type: ether\n            Path: {usb_path}\n"
    sdio = "* 3: wlan0\n            Type: wlan\n            Path: platform-fe300000.mmcnr\n"
    for text in (usb, sdio):
        parsed, _warnings = parse_networkctl_status(text)
        assert [n.bus_info for n in parsed.networks] == [None], text


# --- networkctl's operational state "no-carrier" ------------------------------------------------


def test_networkctl_no_carrier_is_an_up_link_without_carrier() -> None:
    """networkd's link_update_operstate() (systemd src/network/networkd-link.c) says
    "no-carrier" only for a link that is IFF_UP without carrier ("off" when it is down): the
    Clearfog's eth0 is brought up and nothing answers on its cable, what the link-down
    finding tells the user."""
    inv = inspect_bundle(CORPUS / _CLEARFOG)
    eth0 = next(n for n in inv.nics if n.name == "eth0")
    assert eth0.link_detected is False
    down = [f for f in inv.findings if f.id == "link-down"]
    assert len(down) == 1, [f.id for f in inv.findings]
    assert down[0].nic == "eth0"


def test_networkctl_off_is_no_carrier_finding() -> None:
    """`State: off` is a link never brought up: no carrier is expected, nothing to report."""
    text = "* 3: eth0\n            Type: ether\n           State: off (unmanaged)\n"
    parsed, _warnings = parse_networkctl_status(text)
    (node,) = parsed.networks
    assert node.config.get("link") == "no"
    assert node.config.get("no_carrier_up") is None
