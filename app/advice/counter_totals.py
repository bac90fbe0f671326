"""The interface totals a driver fills with receive drops as well as with damaged frames.

``rx_errors`` reads as "frames that arrived damaged", and sbctune blames such errors on the
cable. Some drivers add to it the frames they had no room for: bcmgenet (a Pi 4) the ring's
DMA discard count (bcmgenet_desc_rx), macb's GEM (a Pi 5) its no-buffer and FIFO-overrun
counts (gem_get_stats). On those a receiver that cannot keep up shows rx_errors with every
CRC counter at 0 (raspberrypi/linux #6488), so the total is judged as a drop, with the
driver's own words cited. Facts: resources/tuning/driver_caps.json, hand fact
``rx_errors_count_drops`` (checked against the cited function by
tests/test_driver_caps_source.py; driver_caps_audit21.md row 1).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from sbctune.tuning import driver_caps

FACT = "rx_errors_count_drops"


@dataclass(frozen=True)
class DropTotal:
    driver: str
    counts: str  # what the driver adds besides damaged frames, in its source's terms
    where: str  # "file: function"

    def note(self, name: str) -> str:
        return (
            f"{self.driver} counts in {name} {self.counts} ({self.where}), not only damaged "
            "frames: its CRC and alignment counters tell the two apart."
        )


def drop_totals(driver: str | None, kernel: str | None = None) -> dict[str, DropTotal]:
    """Normalized counter name -> what the driver also counts in it (empty where nothing), on
    the running kernel where it says its release (bcmgenet counts its discards as missed, not
    errors, from 6.16: audit 31 row 6); without one, what the table's series say."""
    total = _drop_total(driver, kernel)
    return {} if total is None else {"rx_errors": total}


@functools.lru_cache(maxsize=256)
def _drop_total(driver: str | None, kernel: str | None) -> DropTotal | None:
    """Once per driver and kernel: caps() builds the driver's whole capability record from the
    shipped table (~0.2 ms), and each NIC's counters ask twice (a log naming 195 NICs: ~40 ms)."""
    caps = driver_caps.caps(driver, kernel)
    if caps is None or not caps.facts.get(FACT):
        return None
    return DropTotal(caps.driver, str(caps.facts[FACT]), caps.cites.get(FACT, ""))
