"""The adapter names server NIC drivers print once they probed a device
(``resources/kernel_source/probe_names.json``, generated from Debian's linux-source-6.1 and 6.12
by ``scripts/regen_probe_names.py``): bnxt_en's "Broadcom BCM57412 NetXtreme-E 10Gb Ethernet
found at mem ..." (bnxt.c bnxt_print_device_info()), bnx2's "... (B2) PCI-X 64-bit 133MHz found
at mem ...", be2net's "Emulex OneConnect(Lancer): PF  port 0" (be_main.c be_probe()), cxgb4's
"Chelsio T62100-SO-CR rev 0" (t4_hw.c t4_dump_version_info(), the card's VPD id).

A message is read only if, after its format's literal head, one of the driver's names is
followed by the format's next literal (a set look-up; no text from a Pi is made a regex); a
VPD id is one word of letters, digits and dashes."""

from __future__ import annotations

import functools
import json

_WORD = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.")


@functools.cache
def _rows() -> dict[str, tuple[str, str, frozenset[str] | None]]:
    """driver -> (the format's head before its name, the literal after it, the names)."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "probe_names.json")
        drivers = json.loads(path.read_text(encoding="utf-8"))["drivers"]
        rows = {}
        for driver, row in drivers.items():
            head, _, tail = str(row["format"]).partition("%s")
            names = row["names"]
            rows[driver] = (head, tail.partition("%")[0], frozenset(names) if names else None)
        return rows
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {}


def probe_name(driver: str | None, message: str) -> str | None:
    """The adapter name a driver's probe message prints, if it is one the driver can print."""
    row = _rows().get(driver or "")
    if row is None or not message.startswith(row[0]):
        return None
    head, after, names = row
    rest = message[len(head) : len(head) + 160]
    if names is None:  # the card's own id: one word, then the format's next literal
        word = rest.partition(" ")[0]
        if 2 <= len(word) <= 40 and set(word) <= _WORD and rest[len(word) :].startswith(after):
            return f"{head}{word}".strip()
        return None
    return next((name for name in sorted(names) if rest.startswith(name + after)), None)
