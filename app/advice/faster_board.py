"""What "for more speed, use a Pi 4 or 5" rests on, and only that: the built-in NIC's own line
rate and measured figure (the cap), the shared USB 2.0 bus behind it, and the Pi 4's built-in
Ethernet (its gigabit line rate and a measured figure, with the words of the measurement). The s13
walk found the advice citing the chip's unrelated error reports; a source must support the claim
it is attached to."""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.catalog import Catalog
from sbctune.catalog.model import Chip

GIGABIT_BOARD_CHIP = "broadcom-genet"  # the Pi 4's built-in Ethernet (catalog/chips.json)
DEFAULT_TARGET_MBPS = 940.0


@dataclass
class FasterBoard:
    target_mbps: float = DEFAULT_TARGET_MBPS
    sources: list[str] = field(default_factory=list)
    # The figure of a source whose title does not name it (the I340 article's CM4 line), in its
    # own words.
    evidence: list[str] = field(default_factory=list)

    def cite(self, source: str | None, line: str = "") -> None:
        if source and source not in self.sources:
            self.sources.append(source)
        if line and line not in self.evidence:
            self.evidence.append(line)


def faster_board(catalog: Catalog, chip: Chip) -> FasterBoard:
    """The target and the sources of the advice to use a board with native gigabit Ethernet."""
    basis = FasterBoard()
    if chip.line_rate_mbps:
        basis.cite(chip.line_rate_source)
    for m in chip.measurements_for(test="single_port"):
        if m.kind == "measured":
            basis.cite(m.source)  # its title names the figure: "smsc95xx at 100 Mbit/s"
    usb2 = catalog.bus("usb2")
    shared = usb2.figure("signalling_mbps") if usb2 else None
    if shared is not None and chip.bus == "usb":
        basis.cite(shared.source)
    gigabit = catalog.chip(GIGABIT_BOARD_CHIP)
    if gigabit is None:
        return basis
    if gigabit.line_rate_mbps:
        basis.cite(gigabit.line_rate_source)
    best = gigabit.ceiling_mbps(None)
    if best is not None:
        board = catalog.board(best.board)
        where = board.name if board else best.board
        basis.target_mbps = best.value_mbps
        basis.cite(
            best.source,
            # Not its words verbatim (they say "Mbps"): which line of the source holds it.
            f"~{best.value_mbps:g} Mbit/s: its author's own test of the built-in Ethernet of a "
            f"{where}, stated in the source below",
        )
    return basis
