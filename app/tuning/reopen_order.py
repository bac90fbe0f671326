"""The order of a session's writes where a change restarts the interface and the driver's open
sets other settings back (issue 21; driver_caps.json `restarts_on`, `restarts_on_features` and
`coalesce_reset_on_open`: macb on the Raspberry Pi tree, stmmac, r8169, bcmgenet).

A Pi 5 (macb, RP1) tuned with a ring change and coalescing: `macb_set_ringparam` closes and
opens the interface and `macb_open` -> `macb_init_hw` -> `gem_init_intmod` writes 50 us again.
So, from the table's facts and never per driver:

- applying: every change that restarts the interface runs before the first setting the open
  sets back (the settings are written after the last restart, and read back after all writes);
- reverting: the same rule on the reversed list, so the restart is undone first and the values
  the open set back are restored after it;
- at-boot.sh keeps the apply order.

An open that turns EEE on again (bcmgenet on 6.12: bcmgenet_mii_probe's phy_support_eee,
`eee_reset_on_open`) is the same rule for the eee-off tweak's write (audit 12); where EEE is off
and no tweak writes it, it is written off again after the restart (note_resets, audit 38a).

An open that sets IRQ affinity back (atlantic: aq_pci_func_alloc_irq's
irq_set_affinity_hint, `irq_affinity_reset_on_open`) is the same rule for the irq-affinity
tweak's writes: the ring change's restart goes first, the masks after it. Where the fact names
the interrupts it holds for (stmmac: only the per-queue MSI vectors "IFACE:rx-N"/"IFACE:tx-N"
of stmmac_request_irq_multi_msi, audit 25), only those writes are.

Everything else keeps its order (a tweak's own changes depend on theirs: bcmgenet's adaptive-rx
goes on after its values). A restart the table lists that is an autonegotiation rather than a
close/open (pause, EEE) is ordered the same way: harmless, and the table does not tell the two
apart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from sbctune.tuning import driver_caps
from sbctune.tuning.knobs import FEATURE_NAMES
from sbctune.tuning.model import Change, PlannedTweak, TuningPlan

T = TypeVar("T")

# ethtool's set option -> the table's name for the setting it changes (restarts_on)
_SETTING = {"-G": "rings", "--set-eee": "eee", "-A": "pause", "-L": "channels"}


@dataclass(frozen=True)
class OpenFacts:
    """What the driver of the session's NIC restarts the interface for and what its open sets
    back, from the table."""

    iface: str
    driver: str
    restarts: frozenset[str]  # settings: rings, mtu, channels, eee, pause
    restart_features: frozenset[str]  # -K features whose change restarts it
    resets: frozenset[str]  # -C parameters the driver's open sets back
    where: str  # "file: function" of the open's reset
    # -C parameters stored in whole ticks, rounded down, at every set (floor_steps)
    floors: tuple[tuple[str, int], ...] = ()
    # "file: function" where the open sets the NIC's IRQ affinity back; "" where it keeps it
    affinity_where: str = ""
    # "file: function" where the open turns EEE on again; "" where it keeps the user's choice
    eee_where: str = ""
    # the interrupts whose affinity the open sets back, as name prefixes ("{iface}:rx-"); ()
    # where it sets back every interrupt of the NIC (atlantic)
    affinity_names: tuple[str, ...] = ()
    # the condition under which the open turns EEE on again, in words; "" where it always does
    # (stmmac on 6.12: only a PHY found by address, which the inventory does not show)
    eee_if: str = ""


def open_facts(
    driver: str | None, iface: str | None, kernel: str | None = None, chip: str | None = None
) -> OpenFacts | None:
    """The facts for a NIC whose driver's open sets something back, else None."""
    caps = driver_caps.caps(driver, kernel, chip)
    if caps is None or not iface:
        return None
    resets = caps.facts.get("coalesce_reset_on_open") or []
    affinity_rule = caps.facts.get("irq_affinity_reset_on_open")
    affinity = bool(affinity_rule)
    names = affinity_rule.get("irq_names", []) if isinstance(affinity_rule, dict) else []
    eee_rule = caps.facts.get("eee_reset_on_open")
    eee = bool(eee_rule)
    by_address = isinstance(eee_rule, dict) and bool(eee_rule.get("phy_by_address"))
    if not resets and not affinity and not eee:
        return None
    return OpenFacts(
        iface,
        caps.driver,
        frozenset(caps.facts.get("restarts_on", [])),
        frozenset(caps.facts.get("restarts_on_features", [])),
        frozenset(str(r) for r in resets),
        caps.cite("coalesce_reset_on_open") if resets else "",
        tuple(driver_caps.floor_steps(caps.facts).items()),
        caps.cite("irq_affinity_reset_on_open") if affinity else "",
        caps.cite("eee_reset_on_open") if eee else "",
        tuple(str(n).replace("{iface}", iface) for n in names),
        "where its PHY is found by address (no phy-handle)" if by_address else "",
    )


