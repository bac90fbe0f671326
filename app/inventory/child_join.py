"""The lines of a device the kernel registers below a NIC's own device ("mhi mhi0", "ieee80211
phy0"; ``sbctune.catalog.child_devices``) joined to the device that owns it.

Such a name says nothing of its parent, so the log is asked: the child belongs to the device
whose driver registers such children (ath11k_pci registers MHI controllers; any Wi-Fi driver a
wiphy). When the log shows one such device, it is that one; with several, the one whose own
lines are next to the child's (within a few lines), if one is nearer than the rest; otherwise
the child is joined to none (its lines then make no NIC). Each joined line says how it was
joined, so a finding quoting it says so too.
"""

from __future__ import annotations

import functools
from bisect import bisect_left

from sbctune.catalog.child_devices import ChildKind, child_kinds, child_name
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.inventory.found_index import FoundIndex
from sbctune.inventory.sightings import Fact, Key, Sighting

CHILD = "child"  # the key of a child's lines until they are joined: ("child", "mhi mhi0")
_NEAR = 5  # lines: how near a parent's own line must be when several could own the child
_OWNERS = ("driver", "refused_by", "probed_by")
_DEVICES = ("pci", "usb", "sdio", "platform")


def child_key(prefix: str | None, device: str | None) -> Key | None:
    """The key of a child device's line ("mhi", "mhi0_IPCR" → ("child", "mhi mhi0"))."""
    found = child_name(prefix, device)
    return (CHILD, f"{found[0].prefix} {found[1]}") if found else None


@functools.lru_cache(maxsize=1024)
def _fits(kind: ChildKind, driver: str) -> bool:
    if kind.parent_dir:  # stmmac's MDIO bus: any driver of stmmac's directory (dwmac-*)
        glue = load_kernel_drivers().get(driver)
        return glue is not None and glue.file.startswith(kind.parent_dir)
    if kind.parents:
        return driver in kind.parents or driver.replace("_", "-") in kind.parents
    known = load_kernel_drivers().get(driver)
    return known is not None and known.wireless


def _owners(said: FoundIndex) -> list[tuple[Key, str, int]]:
    """(device key, driver, line) of every log line that names a driver on a device."""
    out: list[tuple[Key, str, int]] = []
    for sighting in said.saying(*_OWNERS):  # no other's first facts could name one
        for key in sighting.keys:
            if key[0] in _DEVICES:
                break
        else:
            continue  # no device key
        # A line's driver is among its first facts (device_line_keys.device_sighting adds it
        # first, after a platform name); a repeated line's sighting holds only its counted
        # facts, which can be tens of thousands in a long log: not read.
        for fact in sighting.facts[:4]:
            if fact.field in _OWNERS and isinstance(fact.value, str):
                out.append((key, fact.value, fact.order))
    return out


def _parent(
    kind: ChildKind, owners: list[tuple[Key, str, int]], lines: list[int]
) -> tuple[Key, str, str] | None:
    near: dict[Key, tuple[int, str, int]] = {}  # key -> (distance, driver, its line)
    # asked once per driver (a long log's ~2 500 owner lines name a few hundred; each _fits
    # call hashes the kind)
    fits = {driver for driver in {owner[1] for owner in owners} if _fits(kind, driver)}
    for key, driver, order in owners:
        if driver not in fits:
            continue
        at = bisect_left(lines, order)  # lines is sorted: the nearest is beside `at`
        distance = min(abs(order - lines[i]) for i in (at - 1, at) if 0 <= i < len(lines))
        if key not in near or (distance, order, driver) < (
            near[key][0],
            near[key][2],
            near[key][1],
        ):
            near[key] = (distance, driver, order)  # the nearest line; the first of equals
    if len(near) == 1:
        ((key, (_d, driver, _o)),) = near.items()
        return key, driver, "the only device in this log whose driver registers one"
    ranked = sorted(near.items(), key=lambda item: (item[1][0], item[0]))
    if len(ranked) < 2 or ranked[0][1][0] > _NEAR or ranked[0][1][0] == ranked[1][1][0]:
        return None
    key, (_d, driver, order) = ranked[0]
    return key, driver, f"the {driver} device whose line {order} is next to it"


def join_children(found: list[Sighting], index: FoundIndex | None = None) -> list[Sighting]:
    """The sightings with each child's lines keyed by the device that owns it. (`index`:
    found's, when made already; a joined child's new sighting replaces its old there too.)"""
    said = index or FoundIndex(found)
    children: dict[str, list[int]] = {}
    for i in said.keyed_places(CHILD):
        sighting = found[i]
        if sighting.keys and sighting.keys[0][0] == CHILD:
            children.setdefault(sighting.keys[0][1], []).append(i)
    if not children:
        return found
    owners = _owners(said)
    out = list(found)
    for value, indexes in sorted(children.items()):
        prefix, _sep, name = value.partition(" ")
        kind = child_kinds().get(prefix)
        lines = sorted({f.order for i in indexes for f in found[i].facts})
        parent = _parent(kind, owners, lines) if kind is not None and lines else None
        if kind is None or parent is None:
            continue
        key, driver, how = parent
        note = f" [{name}: {kind.what} that {driver} registers below {key[1]}; {how}]"
        for i in indexes:
            facts = [
                Fact(f.field, f.value, f.source, f.line + note, f.order) for f in found[i].facts
            ]
            # an interface its line names comes along ("eth0: PHY ID ... (stmmac-0:00)")
            out[i] = Sighting([key, *(k for k in found[i].keys if k[0] == "if")], facts)
            said.replace(i, out[i])
    return out
