"""The formats network drivers print about their device with the interface's name inside the
message, read from the 6.1 and 6.12 source by scripts/regen_netdev_named_formats.py
(resources/kernel_source/netdev_named_formats.json): igb_ptp.c's `dev_info(&adapter->pdev->dev,
"added PHC on %s\\n", adapter->netdev->name)` prints "igb 0000:03:00.0: added PHC on eth2", a
line that ties the device to the interface although dev_printk named only the device.

A message is tested only against the formats whose longest literal word it holds; formats are
constants of the shipped table, never text from a Pi."""

from __future__ import annotations

import functools
import json
import re

from sbctune.catalog.format_fields import SPEC_RE, format_fields

# dev_valid_name() (net/core/dev.c): below IFNAMSIZ (16), no "/", ":" or white space
_NAME = r"[^\s/:]{1,15}"


@functools.cache
def _formats() -> tuple[tuple[str, re.Pattern[str]], ...]:
    """(needle, regex) per format: the name conversion a named group, the others anything."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "netdev_named_formats.json")
        rows = json.loads(path.read_text(encoding="utf-8"))["formats"]
        out: list[tuple[str, re.Pattern[str]]] = []
        for fmt, row in rows.items():
            at, k, fields = int(row["name_at"]), 0, []
            if at == 0 and fmt.startswith("%s"):
                # "%s link is down" (atlx.c) would read any first word as a name ("ar724x-pci
                # 180c0000.pcie-controller: PCIe link is down"); a driver that prints the name
                # first prints "%s: ..." after its device, which the "device: iface:" shape
                # (dmesg_patterns OLD_NETDEV) reads already
                continue
            for i, spec in enumerate(SPEC_RE.finditer(fmt)):  # "%%" is no argument's
                fields.append("name" if spec.group(1) != "%" and k == at else f"c{i}")
                k += spec.group(1) != "%"
            source, needle = format_fields(
                fmt, fields, lambda m: _NAME if m.group(1) == "s" else r".*?"
            )
            if "(?P<name>" in source and len(needle) >= 3:
                out.append((needle, re.compile(source)))
        return tuple(out)
    except (OSError, ValueError, KeyError, TypeError, AttributeError, re.error):
        return ()


def iface_named(message: str) -> str | None:
    """The interface a driver's device line names inside its message ("added PHC on eth2"),
    when the message is exactly one of the table's formats; else None."""
    text = message.rstrip()
    for needle, regex in _formats():
        if needle in text and (m := regex.fullmatch(text)) is not None:
            return m.group("name")
    return None
