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


# the second batch of the fifteenth set (3 pastes, 23 of 29 facts before its fixes)
_GENTOO = "x86_gentoo_netdev_2023_r8169_rtl8168h_quoted_printable_pipe_tx_timeout_detach"
_DEBIAN = "x86_debian_netdev_2023_rtl8125_r8169_mail_wrapped_qp_lshw_dmesg_wT"


def test_an_lshw_node_without_its_head_and_with_its_configuration_wrapped() -> None:
    """netdev 2023: the node pasted from `description: Ethernet interface`, its
    `configuration:` wrapped by the mail client over three lines, quoted-printable."""
    inv = _inventory({"lshw -class network": _output(_DEBIAN, "*lshw*")})
    (nic,) = inv.nics
    assert (nic.name, nic.driver, nic.bus_path, nic.link_speed_mbps, nic.duplex) == (
        "enp2s0",
        "r8169",
        "0000:02:00.0",
        1000,
        "full",
    )
    assert nic.firmware == "rtl8125b-2_0.0.2 07/13/20"


def test_the_same_link_lines_shown_twice_are_no_flap() -> None:
    """`dmesg | grep -i r8169` and then `dmesg | tail` show the same Link is Down/Up at the same
    clocks (behind the console's `|` marks): one change each, so no flapping; the watchdog and
    r8169's "Can't reset secondary PCI bus, detach NIC" are the problems."""
    inv = _inventory({"dmesg": _output(_GENTOO)})
    (nic,) = inv.nics
    assert nic.link_downs == 1
    ids = {f.id for f in inv.findings}
    assert {"tx-timeout", "driver-complaint"} <= ids and "link-flapping" not in ids
