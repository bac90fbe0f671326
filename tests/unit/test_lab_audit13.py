"""Audit 13 (resources/tuning/driver_caps_audit13.md): what changed between Debian's 6.1 and 6.12
sources, checked as the user would see it: the tweak's plan and the lab's answer to its command,
for each series and for a kernel between them.

Row 1: the PolarFire SoC's GEM (macb, mpfs_config) has jumbo_max_len 10240 in 6.1 (max_mtu 10222)
and 4040 in 6.12 (Cadence erratum 1686: max_mtu 4022), so MTU 9000 is taken on 6.1 and refused
(EINVAL) on 6.12. A kernel between them (6.6) may have either: neither is claimed there, where a
by-chip fact used to take the first series' value."""

from __future__ import annotations

import dataclasses

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts, Read

CHIP = "Microchip PolarFire SoC GEM"
KERNELS = {
    "6.1": "6.1.0-31-riscv64",
    "6.6": "6.6.51-riscv64",  # a kernel between the table's series
    "6.12": "6.12.38+deb13-riscv64",
}


def _mtu_plan(kernel: str, mtu: int) -> tuple[bool, str]:
    """(planned, reason) of mtu-jumbo for `mtu` on a PolarFire GEM (down, so macb's EBUSY while
    up does not decide): planned is applicable or held only for consent to a link restart."""
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver="macb", chip=CHIP)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu}
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))
    return item.applicable or item.needs_link_consent, item.reason


def _lab_limit(kernel: str) -> dict[str, object]:
    base = load_profile("pi5-macb")
    spec = next(s for s in base.interfaces if s.driver == "macb")
    profile = dataclasses.replace(
        base, kernel=kernel, interfaces=(dataclasses.replace(spec, chip=CHIP),)
    )
    return dict(ip_front.limits(profile).get(spec.name, {}))


@pytest.mark.parametrize(("series", "top"), [("6.1", 10222), ("6.6", None), ("6.12", 4022)])
def test_polarfire_gem_max_mtu_follows_the_kernel_series(series: str, top: int | None) -> None:
    caps = driver_caps.caps("macb", KERNELS[series], CHIP)
    assert caps is not None
    assert caps.mtu_max(CHIP) == top
    if top:
        assert "mpfs_config" in caps.mtu_max_cite(CHIP)
    assert _lab_limit(KERNELS[series]).get("max") == top


def test_mtu_9000_on_a_polarfire_gem_is_refused_on_6_12_only() -> None:
    planned, reason = _mtu_plan(KERNELS["6.12"], 9000)
    assert not planned and "at most 4022" in reason, reason
    said = ip_model.refusal({"eth0": _lab_limit(KERNELS["6.12"])}, "eth0", 9000)
    assert said is not None and "mtu greater than device maximum" in said
    for series in ("6.1", "6.6"):
        # the maximum does not refuse it; macb's EBUSY on a running link still may (the plan's
        # inventory names no MTU, so the rule reads it as changing): not the maximum's words
        planned, reason = _mtu_plan(KERNELS[series], 9000)
        assert "at most" not in reason and "device maximum" not in reason, (series, reason)
        limit = {k: v for k, v in _lab_limit(KERNELS[series]).items() if k != "busy_when_up"}
        assert ip_model.refusal({"eth0": limit}, "eth0", 9000) is None, series


def test_a_by_chip_fact_the_series_disagree_on_is_not_claimed_between_them() -> None:
    """The mechanism, on the Pi 5's RP1 beside it: a key every series agrees on stays for a
    kernel between them, a disputed one goes, and an unknown kernel is treated alike."""
    for kernel in (KERNELS["6.6"], None):
        caps = driver_caps.caps("macb", kernel, CHIP)
        assert caps is not None and "PolarFire" not in caps.facts.get("mtu_max", {})
    rpi = driver_caps.caps("macb", "6.6.74+rpt-rpi-2712", "Cadence GEM in RP1")
    assert rpi is not None and rpi.mtu_max("Cadence GEM in RP1") == 10222
