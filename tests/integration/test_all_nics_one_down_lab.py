"""`sbctune measure --all-nics` with one NIC set down (walk 22, cm4-i340-igb, `ip link set eth1
down` on the Pi): the others are measured together and the user is told which was left out and
how to bring it up. Before, the whole run stopped with "Traffic to this PC (198.18.5.1) leaves
the Pi through eth0, not eth1"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.lab, pytest.mark.slow]


def test_all_nics_leaves_the_down_nic_out_and_says_so(lab_factory: Any, tmp_path: Path) -> None:
    lab = lab_factory(profile="cm4-i340-igb")
    subprocess.run(["ip", "-n", lab.netns, "link", "set", "eth1", "down"], check=True)
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    argv = [sys.executable, "-m", "sbctune", "measure", f"{lab.user}@{lab.host}",
            "--accept-new-host-key", "--duration", "2", "--omit", "1", "--trials", "1",
            "--all-nics", "--json"]  # fmt: skip
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=180)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["nics"] == ["eth0", "eth2", "eth3"]
    said = " ".join(proc.stderr.split())
    assert "Left out: eth1 is down (not brought up;" in said
    assert "“sudo ip link set eth1 up” brings it up" in said
    # (the terminal's wrapping at 80 columns: tests/unit/test_cli_fits_80_columns.py)
