"""A tweak's why and sources for this Pi: the general text, a sentence naming the NIC's real
driver (the tweak's `here`), and only the evidence sentences whose published tests fit this
board, bus and driver (the s13 walk: a Pi 5's RPS row said "the Pi's own bcmgenet" and cited a
Pi 4's USB adapters)."""

from __future__ import annotations

from sbctune.inventory.model import Inventory, Nic
from sbctune.textsafe import visible
from sbctune.tuning.model import Evidence, Tweak

# `when.boards` may name "unknown": a Pi whose board was not read (the seed labs: a write-up
# names its board only in prose), met only with the adapters the published test used.
UNKNOWN_BOARD = "unknown"


def _queues(nic: Nic) -> str:
    """The NIC's receive queues, and for several what RPS still does there: the why speaks of
    one queue, and "… with 4 receive queues." after it read as a contradiction (walk 18, a
    CM4's igb)."""
    count = nic.rx_queues
    if count is None or count < 1:
        return ""
    if count == 1:
        return " with one receive queue"
    if nic.irqs and set(nic.irqs) <= set(nic.fixed_irqs):
        return (
            f" with {count} receive queues, but the kernel cannot spread their interrupts over "
            "the cores (see “Move the NIC's interrupts off CPU 0”), so their packet work meets "
            "on one CPU as with a single queue"
        )
    # Documentation/networking/scaling.rst, "RPS Configuration": with a queue per CPU RPS is
    # "probably redundant", with fewer it "might be beneficial".
    return (
        f" with {count} receive queues: RPS helps while their interrupts are taken by fewer "
        "cores than the Pi has (the kernel's networking/scaling.rst)"
    )


def fits(evidence: Evidence, board: str | None, nic: Nic | None) -> bool:
    """Whether a published test's board, bus and driver fit this Pi (empty: any; a board not
    read is "unknown")."""
    if evidence.boards and (board or UNKNOWN_BOARD) not in evidence.boards:
        return False
    if evidence.buses and (nic is None or nic.bus not in evidence.buses):
        return False
    return not evidence.drivers or (nic is not None and nic.driver in evidence.drivers)


def _here(template: str, nic: Nic | None) -> str:
    """The tweak's sentence about this NIC ("" where its name or driver was not read)."""
    if not template or nic is None or not nic.name or not nic.driver:
        return ""
    return template.format(
        iface=visible(nic.name[:40]), driver=visible(nic.driver[:40]), queues=_queues(nic)
    )


def why_for(
    tweak: Tweak, inventory: Inventory | None, nic: Nic | None
) -> tuple[str, tuple[str, ...]]:
    """The tweak's why and sources as they hold for this board and NIC."""
    board = inventory.board.catalog_id if inventory is not None else None
    parts = [tweak.why]
    sources = list(tweak.sources)
    here = _here(tweak.here, nic)
    if here:
        parts.append(here)
    for evidence in tweak.evidence:
        if fits(evidence, board, nic):
            parts.append(evidence.text)
            sources += [s for s in evidence.sources if s not in sources]
    return " ".join(parts), tuple(sources)
