"""Seed 004's bus cap held by the lab's kernel (sbctune.lab.shaping_shared): four igb ports at
once never pass more than the cap in any 1 s, as tc's own counters show, and the same check
fails when the cap is raised (so it can see a lab kinder than the bus)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from sbctune import lab as lab_api
from sbctune.lab import shaping_shared
from sbctune.lab.profile import load_profile
from sbctune.lab.shaping import shape_for
from tests.lab_bus import kernel_max
from tests.lab_shaping import shaped_goodput

pytestmark = [pytest.mark.lab, pytest.mark.slow]

PROFILE = "cm4-i340-igb"
# The aggregate tests' slack for one figure against the cap (HTB bursts, 1 s windows).
OVER_CAP = 1.03


def _hold(lab: Any, direction: str, cap_mbps: float, parent_mbps: float | None = None) -> None:
    """Re-rate a limit in place with the lab's own builder: the cap class to ``parent_mbps``
    (default ``cap_mbps``), the leaves' guarantees to their shares of ``cap_mbps`` (HTB's
    parent holds only what its leaves borrow beyond their own rates)."""
    profile = load_profile(lab.profile)
    links = {i.name: i.link for i in profile.interfaces}
    ifb = next(i for i in shaping_shared.plan(profile.shared_limits, list(links), lab.index)
               if shaping_shared.DIRECTIONS[i.direction] == direction)  # fmt: skip
    top = shape_for(parent_mbps or cap_mbps, links[ifb.members[0]])
    argvs = [shaping_shared.class_argv("tc", "change", ifb.dev, "1:", "1:1", top, top)]
    own = {n: links[n].goodput_mbps(direction) or 0.0 for n in ifb.members}
    for name, (rate, ceil) in shaping_shared.leaf_rates(own, cap_mbps).items():
        argvs.append(shaping_shared.leaf_argv("tc", "change", ifb, name, rate, ceil, links[name]))
    for argv in argvs:
        subprocess.run(argv, check=True, timeout=10)


def test_four_ports_at_once_never_pass_the_bus_cap(lab_factory: Any) -> None:
    lab = lab_factory(profile=PROFILE)
    (limit,) = load_profile(lab.profile).shared_limits
    names = [n.name for n in lab.nics]
    # What tc holds, read back as `sbctune lab status` shows it: one cap per direction over
    # the four NICs, each NIC's own rate (its leaf's ceiling) the profile's 940 alone.
    readings = {r.direction: r for r in lab_api.status(lab.name).limits}
    assert set(readings) == {"pi_to_pc", "pc_to_pi"}
    figures = {}
    for direction, reading in readings.items():
        cap = limit.cap(0 if direction == "pi_to_pc" else 1)
        assert cap is not None and reading.cap_mbps == pytest.approx(cap, rel=0.001)
        assert list(reading.members) == names and reading.problem == ""
        for nic in lab.nics:
            assert shaped_goodput(nic)[direction] == pytest.approx(940, rel=0.001)
        dev = lab.nics[0].shaper(direction)[0]
        assert all(nic.shaper(direction)[0] == dev for nic in lab.nics)  # one IFB for all
        figures[direction] = most = kernel_max(lab, names, direction, [dev], seconds=5)
        assert most <= OVER_CAP * cap, (direction, most)  # never kinder than the bus
        assert most > 0.3 * cap, (direction, most)  # the load ran: four ports, not a trickle

    # The check can fail: on a cap of half the seed's (a rate a busy machine's four ports
    # surely exceed together), the same sampler sees the kernel hold it, then, with the parent
    # class raised to twice that, sees well over it.
    cap = limit.pi_to_pc_mbps
    assert cap is not None
    dev = lab.nics[0].shaper("pi_to_pc")[0]
    try:
        _hold(lab, "pi_to_pc", cap / 2)
        tight = kernel_max(lab, names, "pi_to_pc", [dev], seconds=5)
        _hold(lab, "pi_to_pc", cap / 2, parent_mbps=cap)
        loose = kernel_max(lab, names, "pi_to_pc", [dev], seconds=5)
    finally:
        _hold(lab, "pi_to_pc", cap)
    assert tight <= OVER_CAP * cap / 2, (tight, figures)
    assert loose > 1.2 * cap / 2, (loose, tight, figures)
