"""`sbctune measure --all-nics` keeps what each NIC ran with, read back from the Pi as a run of
one NIC keeps it (walk 22 left it: such runs kept only the tuning in force, and `compare` of a
NIC's two together-runs said "(no settings stored with run N: NICs measured together keep only
the tuning in force)" where a change of that NIC's settings was the whole question).

cm4-i340-igb, four igb ports: eth2's receive steering (rps_cpus, a knob that behaves as on a Pi
in the lab) is changed between two together-runs; `compare` of eth2's two runs names it, and
each run's stored settings are its own NIC's (its driver, its queue)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.history import History
from tests.lab_support import in_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

RPS = "/sys/class/net/eth2/queues/rx-0/rps_cpus"


def test_together_runs_keep_each_nics_settings(lab_factory: Any, tmp_path: Path) -> None:
    lab = lab_factory(profile="cm4-i340-igb")
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    base = [sys.executable, "-m", "sbctune", "measure", f"{lab.user}@{lab.host}",
            "--accept-new-host-key", "--duration", "2", "--omit", "1", "--trials", "1",
            "--json"]  # fmt: skip
    first = subprocess.run([*base, "--all-nics"], env=env, capture_output=True, text=True,
                           timeout=240)  # fmt: skip
    assert first.returncode == 0, first.stderr
    in_lab(lab, f"echo 3 > {RPS}")
    second = subprocess.run([*base, "--nic", "eth2", "--nic", "eth3"], env=env,
                            capture_output=True, text=True, timeout=240)  # fmt: skip
    assert second.returncode == 0, second.stderr
    ids_first = dict(zip(json.loads(first.stdout)["nics"], json.loads(first.stdout)["run_ids"],
                         strict=True))  # fmt: skip
    ids_second = dict(zip(json.loads(second.stdout)["nics"],
                          json.loads(second.stdout)["run_ids"], strict=True))  # fmt: skip
    with History.open(tmp_path / "history.sqlite3") as history:
        drivers = {}
        for nic, run_id in ids_first.items():
            run = history.run(run_id)
            assert run.pi_state, (nic, run.pi_state)  # before: None for every NIC
            drivers[nic] = run.pi_state.get("driver/driver")
            assert run.inventory_id is not None
        # each run keeps its own NIC's: the CM4's own port and the I340's three
        assert drivers == {"eth0": "bcmgenet", "eth1": "igb", "eth2": "igb", "eth3": "igb"}
        before = history.run(ids_first["eth2"]).pi_state or {}
        after = history.run(ids_second["eth2"]).pi_state or {}
    assert before.get("rps/rx-0") != after.get("rps/rx-0"), (before, after)
    compare = subprocess.run(
        [sys.executable, "-m", "sbctune", "compare", str(ids_first["eth2"]),
         str(ids_second["eth2"])], env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert compare.returncode == 0, compare.stderr
    said = " ".join(compare.stdout.split())
    assert "(rps/rx-0)" in said, said  # the setting by name, with its key
    assert "no settings stored" not in said, said
