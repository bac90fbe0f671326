"""Log lines that name their device by its device-tree node (``%pOF``).

``resources/kernel_source/of_node_formats.tsv`` (scripts/regen_of_node_formats.py, from Debian's
linux-source-6.1 and 6.12) holds every drivers/net/ format that prints ``%pOF``, at any level:
the IBM EMAC's ``"%s: EMAC-%d %pOF, MAC %pM"`` (ibm/emac/core.c emac_probe()) prints ``eth0:
EMAC-0 /plb/opb/ethernet@ef600c00, MAC ...``. A line is matched to its format by the same
reader as the kernel's message table (sbctune.catalog.kernel_messages); the node is what the
format's first ``%pOF`` printed. Formats are constants from the table: no text from a Pi is
made a regex.
"""

from __future__ import annotations

import functools
import re

from sbctune.catalog.kernel_messages import MessageTable, load_format_table

# the kernel's conversions, pointer ones whole ("%pOF", "%pM"): kernel_messages' rule
_SPEC_RE = re.compile(
    r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?(p[A-Za-z][A-Za-z0-9]*|[a-zA-Z%])"
)
# what %pOF prints: the node's full path, "/" and its names (lib/vsprintf.c device_node_string();
# node names are letters, digits and , . _ + - with "@unit-address": the devicetree spec 2.2.1)
_NODE_RE = re.compile(r"(?:/[A-Za-z0-9,._+@-]+)+")
_MAX_NODE = 256


def _table() -> MessageTable:
    return load_format_table("of_node_formats.tsv")


@functools.cache
def _node_regex(fmt: str) -> re.Pattern[str]:
    """The format as a regex whose group "node" is its first %pOF (the line's own device)."""
    out: list[str] = []
    pos = 0
    named = False
    for m in _SPEC_RE.finditer(fmt):
        out.append(re.escape(fmt[pos : m.start()]))
        if m.group(1) == "pOF" and not named:
            out.append(r"(?P<node>/\S*?)")
            named = True
        else:
            out.append("%" if m.group(1) == "%" else r".*?")
        pos = m.end()
    out.append(re.escape(fmt[pos:]))
    return re.compile(r"(?:^|(?<=[\s:\]]))" + "".join(out) + r"\s*$")


def of_node_named(text: str) -> str | None:
    """The device-tree node a kernel line names its device by ("/plb/opb/ethernet@ef600c00"),
    when the line was printed from a format of the table; None otherwise."""
    if "/" not in text:  # a node's path starts with one: no line without it is matched (C)
        return None
    message = _table().match(text)
    if message is None:
        return None
    found = _node_regex(message.format).search(text[:400])
    # "%pOFn" prints a node's name alone (lib/vsprintf.c device_node_string(), 'n'): the
    # format then has no path to read (netcp_ethss.c's "Failed to initialize secondary
    # port(%pOFn), skipping...")
    node = found.group("node") if found and "node" in found.re.groupindex else None
    if node is None or len(node) > _MAX_NODE or _NODE_RE.fullmatch(node) is None:
        return None
    return node
