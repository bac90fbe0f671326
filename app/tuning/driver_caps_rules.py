"""Per-chip rules read from a driver's facts (coalescing scales, MTU limits and the features an
MTU drops, coalescing values a driver rounds): the planner and the lab both read them here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sbctune.tuning.driver_caps_model import DriverCaps


def by_chip(rules: dict[str, Any] | None, chip: str | None) -> Any:
    """The rule of the longest chip name in `rules` that `chip` contains (case and spaces
    ignored: "I350-T2" is an I350), else None."""
    squeezed = (chip or "").lower().replace(" ", "")
    names = [n for n in (rules or {}) if squeezed and n.lower().replace(" ", "") in squeezed]
    return (rules or {})[max(names, key=len)] if names else None


def chip_rule(caps: DriverCaps | None, fact: str, chip: str | None) -> tuple[str, Any] | None:
    """(the chip's name in `fact`, its rule) for the longest name `chip` contains (by_chip's
    choice, with the name the user is shown: r8169's "RTL8168h" of eee_by_chip), else None."""
    rules = caps.facts.get(fact) if caps is not None else None
    squeezed = (chip or "").lower().replace(" ", "")
    names = [n for n in (rules or {}) if squeezed and n.lower().replace(" ", "") in squeezed]
    if not rules or not names:
        return None
    name = max(names, key=len)
    return str(name), rules[name]


def coalesce_scale_rows(caps: DriverCaps, chip: str | None) -> dict[str, list[int]] | None:
    """r8169's coalescing scales (ns per unit) by link speed for this chip: the PCI RTL8169
    family's own rows (rtl_coalesce_info_8169), else the RTL8168/8111/8101 ones; None where
    the driver has none. The planner and the lab both read them here."""
    scales = caps.facts.get("coalesce_scale_ns")
    if not scales:
        return None
    special = caps.facts.get("coalesce_scale_ns_chips")
    squeezed = (chip or "").lower().replace(" ", "").replace("-", "")
    if special and squeezed and any(name in squeezed for name in special["chips"]):
        return dict(special["by_speed"])
    return dict(scales["by_speed"])


def mtu_drops(caps: DriverCaps, chip: str | None) -> list[dict[str, Any]]:
    """The features the driver's ndo_fix_features drops above an MTU, for this chip (r8169:
    TX checksums and TSO above 1500 but on the PCI RTL8169, TSO above 2047 on every chip):
    [{"above": MTU, "drop": [feature, ...]}, ...]."""
    squeezed = (chip or "").lower().replace(" ", "")
    rules = caps.facts.get("mtu_drops_features", [])
    spared = [
        r for r in rules if squeezed and any(c.lower() in squeezed for c in r["except_chips"])
    ]
    return [{"above": int(r["above"]), "drop": list(r["drop"])} for r in rules if r not in spared]


def mtu_renegotiates(caps: DriverCaps | None) -> tuple[int, str] | None:
    """(MTU, kind of link drop) where an MTU change that crosses that MTU upwards drops the
    link (r8169: rtl_jumbo_config clears pause from the advertisement and renegotiates above
    1500, and going back neither renegotiates nor advertises pause again), else None."""
    rule = caps.facts.get("mtu_renegotiates_above") if caps is not None else None
    if not isinstance(rule, dict) or rule.get("above") is None:
        return None
    return int(rule["above"]), str(rule.get("link", ""))


def edom_frame_extra(caps: DriverCaps, chip: str | None) -> int | None:
    """The bytes a USB driver adds to the MTU before refusing a frame of whole USB packets
    (EDOM): one number (lan78xx, smsc95xx), or by chip with a default (asix: the AX88178's
    ax88178_change_mtu adds 4 more than usbnet_change_mtu)."""
    rule = caps.facts.get("mtu_edom_frame_extra")
    if isinstance(rule, dict):
        found = by_chip({k: v for k, v in rule.items() if k != "default"}, chip)
        rule = rule.get("default") if found is None else found
    return None if rule is None else int(rule)


def mtu_fifo_refused(caps: DriverCaps, chip: str | None, mtu: int) -> int | None:
    """The TX FIFO (bytes per TX queue) that refuses this MTU (stmmac_change_mtu: EINVAL where
    ALIGN(ALIGN(mtu, 64), 16) is larger), else None; only where the table knows the chip's FIFO
    from its device tree (the RK3328's and Amlogic's 2048 bytes) or its glue driver (Allwinner's
    dwmac-sun8i and dwmac-sunxi: 4096 bytes)."""
    fifo = by_chip(caps.facts.get("mtu_tx_fifo_by_chip"), chip)
    if fifo is None:
        return None
    aligned = -(-mtu // 64) * 64  # SMP_CACHE_BYTES 64 on arm64; already a multiple of 16
    return int(fifo) if aligned > int(fifo) else None


def floor_steps(facts: Mapping[str, Any]) -> dict[str, int]:
    """The -C parameters a driver stores in whole ticks, rounded down on the way in and again on
    the way out, with each tick in ns: `coalesce_step_floor_ns` (macb on RP1: 800), and stmmac's
    RX watchdog (`coalesce_riwt`: units of 256 cycles of its CSR clock, stmmac_usec2riwt and
    stmmac_riwt2usec both round down; 2048 ns at the table's 125 MHz), which
    __stmmac_set_coalesce stores again at every set. Written back as read, such a value loses a
    tick (stmmac: 327 is stored as RIWT 159, 325; audit 38b row 2)."""
    steps = {str(k): int(v) for k, v in (facts.get("coalesce_step_floor_ns") or {}).items()}
    riwt = facts.get("coalesce_riwt")
    if isinstance(riwt, Mapping) and riwt.get("clock_mhz_default") and riwt.get("param"):
        step = int(riwt["cycles_per_unit"]) * 1000 // int(riwt["clock_mhz_default"])
        steps.setdefault(str(riwt["param"]), step)
    return steps


def floor_read_back(floors: Mapping[str, Any], param: str, usecs: int) -> int:
    """What such a driver reads back for the fewest ticks that hold at least `usecs` (stmmac at
    125 MHz: 50 needs RIWT 25, read back 51); `usecs` where `param` has no tick."""
    step = int(floors.get(param) or 0)
    if step <= 0:
        return usecs
    ticks = -(-usecs * 1000 // step)
    return ticks * step // 1000


def floor_written(floors: Mapping[str, Any], param: str, value: int) -> int:
    """The smallest value from `value` up that a driver storing whole ticks of `floors[param]`
    ns, rounded down in and out (macb on RP1: gem_set_coalesce, gem_get_coalesce), reads back
    as `value`: 49 is written 50 (62 ticks); 48 and 52 as they are. `value` where none does
    within five."""
    step = int(floors.get(param) or 0)
    if step <= 0:
        return value
    for written in range(value, value + 5):
        if written * 1000 // step * step // 1000 == value:
            return written
    return value


def coalesce_written(
    facts: Mapping[str, Any], param: str, values: Sequence[int], shown: Mapping[str, int | None]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Change.written for an `ethtool -C <param>` change whose values are `values`, where the
    driver rounds down and stores every coalescing value again at each set
    (`floor_steps`: ethnl_set_coalesce hands the driver the values it read for the
    parameters not given, and 49 read back is stored as 61 ticks, 48): each value as the one
    that reads back as it, with the driver's other such parameters at their `shown` values
    the same way. A driver that takes a usecs of 0 only with its frames at 1 (fact
    `coalesce_usecs_needs_frames_zero`: atlantic, whose get reads frames 0 back, so a bare
    `-C rx-usecs 0` is EOPNOTSUPP) writes 0 with its frames 1 (audit 34b row 1: the revert of
    0 -> 50). Empty for any other driver."""
    paired = (facts.get("coalesce_usecs_needs_frames_zero") or {}).get(param)
    if paired:
        return tuple((str(v), (str(v), str(paired), "1")) for v in dict.fromkeys(values) if v == 0)
    floors = floor_steps(facts)
    others: list[str] = []
    for other in sorted(floors):
        now = shown.get(other)
        if other != param and now is not None:
            others += [other, str(floor_written(floors, other, int(now)))]
    if param not in floors and not others:
        return ()
    return tuple(
        (str(v), (str(floor_written(floors, param, v)), *others)) for v in dict.fromkeys(values)
    )
