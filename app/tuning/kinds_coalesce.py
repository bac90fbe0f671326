"""Planner of the NIC's interrupt coalescing: the driver's units, steps, mode codes and
refusals (split from kinds_ethtool, which keeps the shared ethtool reading and the other
settings)."""

from __future__ import annotations

from dataclasses import replace

from sbctune.inventory.parsers.ethtool import EthtoolCoalesce, parse_ethtool_coalesce
from sbctune.tuning import driver_caps, source_rule
from sbctune.tuning.kinds_ethtool import (
    _ethtool_change,
    _ethtool_output,
    _unsure_refused,
    may_not_support,
)
from sbctune.tuning.model import NotNeeded, PlannedTweak
from sbctune.tuning.plan_context import Context
from sbctune.tuning.plan_context import not_applicable as _no


def plan_coalescing(ctx: Context) -> PlannedTweak:
    item = _plan_coalescing(ctx)
    if item.applicable:
        item.reason += may_not_support(ctx, "set_coalesce")
    return item


def _plan_coalescing(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-c")
    if text is None or not ctx.iface:
        return _no(ctx, _unsure_refused(ctx, "set_coalesce", reason))
    # no set_coalesce, or a chip the driver refuses it on (RTL8125): the source rule's
    coalesce, _ = parse_ethtool_coalesce(text)
    item = PlannedTweak(ctx.tweak, True, "fewer, larger interrupts")
    adaptive = _adaptive_rx(ctx, coalesce)
    if adaptive is not None:
        before = "on" if adaptive else "off"
        _adaptive_start(ctx, item, coalesce.params, adaptive)
        # last: applied after the values, so they are written and read back while DIM is off,
        # and undone first, so DIM stops before the old values go back (bcmgenet_dim_work
        # rewrites the registers while it runs; `-C adaptive-rx off` keeps what they hold)
        item.changes.append(_ethtool_change(ctx.iface, "-C", "adaptive-rx", before, "on"))
        return item
    usecs = coalesce.params.get("rx-usecs")
    modes = ctx.caps.facts.get("coalesce_modes") if ctx.caps else None
    if usecs is not None and modes:
        return _plan_mode_codes(ctx, item, usecs, modes)
    if usecs == 0 and ctx.caps and ctx.caps.facts.get("coalesce_riwt"):
        return _no(ctx, f"{ctx.caps.driver} shows rx-usecs 0 when the MAC's RX watchdog is not "
                   "used (older cores, or the board turns it off), and then ignores a new value "
                   f"(not possible; {ctx.caps.cite('coalesce_riwt_needs')})")  # fmt: skip
    if usecs is not None:
        wanted = _stored_usecs(ctx, max(usecs, _in_driver_units(ctx, "rx-usecs")))
        scaled = _scaled_usecs(ctx, wanted, coalesce.params.get("tx-usecs") or 0)
        if isinstance(scaled, str):
            return _no(ctx, scaled)
        wanted = scaled
        refusal = _coalesce_refusal(ctx, coalesce.params, "rx-usecs", wanted)
        if refusal:
            return _no(ctx, refusal)
        change = _ethtool_change(ctx.iface, "-C", "rx-usecs", str(usecs), str(wanted))
        facts = ctx.caps.facts if ctx.caps else {}
        written = driver_caps.coalesce_written(facts, "rx-usecs", [wanted, usecs], coalesce.params)
        item.changes.append(replace(change, written=written))
        if ctx.caps and ctx.caps.facts.get("coalesce_unit_ns", {}).get("rx-usecs") == 1:
            item.reason += (f"; {ctx.caps.driver} counts rx-usecs in nanoseconds "
                            f"({ctx.caps.cite('coalesce_unit_ns')})")  # fmt: skip
        return item
    return _no(ctx, "the driver offers no interrupt coalescing settings")


ADAPTIVE_RX = "ETHTOOL_COALESCE_USE_ADAPTIVE_RX"  # supported_coalesce_params' flag
# ...and the one that names both directions (include/linux/ethtool.h: hns3, i40e, mlx5)
ADAPTIVE_BOTH = "ETHTOOL_COALESCE_USE_ADAPTIVE"


def _adaptive_rx(ctx: Context, coalesce: EthtoolCoalesce) -> bool | None:
    """Adaptive RX as the driver has it, None where it has none. Netlink's print shows it only
    where the kernel reported it ("n/a" otherwise); the ioctl print (ethtool 4.19/5.4, or no
    CONFIG_ETHTOOL_NETLINK) shows "Adaptive RX: off" for every driver, and `-C adaptive-rx on`
    then meets ethtool_set_coalesce_supported: EOPNOTSUPP on stmmac, igb, r8152 ... (audit 42
    row 1). There the driver table's supported_coalesce_params decide; unknown driver: none."""
    shown = coalesce.adaptive_rx
    if shown is not False or not coalesce.every_field_shown:
        return shown
    caps = ctx.caps
    offered = caps is not None and bool({ADAPTIVE_RX, ADAPTIVE_BOTH} & caps.coalesce_params)
    return False if offered else None


def _adaptive_start(
    ctx: Context, item: PlannedTweak, params: dict[str, int | None], already_on: bool
) -> None:
    """bcmgenet: turning adaptive-rx on writes DIM's starting profile over rx-usecs/rx-frames
    (bcmgenet_set_ring_rx_coalesce), and turning it off keeps what the registers then hold: the
    values are changes of their own, planned before adaptive-rx, so the revert (in reverse
    order) turns DIM off first and then writes the old values back, which DIM can no longer
    move (audit 6a row 10)."""
    caps = ctx.caps
    start = caps.facts.get("coalesce_adaptive_rx_start") if caps else None
    if caps is None or not start or already_on or not ctx.iface:
        return
    for param, value in start.items():
        if params.get(param) is not None:
            shown = str(_stored_usecs(ctx, int(value))) if param == "rx-usecs" else str(value)
            item.changes.append(_ethtool_change(ctx.iface, "-C", param, str(params[param]), shown))
    if item.changes:
        item.reason += (f"; {caps.driver} then starts from the adaptive profile's "
                        f"{start.get('rx-usecs')} microseconds and {start.get('rx-frames')} "
                        "frames, "
                        "which undoing this puts back as they were")  # fmt: skip


def _in_driver_units(ctx: Context, param: str) -> int:
    """The tweak's interval (microseconds) in what the driver's field counts: r8152's rx-usecs
    is nanoseconds (COALESCE_SUPER 85000 is 85 us), so 50 us is 50000 there."""
    target_us = int(ctx.tweak.params.get("rx_usecs", 50))
    unit = ctx.caps.facts.get("coalesce_unit_ns", {}).get(param) if ctx.caps else None
    return target_us * 1000 // int(unit) if unit else target_us


def _coalesce_refusal(
    ctx: Context, now: dict[str, int | None], param: str, wanted: int
) -> str | None:
    """Why the driver refuses `ethtool -C <param> <wanted>` given the values it reads back now
    (ethtool hands it every value, the others as read): atlantic wants frames 1 exactly when
    usecs is 0, for RX and for TX (aq_ethtool_set_coalesce), which one parameter cannot change."""
    caps = ctx.caps
    if caps is None:
        return None
    after = {**{k: v for k, v in now.items() if v is not None}, param: wanted}
    where = caps.cite("coalesce_refuses") or caps.cite("coalesce_usecs_needs_frames_zero")
    for combo in caps.facts.get("coalesce_refuses", []):
        if all(after.get(name) == value for name, value in combo.items()):
            shown = ", ".join(f"{name} {value}" for name, value in combo.items())
            return f"{caps.driver} refuses a change while it reads {shown} (not possible; {where})"
    frames = caps.facts.get("coalesce_usecs_needs_frames_zero", {}).get(param)
    if frames and wanted and after.get(frames):
        return (f"{caps.driver} refuses {param} {wanted} while {frames} is {after[frames]} "
                f"(interrupt moderation off): both would have to change at once"
                f"{_not_undone(caps, frames, after[frames])} (not possible; "
                f"{caps.cite('coalesce_usecs_needs_frames_zero')})")  # fmt: skip
    return None


def _not_undone(caps: driver_caps.DriverCaps, frames: str, now: int) -> str:
    """Why writing both is no way out either, where the driver reads a frames value back as
    another after any change (atlantic: every set is the ON mode, whose get shows frames 0), so
    the mode shown now could not be put back (audit 35 row 3: "both would have to change at
    once" read as if one command with both would do)."""
    kept = (caps.facts.get("coalesce_frames_read_back") or {}).get(frames)
    if kept is None or kept == now:
        return ""
    return (
        f"; with {frames} 0 the driver would take it, but after any change {frames} reads "
        f"{kept} ({caps.cite('coalesce_frames_read_back')}), so {frames} {now} could not be "
        "put back"
    )


def _plan_mode_codes(
    ctx: Context, item: PlannedTweak, usecs: int, modes: dict[str, object]
) -> PlannedTweak:
    """igb/igc: rx-usecs 1 and 3 are adaptive modes, not microseconds; 3 is the default."""
    names = modes.get("rx-usecs", {})
    assert isinstance(names, dict) and ctx.iface
    if str(usecs) in ("1", "3") or usecs in (1, 3):
        driver = ctx.caps.driver if ctx.caps else "the driver"
        mode = names.get(str(usecs), "adaptive")
        where = ctx.caps.cite("coalesce_modes") if ctx.caps else ""
        why = (f"rx-usecs {usecs} is {driver}'s adaptive interrupt moderation ({mode}) "
               f"already; a fixed interval would replace it ({where})")  # fmt: skip
        return _no(ctx, NotNeeded(why))  # the Pi could take it: there is no need
    item.reason = "adaptive interrupt moderation (mode 3)"
    item.changes.append(_ethtool_change(ctx.iface, "-C", "rx-usecs", str(usecs), "3"))
    return item


def _stored_usecs(ctx: Context, usecs: int) -> int:
    """The value a rounding driver stores and reads back (bcmgenet: 8.192 us ticks, rounded up;
    macb on the Raspberry Pi tree: 0.8 us ticks, stmmac's RIWT 2.048 us, rounded down),
    so that the change verifies against what the kernel keeps."""
    facts = ctx.caps.facts if ctx.caps else {}
    floors = driver_caps.floor_steps(facts)
    floor = floors.get("rx-usecs")
    if floor:  # macb on the RPi tree: 0.8 us ticks, rounded down twice (50 reads back 49)
        step = int(floor)
        kept = usecs  # the next value that reads back as written (52: 65 ticks), within 5 steps
        while kept * 1000 // step * step // 1000 != kept and kept < usecs + 5:
            kept += 1
        if kept * 1000 // step * step // 1000 == kept:
            return kept
        # stmmac's 2.048 us RIWT has no such value near: what the fewest ticks holding `usecs`
        # read back (51), written as a value that stores them (coalesce_written: 52)
        return driver_caps.floor_read_back(floors, "rx-usecs", usecs)
    step = facts.get("coalesce_step_ns", {}).get("rx-usecs")
    if not step:
        return usecs
    ticks = -(-usecs * 1000 // int(step))
    return ticks * int(step) // 1000


def _scaled_usecs(ctx: Context, usecs: int, tx_usecs: int) -> int | str:
    """r8169's scaled usecs (source_rule.scaled_usecs) from the values the Pi reads now."""
    nic = ctx.nic
    chip, speed = (nic.chip, nic.link_speed_mbps) if nic else (None, None)
    return source_rule.scaled_usecs(ctx.caps, chip, speed, usecs, tx_usecs)
