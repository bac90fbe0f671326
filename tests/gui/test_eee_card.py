"""Issue 24: the Inspect page's NIC card shows EEE where `ethtool --show-eee` was read."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.ui.widgets.inventory_cards import nic_facts

REVPI = (
    Path(__file__).resolve().parents[1]
    / "captures/corpus/revpi_linux_6855_modalias_rp1_gem_ethtool_show_eee_active_prompts"
)


def test_card_shows_eee_from_the_revpi_paste() -> None:
    nic = next(n for n in inspect_bundle(REVPI).nics if n.name == "eth0")
    assert ("EEE", "enabled, active, Tx LPI off") in nic_facts(nic)
    nic.eee = None  # a bundle without --show-eee: no EEE row, not an "unknown" one
    assert [k for k, _ in nic_facts(nic) if k == "EEE"] == []
