"""Planners of the settings the NIC negotiates with its link partner: Energy-Efficient Ethernet
and pause frames (a change renegotiates the link on most drivers; the driver's defaults and
chip rules decide whether it is needed at all)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sbctune.tuning import driver_caps
from sbctune.tuning.kinds_ethtool import (
    _ethtool_change,
    _ethtool_output,
    _first_line,
    _held,
    _restart_refusal,
    _unsure_refused,
    drop_words,
    may_not_support,
)
from sbctune.tuning.model import NotNeeded, PlannedTweak
from sbctune.tuning.parsers import Pause, parse_eee, parse_pause
from sbctune.tuning.plan_context import Context
from sbctune.tuning.plan_context import not_applicable as _no


def plan_eee(ctx: Context) -> PlannedTweak:
    # The chips whose --show-eee the kernel refuses (igb_get_eee on an 82576 answers
    # EOPNOTSUPP, seen in the VM lab) are the source rule's, refused before this runs.
    text, reason = _ethtool_output(ctx, "--show-eee")
    if text is None or not ctx.iface:
        return _no(ctx, _unsure_refused(ctx, "set_eee", reason))
    eee = parse_eee(text)
    if eee.supported is None:
        return _no(ctx, "ethtool's --show-eee output was not understood (no 'EEE status:' "
                   f"line; it began {_first_line(text)!r}): EEE left as it is")  # fmt: skip
    if not eee.supported or eee.enabled is None:
        # 7.x phylib shows no supported mode where the driver disabled them all (r8169's
        # RTL8168h: phy_disable_eee): the chip has EEE, its driver keeps it off
        return _no(ctx, _chip_keeps_eee_off(ctx) or "the NIC does not support Energy-Efficient "
                   "Ethernet")  # fmt: skip
    before = "on" if eee.enabled else "off"
    if eee.enabled:  # a change renegotiates the link (phy_ethtool_set_eee, igb_set_eee ...)
        refusal = _restart_refusal(ctx, "eee")
        if refusal:
            return _held(ctx, refusal)
    item = PlannedTweak(ctx.tweak, True, "EEE off" if eee.enabled else _eee_off_already(ctx))
    change = _ethtool_change(ctx.iface, "--set-eee", "eee", before, "off")
    item.changes.append(replace(change, written=_eee_on_words(ctx, eee.tx_lpi_us)))
    if eee.enabled and ctx.caps and ctx.caps.restarts("eee"):
        item.restarts_link = True
        item.reason += drop_words(ctx.caps, "eee")
    if eee.enabled and ctx.caps and ctx.caps.facts.get("eee_reset_on_open"):
        item.reason += _eee_back_on_open(ctx.caps)
    if item.changes[0].needed:
        item.reason += may_not_support(ctx, "set_eee")
    return item


def _eee_on_words(ctx: Context, timer_us: int | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """How undoing eee-off turns EEE on where the driver reports its Tx LPI timer as 0 while
    EEE is off and stores the timer it is handed when it turns it on (lan78xx until 6.17:
    fact `eee_timer_zero_when_disabled`): with the timer read now, else it would store 0."""
    caps = ctx.caps
    if caps is None or not caps.facts.get("eee_timer_zero_when_disabled") or not timer_us:
        return ()
    return (("on", ("on", "tx-timer", str(int(timer_us)))),)


def _eee_back_on_open(caps: driver_caps.DriverCaps) -> str:
    """bcmgenet on 6.12 turns EEE on again at every open (bcmgenet_mii_probe: phy_support_eee):
    the change lasts until the interface is next taken down and up. stmmac on 6.12 does where
    its PHY is found by address (stmmac_init_phy, audit 30 row 1)."""
    when = "" if driver_caps.fact_in_every_series(caps, "eee_reset_on_open") else " on Linux 6.12"
    if (caps.facts.get("eee_reset_on_open") or {}).get("phy_by_address"):
        # stmmac 6.12: stmmac_init_phy calls phy_support_eee only for a PHY found by address
        # (no phy-handle), which the inventory does not show: neither branch is claimed
        return (f"; where {caps.driver} finds its PHY by address (no phy-handle in the device "
                f"tree, as on ACPI boards: the inspection cannot tell) it turns EEE on again"
                f"{when} each time the interface is opened (a ring or MTU change, a network "
                "restart), so sbctune writes it after the plan's restarts and reads it back "
                "last, but it is only sure to stay off until the next restart "
                f"({caps.cite('eee_reset_on_open')})")  # fmt: skip
    return (f"; {caps.driver} turns EEE on again{when} each time the interface is opened (taken "
            f"down and up, as a network restart does), so it stays off until then "
            f"({caps.cite('eee_reset_on_open')})")  # fmt: skip


def _eee_off_already(ctx: Context) -> str:
    """Why EEE is off already, where the driver's source turns it off at start (igc_probe:
    "Disable EEE for internal PHY devices"; igc on 6.1 then reports no EEE link mode)."""
    caps = ctx.caps
    kept = _chip_keeps_eee_off(ctx)
    if kept:
        return kept
    if caps is None or not driver_caps.fact_in_every_series(caps, "eee_default"):
        return "EEE is off already"
    kernel = ctx.inventory.board.kernel
    defaults = [f["value"] for f in driver_caps.table()["hand"].get(caps.driver, [])
                if f["fact"] == "eee_default" and _default_may_hold(f, caps, kernel)]  # fmt: skip
    if any(d.get("enabled") for d in defaults):  # on by default in some series it may be
        return "EEE is off already"
    return f"EEE is off already: {caps.driver} turns it off at start ({caps.cite('eee_default')})"


def _default_may_hold(
    fact: dict[str, Any], caps: driver_caps.DriverCaps, kernel: str | None
) -> bool:
    """Whether a driver's EEE default may be the running kernel's: one of its series unless its
    release range leaves the kernel out (lan78xx's phylib default, 6.10-6.17, on a 5.10 or 5.15
    kernel: audit 40 row 2); one of a cited tree (7.2's phylink default) where its range holds."""
    holds = driver_caps.release_holds(fact, kernel)
    if set(fact["kernels"]) & set(caps.series):
        return holds is not False
    cited = set(driver_caps.table().get("cited_kernels", {}))
    return set(fact["kernels"]) <= cited and holds is True


def _chip_keeps_eee_off(ctx: Context) -> str | None:
    """Why EEE is off, where the table says the driver keeps it off on this chip on the running
    kernel (eee_by_chip "enabled": false; r8169's RTL8168h/8111h from 7.2.10, audit 34b row 9)."""
    caps = ctx.caps
    found = driver_caps.chip_rule(caps, "eee_by_chip", ctx.nic.chip if ctx.nic else None)
    if caps is None or found is None or found[1].get("enabled") is not False:
        return None
    name = found[0]
    where = caps.cite(f"eee_by_chip:{name}") or caps.cite("eee_by_chip")
    return f"EEE is off already: {caps.driver} keeps it off on the {name} ({where})"


def _pause_negotiated(caps: driver_caps.DriverCaps | None, pause: Pause) -> NotNeeded | None:
    """RX and TX pause in force already through autonegotiation while the request shows them
    off (phylink's lan78xx from 6.17: phylink_create requests MLO_PAUSE_AN alone and the PHY
    advertises Pause and Asym_Pause; ethtool -a prints "RX: off", "TX: off", "RX negotiated:
    on", "TX negotiated: on"): nothing to turn on, and `-A rx on tx on` would only rewrite the
    advertisement and drop the link (audit 35 row 5)."""
    if not (pause.autoneg and pause.rx_negotiated and pause.tx_negotiated):
        return None
    if pause.rx and pause.tx:
        return None  # requested and in force: the usual "on already" below says so
    where = caps.cite("pause_advertised_at_start") if caps else ""
    return NotNeeded(
        "RX and TX pause frames are in force already: autonegotiation agreed them with the link "
        "partner (ethtool -a: RX negotiated on, TX negotiated on), though the manual request "
        f"shows off{f' ({where})' if where else ''}"
    )


def plan_pause(ctx: Context) -> PlannedTweak:
    # jumbo frames on r8169 and the drivers the tweak is for: the source rule's (kinds.PLANNERS)
    driver = ctx.nic.driver if ctx.nic else None
    text, reason = _ethtool_output(ctx, "-a")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    pause = parse_pause(text)
    caps = ctx.caps
    in_force = _pause_negotiated(caps, pause)
    if in_force:
        return _no(ctx, in_force)
    default = caps.facts.get("pause_default") if caps else None
    reason = ""
    if caps and default and pause.rx and pause.tx and all(default.get(k) for k in ("rx", "tx")):
        # on already, not "not possible": the plan shows it as already set (audit 6a row 8)
        where = caps.cite("pause_default")
        reason = f"RX and TX pause frames are on already: {driver} asks for them at start ({where})"
    item = PlannedTweak(ctx.tweak, True, reason, named_form="{} pause frames on",
                        named_join=" and ")  # fmt: skip
    for param, flag in (("rx", pause.rx), ("tx", pause.tx)):
        if flag is not None:
            before = "on" if flag else "off"
            item.changes.append(_ethtool_change(ctx.iface, "-A", param, before, "on"))
            item.named.append((item.changes[-1].target, param.upper()))
    item.reason = item.reason or item.summary()  # only the directions -a showed
    if not item.changes:
        return _no(ctx, "ethtool's -a output was not understood (no 'RX:'/'TX:' on/off lines; "
                   f"it began {_first_line(text)!r}): flow control left as it is")  # fmt: skip
    if any(c.needed for c in item.changes) and caps and caps.restarts("pause"):
        refusal = _restart_refusal(ctx, "pause")  # lan78xx: autonegotiation again
        if refusal:
            return _held(ctx, refusal)
        item.restarts_link = True
        item.reason += drop_words(caps, "pause")
    return item
