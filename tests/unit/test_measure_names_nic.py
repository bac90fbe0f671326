"""walk18: `sbctune measure` never named the NIC it tested, in its live lines or its table,
where the window does: the interface and its chip as Inspect names it (the run's inventory)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.cli.measure_cmd import _print_run
from sbctune.cli.measure_live import Progress
from sbctune.inventory.model import Inventory, Nic
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.runner import RunStarted
from sbctune.measure.table import text
from sbctune.workflow.snapshot import nic_chips

PROFILES = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles"


def _run(nic: str | None, chip: str | None) -> MeasureRun:
    return MeasureRun("pi", nic, "quick", "builtin", "198.18.0.1", "198.18.0.2",
                      "2026-11-29T00:00:00+00:00", nic_chip=chip)  # fmt: skip


def test_chips_by_interface_are_inspects_words() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    chips = nic_chips(inventory.to_json())
    shown = {n.name: n.chip or n.chip_family for n in inventory.nics if n.name}
    assert chips == {k: v for k, v in shown.items() if v}
    assert chips, "the profile names at least one NIC's chip"


def test_a_family_is_said_where_no_chip_is() -> None:
    family = "one of “Intel 10GbE PCI Express adapters” (ixgbe's family; which chip is not shown)"
    inventory = Inventory(nics=[Nic("eth1", driver="ixgbe", chip_family=family), Nic("eth2")])
    assert nic_chips(inventory.to_json()) == {"eth1": family}


@pytest.mark.parametrize("garbage", [{}, {"nics": 3}, {"nics": [1, {"name": 2}, {"name": "x"}]}])
def test_a_damaged_stored_inventory_gives_no_chips(garbage: dict[str, object]) -> None:
    assert nic_chips(garbage) == {}


def test_the_table_names_the_nic_and_its_chip(capsys: pytest.CaptureFixture[str]) -> None:
    args = argparse.Namespace(json=False)
    run = _run("eth1", "RTL8125/RTL8126 (a 2.5GbE-capable r8169 chip)")
    _print_run(args, run, "Saved as run 1 in the history.")
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "NIC tested: eth1 · RTL8125/RTL8126 (a 2.5GbE-capable r8169 chip)"
    assert lines[2] == text(run).splitlines()[0]  # then the table, as before
    _print_run(args, _run("eth0", None), "Saved as run 2 in the history.")
    assert capsys.readouterr().out.splitlines()[0] == "NIC tested: eth0"


def test_the_live_lines_start_with_the_nic(capsys: pytest.CaptureFixture[str]) -> None:
    Progress()(RunStarted(_run("eth1", "ASIX AX88179")))
    assert "Measuring over eth1 · ASIX AX88179" in capsys.readouterr().err
