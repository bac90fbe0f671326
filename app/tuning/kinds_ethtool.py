"""Planners of the NIC's ethtool settings: rings, coalescing, offloads, EEE, pause frames."""

from __future__ import annotations

from sbctune.inventory.parsers.ethtool import (
    parse_ethtool_coalesce,
    parse_ethtool_features,
    parse_ethtool_rings,
)
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.parsers import parse_eee, parse_pause
from sbctune.tuning.plan_context import Context
from sbctune.tuning.plan_context import not_applicable as _no


def _ethtool_output(ctx: Context, option: str) -> tuple[str | None, str]:
    """(output, reason if unusable)."""
    result = ctx.facts.step(f"ethtool {option}")
    if result is None:
        return None, "no NIC chosen"
    if result.missing:
        return None, "ethtool is not installed on the Pi (`sudo apt-get install ethtool`)"
    if not result.ok:
        message = (result.error_text or result.text).strip().splitlines()
        last = message[-1] if message else "no output"
        if "not supported" in last.lower():  # EOPNOTSUPP: the driver has no such setting
            return None, f"the driver does not offer this setting ({last})"
        return None, f"the driver does not say ({last})"
    return result.text, ""


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return "".join(ch if ch.isprintable() else "?" for ch in (lines[0] if lines else ""))[:60]


def _ethtool_change(iface: str, option: str, param: str, before: str, after: str) -> Change:
    return Change("ethtool", f"{iface} {option} {param}", before, after)


def plan_rings(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-g")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    rings, _ = parse_ethtool_rings(text)
    item = PlannedTweak(ctx.tweak, True, "rings at the driver's maximum")
    for param, now, top in (("rx", rings.rx, rings.rx_max), ("tx", rings.tx, rings.tx_max)):
        if now is not None and top is not None:
            after = str(max(now, top))
            item.changes.append(_ethtool_change(ctx.iface, "-G", param, str(now), after))
    if not item.changes:
        return _no(ctx, "the driver does not offer ring sizes")
    return item


def plan_coalescing(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-c")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    coalesce, _ = parse_ethtool_coalesce(text)
    item = PlannedTweak(ctx.tweak, True, "fewer, larger interrupts")
    if coalesce.adaptive_rx is not None:
        before = "on" if coalesce.adaptive_rx else "off"
        item.changes.append(_ethtool_change(ctx.iface, "-C", "adaptive-rx", before, "on"))
        return item
    usecs = coalesce.params.get("rx-usecs")
    if usecs is not None:
        wanted = max(usecs, int(ctx.tweak.params.get("rx_usecs", 50)))
        item.changes.append(_ethtool_change(ctx.iface, "-C", "rx-usecs", str(usecs), str(wanted)))
        return item
    return _no(ctx, "the driver offers no interrupt coalescing settings")


def plan_offloads(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-k")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    features, _ = parse_ethtool_features(text)
    item = PlannedTweak(ctx.tweak, True, "GRO/GSO/TSO on")
    names: dict[str, str] = dict(ctx.tweak.params.get("features", {}))
    for short, long in names.items():
        feature = features.features.get(long)
        if feature is None:
            continue
        if feature.fixed and not feature.enabled:
            item.impossible.append((f"{ctx.iface} -K {short}", "fixed off by the driver"))
            continue
        if feature.requested and not feature.enabled:
            # Already asked for; the kernel keeps it off because a feature it needs is off
            # (GSO needs scatter-gather, as on smsc95xx): `ethtool -K` cannot change that.
            item.impossible.append(
                (f"{ctx.iface} -K {short}", "requested on, but the kernel keeps it off")
            )
            continue
        before = "on" if feature.enabled else "off"
        item.changes.append(_ethtool_change(ctx.iface, "-K", short, before, "on"))
    if not item.changes:
        item.applicable = False
        item.reason = "the driver offers none of these offloads" + (
            "; " + "; ".join(f"{t}: {r}" for t, r in item.impossible) if item.impossible else ""
        )
    return item


def plan_eee(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "--show-eee")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    eee = parse_eee(text)
    if eee.supported is None:
        return _no(ctx, "ethtool's --show-eee output was not understood (no 'EEE status:' "
                   f"line; it began {_first_line(text)!r}): EEE left as it is")  # fmt: skip
    if not eee.supported or eee.enabled is None:
        return _no(ctx, "the NIC does not support Energy-Efficient Ethernet")
    before = "on" if eee.enabled else "off"
    item = PlannedTweak(ctx.tweak, True, "EEE off")
    item.changes.append(_ethtool_change(ctx.iface, "--set-eee", "eee", before, "off"))
    return item


def plan_pause(ctx: Context) -> PlannedTweak:
    drivers = [str(d) for d in ctx.tweak.params.get("drivers", [])]
    driver = ctx.nic.driver if ctx.nic else None
    if driver not in drivers:
        return _no(ctx, f"only for NICs known to need it ({', '.join(drivers)})")
    text, reason = _ethtool_output(ctx, "-a")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    pause = parse_pause(text)
    item = PlannedTweak(ctx.tweak, True, "RX and TX pause frames on")
    for param, flag in (("rx", pause.rx), ("tx", pause.tx)):
        if flag is not None:
            before = "on" if flag else "off"
            item.changes.append(_ethtool_change(ctx.iface, "-A", param, before, "on"))
    if not item.changes:
        return _no(ctx, "ethtool's -a output was not understood (no 'RX:'/'TX:' on/off lines; "
                   f"it began {_first_line(text)!r}): flow control left as it is")  # fmt: skip
    return item
