"""Two labs up at once, started at the same moment, as two runs beside each other on one
machine: one keeps its labs in the default state folder, the other in a folder of its own
(SBCTUNE_LAB_STATE_DIR, as a second test run may). Both get their own 198.18.0.0/15 blocks
(one machine-wide lock under /run/sbctune serialises the allocation, whatever the state
folder), both answer, and after `lab down` nothing of either is left: no namespace, no veth or
IFB (checked by interface index, so another run's new lab on the freed block does not count).
Before the lock was machine-wide, the two picked one block and the second's failed start
took the first's links down with it."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from sbctune.lab.netns import list_netns
from tests.lab_support import lab_unavailable_reason, skip_or_fail

pytestmark = [pytest.mark.lab]

SBCTUNE = [sys.executable, "-m", "sbctune.cli.main"]


def _lab(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*SBCTUNE, "lab", *args], capture_output=True, text=True, env=env,
                          timeout=180, check=False)  # fmt: skip


def _ifindexes(names: set[str]) -> dict[str, int]:
    links = json.loads(subprocess.run(["ip", "-j", "link", "show"], capture_output=True,
                                      text=True, check=True, timeout=20).stdout)  # fmt: skip
    return {str(x["ifname"]): int(x["ifindex"]) for x in links if x.get("ifname") in names}


def _all_ifindexes() -> set[int]:
    links = json.loads(subprocess.run(["ip", "-j", "link", "show"], capture_output=True,
                                      text=True, check=True, timeout=20).stdout)  # fmt: skip
    return {int(x["ifindex"]) for x in links}


def test_two_labs_started_at_once_from_two_state_folders_both_work() -> None:
    if reason := lab_unavailable_reason():
        skip_or_fail(reason)
    tag = f"{os.getpid()}"
    other_root = Path(f"/run/sbctune/test-{tag}/labs")  # the lab user reads below it: not /tmp
    runs = {
        f"pytest-{tag}-twoa": ("pi1b-smsc95xx", dict(os.environ)),
        f"pytest-{tag}-twob": (
            "pi4-rtl8153",
            dict(os.environ, SBCTUNE_LAB_STATE_DIR=str(other_root)),
        ),
    }
    try:
        with ThreadPoolExecutor(2) as pool:
            started = {
                name: pool.submit(_lab, env, "up", "--profile", profile, "--name", name, "--json")
                for name, (profile, env) in runs.items()
            }
            ups = {name: future.result() for name, future in started.items()}
        for name, up in ups.items():
            assert up.returncode == 0, (name, up.stderr)
        infos = {name: json.loads(up.stdout) for name, up in ups.items()}
        first, second = infos.values()
        assert first["host"] != second["host"]
        blocks = [{n["host_addr"].rsplit(".", 1)[0] for n in i["nics"]} for i in infos.values()]
        assert blocks[0].isdisjoint(blocks[1]), blocks
        links = [{n[k] for n in i["nics"] for k in ("host_veth", "ifb")} for i in infos.values()]
        assert links[0].isdisjoint(links[1]), links
        for info in infos.values():
            socket.create_connection((info["host"], info["port"]), timeout=5).close()
        indexes = _ifindexes(links[0] | links[1])
        assert len(indexes) == len(links[0] | links[1]), indexes
        for name, (_profile, env) in runs.items():
            assert _lab(env, "status", name).returncode == 0
    finally:
        downs = {name: _lab(env, "down", name) for name, (_profile, env) in runs.items()}
        shutil.rmtree(other_root.parent, ignore_errors=True)
    for name, down in downs.items():
        assert down.returncode == 0 and f"removed lab {name}" in down.stdout, (name, down)
        assert f"sbctune-{name}" not in list_netns()
    assert not set(indexes.values()) & _all_ifindexes(), indexes  # no veth or IFB left
    assert not (other_root / f"pytest-{tag}-twob").exists()
    assert not Path(f"/run/sbctune/labs/pytest-{tag}-twoa").exists()
