"""`sbctune measure HOST` without --nic keeps the settings of the NIC it measured over (walk s23,
pi5-macb lab: after `tune apply --tweak rps-rfs`, `compare 1 2` listed the flow table's sysctl
and the governor but not eth0's receive steering: with no NIC named, the run read the Pi's
settings before the route was known, so no offload, ring, coalescing or RPS value of any NIC
was kept)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.history import History

pytestmark = [pytest.mark.lab]


def test_measure_without_nic_keeps_the_route_nics_settings(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(profile="pi5-macb")
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    argv = [sys.executable, "-m", "sbctune", "measure", f"{lab.user}@{lab.host}",
            "--accept-new-host-key", "--duration", "2", "--omit", "1", "--trials", "1",
            "--no-latency", "--json"]  # fmt: skip
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["nic"] == "eth0"
    with History.open(tmp_path / "history.sqlite3") as history:
        (device,) = history.devices()
        assert device.id is not None
        (run,) = history.runs_for_device(device.id)
    state = run.pi_state or {}
    assert state.get("driver/driver") == "macb", state  # before: no driver/… key at all
    assert "rps/rx-0" in state and "offload/generic-receive-offload" in state, state
