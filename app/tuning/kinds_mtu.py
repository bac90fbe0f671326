"""The MTU planner (split from kinds_boot.py): the MTU asked for, then each reason the kernel
would refuse it on this NIC, one rule each (REFUSALS, in order: the first that applies is the
one the user reads), then the change with what it costs (a link restart, offloads kept off)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sbctune.limits import parse_json
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps import DriverCaps
from sbctune.tuning.kinds_ethtool import held_for_consent, restart_refusal
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.plan_context import Context
from sbctune.tuning.plan_context import not_applicable as _no
from sbctune.tuning.probe import Read


@dataclass(frozen=True)
class _Ask:
    """An MTU asked for on a NIC whose MTU was read."""

    ctx: Context
    iface: str
    wanted: int
    read: Read
    caps: DriverCaps | None
    chip: str | None

    @property
    def changes(self) -> bool:
        return self.read.text.strip() != str(self.wanted)


def plan_mtu(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    if not ctx.options.get("path_supports_jumbo"):
        return _no(
            ctx,
            "needs your word that every device on the path (switch, this PC) is set to the "
            "same MTU; only the command line takes it: sbctune tune apply --path-supports-jumbo",
        )
    wanted = int(ctx.options.get("mtu") or ctx.tweak.params.get("default_mtu", 9000))
    read = ctx.facts.knob(f"/sys/class/net/{ctx.iface}/mtu")
    if read is None or not read.ok:
        return _no(ctx, "the interface's MTU cannot be read")
    ask = _Ask(ctx, ctx.iface, wanted, read, ctx.caps, ctx.nic.chip if ctx.nic else None)
    for rule in REFUSALS:
        if refusal := rule(ask):
            return _no(ctx, refusal)
    refusal = restart_refusal(ctx, "mtu")
    if refusal and ask.changes:
        return held_for_consent(ctx, refusal)
    return _planned(ask)


def _above_max(ask: _Ask) -> str | None:
    """Above the driver's max_mtu: the kernel's own (where ip shows it), else the table's."""
    caps, chip = ask.caps, ask.chip
    known = caps.mtu_max(chip) if caps else None
    top = _max_mtu(ask.ctx.facts.text("ip-link"))
    top = known if top is None else top
    if top is None or ask.wanted <= top:
        return None
    if caps and known == top and caps.mtu_max_key(chip) not in (None, "default"):
        return (f"{caps.driver} allows an MTU of at most {top} on this chip "
                f"({caps.mtu_max_cite(chip)}): not possible, at most {top}")  # fmt: skip
    where = f" ({caps.cite('mtu_max')})" if caps and known == top else ""
    return f"the driver allows an MTU of at most {top}{where}"


def _usb_packet_refusal(ask: _Ask) -> str | None:
    """lan78xx_change_mtu / usbnet_change_mtu refuse (EDOM) an MTU whose frame is a whole
    number of the bulk endpoint's packets: 512 bytes on USB 2.0 (also when the speed is not
    known: a multiple of 1024 is one of 512), 1024 on USB 3."""
    caps, nic = ask.caps, ask.ctx.nic
    extra = driver_caps.edom_frame_extra(caps, ask.chip) if caps else None
    if caps is None or extra is None:
        return None
    speed = nic.usb_speed_mbps if nic else None
    packet = 1024 if speed and speed >= 5000 else 512
    if (ask.wanted + extra) % packet:
        return None
    return (f"{caps.driver} refuses an MTU of {ask.wanted}: its frame would be a whole number of "
            f"{packet}-byte USB packets (EDOM, Numerical argument out of domain; "
            f"{caps.cite('mtu_edom_frame_extra')}): not possible, choose another MTU")  # fmt: skip


def _fifo_refusal(ask: _Ask) -> str | None:
    caps = ask.caps
    fifo = driver_caps.mtu_fifo_refused(caps, ask.chip, ask.wanted) if caps else None
    if not (caps and fifo):
        return None
    return (f"{caps.driver} refuses an MTU of {ask.wanted} on this chip: its transmit "
            f"FIFO holds {fifo} bytes (EINVAL, Invalid argument; stmmac_change_mtu with "
            f"the device tree's tx-fifo-depth): not possible, at most {fifo}")  # fmt: skip


def _busy_refusal(ask: _Ask) -> str | None:
    caps = ask.caps
    if not (caps and caps.facts.get("mtu_refused_when_up") and ask.changes):
        return None
    return (f"{caps.driver} refuses a new MTU while the interface is up "
            f"({caps.facts['mtu_refused_when_up']}; {caps.cite('mtu_refused_when_up')}): "
            "not possible on a running link")  # fmt: skip


# In the order the kernel checks them: dev_validate_mtu first, then the driver's ndo_change_mtu.
REFUSALS: tuple[Callable[[_Ask], str | None], ...] = (
    _above_max,
    _usb_packet_refusal,
    _fifo_refusal,
    _busy_refusal,
)


def _planned(ask: _Ask) -> PlannedTweak:
    ctx, caps, wanted = ask.ctx, ask.caps, ask.wanted
    item = PlannedTweak(ctx.tweak, True, f"MTU {wanted} on {ask.iface}")
    item.changes.append(Change("mtu", ask.iface, ask.read.text, str(wanted)))
    if caps and caps.restarts("mtu") and ask.changes:
        item.restarts_link = True
        item.reason += f"; {caps.driver} restarts the interface for it (the link drops briefly)"
    dropped = sorted({n for r in (driver_caps.mtu_drops(caps, ask.chip) if caps else [])
                      if wanted > r["above"] for n in r["drop"]})  # fmt: skip
    if caps and dropped:
        what = "TX checksum offload and TSO" if any("checksum" in n for n in dropped) else "TSO"
        item.reason += (f"; {caps.driver} then keeps {what} off at this MTU "
                        f"({caps.cite('mtu_drops_features')})")  # fmt: skip
    return item


def _max_mtu(text: str) -> int | None:
    try:
        links = parse_json(text or "[]")
        value = links[0].get("max_mtu") if links else None
    except (ValueError, AttributeError, IndexError, TypeError):
        return None
    return int(value) if isinstance(value, int) else None
