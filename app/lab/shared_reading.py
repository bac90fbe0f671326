"""One shared limit as the kernel holds it now (``shared_status`` reads it from tc): what
``sbctune lab status`` prints and ``LabStatus`` carries. Plain data, no imports of the lab."""

from __future__ import annotations

from dataclasses import dataclass, field

_SPOKEN = {"pi_to_pc": "Pi->PC", "pc_to_pi": "PC->Pi"}


@dataclass
class LimitReading:
    dev: str
    direction: str  # pi_to_pc | pc_to_pi
    cap_mbps: float | None = None
    passing_mbps: float | None = None
    members: dict[str, tuple[float | None, float | None]] = field(default_factory=dict)
    """Each member's (own ceil, passing now), goodput Mbit/s."""
    held: list[str] = field(default_factory=list)
    problem: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "dev": self.dev,
            "direction": self.direction,
            "cap_mbps": _r(self.cap_mbps),
            "passing_mbps": _r(self.passing_mbps),
            "members": {
                name: {"ceil_mbps": _r(ceil), "passing_mbps": _r(now)}
                for name, (ceil, now) in self.members.items()
            },
            "held": self.held,
            "problem": self.problem,
        }

    def line(self) -> str:
        where = f"shared limit {_SPOKEN.get(self.direction, self.direction)} ({self.dev})"
        if self.problem:
            return f"{where}: {self.problem}"
        held = ", ".join(self.held) or "none"
        return (
            f"{where}: cap {_mbps(self.cap_mbps)}, passing {_mbps(self.passing_mbps)},"
            f" members {', '.join(self.members)}; held by the cap: {held}"
        )


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def _mbps(value: float | None) -> str:
    return "unknown" if value is None else f"{value:.0f} Mbit/s"
