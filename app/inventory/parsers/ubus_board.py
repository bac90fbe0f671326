"""OpenWrt's ``ubus call system board`` (procd system.c system_board()): a JSON object whose
``"kernel"`` is uname's release, ``"system"`` the first of /proc/cpuinfo's "system type",
"processor", "cpu" or "model name" (on MIPS the SoC's own sentence, "MediaTek MT7628AN ver:1
eco:2"), ``"model"`` /tmp/sysinfo/model or /proc/device-tree/model (the board), and
``"board_name"`` the device tree's first compatible; then a ``"release"`` object.

Read line by line at the object's first level, so a paste with its prompt before it, or cut
after a few lines, still gives what it shows; the nested ``"release"`` is not the board."""

from __future__ import annotations

from dataclasses import dataclass

from .common import Parsed, finish, guarded, split_lines
from .lazy_pattern import later

_FIELD = later(r'^\s*"(?P<key>kernel|system|model|board_name)":\s*"(?P<value>[^"\\]{1,120})",?\s*$')


@dataclass
class UbusBoard:
    kernel: str | None = None  # "5.15.137"
    system: str | None = None  # "MediaTek MT7628AN ver:1 eco:2"
    model: str | None = None  # "Mediatek MT7628AN evaluation board"
    board_name: str | None = None  # "mediatek,mt7628an-eval-board"


def parse_ubus_system_board(text: str) -> Parsed[UbusBoard]:
    return guarded("ubus system board", _parse, text, UbusBoard)


def _parse(text: str) -> Parsed[UbusBoard]:
    res = UbusBoard()
    depth = found = 0
    for line in split_lines(text):
        if depth == 1 and (m := _FIELD.match(line)) and getattr(res, m.group("key")) is None:
            setattr(res, m.group("key"), m.group("value").strip() or None)
            found += 1
        depth += line.count("{") - line.count("}")
        if depth < 0:
            break
    return res, finish("ubus system board", text, found, 0)
