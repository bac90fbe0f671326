"""What a lab's shared limits hold now, read back from the kernel (``tc -s class show``): the
cap, what passes (the kernel's rate estimator on the cap and leaf classes, ``shaping_shared``)
and which members the cap holds below their own rates. ``sbctune lab status`` shows it.

The text is this host's ``tc`` (iproute2 prints HTB classes as text even with ``-j``), parsed
by words: ``class htb 1:11 parent 1:1 ... rate 799869Kbit ceil 982845Kbit ...`` and, under it,
the estimator's `` rate 779636Kbit 64369pps backlog ...`` (tests/captures/tc_class).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sbctune.lab.model import NicInfo
from sbctune.lab.profile import TCP_PAYLOAD_BYTES
from sbctune.lab.shaping import TC_FRAME_BYTES
from sbctune.lab.shaping_shared import CAP_CLASS, DIRECTIONS
from sbctune.lab.shared_reading import LimitReading
from sbctune.lab.system import run, tool

MAX_TEXT = 256 * 1024
_UNITS = {"bit": 1, "Kbit": 1e3, "Mbit": 1e6, "Gbit": 1e9, "Tbit": 1e12}
# A member is held by the cap while the cap passes at least this share of its rate and the
# member, carrying traffic, passes less than this share of its own ceil.
NEAR = 0.9
BUSY = 0.1


def parse_bits(word: str) -> float | None:
    """``799869Kbit`` -> 799869000.0 (bit/s); None when it is no tc rate."""
    for unit in sorted(_UNITS, key=len, reverse=True):
        if word.endswith(unit):
            number = word[: -len(unit)]
            try:
                return float(number) * _UNITS[unit]
            except ValueError:
                return None
    return None


@dataclass
class HtbClass:
    classid: str
    parent: str  # "" for a root class
    rate_bps: float | None = None
    ceil_bps: float | None = None
    passing_bps: float | None = None  # the rate estimator's, when the class has one
    sent_bytes: int | None = None


def parse_classes(text: str) -> dict[str, HtbClass]:
    """The HTB classes of ``tc -s class show dev DEV`` output, by class id."""
    classes: dict[str, HtbClass] = {}
    current: HtbClass | None = None
    for line in text[:MAX_TEXT].splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] == "class" and words[1] == "htb":
            current = HtbClass(words[2], _after(words, "parent") or "")
            current.rate_bps = parse_bits(_after(words, "rate") or "")
            current.ceil_bps = parse_bits(_after(words, "ceil") or "")
            classes[current.classid] = current
        elif current is not None and words[:1] == ["Sent"] and len(words) > 1:
            sent = words[1]
            current.sent_bytes = int(sent) if sent.isascii() and sent.isdigit() else None
        elif current is not None and words[:1] == ["rate"] and len(words) > 1:
            current.passing_bps = parse_bits(words[1])
    return classes


def _after(words: Sequence[str], key: str) -> str | None:
    return words[words.index(key) + 1] if key in words[:-1] else None


def goodput_mbps(tc_bps: float | None) -> float | None:
    """tc counts 1514 bytes for each full frame's 1448 of TCP payload (shaping.shape_for)."""
    return None if tc_bps is None else tc_bps * TCP_PAYLOAD_BYTES / TC_FRAME_BYTES / 1e6


def reading(dev: str, direction: str, members: dict[str, str], text: str) -> LimitReading:
    """One limit's reading from its IFB's ``tc -s class`` text; ``members``: NIC -> leaf."""
    classes = parse_classes(text)
    out = LimitReading(dev, direction)
    cap = classes.get(CAP_CLASS)
    if cap is None:
        out.problem = f"no cap class {CAP_CLASS} on {dev}"
        return out
    out.cap_mbps = goodput_mbps(cap.ceil_bps)
    out.passing_mbps = goodput_mbps(cap.passing_bps)
    full = bool(cap.passing_bps and cap.ceil_bps and cap.passing_bps >= NEAR * cap.ceil_bps)
    for name, classid in members.items():
        leaf = classes.get(classid)
        ceil = leaf.ceil_bps if leaf else None
        now = leaf.passing_bps if leaf else None
        out.members[name] = (goodput_mbps(ceil), goodput_mbps(now))
        if full and ceil and now is not None and BUSY * ceil < now < NEAR * ceil:
            out.held.append(name)
    return out


def read_limits(nics: Sequence[NicInfo]) -> list[LimitReading]:
    """Every shared limit of a lab whose NICs are ``nics``, read from the kernel now."""
    found: dict[tuple[str, str], dict[str, str]] = {}
    for nic in nics:
        for direction in DIRECTIONS:
            given = nic.pi_to_pc_shaper if direction == "pi_to_pc" else nic.pc_to_pi_shaper
            if given:
                dev, classid = nic.shaper(direction)
                found.setdefault((dev, direction), {})[nic.name] = classid
    out = []
    for (dev, direction), members in found.items():
        result = run([tool("tc"), "-s", "class", "show", "dev", dev], check=False, timeout=5)
        if not result.ok:
            problem = (result.stderr.strip() or "tc failed")[:200]
            out.append(LimitReading(dev, direction, problem=f"cannot read it: {problem}"))
            continue
        out.append(reading(dev, direction, members, result.stdout))
    return out
