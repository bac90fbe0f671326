"""`tune plan` against the seed labs: the CPU clock, governor, PCIe payload and interrupt tweaks
cite the published Pi 4 test ("Raspberry PI 4B USB Network Performance", seed 000) only on its
own Pi 4 lab, never on the Pi 5 (macb) or the Pi 1 (smsc95xx) lab (the s13 walk)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.lab.model import LabInfo
from sbctune.tuning.words import tweak_title
from tests.lab_support import cli_connected, cli_output

pytestmark = [pytest.mark.lab]

TWEAKS = ("boot-arm-freq", "cpu-governor-performance", "boot-pcie-bus-perf", "irq-affinity")
PI4_TEST = "Raspberry PI 4B USB Network Performance"


def _whys(plan: str) -> dict[str, str]:
    """Each tweak's title -> its "Why:" line."""
    lines = plan.splitlines()
    out = {}
    for tweak in TWEAKS:
        title = tweak_title(tweak)
        at = next(i for i, x in enumerate(lines) if x.startswith(f"{title}:"))
        out[tweak] = next(x for x in lines[at + 1 :] if x.startswith("  Why: "))
    return out


@pytest.mark.parametrize(("profile", "cites"), [("pi5-macb", False), ("pi1b-smsc95xx", False),
                                                 ("pi4-ax88179", True)])  # fmt: skip
def test_tune_plan_cites_the_pi4_test_only_on_its_lab(
    lab_factory: Callable[..., LabInfo],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    profile: str,
    cites: bool,
) -> None:
    lab = lab_factory(profile)
    pi = cli_connected(lab, tmp_path, monkeypatch, capsys)
    nic = ["--nic", "eth1"] if profile.startswith("pi4") else []
    chosen = [arg for tweak in TWEAKS for arg in ("--tweak", tweak)]
    plan = cli_output(["tune", "plan", pi, *nic, *chosen], capsys)
    whys = _whys(plan)
    assert all((PI4_TEST in why) == cites for why in whys.values()), plan
    assert ("736 to 834 Mbit/s" in whys["boot-arm-freq"]) == cites, plan
