"""The Connect page's Find my Pi, in a real window, against a Pi announcing itself over mDNS.

The window runs in the test's "PC" namespace (tests/find_support.py), so nothing it sends can
reach the host's networks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.find_support import (
    OTHER_MAC,
    PI_ADDR,
    Pair,
    announce,
    listen_ssh,
    netns_exec,
    pair,
)  # fmt: skip

pytestmark = pytest.mark.lab
__all__ = ["pair"]  # the fixture, used by name

SCRIPT = Path(__file__).with_name("find_page_script.py")


def _run(pair: Pair, *args: str) -> dict[str, object]:
    proc = subprocess.run(
        netns_exec(pair.pc, sys.executable, str(SCRIPT), *args),
        capture_output=True, text=True, timeout=120, env=dict(os.environ),
    )  # fmt: skip
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, proc.stdout + proc.stderr
    result: dict[str, object] = json.loads(lines[-1].removeprefix("RESULT "))
    return result


def test_find_lists_the_pi_and_fills_the_host_field(pair: Pair) -> None:
    announce(pair)
    result = _run(pair)
    assert result["busy_seen"] is True  # the user sees it working, the button waits
    assert result["card_visible"] is True
    items = result["items"]
    assert isinstance(items, list) and items, result
    assert items[0].startswith(PI_ADDR) and "Raspberry Pi" in items[0]
    assert "raspberrypi" in items[0]
    status = str(result["status"])
    assert "1 found, 1 likely Raspberry Pi: 1 by its network card's maker" in status
    assert result["host"] == PI_ADDR  # picked: the address is in the host field
    assert result["button_enabled"] is True
    assert result["accessible"] == "Find my Pi"


def test_nothing_found_says_what_to_do_and_scan_finds_a_silent_pi(pair: Pair) -> None:
    quiet = _run(pair)
    assert quiet["items"] == []
    assert "No Pi answered." in str(quiet["status"])
    assert "also probe port 22" in str(quiet["status"])
    assert quiet["host"] == ""  # nothing was filled in

    listener = listen_ssh(pair)
    scanned = _run(pair, "--scan")
    items = scanned["items"]
    assert isinstance(items, list) and items and items[0].startswith(PI_ADDR), scanned
    assert "Raspberry Pi" in items[0]  # the MAC, read from this PC's ARP table
    listener.terminate()


@pytest.mark.parametrize("pair", [OTHER_MAC], indirect=True)
def test_a_pi_known_by_its_name_is_counted_as_the_list_shows_it(pair: Pair) -> None:
    """The s13 walk: five `raspberrypi.local` in the list under "5 found (0 Raspberry Pis)" (the
    count went by MAC address alone). A host whose MAC is no Raspberry Pi's but that announces
    Raspberry Pi OS's default name is counted as the list shows it, and the count says why."""
    announce(pair, mac=OTHER_MAC)
    result = _run(pair)
    items = result["items"]
    assert isinstance(items, list) and items, result
    assert items[0].startswith(PI_ADDR) and "Raspberry Pi (by its name)" in items[0]
    status = str(result["status"])
    assert "1 found, 1 likely Raspberry Pi: 1 by Raspberry Pi OS's default name" in status
    assert "0 Raspberry Pis" not in status
