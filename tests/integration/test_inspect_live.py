"""Inspecting each lab profile over real SSH, as `sbctune inspect HOST` does, and the bundle
`sbctune collect` writes from it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_bundle, inspect_host, save_bundle
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

EXPECTED = {
    "pi4-ax88179": {
        "name": "eth1",
        "chip": "ASIX AX88179/AX88179A",
        "driver": "ax88179_178a",
        "bus": "usb",
        "usb_speed_mbps": 5000,
        "link_speed_mbps": 1000,
    },
    "pi4-rtl8153": {
        "name": "eth1",
        "chip": "Realtek RTL8153/RTL8153B",
        "driver": "r8152",
        "bus": "usb",
        "usb_speed_mbps": 5000,
    },
    "pi1b-smsc95xx": {
        "name": "eth0",
        "chip": "SMSC LAN9512/LAN9514",
        "driver": "smsc95xx",
        "bus": "usb",
        "usb_speed_mbps": 480,
        "link_speed_mbps": 100,
    },
}


@pytest.mark.parametrize("profile", sorted(EXPECTED))
async def test_nic_under_test_is_identified(lab_factory: Any, tmp_path: Path, profile: str) -> None:
    lab = lab_factory(profile=profile)
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, collection = await inspect_host(session)
    assert collection.round_trips == 2
    assert collection.used_sudo
    expected = EXPECTED[profile]
    nic = inventory.nic(expected["name"])
    assert nic is not None, [n.name for n in inventory.nics]
    assert {key: getattr(nic, key) for key in expected} == expected
    # The bundle `sbctune collect` writes inspects to the same NICs.
    bundle = save_bundle(collection, tmp_path / "bundle.zip")
    again = inspect_bundle(bundle)
    assert [vars(n) for n in again.nics] == [vars(n) for n in inventory.nics]


async def test_cm4_i340_shows_four_unbound_controllers(lab_factory: Any, tmp_path: Path) -> None:
    lab = lab_factory(profile="cm4-i340-nodriver")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
    unbound = [n for n in inventory.nics if n.bus == "pci" and n.driver is None]
    assert len(unbound) == 4 and all("82580" in (n.chip or "") for n in unbound)
    assert [f.id for f in inventory.findings].count("no-driver") == 4


def test_cli_inspect_and_collect(lab_factory: Any, tmp_path: Path) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    target = f"{lab.user}@{lab.host}"
    cli = [sys.executable, "-m", "sbctune"]
    inspected = subprocess.run(
        [*cli, "inspect", target, "--json", "--accept-new-host-key"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert inspected.returncode == 0, inspected.stderr
    data = json.loads(inspected.stdout)
    assert any(n["chip"] == "ASIX AX88179/AX88179A" for n in data["nics"])
    assert lab.password not in inspected.stdout + inspected.stderr
    out = tmp_path / "pi.zip"
    collected = subprocess.run(
        [*cli, "collect", target, "-o", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert collected.returncode == 0, collected.stderr
    manifest = subprocess.run(
        [*cli, "inspect", str(out)], env=env, capture_output=True, text=True, timeout=60
    )
    assert "ASIX AX88179" in manifest.stdout
    connected = subprocess.run(
        [*cli, "connect", target, "--json"], env=env, capture_output=True, text=True, timeout=60
    )
    facts = json.loads(connected.stdout)
    assert (facts["user"], facts["sudo"], facts["sudo_ok"]) == ("pi", "password", True)
    wrong_sudo = subprocess.run(
        [*cli, "connect", target, "--json"],
        env=dict(env, SBCTUNE_SUDO_PASSWORD="wrong"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert json.loads(wrong_sudo.stdout)["sudo_ok"] is False
    # A wrong password is a clear message, not a traceback.
    env["SBCTUNE_PASSWORD"] = "wrong"
    refused = subprocess.run(
        [*cli, "inspect", target], env=env, capture_output=True, text=True, timeout=60
    )
    assert refused.returncode != 0
    assert "did not accept the password" in refused.stderr and "Traceback" not in refused.stderr
