"""The lab's shaper: re-rates the HTB classes live for tweak effects, full duplex and the
limits several NICs share (``[[shared_limit]]``, seed 004's ~3.06 Gbit/s over five ports).

Runs on the host (where the shaped veth and IFB live) as
``python -m sbctune.lab.controller LAB_DIR``, started by ``lab up`` and killed by ``lab down``.
Every ``POLL_S`` it reads four byte counters (cheap sysfs reads) and, when the knobs file system
reports a change, the knob state; it runs ``tc class change`` only when a target rate changes.
It exits by itself when the lab's state or its veth disappears, so a crash of the manager does
not leave it running. What it decided is in ``shaper_state.json`` (for tests and debugging).
"""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

from sbctune.lab import effects, shaping, shared_limit
from sbctune.lab.profile import load_profile
from sbctune.lab.state import STATE_FILE, write_json

CONFIG = "controller.json"
SHAPER_STATE = "shaper_state.json"
POLL_S = 0.1


def _counter(dev: str, name: str) -> int | None:
    try:
        return int(Path(f"/sys/class/net/{dev}/statistics/{name}").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


class Nic:
    """One shaped interface: its devices, detector and the rates applied now."""

    def __init__(self, entry: dict[str, Any], spec: Any) -> None:
        self.name: str = entry["name"]
        self.host_veth: str = entry["host_veth"]
        self.ifb: str = entry["ifb"]
        self.spec = spec
        self.detector = effects.DuplexDetector()
        self.rates = effects.base_rates(spec)
        self.applied_effects: list[str] = []
        self.applied: tuple[float, float] | None = None
        self.last: tuple[float, int, int] | None = None
        self.mbps = (0.0, 0.0)
        # Per direction: carrying traffic now (with a hold), for the shared limits.
        self.busy = (shared_limit.BusyHold(), shared_limit.BusyHold())
        self.shared = False  # held below its own rate by a shared limit

    def sample(self, now: float) -> bool:
        """Update the measured rates; False when the devices are gone."""
        up, down = _counter(self.ifb, "tx_bytes"), _counter(self.host_veth, "tx_bytes")
        if up is None or down is None:
            return False
        if self.last is not None:
            dt = max(now - self.last[0], 1e-3)
            self.mbps = ((up - self.last[1]) * 8 / dt / 1e6, (down - self.last[2]) * 8 / dt / 1e6)
        self.last = (now, up, down)
        return True

    def target(self) -> tuple[float, float]:
        up_busy = effects.is_busy(self.mbps[0], self.rates.pi_to_pc)
        down_busy = effects.is_busy(self.mbps[1], self.rates.pc_to_pi)
        self.busy[0].update(up_busy)
        self.busy[1].update(down_busy)
        return self.rates.pick(self.detector.update(up_busy, down_busy))

    @property
    def busy_now(self) -> tuple[bool, bool]:
        return self.busy[0].busy, self.busy[1].busy

    def apply(self, target: tuple[float, float]) -> None:
        up, down = target
        shaping.change_rate(self.ifb, shaping.shape_for(up, self.spec.link))
        shaping.change_rate(self.host_veth, shaping.shape_for(down, self.spec.link))
        self.applied = target

    def to_json(self) -> dict[str, Any]:
        return {
            "full_duplex": self.detector.full,
            "pi_to_pc_mbps": self.applied[0] if self.applied else None,
            "pc_to_pi_mbps": self.applied[1] if self.applied else None,
            "rates": self.rates.to_json(),
            "effects": self.applied_effects,
            "shared_limit": self.shared,
        }


def run(lab_dir: Path, max_seconds: float | None = None) -> int:
    config = _read_json(lab_dir / CONFIG)
    profile = load_profile(config["profile"])
    specs = {spec.name: spec for spec in profile.interfaces}
    nics = [Nic(entry, specs[entry["name"]]) for entry in config["nics"]]
    knobs_path = lab_dir / effects.KNOBS_STATE
    knobs_mtime = -1.0
    stop = {"now": False}

    def on_term(signum: int, frame: object) -> None:
        stop["now"] = True

    signal.signal(signal.SIGTERM, on_term)
    signal.signal(signal.SIGINT, on_term)
    started = time.monotonic()
    while not stop["now"]:
        if not (lab_dir / STATE_FILE).exists():
            return 0  # the lab was taken down
        if max_seconds is not None and time.monotonic() - started > max_seconds:
            return 0
        changed = False
        try:
            mtime = knobs_path.stat().st_mtime
        except OSError:
            mtime = knobs_mtime
        if mtime != knobs_mtime:
            knobs_mtime = mtime
            knobs = _read_json(knobs_path)
            for nic in nics:
                nic.rates, nic.applied_effects = effects.current_rates(
                    nic.spec, profile.tweak_effects, knobs
                )
            changed = True
        now = time.monotonic()
        own = {}
        for nic in nics:
            if not nic.sample(now):
                return 0  # the veth or IFB is gone
            own[nic.name] = nic.target()
        targets, held = shared_limit.share(
            own, {n.name: n.busy_now for n in nics}, profile.shared_limits
        )
        for nic in nics:
            nic.shared = nic.name in held
            # Rounded: a fair share recomputed from noisy busy flags must not re-rate every poll.
            target = (round(targets[nic.name][0], 1), round(targets[nic.name][1], 1))
            if target != nic.applied:
                nic.apply(target)
                changed = True
        if changed:
            write_json(lab_dir / SHAPER_STATE, {n.name: n.to_json() for n in nics}, mode=0o644)
        time.sleep(POLL_S)
    return 0


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m sbctune.lab.controller LAB_DIR", file=sys.stderr)
        return 2
    return run(Path(args[0]))


if __name__ == "__main__":
    sys.exit(main())
