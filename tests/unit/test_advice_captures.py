"""Real captures the advice was not written from (bug reports, see each SOURCE.md) are advised
correctly: a USB 3 adapter running at USB 2.0 speed is told to move to a USB 3 port."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog

BUNDLES = Path(__file__).resolve().parents[1] / "captures" / "bundles"


@pytest.mark.parametrize(
    ("bundle", "nic", "evidence"),
    [
        ("bbqq_r8152_58_as_u25g_high_speed", "eth2", "usb 1-1: not running at top speed"),
        # named only by its port path: the USB reset right after r8152 registered (r8152's
        # probe resets its device) makes 1-1 the adapter
        ("bbqq_r8152_177_rtl8156b_high_speed", "NIC at 1-1", "usb 1-1: not running at top speed"),
    ],
)
def test_usb3_adapter_at_usb2_speed_is_told_to_move(
    bundle: str, nic: str | None, evidence: str
) -> None:
    assert (BUNDLES / bundle / "SOURCE.md").read_text(encoding="utf-8").count("https://") >= 1
    advice = advise(inspect_bundle(BUNDLES / bundle), [], load_catalog())
    top = advice.top
    assert top is not None
    assert (top.kind, top.title, top.nic) == ("cable", "Move the adapter to a USB 3 port", nic)
    problem = advice.findings[0]
    assert problem.severity == "problem" and problem.nic == nic
    assert any(evidence in line for line in problem.evidence)
    assert "No measurement yet" in advice.notes[0]


def test_r8152_at_480m_with_nothing_else_shown_is_not_called_a_usb3_adapter() -> None:
    """t2linux 191's lines show r8152 at 480M behind a USB 2.0 hub and nothing of the chip (its
    title says RTL8153): r8152 also binds the USB 2.0 RTL8152 (issue 24), so neither a chip nor
    "move it to a USB 3 port" is said; seed 002 (test_advice_seeds) adds its gigabit link, which
    leaves only r8152's USB 3 chips, and is told to move."""
    inventory = inspect_bundle(BUNDLES / "t2linux_191_rtl8153_480m")
    advice = advise(inventory, [], load_catalog())
    assert not [r for r in advice.recommendations if "USB 3 port" in r.title]
    assert not [f for f in advice.findings if f.id == "usb3-adapter-at-usb2"]
    assert "RTL8153" not in (inventory.nics[0].chip or "")
