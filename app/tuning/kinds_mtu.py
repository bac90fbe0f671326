"""The MTU planner (split from kinds_boot.py): what the kernel's source, the catalogue and the
inventory settle (above the table's maximum, whole USB packets, stmmac's FIFO, macb's refusal
while up) is the source rule's (kinds.PLANNERS, source_rule); here what the Pi adds: its own
max_mtu and the MTU it runs now, then the change with what it costs (a link restart, offloads
kept off)."""

from __future__ import annotations

from sbctune.limits import parse_json
from sbctune.tuning import driver_caps, link_wait, source_rule
from sbctune.tuning.kinds_ethtool import held_for_consent, restart_refusal, stp_refusal
from sbctune.tuning.model import HELD_FOR_LINK, Change, PlannedTweak
from sbctune.tuning.plan_context import Context
from sbctune.tuning.plan_context import not_applicable as _no


def plan_mtu(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    if not ctx.options.get("path_supports_jumbo"):
        return _no(
            ctx,
            "needs your word that every device on the path (switch, this PC) is set to the "
            "same MTU; only the command line takes it: sbctune tune apply --path-supports-jumbo",
        )
    wanted = source_rule.wanted_mtu(ctx.tweak, ctx.options)
    read = ctx.facts.knob(f"/sys/class/net/{ctx.iface}/mtu")
    if read is None or not read.ok:
        return _no(ctx, "the interface's MTU cannot be read")
    # The table's maximum, a whole number of USB packets, stmmac's FIFO and macb's refusal at
    # the inventory's MTU are the source rule's (kinds.PLANNERS); the Pi adds its own max_mtu
    # and the MTU it runs now.
    caps = ctx.caps
    chip = ctx.nic.chip if ctx.nic else None
    top = _max_mtu(ctx.facts.text("ip-link"))  # the kernel's own max_mtu, where ip shows it
    if top is not None and wanted > top:
        return _no(ctx, source_rule.mtu_above_max(caps, chip, wanted, top))
    up = source_rule.refused_while_up(caps, read.text.strip(), wanted)
    if up:
        return _no(ctx, up)
    refusal = restart_refusal(ctx, "mtu") or _renegotiation_refusal(ctx, read.text, wanted)
    if refusal and read.text.strip() != str(wanted):
        return held_for_consent(ctx, refusal)
    item = PlannedTweak(ctx.tweak, True, f"MTU {wanted} on {ctx.iface}")
    item.changes.append(Change("mtu", ctx.iface, read.text, str(wanted)))
    if caps and caps.restarts("mtu") and read.text.strip() != str(wanted):
        item.restarts_link = True
        item.reason += f"; {caps.driver} restarts the interface for it (the link drops briefly)"
    jumbo = driver_caps.mtu_renegotiates(caps)
    if caps and jumbo and link_wait.crosses_up(read.text, str(wanted), jumbo[0]):
        item.restarts_link = True
        item.reason += _renegotiation_words(caps, jumbo[0], ctx.iface)
    dropped = sorted({n for r in (driver_caps.mtu_drops(caps, chip) if caps else [])
                      if wanted > r["above"] for n in r["drop"]})  # fmt: skip
    if caps and dropped:
        what = "TX checksum offload and TSO" if any("checksum" in n for n in dropped) else "TSO"
        item.reason += (f"; {caps.driver} then keeps {what} off at this MTU "
                        f"({caps.cite('mtu_drops_features')})")  # fmt: skip
    return item


def _renegotiation_refusal(ctx: Context, now: str, wanted: int) -> str | None:
    """An MTU above the driver's jumbo threshold renegotiates the link (r8169): held back on
    the NIC that carries the SSH session unless the user agreed, as a restarting change is."""
    caps = ctx.caps
    jumbo = driver_caps.mtu_renegotiates(caps)
    if caps is None or jumbo is None or not link_wait.crosses_up(now, str(wanted), jumbo[0]):
        return None
    stp = stp_refusal(ctx, f"an MTU above {jumbo[0]} on {caps.driver} renegotiates the link")
    if stp:
        return stp
    if ctx.options.get("allow_link_restart") or not ctx.carries_ssh():
        return None
    return (f"an MTU above {jumbo[0]} on {caps.driver} renegotiates the link "
            f"({caps.cite('mtu_renegotiates_above')}){_while_advertised(caps)}, and "
            f"{ctx.ssh_words()}: {HELD_FOR_LINK} (then applied under the guard and, where "
            "NetworkManager runs, its checkpoint)")  # fmt: skip


def _renegotiation_words(caps: driver_caps.DriverCaps, above: int, iface: str) -> str:
    """What the reason says of an MTU change that renegotiates the link, and of the settings
    the driver drops with it and does not put back when the MTU is undone (r8169: pause)."""
    words = (f"; above an MTU of {above} {caps.driver} renegotiates the link for it (the link "
             f"drops briefly; {caps.cite('mtu_renegotiates_above')})"
             f"{_while_advertised(caps)}")  # fmt: skip
    clears = (caps.facts.get("mtu_renegotiates_above") or {}).get("clears") or []
    if "pause" in clears:
        words += (" and stops advertising flow control (pause frames), which undoing the MTU "
                  f"does not advertise again: after a revert, `ethtool -A {iface} rx on tx on` "
                  "(or a reboot) turns it back on")  # fmt: skip
    return words


def _while_advertised(caps: driver_caps.DriverCaps) -> str:
    """The condition of r8169's renegotiation: phylib restarts only a changed advertisement, so
    only while flow control is still advertised (from boot it is; the probe does not read the
    advertisement, so the change is still held back as one that drops the link)."""
    if not caps.facts.get("mtu_renegotiates_only_if_advertised"):
        return ""
    return (" while the link still advertises flow control, as it does from boot "
            f"({caps.cite('mtu_renegotiates_only_if_advertised')})")  # fmt: skip


def _max_mtu(text: str) -> int | None:
    try:
        links = parse_json(text or "[]")
        value = links[0].get("max_mtu") if links else None
    except (ValueError, AttributeError, IndexError, TypeError):
        return None
    return int(value) if isinstance(value, int) else None
