"""Classes that the fifteenth unseen set (8 public pastes in tests/captures/corpus: log wrappers
and output formats; 37 of 66 facts before its fixes) showed unread or misread. Every output here
is copied from one of those bundles (named beside it, with its SOURCE.md); the corpus test
checks whole bundles, tests/unit/parsers/test_mail_quote.py the quoted pastes."""

from __future__ import annotations

from pathlib import Path

from sbctune.inventory.parsers.dmesg import parse_dmesg
from tests.corpus_support import inventory_of as _inventory

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _output(bundle: str, name: str = "*") -> str:
    (path,) = (CORPUS / bundle / "commands").glob(name)
    return path.read_text(encoding="utf-8")


_ORIN = "jetson_agx_orin_tum_joy_inxi_nvethernet_rtw88_8822ce_can"
_XU3 = "odroid_xu3_hardkernel_75_ax88179_syslog_masked_host_cpu_tag"
_LKML = "x86_fc4_lkml_2006_e1000_outlook_quoted_reflowed_syslog"


def test_inxi_3_sections_with_their_head_alone_on_a_line() -> None:
    """inxi 3.x prints `Network:` on a line of its own and each device below it; an SoC
    device has no bus-ID but `chip-ID: nvidia:6810000 class-ID: ethernet`, the platform device
    6810000.ethernet. CAN and virtual interfaces (IF-ID-n) are no NICs."""
    inv = _inventory({"inxi": _output(_ORIN)})
    nics = {n.name: n for n in inv.nics}
    assert sorted(nics) == ["eth0", "wlP1p1s0"]
    eth0, wifi = nics["eth0"], nics["wlP1p1s0"]
    assert (eth0.driver, eth0.bus, eth0.link_speed_mbps, eth0.duplex) == (
        "nvethernet",
        "platform",
        1000,
        "full",
    )
    assert (wifi.driver, wifi.bus, wifi.bus_path, wifi.ids, wifi.wireless) == (
        "rtw_8822ce",
        "pci",
        "0001:01:00.0",
        "10ec:c822",
        True,
    )


def test_a_vendor_kernels_cpu_tag_and_ax88179s_link_status() -> None:
    """Hardkernel's Exynos kernel prints `[c0]` after the clock; ax88179_178a says its link
    state in words of its own (`ax88179 - Link status is: 1`): eth2 is up on USB 4-1.1."""
    inv = _inventory({"dmesg": _output(_XU3)})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus, nic.bus_path, nic.link_detected) == (
        "eth2",
        "ax88179_178a",
        "usb",
        "4-1.1",
        True,
    )
    down = "[ 1.0] [c0] ax88179_178a 4-1.1:1.0 eth2: ax88179 - Link status is: 0"
    assert [e.kind for e in parse_dmesg(down)[0].events] == ["link_down"]


def test_a_2_6_drivers_function_name_after_the_interface() -> None:
    """e1000's DPRINTK (2.6): `e1000: eth0: e1000_watchdog_task: NIC Link is Up 1000 Mbps Full
    Duplex`: the interface is eth0 (not the function), the link 1000/full, and three downs in
    a row make the link flap."""
    inv = _inventory(
        {"ethtool eth0": _output(_LKML, "*ethtool*"), "dmesg": _output(_LKML, "*dmesg*")}
    )
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus, nic.link_speed_mbps, nic.duplex) == (
        "eth0",
        "e1000",
        "pci",
        1000,
        "full",
    )
    assert "link-flapping" in {f.id for f in inv.findings}
    up = "e1000: eth0: e1000_watchdog_task: NIC Link is Up 100 Mbps Half Duplex"
    ((kind, fields),) = [(e.kind, e.fields) for e in parse_dmesg(up)[0].events]
    assert (kind, fields["iface"], fields["speed"], fields["duplex"]) == (
        "link_up",
        "eth0",
        "100",
        "Half",
    )
