"""The lab's CPU chart is honest (issue 24's follow-up): in the lab /proc/stat is this host's
(2 cores here) while `inspect` shows the profile's Pi (4 on a Pi 4). The lab does not make up
a Pi's load; it says whose the cores are (`/etc/sbctune-lab-cpu`, sbctune.lab.cpu_marker), the
sampler passes it on with each sample, and the command line and the chart say "lab host"."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.cli.measure_live import busiest
from sbctune.lab import cpu_marker
from sbctune.measure.sampler_data import LabCpu
from sbctune.measure.sampler_framing import parse_lab_cpu

linux_only = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads this machine's /proc (Linux)"
)


def test_the_marker_line_reads_back() -> None:
    assert parse_lab_cpu(["host_cpus=2", "pi_cpus=4"]) == LabCpu(2, 4)
    assert parse_lab_cpu(["host_cpus=8"]) == LabCpu(8, None)
    assert cpu_marker.line(4, host=2) == "host_cpus=2 pi_cpus=4\n"


@pytest.mark.parametrize(
    "fields", [[], ["host_cpus=0"], ["host_cpus=x"], ["pi_cpus=4"], ["host_cpus=2", "rm", "-rf"],
               ["host_cpus=99999"], ["host_cpus=2\x1b[2J"]],
)  # fmt: skip
def test_anything_else_is_no_marker(fields: list[str]) -> None:
    assert parse_lab_cpu(fields) is None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=6))
def test_garbage_never_raises(fields: list[str]) -> None:
    found = parse_lab_cpu(fields)
    assert found is None or 1 <= found.host_cpus <= 9999


def test_the_heading_says_whose_cores_they_are() -> None:
    assert LabCpu(2, 4).heading == "Lab host CPU, 2 cores (this computer's, not the Pi's 4)"
    assert LabCpu(1).heading == "Lab host CPU, 1 core (this computer's, not the Pi's)"


@linux_only
def test_the_lab_writes_what_proc_stat_shows(tmp_path: Path) -> None:
    from tests.lab_cpu_samples import host_cores

    written = cpu_marker.write(tmp_path, 4).read_text(encoding="utf-8")
    assert written == f"host_cpus={host_cores()} pi_cpus=4\n"


@linux_only
def test_the_command_line_says_lab_host_for_the_labs_cores() -> None:
    from tests.lab_cpu_samples import host_cores, real_sample

    lab = real_sample(f"host_cpus={host_cores()} pi_cpus=4")
    assert lab.lab_cpu == LabCpu(host_cores(), 4) and len(lab.cpus) == host_cores()
    assert busiest(lab).startswith("   lab host busiest: cpu")
    pi = real_sample(None)
    assert pi.lab_cpu is None and busiest(pi).startswith("   Pi busiest: cpu")


def test_no_advice_reads_the_lab_hosts_cores_as_the_pis() -> None:
    """A saturated core in a lab run is the lab host's: "one core does the network's work"
    (advice.cpu) would be about this computer, so a summary the lab marked gives none."""
    from sbctune.advice.cpu import irq_bound_core

    listed = [{"cpu": 0, "mean_busy": 99, "mean_irq_softirq": 92},
              {"cpu": 1, "mean_busy": 8, "mean_irq_softirq": 0}]  # fmt: skip
    cores = {"samples": 10, "cores": listed}
    assert irq_bound_core(cores) is not None  # a Pi's summary: the advice holds
    assert irq_bound_core({**cores, "lab_cpu": {"host_cpus": 2, "pi_cpus": 4}}) is None


@linux_only
def test_a_lab_runs_stored_summary_says_whose_cores() -> None:
    from sbctune.measure.sampler_math import summarize
    from tests.lab_cpu_samples import host_cores, real_sample

    lab = summarize([real_sample(f"host_cpus={host_cores()} pi_cpus=4")]).to_json()
    assert lab["lab_cpu"] == {"host_cpus": host_cores(), "pi_cpus": 4}
    assert summarize([real_sample(None)]).to_json()["lab_cpu"] is None
