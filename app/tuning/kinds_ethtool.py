"""Planners of the NIC's ethtool settings: rings and offloads, and the ethtool reads, changes
and restart words the other ethtool planners share (kinds_coalesce, kinds_negotiated, kinds_mtu)."""

from __future__ import annotations

from typing import Any

from sbctune.inventory.parsers.ethtool import (
    EthtoolFeatures,
    Feature,
    parse_ethtool_features,
    parse_ethtool_rings,
)
from sbctune.tuning import catalog, driver_caps, link_wait, source_rule
from sbctune.tuning.model import HELD_FOR_LINK, Change, PlannedTweak
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
        if "not supported" in last.lower():  # EOPNOTSUPP: no such setting, or not on this chip
            refused = source_rule.refused_read(ctx.caps, option, last)
            return None, refused or f"the driver does not offer this setting ({last})"
        return None, f"the driver does not say ({last})"
    return result.text, ""


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return "".join(ch if ch.isprintable() else "?" for ch in (lines[0] if lines else ""))[:60]


def _ethtool_change(iface: str, option: str, param: str, before: str, after: str) -> Change:
    return Change("ethtool", f"{iface} {option} {param}", before, after)


def _driver_lacks(ctx: Context, op: str) -> str | None:
    """Why the driver cannot do `op` (an ethtool_ops callback), from the kernel's source: the
    source rule's answer (the planners get it through kinds.PLANNERS, before they run)."""
    return source_rule.lacks(ctx.caps, op)


_UNSURE_WHAT = {"set_coalesce": "interrupt coalescing", "set_eee": "Energy-Efficient Ethernet"}


def _unsure_cite(ctx: Context, op: str) -> str:
    """The op's citation, "(file: function of the Raspberry Pi kernel tree)", which the Tune page
    keeps for the tooltip (ui.reason_words); "" where the table has none."""
    where = ctx.caps.cite(op) if ctx.caps else ""
    where = where.removeprefix(driver_caps.RPI_TREE).strip()
    return f" ({where} of the Raspberry Pi kernel tree)" if where else ""


def _kernel_words(ctx: Context) -> str:
    kernel = ctx.inventory.board.kernel
    return f"this Pi's kernel ({kernel})" if kernel else "this Pi's kernel (its version unknown)"


def may_not_support(ctx: Context, op: str) -> str:
    """Plain words for a planned change whose driver support depends on which Raspberry Pi kernel
    runs, where the table knows no answer for this one (driver_caps rpi_series): "" otherwise."""
    caps = ctx.caps
    if caps is None or op not in caps.unsure:
        return ""
    what = _UNSURE_WHAT.get(op, "this setting")
    return (f"; {_kernel_words(ctx)} may not support {what} on {caps.driver}: only some Raspberry "
            f"Pi kernels add it{_unsure_cite(ctx, op)}, so it is tried and read back, and a "
            "refusal is reported as not possible")  # fmt: skip


def _unsure_refused(ctx: Context, op: str, reason: str) -> str:
    """The read answered "not supported" where support depends on the kernel: say so plainly."""
    caps = ctx.caps
    if caps is None or op not in caps.unsure or "not supported" not in reason.lower():
        return reason
    what = _UNSURE_WHAT.get(op, "this setting")
    return (f"{_kernel_words(ctx)} does not support {what} on {caps.driver}: it answered "
            f"\"Operation not supported\" (not possible: only some Raspberry Pi kernels add "
            f"it{_unsure_cite(ctx, op)})")  # fmt: skip


_SETTING = {
    "rings": "rings",
    "eee": "Energy-Efficient Ethernet",
    "pause": "flow control",
    "mtu": "the MTU",
}


def restart_words(caps: driver_caps.DriverCaps, setting: str) -> str:
    """How the driver drops the link for `setting`, as its restart fact's kind says: a
    "renegotiation" only restarts autonegotiation (phy_ethtool_set_eee: phy_restart_aneg), the
    interface stays up; a reopen or reset restarts it (audit 35 row 1: the held-back line said
    "restarts the interface (rtl8169_set_eee)")."""
    kind = caps.facts.get("restart_kinds", {}).get(setting)
    return "renegotiates the link" if kind == "renegotiation" else "restarts the interface"


