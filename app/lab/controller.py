"""The lab's shaper: re-rates the HTB classes live for tweak effects and full duplex.

Runs on the host (where the shaped veth and IFB live) as
``python -m sbctune.lab.controller LAB_DIR``, started by ``lab up`` and killed by ``lab down``.
Every ``POLL_S`` it reads two byte counters per NIC (cheap sysfs reads) and, when the knobs file
system reports a change, the knob state; it runs ``tc class change`` only when a target rate
changes. The limits several NICs share (``[[shared_limit]]``) are the kernel's to hold
(``shaping_shared``): for a member it moves only its leaf (ceil: its own rate; rate: its share
of the cap), never the cap.
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

from sbctune.lab import carrier_drop, effects, shaping, shaping_shared, system
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
        # A shared limit's leaf holds a direction (``shaping_shared``): this NIC has no IFB of
        # its own then, and what the Pi sends is counted where it enters, the host veth.
        self.shared = (bool(entry.get("pi_to_pc_shaper")), bool(entry.get("pc_to_pi_shaper")))
        self.up_counter = (self.host_veth, "rx_bytes") if self.shared[0] else (self.ifb, "tx_bytes")
        self.spec = spec
        self.detector = effects.DuplexDetector()
        self.rates = effects.base_rates(spec)
        self.applied_effects: list[str] = []
        self.applied: tuple[float, float] | None = None
        self.last: tuple[float, int, int] | None = None
        self.mbps = (0.0, 0.0)

    def sample(self, now: float) -> bool:
        """Update the measured rates; False when the devices are gone."""
        up, down = _counter(*self.up_counter), _counter(self.host_veth, "tx_bytes")
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
        return self.rates.pick(self.detector.update(up_busy, down_busy))

    def apply(self, target: tuple[float, float]) -> None:
        """Re-rate the directions this NIC shapes alone (a shared limit's leaves: ``Limit``)."""
        for direction, dev in ((0, self.ifb), (1, self.host_veth)):
            if not self.shared[direction]:
                shaping.change_rate(dev, shaping.shape_for(target[direction], self.spec.link))
        self.applied = target

    def to_json(self) -> dict[str, Any]:
        return {
            "full_duplex": self.detector.full,
            "pi_to_pc_mbps": self.applied[0] if self.applied else None,
            "pc_to_pi_mbps": self.applied[1] if self.applied else None,
            "rates": self.rates.to_json(),
            "effects": self.applied_effects,
        }


class Limit:
    """One shared IFB: re-rates its members' leaves when their own rates change."""

    def __init__(self, ifb: shaping_shared.SharedIfb, links: dict[str, Any]) -> None:
        self.ifb = ifb
        self.links = links
        self.applied: dict[str, tuple[float, float]] = {}

    def apply(self, own: dict[str, tuple[float, float]]) -> None:
        mine = {name: own[name][self.ifb.direction] for name in self.ifb.members}
        tc = system.tool("tc")
        for name, (rate, ceil) in shaping_shared.leaf_rates(mine, self.ifb.cap_mbps).items():
            # Rounded: a rate recomputed from the same knobs must not re-rate every poll.
            target = (round(rate, 1), round(ceil, 1))
            if self.applied.get(name) != target:
                argv = shaping_shared.leaf_argv(
                    tc, "change", self.ifb, name, target[0], target[1], self.links[name]
                )
                system.run(argv, check=False, timeout=5)
                self.applied[name] = target


def run(lab_dir: Path, max_seconds: float | None = None) -> int:
    config = _read_json(lab_dir / CONFIG)
    drops = carrier_drop.CarrierDrops(
        lab_dir / carrier_drop.FOLDER, {n["name"]: n["host_veth"] for n in config["nics"]}
    )
    try:
        return _run(lab_dir, config, drops, max_seconds)
    finally:
        drops.release()


def _run(
    lab_dir: Path,
    config: dict[str, Any],
    drops: carrier_drop.CarrierDrops,
    max_seconds: float | None,
) -> int:
    profile = load_profile(config["profile"])
    specs = {spec.name: spec for spec in profile.interfaces}
    nics = [Nic(entry, specs[entry["name"]]) for entry in config["nics"]]
    links = {name: spec.link for name, spec in specs.items()}
    limits = [
        Limit(ifb, links)
        for ifb in shaping_shared.plan(
            profile.shared_limits, [n.name for n in nics], int(config.get("index", 0))
        )
    ]
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
        drops.poll(now)  # a driver's restart in the lab: the carrier drops (carrier_drop)
        own = {}
        for nic in nics:
            if not nic.sample(now):
                return 0  # the veth or IFB is gone
            own[nic.name] = nic.target()
        for nic in nics:
            target = (round(own[nic.name][0], 1), round(own[nic.name][1], 1))
            if target != nic.applied:
                nic.apply(target)
                changed = True
        for limit in limits:
            limit.apply(own)
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
