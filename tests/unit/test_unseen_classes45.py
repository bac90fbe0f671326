"""Classes that the forty-fifth unseen set (the NIC under stacked devices: bonds, bridges,
VLANs, Docker/LXD veths, WireGuard/Tailscale tunnels; tests/captures/corpus/stack45_*) showed
misread. Every output here is one of those bundles' (named beside it, with its SOURCE.md), or
one changed to show what must NOT be read; the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dispatch import parse_file
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.parsers.proc_net_bonding import parse_proc_net_bonding
from tests.corpus_support import CORPUS, corpus_output, inventory_of

# --- a bond's /proc/net/bonding/BOND: each port's own link (drivers/net/bonding/bond_procfs.c) ---

_DOCK = "stack45_arch_dock_waybar_2570_networkctl_proc_net_bonding_wlan0_enp60s0u2u4"
_MYSQL = "stack45_mysql22_device42_14_ip_add_em1_em2_bond0_lacp"
_BOND_FILE = "/proc/net/bonding/bond0"


def _bond_text(bundle: str) -> str:
    (path,) = (CORPUS / bundle).glob("*/*proc_net_bonding_bond0.txt")
    return path.read_text(encoding="utf-8")


def _nics(inv: object) -> dict[str, object]:
    return {n.name: n for n in inv.nics}  # type: ignore[attr-defined]


def test_a_bond_port_s_speed_and_duplex_are_its_link() -> None:
    """bond_procfs.c bond_info_show_slave() prints, per port, "Speed: %d Mbps" and "Duplex:
    full" from bond_update_speed_duplex(), i.e. the port's own __ethtool_get_link_ksettings():
    the dock's Ethernet under an active-backup bond is linked at 1000 Mb/s full duplex (the
    Arch laptop's `networkctl` alone gives no speed)."""
    nic = _nics(inspect_bundle(CORPUS / _DOCK))["enp60s0u2u4"]
    assert (nic.link_speed_mbps, nic.duplex, nic.link_detected) == (1000, "full", True)  # type: ignore[attr-defined]


def test_the_bond_file_alone_names_its_ports_and_not_the_bond() -> None:
    """The file pasted alone (`cat /proc/net/bonding/bond0`): both ports, each with what its
    block says ("Speed: Unknown" and "Duplex: Unknown" of the Wi-Fi port say nothing), and no
    NIC for the bond itself, whose "MII Status: up" comes before the first port."""
    inv = inventory_of({f"cat {_BOND_FILE}": _bond_text(_DOCK)})
    nics = _nics(inv)
    assert sorted(nics) == ["enp60s0u2u4", "wlan0"], sorted(nics)
    wired, wifi = nics["enp60s0u2u4"], nics["wlan0"]
    assert (wired.link_speed_mbps, wired.duplex) == (1000, "full")  # type: ignore[attr-defined]
    assert (wifi.link_speed_mbps, wifi.duplex, wifi.wireless) == (None, None, True)  # type: ignore[attr-defined]


def test_a_port_the_bond_sees_down_has_no_link() -> None:
    """What the words mean: bond_slave_link_status() "down" is no link (a bond that never uses
    its second port: the cable or the switch side), "going back" says neither; the bond's own
    "MII Status: up" is not the ports'."""
    text = _bond_text(_DOCK).replace(
        "Slave Interface: enp60s0u2u4\nMII Status: up\nSpeed: 1000 Mbps\nDuplex: full",
        "Slave Interface: enp60s0u2u4\nMII Status: down\nSpeed: Unknown\nDuplex: Unknown",
    )
    text = text.replace(
        "Slave Interface: wlan0\nMII Status: up", "Slave Interface: wlan0\nMII Status: going back"
    )
    nics = _nics(inventory_of({f"cat {_BOND_FILE}": text}))
    wired, wifi = nics["enp60s0u2u4"], nics["wlan0"]
    assert (wired.link_detected, wired.link_speed_mbps) == (False, None)  # type: ignore[attr-defined]
    assert wifi.link_detected is None  # type: ignore[attr-defined]


def test_the_parser_reads_the_bond_and_its_ports() -> None:
    status, warnings = parse_proc_net_bonding(_bond_text(_DOCK))
    assert warnings == []
    assert (status.mode, status.active_port, status.mii_status) == (
        "fault-tolerance (active-backup)",
        "enp60s0u2u4",
        "up",
    )
    assert [
        (p.name, p.mii_status, p.speed_mbps, p.duplex, p.link_failures) for p in status.ports
    ] == [
        ("wlan0", "up", None, None, 9),
        ("enp60s0u2u4", "up", 1000, "full", 0),
    ]
    assert parse_file(_BOND_FILE, _bond_text(_DOCK)).interface == "bond0"