def drop_words(caps: driver_caps.DriverCaps, setting: str) -> str:
    """What a planned change's reason adds where the driver drops the link for it (the words
    down_nic takes off again for a NIC that is down): igb_set_eee's reset restarts the
    interface, rtl8169_set_eee renegotiates the link."""
    if restart_words(caps, setting) == "renegotiates the link":
        return f"; {caps.driver} renegotiates the link for it (it drops briefly)"
    return f"; {caps.driver} restarts the interface for it (the link drops briefly)"


def _restart_refusal(ctx: Context, setting: str) -> str | None:
    """A change that closes and reopens the interface drops the link for seconds: never on the
    NIC that carries the SSH session unless the user agreed (option allow_link_restart)."""
    caps = ctx.caps
    if caps is None:
        return None
    if not caps.restarts(setting):
        return _unread_refusal(ctx, caps, setting)
    stp = stp_refusal(ctx, f"{caps.driver} {restart_words(caps, setting)} for it")
    if stp:
        return stp
    if ctx.options.get("allow_link_restart") or not ctx.carries_ssh():
        return None
    return (
        f"changing {_SETTING.get(setting, setting)} on {caps.driver} "
        f"{restart_words(caps, setting)} "
        f"({caps.cite(f'restarts:{setting}') or caps.cite('restarts_on')}), "
        f"and {ctx.ssh_words()}{stp_note(ctx)}: {HELD_FOR_LINK} (then applied under the "
        "guard and, where NetworkManager runs, its checkpoint)"
    )


def _unread_refusal(ctx: Context, caps: driver_caps.DriverCaps, setting: str) -> str | None:
    """A set no one has read for a restart: on the SSH NIC, held for consent as a restarting
    one (audit 50: e1000e, ixgbe, tg3 ... restarted where the table said nothing)."""
    op = caps.restart_unread(setting)
    if op is None or ctx.options.get("allow_link_restart") or not ctx.carries_ssh():
        return None
    return (
        f"whether changing {_SETTING.get(setting, setting)} on {caps.driver} restarts the "
        f"interface is not known (sbctune has not read {caps.cite(op) or op} for it), and "
        f"{ctx.ssh_words()}: {HELD_FOR_LINK} (then applied under the guard and, where "
        "NetworkManager runs, its checkpoint)"
    )


def stp_refusal(ctx: Context, drops: str) -> str | None:
    """Where the session runs over a spanning-tree bridge on the NIC whose forwarding returns
    too late for this session (or when, a daemon's choice, is not known), a change that drops
    the NIC's link is not possible over this session, consent or not (audit 39 row 3: in the
    lab the session was lost after 33 s and the guard undid the change)."""
    stp = ctx.stp_wait()
    if stp is None:
        return None
    bridge, seconds = stp
    if seconds is None:
        return (
            f"{drops}, and {ctx.ssh_words()}: {bridge}'s spanning tree runs in a user-space "
            "daemon (stp_state 2), which decides when a port forwards again after its link "
            "returns (net/bridge/br_stp.c: br_port_state_selection leaves the ports' states to "
            "it), so how long this SSH session would stall is not known, and the guard would "
            f"undo the change if it were lost; not possible over {bridge} (turn off STP on "
            f"{bridge}, or tune over another connection)"
        )
    most = (link_wait.MOST_SECONDS - link_wait.about_seconds()) // 2
    return (
        f"{drops}, and {ctx.ssh_words()}: {bridge} runs the spanning tree protocol, so after "
        f"the link returns it forwards again only after about {seconds} s (listening, then "
        "learning: net/bridge/br_stp.c: br_make_forwarding), too long for this SSH session, "
        f"and the guard would undo the change; not possible over {bridge} (turn off STP on "
        f"{bridge} or set its forward delay to {most} s or less, or tune over another "
        "connection)"
    )


