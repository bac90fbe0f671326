"""Walk 22: a NIC set down (`ip link set eth1 down`) reads on Inspect's card as what it is and
how to bring it up, not "no link (cable unplugged?)", which sent the user to the cable; the
CLI's `inspect` says the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.ui.widgets.inventory_cards import nic_facts
from tests.lab_support import cli_run

BUNDLE = Path(__file__).resolve().parents[1] / "captures/walk22/cm4-eth1-set-down"
WORDS = "down: not brought up (“sudo ip link set eth1 up” brings it up)"


def test_the_card_of_a_nic_set_down_says_how_to_bring_it_up() -> None:
    nics = {n.name: n for n in inspect_bundle(BUNDLE).nics}
    assert ("Link", WORDS) in nic_facts(nics["eth1"])
    assert "not brought up" not in dict(nic_facts(nics["eth2"]))["Link"]  # up: as before


def test_cli_inspect_says_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = cli_run(["inspect", str(BUNDLE)], capsys)
    assert code == 0
    assert f"  link:    {WORDS}" in out.splitlines()
