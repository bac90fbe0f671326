"""Audit 30 (driver_caps_audit30.md): rows earlier reads left.

Row 1 (audit 25 row 4): stmmac on 6.12 calls phy_support_eee in stmmac_init_phy, run by every
__stmmac_open, where it finds the PHY by address (no phy-handle: mdiobus_get_phy), so EEE
turned off is on again after any release/open (a ring change, the MTU, channels, a network
restart). A PHY from a phy-handle (phylink_fwnode_phy_connect) keeps it, and nothing sets
eee_cfg there, so --show-eee reports "disabled" from the start. The inventory does not show
which: the plan writes EEE off after its restarts, reads it back last and says it may last
only until the next open; the lab claims either branch only where its model says which."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab.ethtool_table_eee import hold_eee
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps, persist_gaps, reopen_order
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.probe import Facts

# ethtool's --show-eee of a real Pi with EEE enabled (systemd issue 32032): ethtool's own
# format, the same for every driver; the stmmac NIC's answer is what the driver reads back
EEE_ON = (
    Path(__file__).resolve().parents[1] / "captures" / "ethtool_eee"
    / "pi_end0_enabled_inactive_systemd_32032.txt"
).read_text(encoding="utf-8")  # fmt: skip

K612 = "6.12.20-arm64"  # after 59c5e1411a0a's stable backport (6.12.4)
EEE_OFF = Change("ethtool", "eth0 --set-eee eee", "on", "off")
RINGS = Change("ethtool", "eth0 -G rx", "512", "1024")
JUMBO = Change("mtu", "eth0", "1500", "9000")


@pytest.mark.parametrize("restart", [RINGS, JUMBO], ids=["rings", "mtu"])
def test_eee_off_on_stmmac_612_is_written_after_the_restart_and_read_back_last(
    restart: Change,
) -> None:
    """The ring change / MTU releases and opens (stmmac_reinit_ringparam, stmmac_change_mtu):
    where the PHY is found by address the open turns EEE on again, so the restart goes first
    and EEE's value is read after every write; harmless where a phy-handle keeps it."""
    facts = reopen_order.open_facts("stmmac", "eth0", K612, "RK3588")
    assert facts is not None
    assert reopen_order.apply_order([EEE_OFF, restart], facts) == [1, 0]
    assert reopen_order.read_last([EEE_OFF, restart], facts) == {0}
    # undoing: the restart is undone first, EEE put back after it
    assert reopen_order.revert_order([EEE_OFF, restart], facts) == [1, 0]


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.3-arm64"])
def test_eee_keeps_its_order_where_stmmac_does_not_turn_it_on_at_open(kernel: str) -> None:
    """6.1's stmmac_init_phy has no phy_support_eee; 6.12 before .4 neither (59c5e1411a0a)."""
    facts = reopen_order.open_facts("stmmac", "eth0", kernel, "RK3588")
    assert reopen_order.apply_order([EEE_OFF, RINGS], facts) == [0, 1]


def _planned_eee_off(kernel: str) -> PlannedTweak:
    found = Facts("eth0")
    found.steps["ethtool --show-eee"] = StepResult(
        batch.Step(("true",), "ethtool --show-eee"), 0, EEE_ON.encode(), b""
    )
    nic = Nic("eth0", driver="stmmac", chip="RK3588")
    tweak = catalog.tweak("eee-off")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    options = {"allow_link_restart": True}
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("eee-off",)))


def test_the_eee_off_plan_on_stmmac_612_does_not_claim_it_survives_a_restart() -> None:
    item = _planned_eee_off(K612)
    assert item.applicable and [c.after for c in item.changes] == ["off"], item.reason
    assert "finds its PHY by address" in item.reason, item.reason
    assert "only sure to stay off until the next restart" in item.reason
    assert "stmmac_main.c: stmmac_init_phy" in item.reason
    assert "on again" not in _planned_eee_off("6.1.0-31-arm64").reason


def test_at_boot_says_when_stmmac_sets_eee_back() -> None:
    facts = reopen_order.open_facts("stmmac", "eth0", K612, "RK3588")
    caps = driver_caps.caps("stmmac", K612, "RK3588")
    assert persist_gaps.why_lost(EEE_OFF, caps, facts, "eth0") == (
        "the stmmac driver sets it back each time eth0 is opened where its PHY is found by "
        "address (no phy-handle) (drivers/net/ethernet/stmicro/stmmac/stmmac_main.c: "
        "stmmac_init_phy)"
    )


def _lab_eee(by_address: bool | None) -> dict[str, Any]:
    eee: dict[str, Any] = {"supported": ["1000baseT/Full"], "enabled": False,
                           "link_partner": [], "tx_lpi": False}  # fmt: skip
    if by_address is not None:
        eee["phy_by_address"] = by_address
    state: dict[str, Any] = {"eee": eee}
    caps = driver_caps.caps("stmmac", K612, "RK3588")
    assert caps is not None
    hold_eee(state, caps, "RK3588", 1000.0)
    return dict(state["eee"])


def test_the_lab_turns_eee_on_at_open_only_where_its_model_finds_the_phy_by_address() -> None:
    """A lab whose model says the PHY is found by address turns EEE on at start and at every
    open, as the kernel; a model that does not say (a phy-handle board reports "disabled" and
    keeps it) is claimed neither way: the model's own values stay."""
    by_address = _lab_eee(True)
    assert by_address["enabled"] is True
    assert by_address.get("reset_on_open") == {"enabled": True, "tx_lpi": True}
    for unsaid in (None, False):
        eee = _lab_eee(unsaid)
        assert eee["enabled"] is False and "reset_on_open" not in eee