def for_plan(plan: TuningPlan) -> OpenFacts | None:
    """The facts for the plan's NIC, as its inventory shows it."""
    inventory = plan.inventory
    nic = inventory.nic(plan.nic) if inventory is not None and plan.nic else None
    if inventory is None or nic is None:
        return None
    return open_facts(nic.driver, plan.nic, inventory.board.kernel, nic.chip)


def _parts(change: Change) -> tuple[str, str, str] | None:
    if change.kind != "ethtool":
        return None
    words = change.target.split(" ")
    return (words[0], words[1], words[2]) if len(words) == 3 else None


def restarts(change: Change, facts: OpenFacts | None) -> bool:
    """Whether writing `change` restarts the interface (the table's restart facts)."""
    if facts is None:
        return False
    if change.kind == "mtu":
        return change.target == facts.iface and "mtu" in facts.restarts
    parts = _parts(change)
    if parts is None or parts[0] != facts.iface:
        return False
    _iface, option, param = parts
    if option == "-K":
        return bool({param, FEATURE_NAMES.get(param, param)} & facts.restart_features)
    return _SETTING.get(option, "") in facts.restarts


def reopens(change: Change, facts: OpenFacts | None) -> bool:
    """Whether writing `change` restarts the interface in a way that sets other settings back:
    a restarting change that is itself a setting the open sets back is not one (stmmac's EEE:
    stmmac_ethtool_op_set_eee renegotiates through phylink, it does not close and open; were it
    a close/open, it would set itself back too), so it keeps its place after the real
    restarts (audit 30 row 1)."""
    return restarts(change, facts) and not reset_by_open(change, facts)


def reset_by_open(change: Change, facts: OpenFacts | None) -> bool:
    """Whether the driver's open sets `change`'s setting back."""
    if facts is not None and change.kind == "irq_affinity":
        return bool(facts.affinity_where) and _affinity_named(change, facts)
    parts = _parts(change)
    if facts is None or parts is None:
        return False
    iface, option, param = parts
    if iface == facts.iface and option == "--set-eee":
        return bool(facts.eee_where)
    return iface == facts.iface and option == "-C" and param in facts.resets


def _affinity_named(change: Change, facts: OpenFacts) -> bool:
    """Whether the open sets this interrupt's affinity back: every one where the fact names
    none, else one whose name starts as named (an interrupt known only by number: as if)."""
    if not facts.affinity_names or not change.irq_name:
        return True
    return change.irq_name.startswith(facts.affinity_names)


def where_reset(facts: OpenFacts, change: Change) -> str:
    """The "file: function" of the open that sets `change`'s setting back."""
    if change.kind == "irq_affinity":
        return facts.affinity_where
    parts = _parts(change)
    return facts.eee_where if parts is not None and parts[1] == "--set-eee" else facts.where


def ordered(items: Sequence[T], facts: OpenFacts | None, change: Callable[[T], Change]) -> list[T]:
    """`items` with every restarting change moved to just before the first setting the open
    sets back (where one comes after such a setting); the rest in their order."""
    if facts is None:
        return list(items)
    first = next((i for i, x in enumerate(items) if reset_by_open(change(x), facts)), None)
    if first is None:
        return list(items)
    tail = items[first:]
    moved = [x for x in tail if reopens(change(x), facts)]
    return [*items[:first], *moved, *(x for x in tail if not reopens(change(x), facts))]


def apply_order(changes: Sequence[Change], facts: OpenFacts | None) -> list[int]:
    """The positions of `changes` (in the session's order) in the order they are written."""
    return ordered(range(len(changes)), facts, lambda i: changes[i])


def revert_order(changes: Sequence[Change], facts: OpenFacts | None) -> list[int]:
    """The positions of `changes` (in the order applied) in the order they are put back:
    newest first, the restarts before the settings the open sets back."""
    return ordered(range(len(changes) - 1, -1, -1), facts, lambda i: changes[i])


