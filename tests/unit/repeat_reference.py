"""The facts a repeated log line says again, made the plain way (Fact.at per template fact),
as from_dmesg made them before its stamps: the reference its stamp tests compare against."""

from __future__ import annotations

from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Fact, Sighting


def plain_again(template: Sighting, event: DmesgEvent) -> list[Fact]:
    """A repeat's facts: link events and enumerations take the repeat's clock, the rest keep
    their value; every fact moves to the repeat's line."""
    no = event.line
    return [
        f.at(no, (no, event.timestamp, f.value[2]))
        if f.field in ("link_event", "daemon_link_event")
        else f.at(no, (f.value[0], event.timestamp))
        if f.field == "enumeration"
        else f.at(no, f.value)
        for f in template.facts
    ]
