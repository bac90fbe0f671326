"""net-tools' short interface table: ``ifconfig -s`` and ``netstat -i``.

Both print it with ife_print_short() (net-tools lib/interface.c): a header
``Iface   MTU Met   RX-OK RX-ERR RX-DRP RX-OVR    TX-OK TX-ERR TX-DRP TX-OVR Flg`` (net-tools 2.x
drops ``Met``) and one row per interface whose last column packs the interface flags into
letters. The columns are read by the header's own words, so either layout works (a header in
another language by its catalog's English words: tool_labels.netstat_i_header), and a row is
taken only when its shape is the table's (a name, then an integer MTU, then numbers).
"""

from __future__ import annotations

from .common import to_int
from .netif_model import NetInterface
from .tool_labels import netstat_i_header

__all__ = ["short_table_header", "short_table_row"]

# ife_print_short()'s letters, in its order: "A" ALLMULTI, "B" BROADCAST, "D" DEBUG,
# "L" LOOPBACK, "M" MULTICAST, "d" DYNAMIC, "P" PROMISC or POINTOPOINT (both print "P", so
# it names neither), "N" NOTRAILERS, "O" NOARP, "s" SLAVE, "m" MASTER, "R" RUNNING, "U" UP.
# RUNNING is IFF_RUNNING, the carrier the long format prints as "RUNNING".
_FLAG_LETTERS = {
    "A": "ALLMULTI",
    "B": "BROADCAST",
    "D": "DEBUG",
    "L": "LOOPBACK",
    "M": "MULTICAST",
    "d": "DYNAMIC",
    "N": "NOTRAILERS",
    "O": "NOARP",
    "s": "SLAVE",
    "m": "MASTER",
    "R": "RUNNING",
    "U": "UP",
}
# counters the row carries, by the header's word (the -OVR columns are FIFO errors: not kept)
_COUNTERS = {
    "RX-OK": "rx_packets",
    "RX-ERR": "rx_errors",
    "RX-DRP": "rx_dropped",
    "TX-OK": "tx_packets",
    "TX-ERR": "tx_errors",
    "TX-DRP": "tx_dropped",
}
_MAX_COLUMNS = 16


def short_table_header(line: str) -> list[str] | None:
    """The table's header words, or None when the line is not that header."""
    if not line.startswith("Iface"):  # every ifconfig line passes here: no split for most
        return netstat_i_header(line) if line[:1].isalpha() else None
    words = line.split(None, _MAX_COLUMNS)
    if len(words) < 4 or len(words) > _MAX_COLUMNS:
        return None
    if words[0] != "Iface" or words[1] != "MTU" or words[-1] != "Flg" or "RX-OK" not in words:
        return netstat_i_header(line)  # ja, pt_BR: "Iface" kept, "フラグ" / "Opções" for Flg
    return words


def short_table_row(columns: list[str], line: str) -> NetInterface | None:
    """One row of the table under ``columns`` (short_table_header()'s words), or None when the
    line is not a row: a name, an integer MTU, integers under every counter, and the flag
    letters (``[NO FLAGS]`` when none is set) in the last column."""
    if line[:1].isspace():
        return None
    words = line.split(None, _MAX_COLUMNS)
    if words[-2:] == ["[NO", "FLAGS]"]:
        words = [*words[:-2], ""]
    if len(words) != len(columns):
        return None
    row = dict(zip(columns, words, strict=True))
    mtu = to_int(row["MTU"])
    if mtu is None:
        return None
    netif = NetInterface(name=row["Iface"], mtu=mtu)
    for column, attr in _COUNTERS.items():
        if column in row:
            value = to_int(row[column])
            if value is None:
                return None
            setattr(netif, attr, value)
    letters = row["Flg"]
    if any(ch not in _FLAG_LETTERS and ch != "P" for ch in letters):
        return None
    netif.flags = [_FLAG_LETTERS[ch] for ch in letters if ch in _FLAG_LETTERS]
    return netif
