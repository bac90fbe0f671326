"""Find my Pi's pure parts: MAC blocks, the _workstation instance name, neighbour tables."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from sbctune.discovery.find import rank
from sbctune.discovery.mdns import split_workstation_name
from sbctune.discovery.model import FoundHost, is_raspberry_pi_mac, normalise_mac
from sbctune.discovery.scan import parse_neighbours

ROOT = Path(__file__).resolve().parents[2]


def test_every_raspberry_pi_block_is_known() -> None:
    data = json.loads(
        (ROOT / "resources/discovery/raspberry_pi_ouis.json").read_text(encoding="utf-8")
    )
    assert "ieee-data" in data["source"]
    for oui in ("B8:27:EB", "DC:A6:32", "E4:5F:01", "D8:3A:DD", "2C:CF:67", "28:CD:C1"):
        assert is_raspberry_pi_mac(oui + ":01:02:03"), oui
    assert not is_raspberry_pi_mac("00:1e:06:aa:bb:cc")  # Wibrain (ODROID boards)
    assert not is_raspberry_pi_mac("not a mac")
    assert not is_raspberry_pi_mac(None)


def test_mac_spellings_of_each_os_are_one_mac() -> None:
    want = "dc:a6:32:01:02:03"
    for text in ("dc:a6:32:01:02:03", "DC-A6-32-01-02-03", "dc:a6:32:1:2:3"):
        assert normalise_mac(text) == want
    assert normalise_mac("dc:a6:32:01:02") is None


def test_workstation_instance_names() -> None:
    # The form `avahi-browse -a` shows for Raspberry Pi OS: "chandan-2 [2c:cf:67:46:a2:eb]".
    assert split_workstation_name("chandan-2 [2c:cf:67:46:a2:eb]._workstation._tcp.local.") == (
        "chandan-2",
        "2c:cf:67:46:a2:eb",
    )
    assert split_workstation_name("my [pi] [dc:a6:32:01:02:03]") == ("my [pi]", "dc:a6:32:01:02:03")
    assert split_workstation_name("plainhost._workstation._tcp.local.") == ("plainhost", None)
    assert split_workstation_name("x [not-a-mac]") == ("x", None)


@given(st.text(max_size=600))
def test_instance_names_never_crash_and_stay_bounded(name: str) -> None:
    host, mac = split_workstation_name(name)
    assert len(host) <= 255
    assert mac is None or normalise_mac(mac) == mac


def _capture(name: str) -> str:
    return (ROOT / "tests" / "captures" / "arp" / name).read_text(encoding="utf-8")


def test_neighbour_tables_of_windows_and_macos() -> None:
    assert parse_neighbours(_capture("windows_omega_manual.txt")) == {
        "192.168.1.96": "00:03:34:00:00:23"
    }
    # macOS drops leading zeros; the broadcast entry, "(incomplete)" and masked MACs are not
    # MACs of a host.
    assert parse_neighbours(_capture("macos_local_devices_10.txt")) == {
        "100.68.0.5": "00:0c:29:04:37:a4",
        "100.68.0.6": "00:0c:29:0b:c8:44",
        "100.68.0.10": "00:0c:29:16:2d:86",
        "100.68.1.13": "8c:85:90:e6:06:88",
    }
    assert parse_neighbours(_capture("macos_nmap_1189.txt")) == {}
    # Linux: /proc/net/arp is read live in tests/integration/test_find_lab.py (--scan).


@given(st.text(max_size=2000))
def test_neighbour_parsing_never_crashes(text: str) -> None:
    for ip, mac in parse_neighbours(text).items():
        assert ip.count(".") == 3
        assert normalise_mac(mac) == mac


def test_raspberry_pis_come_first_then_sshd_then_address_order() -> None:
    hosts = [
        FoundHost("198.19.0.20"),
        FoundHost("198.19.0.30", ssh_port=22),
        FoundHost("198.19.0.40", mac="dc:a6:32:00:00:01"),
        FoundHost("198.19.0.5", ssh_port=22),
    ]
    assert [h.address for h in rank(hosts)] == [
        "198.19.0.40",
        "198.19.0.5",
        "198.19.0.30",
        "198.19.0.20",
    ]


def test_merging_keeps_every_source_once() -> None:
    a = FoundHost("198.19.0.2", hostname="pi.local", sources=["mDNS ssh"])
    a.merge(FoundHost("198.19.0.2", mac="dc:a6:32:00:00:01", sources=["mDNS ssh", "port 22"]))
    assert a.sources == ["mDNS ssh", "port 22"]
    assert a.hostname == "pi.local" and a.is_raspberry_pi


def test_the_count_follows_the_lists_rule_and_says_why() -> None:
    """The s13 walk: "5 found (0 Raspberry Pis)" beside five `raspberrypi.local` lines."""
    from sbctune.discovery.model import found_summary

    named = [FoundHost(f"198.18.0.{i}", hostname="raspberrypi.local", mac="02:00:5e:10:00:0{i}")
             for i in range(2, 7)]  # fmt: skip
    assert {h.kind_words for h in named} == {"Raspberry Pi (by its name)"}
    assert found_summary(named) == (
        "5 found, 5 likely Raspberry Pis: 5 by Raspberry Pi OS's default name, raspberrypi"
    )
    by_mac = FoundHost("198.18.0.9", hostname="lbox.local", mac="dc:a6:32:01:02:03")
    other = FoundHost("198.18.0.10", hostname="nas.local", ssh_port=22)
    mixed = [by_mac, named[0], other]
    assert [h.kind_words for h in mixed] == ["Raspberry Pi", "Raspberry Pi (by its name)", "SSH"]
    assert found_summary(mixed) == (
        "3 found, 2 likely Raspberry Pis: 1 by its network card's maker (MAC address); "
        "1 by Raspberry Pi OS's default name, raspberrypi"
    )
    assert found_summary([other]).startswith("1 found, none known as a Raspberry Pi")
    assert FoundHost("198.18.0.11", hostname="raspberrypi-2.local").pi_by == "name"
    assert FoundHost("198.18.0.12", hostname="myraspberrypi.local").pi_by is None
