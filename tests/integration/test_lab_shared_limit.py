"""Seed 004's bus cap held by the lab's kernel (sbctune.lab.shaping_shared): four igb ports at
once never pass more than the cap in any 1 s, as tc's own counters show, and the same check
fails when the cap is raised (so it can see a lab kinder than the bus)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from sbctune import lab as lab_api
from sbctune.lab.profile import load_profile
from tests.lab_bus import kernel_max
from tests.lab_shaping import shaped_goodput

pytestmark = [pytest.mark.lab, pytest.mark.slow]

PROFILE = "cm4-i340-igb"
# The aggregate tests' slack for one figure against the cap (HTB bursts, 1 s windows).
OVER_CAP = 1.03


def _set_cap(dev: str, kbit: int) -> None:
    burst = str(max(16 * 1024, kbit * 1000 // 8 // 4000))
    subprocess.run(
        ["tc", "class", "change", "dev", dev, "parent", "1:", "classid", "1:1", "htb",
         "rate", f"{kbit}kbit", "ceil", f"{kbit}kbit", "burst", burst, "cburst", burst],
        check=True, timeout=10,
    )  # fmt: skip


def _cap_kbit(dev: str) -> int:
    out = subprocess.run(
        ["tc", "class", "show", "dev", dev, "classid", "1:1"],
        capture_output=True, text=True, check=True, timeout=10,
    ).stdout  # fmt: skip
    words = out.split()
    word = words[words.index("ceil") + 1]
    units = {"Kbit": 1, "Mbit": 1000, "Gbit": 1_000_000}
    unit = next(u for u in units if word.endswith(u))
    return round(float(word[: -len(unit)]) * units[unit])


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

    # The same sampler sees it when the cap is not held: the bus raised to twice the seed's
    # (above the four ports' 4 x 940), the ports pass more than the check allows.
    dev = lab.nics[0].shaper("pi_to_pc")[0]
    held = _cap_kbit(dev)
    _set_cap(dev, 2 * held)
    try:
        loose = kernel_max(lab, names, "pi_to_pc", [dev], seconds=5)
    finally:
        _set_cap(dev, held)
    assert loose > OVER_CAP * limit.pi_to_pc_mbps, (loose, figures)  # type: ignore[operator]
