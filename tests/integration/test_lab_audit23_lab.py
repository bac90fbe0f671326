"""Audit 23 row 6 in the lab (resources/tuning/driver_caps_audit23.md): the lab's /proc/cmdline
is its profile's, never this host's. A Pi 5's firmware passes its device tree's bootargs
(`pci=pcie_bus_safe`, bcm2712-rpi.dtsi) before cmdline.txt's, and the boot tweak
pci=pcie_bus_perf reads it there; before, the lab showed this machine's boot arguments."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from sbctune.tuning import boot_rules

pytestmark = [pytest.mark.lab]


def _cat_in_lab(lab: Any, path: str) -> str:
    pid = str(lab.pids["sshd"])  # the lab's mount namespace holds its binds
    done = subprocess.run(["nsenter", "-t", pid, "-m", "cat", path],
                          capture_output=True, text=True, check=True, timeout=30)  # fmt: skip
    return done.stdout


def test_a_lab_pi5_boots_with_pcie_bus_safe_and_a_pi4_shows_no_host_arguments(
    lab_factory: Any,
) -> None:
    host = Path("/proc/cmdline").read_text(encoding="utf-8")
    pi5 = _cat_in_lab(lab_factory(profile="pi5-macb", name="audit23-pi5"), "/proc/cmdline")
    assert boot_rules.bus_policy(pi5) == "pcie_bus_safe" and pi5 != host
    pi4 = _cat_in_lab(lab_factory(profile="pi4-rtl8153", name="audit23-pi4"), "/proc/cmdline")
    assert pi4 == "" != host
