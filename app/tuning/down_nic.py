"""A NIC that is administratively down (not IFF_UP) planned as what it is (audit 18 row 3,
resources/tuning/driver_caps_audit18.md).

While an interface is down its driver answers otherwise: some refuse the read or the write
(stmmac on 6.1: .begin = stmmac_check_if_running, EBUSY; bcmgenet: no PHY after
bcmgenet_close; stmmac on 6.12: phylink_ethtool_get_eee without a PHY), some take the value
and set it back when the interface is opened (r8169's rtl_hw_start: coalescing off; bcmgenet's
bcmgenet_init_tx_ring: tx-frames 1; stmmac_init_coalesce), and none closes and reopens it for
a ring or channel change (igb_set_ringparam keeps the sizes for the next open; macb, atlantic,
stmmac, igb/igc_reinit_queues test netif_running), so no link drops. The plan read the
interface's flags already (`ip -d -j link`, probe.py); the table's facts decide, never the
driver's name: a tweak the driver refuses or loses is left out with the driver's words, the
cited function and how to plan it; a restart is no longer announced.
"""

from __future__ import annotations

from sbctune.limits import parse_json
from sbctune.tuning import driver_caps, persist_gaps, reopen_order
from sbctune.tuning.model import PlannedTweak, TuningPlan

# tweak kind -> the ethtool read its planner makes and the driver's op behind it
_READS = {"rings": ("-g", "get_ringparam"), "coalescing": ("-c", "get_coalesce"),
          "eee": ("--show-eee", "get_eee"), "pause": ("-a", "get_pauseparam")}  # fmt: skip
# what kinds_ethtool / kinds_mtu add to a change that restarts or renegotiates the link
_RESTART_WORDS = ("; {} restarts the interface for it (the link drops briefly)",
                  "; {} renegotiates the link for it (it drops briefly)")  # fmt: skip


def is_down(ip_link: str | None) -> bool:
    """Whether `ip -j link show dev IFACE` says the interface is not up (no "UP" flag);
    an output that cannot be read counts as up (the plan stays as it was)."""
    try:
        links = parse_json(ip_link or "[]")
        flags = links[0].get("flags") if isinstance(links, list) and links else None
    except (ValueError, AttributeError, TypeError):
        return False
    return isinstance(flags, list) and "UP" not in flags


def _read_refused(kind: str, caps: driver_caps.DriverCaps, iface: str) -> str:
    """The driver's words for the planner's read it refuses while `iface` is down, or ""."""
    read = _READS.get(kind)
    if read is None:
        return ""
    option, op = read
    if caps.facts.get("ethtool_refused_when_down"):
        errno = caps.facts["ethtool_refused_when_down"]
        return (f"the {caps.driver} driver refuses every ethtool request while {iface} is down "
                f"({errno}; {caps.cite('ethtool_refused_when_down')})")  # fmt: skip
    down = caps.facts.get("ops_refused_when_down")
    if isinstance(down, dict) and op in down:
        return (f"the {caps.driver} driver answers `ethtool {option}` with {down[op]} while "
                f"{iface} is down ({caps.cite(f'ops_refused_when_down:{op}')})")  # fmt: skip
    return ""


def _irqs_freed(kind: str, caps: driver_caps.DriverCaps, iface: str) -> str:
    """The driver's words where it frees its interrupts at close (``irq_requested_at_open``:
    igb_open -> igb_request_irq, __igb_close -> igb_free_irq ...): a down NIC's vectors have no
    action, so /proc/interrupts names none of them (show_interrupts) and irq-affinity has
    nothing of this NIC to move; else ""."""
    if kind != "irq_affinity" or not caps.facts.get("irq_requested_at_open"):
        return ""
    return (f"the {caps.driver} driver requests its interrupts when {iface} opens and frees "
            f"them when it closes ({caps.cite('irq_requested_at_open')}), so /proc/interrupts "
            "names none of them now")  # fmt: skip


def _leave_out(item: PlannedTweak, iface: str, why: str) -> None:
    item.applicable = False
    item.reason = (f"{iface} is down (not IFF_UP): {why}. Bring it up "
                   f"(`sudo ip link set {iface} up`) and plan again")  # fmt: skip
    item.changes, item.commands, item.named = [], [], []
    item.restarts_link = item.needs_link_consent = item.not_needed = False


def note_plan(plan: TuningPlan, ip_link: str | None) -> None:
    """Each tweak of `plan` as the driver takes it on its down NIC (nothing where it is up)."""
    inventory, iface = plan.inventory, plan.nic
    if inventory is None or not iface or not is_down(ip_link):
        return
    nic = inventory.nic(iface)
    caps = driver_caps.caps(nic.driver, inventory.board.kernel, nic.chip) if nic else None
    if caps is None:
        return
    facts = reopen_order.for_plan(plan)
    for item in plan.items:
        why = _read_refused(item.tweak.kind, caps, iface) or _irqs_freed(
            item.tweak.kind, caps, iface
        )
        if not why and item.applicable:
            lost = [persist_gaps.why_lost(c, caps, facts, iface) for c in item.changes if c.needed]
            why = next((w for w in lost if w), "")
        if why:
            _leave_out(item, iface, why)
        elif item.applicable and item.restarts_link:
            item.restarts_link = False  # a down interface is not reopened: no link to drop
            for words in _RESTART_WORDS:
                item.reason = item.reason.replace(words.format(caps.driver), "")
            item.reason += (f"; {iface} is down, so {caps.driver} keeps it for the next open "
                            "(no link drops now)")  # fmt: skip
