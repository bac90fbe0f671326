"""The chips a driver's function names by printing itself (``"%s: ...", __func__``) from a
per-chip source file (``resources/kernel_source/func_chips.json``, generated from Debian's
linux-source-6.1 and 6.12 by ``scripts/regen_func_chips.py``): "usb 1-6: rtl8192eu_parse_efuse:
dumping efuse" is printed by rtl8xxxu's RTL8192EU file, which drives the RTL8192EU and the
RTL8191EU. One dictionary look-up per line of a driver about its device.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

# "usb 1-6: rtl8192eu_parse_efuse: ...", "rtl8xxxu 1-6:1.0: rtl8192eu_...: ...": the function
# right after the device's name
_FUNCTION_RE = re.compile(r"^[\w-]{1,32} [\w.:@-]{1,64}?: ([a-z][a-z0-9]{1,20}_[a-z0-9_]{1,60}): ")


@functools.cache
def _table() -> dict[str, Any]:
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "func_chips.json")
        functions = json.loads(path.read_text(encoding="utf-8")).get("functions", {})
    except (OSError, ValueError, AttributeError):
        return {}
    return functions if isinstance(functions, dict) else {}


def printed_in(function: str) -> tuple[str, ...]:
    """The source files (any series) a driver's function that prints its own name is in:
    "rtl8192cu_parse_efuse" is rtl8xxxu's (rtl8xxxu_8192c.c in 6.1, 8192c.c in 6.12), though
    its name opens with another driver's (rtlwifi's rtl8192cu)."""
    entry = _table().get(function)
    files = entry.get("printed_in") if isinstance(entry, dict) else None
    if not isinstance(files, dict):
        return ()
    return tuple(sorted({str(f) for f in files.values()}))


def chips_by_function(text: str) -> tuple[str, str] | None:
    """(the chips, as the user reads them; the file that names them) for a line a per-chip
    function printed: ("RTL8192EU or RTL8191EU", ".../rtl8xxxu/8192e.c")."""
    found = _FUNCTION_RE.match(text[:200])
    entry = _table().get(found.group(1)) if found else None
    if not isinstance(entry, dict) or not entry.get("chips"):
        return None
    chips = [str(c) for c in entry["chips"]]
    named = entry.get("chips_named_in") or {}
    where = next(iter(named.values()), "") if isinstance(named, dict) else ""
    return " or ".join(chips), str(where)
