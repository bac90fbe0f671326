"""Interfaces named by a name only one kernel driver gives, in any log line.

``resources/kernel_source/netdev_name_templates.json`` (scripts/regen_netdev_templates.py, from
Debian's linux-source-6.1 and 6.12): the templates one driver alone registers its interfaces
with (net/bluetooth/bnep/core.c's ``"bnep%d"``, thunderbolt-net's ``"thunderbolt%d"``). A program
other than the kernel may be the only one to name such an interface (bluetoothd's "Added new
connection: bnep0", "bnep: Can't add bnep0 to the bridge pan0"); the name says which driver's
interface it is, so the log's word is a sighting of it. Virtual kinds (bond, dummy, can ...) stay
none (sightings.iface_key). One ``str.find`` scan of the log per template that its distinct line
texts hold (nine templates today; none for most logs); no text from a Pi is made a regex."""

from __future__ import annotations

import functools
import json
import re

from sbctune.inventory.sightings import Sighting, iface_key

_SRC = "dmesg"
_MAX_SIGHTINGS = 64  # a log naming more is not a handful of links
_MIN_LEN = 4
_DIGITS = re.compile(r"\d{1,3}(?![\w-])")
_MAX_HITS = 4096  # occurrences of one template looked at, at most (a log repeating one line)


@functools.cache
def _templates() -> dict[str, str]:
    """template → the files that give it, for the ones read from any line (not virtual)."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "netdev_name_templates.json")
        table = json.loads(path.read_text(encoding="utf-8"))["templates"]
        # a template of two or three letters and a number is also an ordinary word of a log
        # (a host "nas01" in a prompt, the crypto module "arc4" in "Modules linked in", a codec
        # "es7..."): only the longer ones are read from any line
        return {
            str(p): ", ".join(e["files"])
            for p, e in table.items()
            if len(p) >= _MIN_LEN and iface_key(f"{p}0") is not None  # bond0, dummy0: virtual
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def template_sightings(text: str, bodies: tuple[str, ...] | None = None) -> list[Sighting]:
    """A sighting of each interface a log line names by a one-driver template (bnep0).
    `bodies`: the log's distinct line texts, which hold every word of `text`
    (DmesgResult.bodies): the whole text (~30 MB for 100 000 lines, a scan per template) is
    searched only for the templates they hold (a long log's text repeats under new clocks)."""
    seen: dict[str, Sighting] = {}
    templates = _templates()
    if bodies is not None:
        held = "\n".join(bodies)
        templates = {t: files for t, files in templates.items() if t in held or not _two_letters(t)}
    for template, files in templates.items():
        at, hits = text.find(template), 0
        while at != -1 and hits < _MAX_HITS and len(seen) < _MAX_SIGHTINGS:
            hits += 1
            end = at + len(template)
            before = text[at - 1] if at else " "
            digits = _DIGITS.match(text, end)
            if digits is not None and not (before.isalnum() or before in "_.-"):
                name = text[at : digits.end()]
                if name not in seen and (key := iface_key(name)) is not None:
                    seen[name] = _sighting(text, at, key, f"a name only {files} gives")
            at = text.find(template, end)
    return list(seen.values())


def _two_letters(template: str) -> bool:
    """What DmesgResult.bodies vouch for: a template of word characters, two of them letters."""
    return sum(c.isalpha() for c in template) >= 2 and template.replace("-", "_").isidentifier()


def _sighting(text: str, at: int, key: tuple[str, str], why: str) -> Sighting:
    start = text.rfind("\n", 0, at) + 1
    stop = text.find("\n", at)
    line = text[start : len(text) if stop == -1 else stop]
    sighting = Sighting([key])
    number = text.count("\n", 0, start) + 1  # 1-based, as DmesgEvent.line
    sighting.add("seen", True, _SRC, f"{line.strip()[:200]} ({why})", number)
    return sighting
