"""`sbctune find --interface A` lists only hosts on A's link (sbctune.discovery.find.on_links):
an answer heard on A that gives another link's address (a responder listing every address it
has, or a second NIC's answer routed back over A) is not a host of A."""

from __future__ import annotations

import ipaddress

from sbctune.discovery.find import on_links
from sbctune.discovery.model import MDNS_SSH, FoundHost
from sbctune.discovery.scan import asked_links


def _hosts(*addresses: str) -> list[FoundHost]:
    return [FoundHost(address=a, sources=[MDNS_SSH]) for a in addresses]


def test_only_the_asked_links_hosts_are_kept() -> None:
    links = [ipaddress.IPv4Network("198.18.4.0/24")]
    kept = on_links(_hosts("198.18.4.2", "198.18.5.2", "198.18.7.2"), links)
    assert [h.address for h in kept] == ["198.18.4.2"]


def test_a_pi_with_two_nics_is_kept_on_both_links_asked() -> None:
    links = [ipaddress.IPv4Network("198.18.4.0/24"), ipaddress.IPv4Network("198.18.5.0/24")]
    kept = on_links(_hosts("198.18.4.2", "198.18.5.2", "198.18.6.2"), links)
    assert [h.address for h in kept] == ["198.18.4.2", "198.18.5.2"]


def test_a_wide_network_keeps_its_whole_range() -> None:
    kept = on_links(_hosts("10.1.200.9", "10.2.0.1"), [ipaddress.IPv4Network("10.1.0.0/16")])
    assert [h.address for h in kept] == ["10.1.200.9"]


def test_links_that_cannot_be_told_drop_nothing() -> None:
    hosts = _hosts("198.18.4.2", "198.18.5.2")
    assert on_links(hosts, None) == hosts


def test_asked_links_of_loopback_and_of_an_address_not_here() -> None:
    assert asked_links(["127.0.0.1"]) == [ipaddress.IPv4Network("127.0.0.0/8")]
    assert asked_links(["127.0.0.1", "192.0.2.77"]) is None  # not this PC's: cannot tell
    assert asked_links([]) is None
