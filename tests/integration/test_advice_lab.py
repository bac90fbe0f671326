"""Seed 000's conclusions, reached from sbctune's own measurements: inspect the pi4-ax88179 lab
over SSH, run the quick plan with the built-in endpoint, store the run, advise (in the API and
the CLI). The other seed profiles' conclusions are checked on the one-click flow's measurements
in tests/integration/test_flow.py: its baseline is such a measurement, so measuring each
profile here as well only repeated the traffic."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sbctune.advice import Advice, advise
from sbctune.advice.inspect import inspect_host
from sbctune.catalog import load_catalog
from sbctune.history import History
from sbctune.lab.model import LabInfo
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import Plan, plan_named
from sbctune.measure.plans import TestSpec as Spec
from sbctune.measure.runner import measure
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

# One trial per direction: advice rests on the figures, not on the trials' interval.
QUICK = plan_named("quick").with_overrides(duration=4, omit=1, streams=4, trials=1)


async def _advise_lab(lab: LabInfo, tmp_path: Path, plan: Plan) -> Advice:
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        run = await measure(session, plan, nic=lab.test_nic.name, endpoint="builtin")
        user = session.username
        target = session.target
    with History.open(tmp_path / "history.sqlite") as history:
        run_id = save_measurement(history, target, user, run, plan)
        record = history.run(run_id)
    return advise(inventory, [record], load_catalog())


# The tests only measure and advise: they share the module's lab (module_lab).
async def test_pi4_ax88179_top_is_the_rtl8153_and_full_duplex_collapses(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    both = Spec(mode="full", directions=("pi_to_pc", "pc_to_pi"), duration=4, omit=1, streams=4)
    plan = Plan(name="custom", title="half and full", tests=(*QUICK.tests, both))
    advice = await _advise_lab(module_lab, tmp_path, plan)
    collapse = next((f for f in advice.findings if f.id == "full-duplex-collapse"), None)
    assert collapse is not None, [f.id for f in advice.findings]
    # The half-duplex tests in the same run give seed 000's conclusion.
    top = advice.top
    assert top is not None and top.kind == "adapter" and "RTL8153" in top.title, top
    assert "much better suited" in top.detail
    asym = next(f for f in advice.findings if f.id == "asymmetric")
    assert "Pi → PC" in asym.summary  # the lab's 736 vs 949 of seed 000


def test_cli_advise_host_and_run(module_lab: LabInfo, tmp_path: Path) -> None:
    lab = module_lab
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    target = f"{lab.user}@{lab.host}"
    cli = [sys.executable, "-m", "sbctune"]
    measured = subprocess.run(
        [*cli, "measure", target, "--accept-new-host-key", "--duration", "3", "--omit", "1",
         "--trials", "1"],
        env=env, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert measured.returncode == 0, measured.stderr
    live = subprocess.run(
        [*cli, "advise", target], env=env, capture_output=True, text=True, timeout=180
    )
    assert live.returncode == 0, live.stderr
    assert "1. [adapter] Use a Realtek RTL8153/RTL8153B-based adapter instead (eth1)" in live.stdout
    assert "rests on: Pi → PC (one direction at a time):" in live.stdout
    run_id = measured.stderr.split("Saved as run ")[1].split()[0]
    stored = subprocess.run(
        [*cli, "advise", run_id, "--json"], env=env, capture_output=True, text=True, timeout=60
    )
    assert stored.returncode == 0, stored.stderr
    data = json.loads(stored.stdout)
    top = data["recommendations"][0]
    assert {"kind", "nic", "title", "detail", "expected_gain", "sources"} <= set(top)
    assert top["kind"] == "adapter" and top["rank"] == 1 and top["expected_gain_mbps"] > 100
    missing = subprocess.run(
        [*cli, "advise", "999999"], env=env, capture_output=True, text=True, timeout=60
    )
    assert missing.returncode != 0 and "There is no run 999999" in missing.stderr
    assert "Traceback" not in missing.stderr