def read_last(changes: Sequence[Change], facts: OpenFacts | None) -> set[int]:
    """The positions whose value the open sets back, where a change in `changes` restarts the
    interface: read back after every write, so that what is "in force" is the truth."""
    if not any(reopens(c, facts) for c in changes):
        return set()
    return {i for i, c in enumerate(changes) if reset_by_open(c, facts)}


def set_back_words(facts: OpenFacts, value: str | None, change: Change | None = None) -> str:
    """Plain words for a value the open set back after it was written."""
    now = "a value of its own" if value is None else value
    where = where_reset(facts, change) if change is not None else ""
    return (f"the {facts.driver} driver set it back to {now} when another change restarted the "
            f"interface (it does so at every restart: {where or facts.where}), so it is not in "
            "force")  # fmt: skip


def note_resets(
    items: Sequence[PlannedTweak],
    facts: OpenFacts | None,
    shown: dict[str, int | None],
    eee_off: bool = False,
) -> list[Change]:
    """The settings the driver's open sets back that no tweak of the plan writes (`shown`:
    their values now, `ethtool -c`; `eee_off`: `--show-eee` says EEE is off now), as changes
    that keep them (`before` == `after`): written again after the restart and after putting it
    back. The first tweak whose change restarts the interface says so in its reason."""
    planned = [i for i in items if i.applicable]
    restarting = [i for i in planned if any(c.needed and restarts(c, facts) for c in i.changes)]
    if facts is None or not restarting:
        return []
    kept_eee = _eee_kept(planned, facts, eee_off)
    return [*_coalescing_kept(planned, restarting, facts, shown), *kept_eee]


def _eee_kept(planned: Sequence[PlannedTweak], facts: OpenFacts, eee_off: bool) -> list[Change]:
    """EEE that is off now and that the driver's open turns on again (eee_reset_on_open:
    stmmac on 6.12 for a PHY found by address, stmmac_init_phy's phy_support_eee), where a
    change of the plan reopens the interface and none writes EEE: written off again after the
    restart and after undoing it, as a coalescing value the open sets back is (audit 38a row
    2: a ring or MTU change turned the user's EEE-off back on, unsaid, and revert left it on)."""
    reopening = [i for i in planned if any(c.needed and reopens(c, facts) for c in i.changes)]
    writes_eee = any(c.needed and (_parts(c) or ("", "", ""))[1] == "--set-eee"
                     for i in planned for c in i.changes)  # fmt: skip
    if not eee_off or not facts.eee_where or not reopening or writes_eee:
        return []
    when = f" {facts.eee_if}" if facts.eee_if else ""
    reopening[0].reason += (f"; restarting the interface turns Energy-Efficient Ethernet, off "
                            f"now, on again{when} ({facts.eee_where}), so sbctune turns it off "
                            "again after the restart and after undoing it")  # fmt: skip
    return [Change("ethtool", f"{facts.iface} --set-eee eee", "off", "off")]


def _coalescing_kept(
    planned: Sequence[PlannedTweak], restarting: Sequence[PlannedTweak], facts: OpenFacts,
    shown: dict[str, int | None],
) -> list[Change]:  # fmt: skip
    """The coalescing values the open sets back that no tweak writes (note_resets)."""
    written = {c.target.split(" ")[-1] for i in planned for c in i.changes
               if c.needed and reset_by_open(c, facts)}  # fmt: skip
    left = sorted(p for p in facts.resets if shown.get(p) is not None and p not in written)
    if not left:
        return []
    now = ", ".join(f"{p} (now {shown[p]})" for p in left)
    restarting[0].reason += (f"; restarting the interface sets {now} back to the "
                             f"{facts.driver} driver's own value ({facts.where}), so sbctune "
                             "writes it again after the restart and after undoing it")  # fmt: skip
    return [
        Change(
            "ethtool",
            f"{facts.iface} -C {p}",
            str(shown[p]),
            str(shown[p]),
            written=driver_caps.coalesce_written(
                {"coalesce_step_floor_ns": dict(facts.floors)}, p, [int(shown[p] or 0)], shown
            ),
        )
        for p in left
    ]


def after_last_restart(order: Sequence[int], changes: Sequence[Change], facts: OpenFacts | None
                       ) -> int | None:  # fmt: skip
    """The position in `order` just after its last change that restarts the interface."""
    found = [n for n, i in enumerate(order) if reopens(changes[i], facts)]
    return found[-1] + 1 if found else None
