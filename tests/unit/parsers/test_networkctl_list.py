"""``networkctl`` / ``networkctl list``: the table of links (real pastes in captures/reports)."""

from __future__ import annotations

from sbctune.inventory.parsers import parse_command
from sbctune.inventory.parsers.networkctl_list import parse_networkctl_list

from .conftest import read_capture


def _rows(rel: str) -> list[tuple[str, str | None, bool | None]]:
    res, warnings = parse_networkctl_list(read_capture(rel))
    assert not [w for w in warnings if "nothing could be read" in w.message]
    return [(n.name, n.link_type, n.has_carrier) for n in res.interfaces]


def test_wired_without_carrier_and_wifi_routable() -> None:
    rel = "reports/x86_systemd_40523_networkctl_list_eno1_no_carrier_wlan_routable.txt"
    assert _rows(rel) == [
        ("lo", "loopback", True),
        ("eno1", "ether", False),
        ("wlp0s20f3", "ieee802.11", True),
    ]


def test_the_prompt_is_skipped_and_a_tunnel_keeps_its_type() -> None:
    rel = "reports/kvm_systemd_8256_networkctl_prompt_ens3_wg0.txt"
    assert _rows(rel) == [("lo", "loopback", True), ("ens3", "ether", True), ("wg0", "none", True)]


def test_dispatch_reads_networkctl_and_list_but_not_other_verbs() -> None:
    text = read_capture("reports/kvm_host_systemd_9077_sudo_networkctl_eth_bridges_carrier.txt")
    for cmd in ("networkctl", "networkctl list", "sudo networkctl", "networkctl -a list"):
        out = parse_command(cmd, text)
        assert out.parser == "networkctl", cmd
        assert [n.name for n in out.result.interfaces] == ["lo", "eth0", "eth2", "br701"]
    assert parse_command("networkctl lldp", text).parser is None


def test_no_header_is_said() -> None:
    res, warnings = parse_networkctl_list("  2 eth0  ether  routable  configured\n")
    assert res.interfaces == []
    assert any("IDX LINK TYPE OPERATIONAL" in w.message for w in warnings)