def test_a_bond_file_cut_before_its_ports_adds_nothing_and_no_warning() -> None:
    """device42's 802.3ad bond file ends at "802.3ad info": the bond's lines only. The two
    ports stay as `ip add show` shows them (up, no speed); the file is read, not "unreadable"."""
    status, warnings = parse_proc_net_bonding(_bond_text(_MYSQL))
    assert status.ports == [] and status.mode == "IEEE 802.3ad Dynamic link aggregation"
    assert warnings == []
    inv = inspect_bundle(CORPUS / _MYSQL)
    assert sorted(_nics(inv)) == ["em1", "em2"]
    assert not any("bonding" in w for w in inv.warnings), inv.warnings


# --- networkctl status cut above its "● N: NAME" head line (systemd networkctl.c) ---

_I350 = "stack45_i350_systemd_18894_networkctl_status_igb_master_aggi_bond"


def test_networkctl_status_cut_above_its_head_is_one_link() -> None:
    """link_status_one() prints one link's table under its head; systemd#18894's paste starts
    at "Network File:" (the head and "Link File:" cut): the rows are still that link's, its
    "Path: pci-0000:03:00.0" places it, "Driver: igb" and "Model: I350 ..." name it, "State:
    no-carrier" says it has no link (enslaved to the bond aggi, which it does not become)."""
    inv = inspect_bundle(CORPUS / _I350)
    (nic,) = inv.nics
    assert (nic.bus_path, nic.bus, nic.driver, nic.link_detected) == (
        "0000:03:00.0",
        "pci",
        "igb",
        False,
    )
    assert "I350" in (nic.chip or "")


def test_networkctl_s_summary_without_a_path_makes_no_nic() -> None:
    """What must NOT be read: `networkctl status` without a link prints the system's summary
    (State, Online state, Address, Gateway, DNS) with no head a link has and no path: no NIC."""
    summary = (
        "           State: routable\n"
        "    Online state: online\n"
        "         Address: 192.168.1.20 on eth0\n"
        "         Gateway: 192.168.1.1 on eth0\n"
        "             DNS: 192.168.1.1\n"
    )
    assert inventory_of({"networkctl status": summary}).nics == []


# --- another program's wall clock in Unix time is no kernel clock (printk's is since boot) ---

_HASSOS = "stack45_hassos_supervisor_504_journal_hassio_docker0_veth_eth0_renamed"
_NM_LINE = "NetworkManager[680]: <info>  [1528997500.6529] manager: (veth2d6023b): new Veth"


def test_network_manager_s_clock_is_not_the_kernel_s() -> None:
    """The HassOS journal holds NetworkManager's lines between the kernel's; nm-logging.c
    prints its wall clock in Unix seconds ("<info>  [1528997500.6529]"). Read as a printk
    clock, the next kernel line's "[   12.020822]" went back in time and the user was told
    the paste "looks like several pastes (or boots) joined": it is one journal."""
    inv = inspect_bundle(CORPUS / _HASSOS)
    assert not any("go backwards" in w for w in inv.warnings), inv.warnings
    (line,) = [ln for ln in corpus_output(_HASSOS).splitlines() if _NM_LINE in ln]
    result, _ = parse_dmesg(line + "\n")
    assert result.kernel_lines == 0 and not result.timestamps


def test_kernel_clocks_after_a_wrapper_and_real_jumps_are_still_read() -> None:
    """What must NOT change: a kernel clock after an unknown wrapper is read (also when a Unix
    time comes first in the line), and two boots joined still go back in time."""
    nm = "Jun 14 17:31:40 hassio kernel[674]: [   12.013142] hassio: port 1(veth8dbd6f7) entered"
    result, warnings = parse_dmesg(
        nm + " forwarding state\n"
        "Tue Apr 29 07:08:24 2025 [1745896104.164] [   13.500000] r8152 2-1:1.0 eth1: carrier on\n"
        "<6>[    2.000100] r8152 2-1:1.0 eth1: carrier off\n"
    )
    assert result.timestamps and result.kernel_lines == 3
    assert any("go backwards" in w.message for w in warnings)
