"""Each macOS-specific path, run here (Linux, Windows) with the platform set to macOS.

macOS cannot run in CI here; what sbctune does differently there is small and each piece is
checked: the Keychain as the remembered-password store, the Bonjour types the bundle
declares for Find my Pi, the firewall advice after a refused test, and the Local Network
permission named when macOS answers "No route to host". No SSH or iperf3 stands in.
"""

from __future__ import annotations

import platform
import sys
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest

from sbctune.discovery.mdns import BROWSED
from sbctune.measure.pi_client import explain_error
from sbctune.remote.errors import HostUnreachable
from sbctune.ui import secrets
from tests.memory_keyring import MemoryKeyring

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "packaging"))
import spec_support as sup  # noqa: E402

REFUSED = "unable to connect to server: Connection refused"


@pytest.fixture
def on_macos(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(platform, "system", lambda: "Darwin")
    monkeypatch.setattr(sys, "platform", "darwin")


class _KeychainRecorder(MemoryKeyring):
    """The macOS Keychain backend as keyring reports it (its module), keeping what it gets."""

    priority = 5  # type: ignore[assignment]


_KeychainRecorder.__module__ = "keyring.backends.macOS"


@pytest.fixture
def keychain() -> Iterator[_KeychainRecorder]:
    before = keyring.get_keyring()
    recorder = _KeychainRecorder()
    keyring.set_keyring(recorder)
    try:
        yield recorder
    finally:
        keyring.set_keyring(before)


def test_keyrings_own_macos_backend_is_the_os_keyring() -> None:
    from keyring.backends import macOS

    assert secrets.is_os_keyring(macOS.Keyring())


async def test_remember_on_macos_saves_in_the_keychain_and_reads_it_back(
    on_macos: None, keychain: _KeychainRecorder
) -> None:
    assert await secrets.save_password("pi", "raspberrypi.local", 22, "s3cret") is None
    assert keychain.saved == {("sbctune", "pi@raspberrypi.local:22"): "s3cret"}
    assert await secrets.load_password("pi", "raspberrypi.local", 22) == "s3cret"


def test_the_macos_bundle_declares_what_find_my_pi_browses() -> None:
    plist = sup.mac_info_plist("1.2.3")
    assert plist["NSBonjourServices"] == ["_workstation._tcp", "_ssh._tcp"]
    assert len(plist["NSBonjourServices"]) == len(BROWSED)
    assert "Raspberry Pi" in plist["NSLocalNetworkUsageDescription"]


def test_a_refused_test_on_macos_names_the_macos_firewall(on_macos: None) -> None:
    hint = explain_error(REFUSED, "192.168.1.20", 5201).hint  # this PC's OS, as asked
    assert "macOS application firewall" in hint and "Allow incoming connections" in hint
    assert "ufw" not in hint and "Windows Defender" not in hint


def test_no_route_on_macos_names_the_local_network_permission(on_macos: None) -> None:
    hint = HostUnreachable("192.168.1.20", "no route to host").hint
    assert "Privacy & Security → Local Network → turn sbctune on" in hint


@pytest.mark.parametrize("system", ["Linux", "Windows"])
def test_no_route_elsewhere_says_nothing_of_macos(system: str) -> None:
    hint = HostUnreachable("192.168.1.20", "no route to host", system=system).hint
    assert "macOS" not in hint and "ping" in hint
