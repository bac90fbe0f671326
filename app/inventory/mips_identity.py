"""A MIPS board's own words for itself: /proc/cpuinfo's "machine" (the device tree's model,
arch/mips/kernel/proc.c show_cpuinfo(): mips_get_machine_name()) and its "system type", which the
log prints too ("SoC Type: MediaTek MT7628AN ver:1 eco:2"); the SoC is the word of the system
type that the platform's format fills (catalog/mips_system_types.py)."""

from __future__ import annotations

from sbctune.catalog.mips_system_types import system_type_soc
from sbctune.inventory.raw import Parsed


def _logged(parsed: Parsed, kind: str) -> list[dict[str, str]]:
    return [e.fields for e in parsed.dmesg.of_kind(kind)] if parsed.dmesg is not None else []


def mips_machine(parsed: Parsed) -> str | None:
    """The "machine" line of /proc/cpuinfo (the file, else a paste of it inside a log)."""
    if parsed.cpuinfo is not None and parsed.cpuinfo.machine:
        return parsed.cpuinfo.machine
    pasted = [f["value"] for f in _logged(parsed, "cpuinfo") if f.get("key") == "machine"]
    return pasted[-1] if pasted else None


def mips_soc(parsed: Parsed) -> tuple[str, str] | None:
    """(SoC, where it was read) from the system type, the file's before the log's last."""
    said: list[str | None] = [parsed.cpuinfo.system_type] if parsed.cpuinfo is not None else []
    # procd's `ubus call system board` "system" is cpuinfo's "system type" on MIPS
    said += [parsed.ubus_board.system] if parsed.ubus_board is not None else []
    said += [f["value"] for f in _logged(parsed, "cpuinfo") if f.get("key") == "system type"]
    said += [f["system"] for f in _logged(parsed, "system_type")][::-1]
    for text in said:
        found = system_type_soc(text)
        if text is not None and found is not None:
            return found.soc, f"the MIPS system type {text.strip()!r} (the format of {found.file})"
    return None
