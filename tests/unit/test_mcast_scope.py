"""Find's mDNS sockets hear only the links they asked on (sbctune.discovery.mcast_scope): Linux
gives a socket every group membership of the host unless IP_MULTICAST_ALL is 0 (ip(7)), so
`find --interface A` listed a Pi of link B (tests/integration/test_find_lab.py shows it with
two links of a lab). macOS and Windows deliver only a socket's own memberships: nothing to set.
"""

from __future__ import annotations

import socket
import sys

import pytest

from sbctune.discovery import mcast_scope
from sbctune.discovery.mcast_scope import (
    has_multicast_all,
    only_own_memberships,
    scope_to_own_links,
    zeroconf_sockets,
)


class RecordingSocket(socket.socket):
    """A real UDP socket that records the options set on it (what Windows/macOS would get)."""

    def __init__(self) -> None:
        super().__init__(socket.AF_INET, socket.SOCK_DGRAM)
        self.set: list[tuple[int, int, object]] = []

    def setsockopt(self, level: int, option: int, value: object, *rest: object) -> None:  # type: ignore[override]
        self.set.append((level, option, value))


@pytest.mark.parametrize("platform", ["win32", "darwin", "freebsd14"])
def test_windows_and_macos_get_no_option(platform: str) -> None:
    assert not has_multicast_all(platform)
    with RecordingSocket() as sock:
        assert only_own_memberships(sock, platform) is False
        assert sock.set == []


def test_linux_gets_ip_multicast_all_off() -> None:
    with RecordingSocket() as sock:
        assert only_own_memberships(sock, "linux") is True
        assert sock.set == [(socket.IPPROTO_IP, mcast_scope.IP_MULTICAST_ALL, 0)]
    assert mcast_scope.IP_MULTICAST_ALL == 49  # linux/in.h


def test_an_ipv6_socket_is_left_alone() -> None:
    try:
        sock6 = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
    except OSError:
        pytest.skip("no IPv6 sockets on this machine")
    with sock6:
        assert only_own_memberships(sock6, "linux") is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="IP_MULTICAST_ALL is Linux's")
async def test_finds_browser_sockets_receive_only_their_own_memberships() -> None:
    """The Browser `sbctune find` uses, on loopback only: every socket has the option at 0
    (Linux's default is 1)."""
    from sbctune.discovery.mdns import Browser

    browser = Browser(["127.0.0.1"])
    try:
        sockets = zeroconf_sockets(browser._zc.zeroconf)
        assert len(sockets) >= 2  # the shared listener and loopback's responder
        for sock in sockets:
            value = sock.getsockopt(socket.IPPROTO_IP, mcast_scope.IP_MULTICAST_ALL)
            assert value == 0, sock
    finally:
        await browser.close()


def test_an_object_without_sockets_sets_nothing() -> None:
    assert zeroconf_sockets(object()) == []
    assert scope_to_own_links(object(), "linux") == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="IP_MULTICAST_ALL is Linux's")
def test_a_synchronous_zeroconfs_sockets_are_found_after_its_setup() -> None:
    """The lab's responder is a synchronous Zeroconf: its constructor finishes the engine's
    setup, which moves the sockets into transports. They were missed (0 set) and every NIC's
    responder heard every link's queries; now each one has the option at 0."""
    from zeroconf import IPVersion, Zeroconf

    zc = Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only)
    try:
        assert scope_to_own_links(zc) >= 2  # the shared listener and loopback's responder
        for sock in zeroconf_sockets(zc):
            assert sock.getsockopt(socket.IPPROTO_IP, mcast_scope.IP_MULTICAST_ALL) == 0
    finally:
        zc.close()
