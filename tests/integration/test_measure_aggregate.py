"""NICs measured together in the lab (seed 004's CM4 with an I340-T4 on igb): each port alone
reaches ~940 Mbit/s, all four at once stop at the seed's ~3.06 Gbit/s, and the advice says the
bus caps them together."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_host
from sbctune.catalog import load_catalog
from sbctune.history import History
from sbctune.lab.profile import load_profile
from sbctune.measure.aggregate import measure_aggregate
from sbctune.measure.persist import save_aggregate, save_measurement
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import measure
from tests.lab_shaping import shaped_goodput
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab, pytest.mark.slow]

PROFILE = "cm4-i340-igb"
# The profile's bus cap is seed 004's "with five independent Gigabit network interfaces, I got
# 3.06 Gbps" (resources/lab/profiles/cm4-i340-igb).
# One trial per direction: the bus cap is a relation of rates, not about trials. 3 s each,
# as the CLI test below measures the aggregate (the cap is 3060 against 4 x 940 alone).
SHORT = plan_named("quick").with_overrides(duration=3, omit=1, streams=4, trials=1)


def _bus_cap(lab: Any) -> dict[str, float]:
    """The profile's shared bus limit per direction (Mbit/s goodput, all NICs together)."""
    (limit,) = load_profile(lab.profile).shared_limits
    assert limit.pi_to_pc_mbps is not None and limit.pc_to_pi_mbps is not None
    return {"pi_to_pc": limit.pi_to_pc_mbps, "pc_to_pi": limit.pc_to_pi_mbps}


async def test_ports_alone_reach_940_together_the_bus_caps_them(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(profile=PROFILE)
    names = [n.name for n in lab.nics]
    assert len(names) == 4
    # Each NIC's own rate (its leaf's ceiling under the bus cap, sbctune.lab.shaping_shared).
    shaped_of = {nic.name: shaped_goodput(nic) for nic in lab.nics}
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        # Not about latency (the aggregate has none): its idle probing adds ~3 s to each test.
        alone = [
            await measure(session, SHORT, nic=name, sample=False, latency=False) for name in names
        ]
        together = await measure_aggregate(session, SHORT, names)
        user, target = session.username, session.target
    # Relations, not absolute rates (a busy machine measures less): each port alone runs
    # through its own shaping, and together the bus caps them below what they reach alone.
    cap = _bus_cap(lab)
    alone_mbps = {}
    for run, nic in zip(alone, lab.nics, strict=True):
        shaped = shaped_of[nic.name]
        for test in run.tests:
            assert test.mean_mbps is not None
            assert 0.4 * shaped[test.direction] < test.mean_mbps <= 1.03 * shaped[test.direction]
            alone_mbps[(run.nic, test.direction)] = test.mean_mbps
    assert together.complete and together.error is None
    for run, nic in zip(together.runs, lab.nics, strict=True):
        # Each NIC against its own endpoint on its own network, its client bound to its address.
        assert (run.nic, run.pc_address, run.pi_address) == (nic.name, nic.host_addr, nic.pi_addr)
        assert run.route_warning is None
    figures = together.figures()
    assert {(f.direction, f.mode) for f in figures} == {("pi_to_pc", "half"), ("pc_to_pi", "half")}
    for figure in figures:
        assert figure.total_mbps <= 1.03 * cap[figure.direction], figure  # the bus caps them
        # ... and more ports still carry more than any one alone
        assert figure.total_mbps > max(
            v for (_, d), v in alone_mbps.items() if d == figure.direction
        )
        for nic, mbps in figure.per_nic.items():  # no port keeps its own shaped rate
            assert mbps is not None and mbps < 0.9 * shaped_of[nic][figure.direction]
    assert together.runs[0].pi_cpu, "the Pi sampler ran during the aggregate"

    with History.open(tmp_path / "history.sqlite3") as history:
        for run in alone:
            save_measurement(history, target, user, run, SHORT)
        ids = save_aggregate(history, target, user, together, SHORT)
        stored = history.runs_in_aggregate(together.id)
        assert [r.id for r in stored] == ids and [r.nic for r in stored] == names
        device = history.run(ids[0]).device_id
        runs = history.runs_for_device(device)
    advice = advise(inventory, runs, load_catalog())
    finding = next(f for f in advice.findings if f.id == "aggregate-bus-bound")
    assert finding.summary.startswith("The bus caps the NICs together")
    assert finding.nic == "+".join(names)
    assert any(" = " in line and "together" in line for line in finding.evidence)
    assert any("each alone" in line for line in finding.evidence)


def test_cli_measures_all_nics_at_once_and_prints_the_total(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory(profile=PROFILE)
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    # Each NIC's own rate (its leaf's ceiling under the bus cap, sbctune.lab.shaping_shared).
    two = [shaped_goodput(lab.nic(n)) for n in ("eth1", "eth2")]
    base = [sys.executable, "-m", "sbctune", "measure", f"{lab.user}@{lab.host}",
            "--accept-new-host-key", "--duration", "3", "--omit", "1", "--trials", "1"]  # fmt: skip
    proc = subprocess.run(
        [*base, "--all-nics", "--json"], env=env, capture_output=True, text=True, timeout=180
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["nics"] == [n.name for n in lab.nics]
    assert len(data["runs"]) == 4 and all(isinstance(i, int) for i in data["run_ids"])
    cap = _bus_cap(lab)
    for figure in data["aggregate"]:
        assert (
            0.4 * cap[figure["direction"]] < figure["total_mbps"] <= 1.03 * cap[figure["direction"]]
        )
        assert set(figure["per_nic"]) == set(data["nics"])
        # The total is what passed while every NIC ran (sbctune.measure.together); each NIC's
        # own mean stays in per_nic.
        assert figure["total_mbps"] == pytest.approx(sum(figure["together_per_nic"].values()))
        assert 0 < figure["together_s"] <= figure["longest_s"] + 1e-9
        assert (figure["note"] is None) == (not figure["late_s"] and not figure["short_s"])
    assert "total" in proc.stderr  # live lines carry the running total

    proc = subprocess.run(
        [*base, "--nic", "eth1", "--nic", "eth2"], env=env, capture_output=True, text=True,
        timeout=180,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    rows = {line.split()[0]: line.split() for line in proc.stdout.splitlines() if line.strip()}
    assert {"eth1", "eth2", "Total"} <= set(rows)
    # Two ports stay under the shared cap: their total is bounded by their own shaping only.
    ceiling = sum(s["pi_to_pc"] for s in two)
    assert ceiling < cap["pi_to_pc"]  # the profile's 2 × 940 against its 3060 bus cap
    assert 0.4 * ceiling < float(rows["Total"][1]) <= 1.03 * ceiling
