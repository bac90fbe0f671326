"""Find my Pi, before Connect: what to look for and what to say when nothing answers, for both
front ends (`sbctune find`, the Connect page's Find).

Imported on use only: the discovery layer loads zeroconf, which other commands never need.
"""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.discovery import FindOptions, FoundHost, find_pis
from sbctune.discovery.find import DEFAULT_NAMES
from sbctune.history import History

MAX_SECONDS = 30.0  # listening longer finds nothing more, and the user waits


def names_used_before(history: History) -> tuple[str, ...]:
    """The `.local` names the user connected to before: resolved as well as browsed for."""
    return tuple(d.host for d in history.devices() if d.host.lower().endswith(".local"))


def find_options(
    seconds: float = 3.0,
    *,
    scan: bool = False,
    interfaces: Sequence[str] = (),
    names_before: tuple[str, ...] = (),
) -> FindOptions:
    return FindOptions(
        seconds=min(seconds, MAX_SECONDS),
        scan=scan,
        known_names=DEFAULT_NAMES + names_before,
        interfaces=tuple(interfaces),
    )


async def find(options: FindOptions) -> list[FoundHost]:
    """Every host found, Raspberry Pis first. Sends mDNS only unless `options.scan`."""
    return await find_pis(options)


def nothing_found_hint(scanned: bool, how_to_scan: str) -> str:
    """What to do when no Pi answered; `how_to_scan` names the front end's way to ask for the
    port-22 probe (a flag, a button)."""
    first = (
        "Check that it is powered and on this network; on Raspberry Pi OS, avahi-daemon "
        "announces it."
    )
    if scanned:
        return f"{first} Its address may also be in your router's list of clients."
    return f"{first} {how_to_scan} also probes port 22 on this subnet."