def stp_note(ctx: Context) -> str:
    """What the held-back reason adds where the session's bridge runs the spanning tree with a
    forward delay short enough for the session: the stall after the link returns."""
    stp = ctx.stp_bridge()
    if stp is None or stp[1] is None or ctx.stp_wait() is not None:
        return ""
    bridge, seconds = stp
    return (
        f"; {bridge} runs the spanning tree protocol, so after the link returns it forwards "
        f"again after about {seconds} s more (listening, then learning: net/bridge/br_stp.c: "
        "br_make_forwarding)"
    )


def _held(ctx: Context, refusal: str) -> PlannedTweak:
    """Not applied without the user's consent; the front ends offer it (CLI: a flag). Under a
    spanning-tree bridge consent does not help: not possible (stp_refusal)."""
    item = _no(ctx, refusal)
    item.needs_link_consent = ctx.stp_wait() is None
    return item


# the MTU planner (kinds_mtu) holds a restarting change back the same way
restart_refusal = _restart_refusal
held_for_consent = _held


def plan_rings(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-g")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    refusal = _restart_refusal(ctx, "rings")
    if refusal:
        return _held(ctx, refusal)
    rings, _ = parse_ethtool_rings(text)
    item = PlannedTweak(ctx.tweak, True, "rings at the driver's maximum")
    cap = ctx.caps.facts.get("ring_planned_max", {}) if ctx.caps else {}
    for param, now, top in (("rx", rings.rx, rings.rx_max), ("tx", rings.tx, rings.tx_max)):
        if now is not None and top is not None:
            if param in cap and top > int(cap[param]) and ctx.caps:
                top = int(cap[param])  # r8152: buffers, not descriptors (rtl_get_free_rx)
                item.reason += (f"; {param} stops at {top}: {ctx.caps.driver} allocates a "
                                "16-64 KiB receive buffer per unit while the Pi falls behind, "
                                f"so its maximum would pin up to 256 MiB "
                                f"({ctx.caps.cite('ring_planned_max')})")  # fmt: skip
            after = str(max(now, top))
            item.changes.append(_ethtool_change(ctx.iface, "-G", param, str(now), after))
    if not item.changes:
        return _no(ctx, "the driver does not offer ring sizes")
    if ctx.caps and ctx.caps.restarts("rings"):
        item.restarts_link = True
        item.reason += f"; {ctx.caps.driver} restarts the interface for it (the link drops briefly)"
    return item


def plan_offloads(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-k")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    features, _ = parse_ethtool_features(text)
    item = PlannedTweak(ctx.tweak, True, "", named_form="{} on")
    names: dict[str, str] = dict(ctx.tweak.params.get("features", {}))
    for short, long in names.items():
        feature = features.features.get(long)
        if feature is not None and not _offload_not_here(ctx, item, short, feature, features):
            _offload_on(ctx, item, short, feature, features)
    item.reason = item.summary()  # what was read on or is written, never the tweak's title
    if not item.changes:
        item.applicable = False
        item.reason = "the driver offers none of these offloads" + (
            "; " + "; ".join(f"{t}: {r}" for t, r in item.impossible) if item.impossible else ""
        )
    return item


def _offload_not_here(
    ctx: Context, item: PlannedTweak, short: str, feature: Feature, features: EthtoolFeatures
) -> bool:
    """Whether the driver settles the feature whatever is asked (fixed off, GRO that merges
    nothing, dropped at the MTU), said in `item`."""
    target, word = f"{ctx.iface} -K {short}", short.upper()
    if (feature.fixed or _members_fixed(ctx, short, features.features)) and not feature.enabled:
        item.impossible.append((f"{ctx.iface} -K {short}", "fixed off by the driver"))
        return True
    if short == "gro" and ctx.caps and ctx.caps.facts.get("gro_without_effect"):
        if not feature.enabled:  # usbnet: netif_rx, no NAPI, so GRO never merges
            item.impossible.append((f"{ctx.iface} -K gro", "the driver hands received "
                                    "packets up without NAPI, where GRO does nothing "
                                    f"({ctx.caps.cite('gro_without_effect')})"))  # fmt: skip
        else:
            item.named.append((target, word))  # on as read (it merges nothing here)
        return True
    dropped = _dropped_at_mtu(ctx, members=ctx.tweak.params.get("members", {}).get(short, []))
    if dropped and not feature.enabled:  # before `-K tx on` for TSO: both dropped at once
        item.impossible.append((f"{ctx.iface} -K {short}", dropped))
        return True
    return False


def _offload_on(
    ctx: Context, item: PlannedTweak, short: str, feature: Feature, features: EthtoolFeatures
) -> None:
    """The feature's `-K SHORT on` (with what it needs first), or why `ethtool -K` cannot."""
    iface = str(ctx.iface)  # plan_offloads plans only for a NIC
    target, word = f"{ctx.iface} -K {short}", short.upper()
    if short == "tso" and _csum_for_tso(ctx, item, features.features):
        before = "on" if feature.enabled else "off"  # IPv6 TSO may be on, IPv4's not
        item.changes.append(_ethtool_change(iface, "-K", short, before, "on"))
        item.named.append((target, word))
        return
    # The kernel drops GSO while scatter-gather is off (netdev_fix_features): where SG can
    # go on, the plan turns it on and GSO, already requested, comes back with it (the s13
    # walk: the plan said "the kernel keeps it off" and then turned SG on for TSO). No
    # `-K gso` of its own: reverting one would write "off" over the user's request, and
    # the Pi would not read back as before ("off [requested on]").
    gso_waits_for_sg = short == "gso" and feature.requested and not feature.enabled
    if gso_waits_for_sg and _sg_on_first(ctx, item, features.features):
        item.named.append((f"{ctx.iface} -K sg", word))  # on once SG's write is
        return
    if feature.requested and not feature.enabled:
        # Already asked for; the kernel keeps it off because a feature it needs is off
        # (GSO needs scatter-gather, as on smsc95xx): `ethtool -K` cannot change that.
        item.impossible.append(
            (f"{ctx.iface} -K {short}", "requested on, but the kernel keeps it off")
        )
        return
    before = "on" if feature.enabled else "off"
    if short == "tso" and before == "off" and not _sg_for_tso(ctx, item, features.features):
        item.impossible.append((f"{ctx.iface} -K tso", "TSO needs scatter-gather, which "
                                "the driver has fixed off (netdev_fix_features)"))  # fmt: skip
        return
    item.changes.append(_ethtool_change(iface, "-K", short, before, "on"))
    item.named.append((target, word))


def _dropped_at_mtu(ctx: Context, members: list[str]) -> str | None:
    """Why the driver keeps these features off at the NIC's MTU (r8169's ndo_fix_features drops
    TX checksums and TSO with jumbo frames), or None. The MTU is the one the session leaves:
    the jumbo tweak's where it is planned together (it is written after the offloads, and the
    driver drops the feature again at once)."""
    mtu = ctx.nic.mtu if ctx.nic else None
    jumbo = _planned_jumbo_mtu(ctx)
    whose = "this NIC's"
    if jumbo is not None and jumbo > (mtu or 0):
        mtu, whose = jumbo, "the jumbo frames tweak planned with it sets"
    if not ctx.caps or not mtu:
        return None
    chip = ctx.nic.chip if ctx.nic else None
    for rule in driver_caps.mtu_drops(ctx.caps, chip):
        if mtu > rule["above"] and any(m in rule["drop"] for m in members):
            return (f"{ctx.caps.driver} keeps it off above an MTU of {rule['above']} "
                    f"({whose} {mtu}; {ctx.caps.cite('mtu_drops_features')})")  # fmt: skip
    return None


def _planned_jumbo_mtu(ctx: Context) -> int | None:
    """The MTU the mtu-jumbo tweak sets where it is planned in the same session with the path
    confirmed and within the driver's maximum (kinds_boot.plan_mtu's own conditions), else
    None."""
    if "mtu-jumbo" not in ctx.selected or not ctx.options.get("path_supports_jumbo"):
        return None
    wanted = int(
        ctx.options.get("mtu") or catalog.tweak("mtu-jumbo").params.get("default_mtu", 9000)
    )
    top = ctx.caps.mtu_max(ctx.nic.chip if ctx.nic else None) if ctx.caps else None
    return None if (top is not None and wanted > top) or _jumbo_held(ctx, wanted) else wanted


def _jumbo_held(ctx: Context, wanted: int) -> bool:
    """Whether the mtu-jumbo tweak is held back for the SSH session's link (kinds_mtu.plan_mtu:
    a change that restarts the interface or renegotiates the link, no consent): the MTU then
    stays, and so do the offloads it would drop (audit 35 row 4: r8169's TSO was "not possible"
    for an MTU of 9000 that the same plan held back)."""
    caps = ctx.caps
    now = str(ctx.nic.mtu) if ctx.nic and ctx.nic.mtu else ""
    if caps is None or now == str(wanted):
        return False
    jumbo = driver_caps.mtu_renegotiates(caps)
    crosses = jumbo is not None and link_wait.crosses_up(now, str(wanted), jumbo[0])
    drops = caps.restarts("mtu") or crosses
    if drops and ctx.stp_wait() is not None:  # not possible over the bridge, consent or not
        return True
    if ctx.options.get("allow_link_restart") or not ctx.carries_ssh():
        return False
    return drops


def _members_fixed(ctx: Context, short: str, features: dict[str, Any]) -> bool:
    """Whether every kernel feature an ethtool name stands for is shown fixed (ethtool marks
    only the members, not the name's own line)."""
    members = ctx.tweak.params.get("members", {}).get(short, [])
    shown = [features[m] for m in members if m in features]
    return bool(shown) and all(f.fixed and not f.enabled for f in shown)


def _sg_on_first(ctx: Context, item: PlannedTweak, features: dict[str, Any]) -> bool:
    """Scatter-gather is off and can go on: `-K sg on` is planned (once, before what needs it).
    False where SG is on already (something else keeps the feature off) or fixed off."""
    sg = features.get("scatter-gather")
    if sg is None or sg.enabled:
        return False
    return _sg_for_tso(ctx, item, features)


def _sg_for_tso(ctx: Context, item: PlannedTweak, features: dict[str, Any]) -> bool:
    """The kernel drops TSO while scatter-gather is off (netdev_fix_features): r8169 ships
    with SG off, so `-K tso on` alone changes nothing. SG goes on first where it can;
    False where it cannot."""
    sg = features.get("scatter-gather")
    if sg is None or sg.enabled or not ctx.iface:
        return True
    if sg.fixed or _members_fixed(ctx, "sg", features):
        return False
    if not any(c.target.endswith(" sg") for c in item.changes):
        item.changes.append(_ethtool_change(ctx.iface, "-K", "sg", "off", "on"))
    return True


# netdev_fix_features: IPv4 TSO needs a generic or IPv4 TX checksum, TSO6 a generic or IPv6 one
_TSO_CHECKSUMS = {
    "tx-tcp-segmentation": ("tx-checksum-ip-generic", "tx-checksum-ipv4"),
    "tx-tcp6-segmentation": ("tx-checksum-ip-generic", "tx-checksum-ipv6"),
}


def _csum_for_tso(ctx: Context, item: PlannedTweak, features: dict[str, Any]) -> bool:
    """The kernel keeps TSO off while its TX checksum is off (netdev_fix_features; the table's
    `features_fix_rules`), whatever `-K tso on` asks: where a TSO the driver offers lacks its
    checksum and that checksum can be switched on, `-K tx on` goes first. True where it was
    added (TSO then comes on with it)."""
    scatter = features.get("tx-scatter-gather")
    if not ctx.iface or (scatter is not None and not scatter.enabled):
        return False
    wanted: list[str] = []
    for tso, sums in _TSO_CHECKSUMS.items():
        seg = features.get(tso)
        if seg is None or (seg.fixed and not seg.enabled) or seg.enabled:
            continue
        shown = [features[n] for n in sums if n in features]
        if shown and not any(f.enabled for f in shown):
            wanted += [n for n in sums if n in features and not features[n].fixed]
    if not wanted:
        return False
    if not any(c.target.endswith(" tx") for c in item.changes):
        item.changes.append(_ethtool_change(ctx.iface, "-K", "tx", "off", "on"))
    return True
