"""Boards of the kernel's own device trees (``resources/kernel_source/boards.json``, generated
from the .dts files of Debian's linux-source-6.1 and 6.12 by ``scripts/regen_board_socs.py``):
a board's model and compatible list, and its SoC.

So a log's ``Machine model: Radxa ROCK3 Model A`` names the RK3568 although the catalog knows
only Raspberry Pis: the kernel's tree for that board says ``compatible = "radxa,rock3a",
"rockchip,rk3568"``.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

# What firmware and vendors append to a board's model: "Rev 1.4", "V1.51", "v2.1", "(DT)".
_REVISION_RE = re.compile(r"^(?:rev\.?|revision|v?\d+(?:\.\d+)*[a-z]?|v\d[\w.]*|\(.*\)|r\d+)$")
_MAX_MODEL = 160
_WORD_RE = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*")


@dataclass(frozen=True)
class DtBoard:
    model: str
    compatible: tuple[str, ...]
    soc: str  # "RK3568"
    soc_compatible: str  # "rockchip,rk3568"
    series: tuple[str, ...]  # kernel series whose tree has it
    files: tuple[str, ...]  # the .dts files (relative to the kernel tree)

    @property
    def evidence(self) -> str:
        """Where it comes from, in plain words."""
        return (
            f"the kernel's device tree for this board ({self.files[0]}, Linux "
            f"{' and '.join(self.series)}) lists it as {self.soc_compatible}"
        )


def _key(model: str) -> str:
    # runs of (Unicode) whitespace as one space, as re.sub(r"\s+", " ") does: no regex per row
    return " ".join(model.split()).lower()


def _index(data: dict[str, Any]) -> dict[str, Any]:
    """The table as DtBoards reads it, plain data the cache keeps (table_cache): each model
    key's and first compatible's rows as their JSON text ("\n"-joined: json.dumps escapes
    newlines), decoded only when a log names that board; the SoC names, and the row count."""
    columns = data.get("columns")
    rows = data.get("boards")
    if not isinstance(columns, list) or not isinstance(rows, list):
        return {"columns": [], "by_model": {}, "by_compatible": {}, "socs": [], "count": 0}
    model, compatible = columns.index("model"), columns.index("compatible")
    soc = columns.index("soc") if "soc" in columns else None
    by_model: dict[str, list[str]] = {}
    by_compatible: dict[str, list[str]] = {}
    names: set[str] = set()
    for row in rows:
        if not isinstance(row, list) or len(row) != len(columns):
            continue
        text = json.dumps(row)
        if isinstance(row[model], str):
            by_model.setdefault(_key(row[model]), []).append(text)
            if soc:  # (as soc_named_in read it: a column at 0 gave no names)
                names.add(str(row[soc]))
        if isinstance(row[compatible], list) and row[compatible]:
            by_compatible.setdefault(str(row[compatible][0]), []).append(text)
    return {
        "columns": columns,
        "by_model": {k: "\n".join(v) for k, v in by_model.items()},
        "by_compatible": {k: "\n".join(v) for k, v in by_compatible.items()},
        "socs": sorted(n for n in names if len(n) >= 4 and any(c.isdigit() for c in n)),
        "count": sum(len(v) for v in by_model.values()),
    }


def _is_index(value: object) -> bool:
    """A cached index has _index()'s shape."""
    if not isinstance(value, dict) or set(value) != {
        "columns", "by_model", "by_compatible", "socs", "count"
    }:  # fmt: skip
        return False
    packed = (value["by_model"], value["by_compatible"])
    return (
        isinstance(value["columns"], list)
        and isinstance(value["socs"], list)
        and type(value["count"]) is int
        and all(isinstance(d, dict) for d in packed)
        and all(type(k) is str and type(v) is str for d in packed for k, v in d.items())
    )


class DtBoards:
    def __init__(self, data: dict[str, Any], index: dict[str, Any] | None = None) -> None:
        # `index`: _index(data), made beforehand (load_dt_boards() keeps it in the cache).
        # Rows stay JSON text; a board is decoded and built only when a log names it (a
        # 600 kB table: decoding it whole was most of its cost at every start).
        index = _index(data) if index is None else index
        self._columns: list[Any] = index["columns"]
        self._by_model: dict[str, str] = index["by_model"]
        self._by_compatible: dict[str, str] = index["by_compatible"]
        self._socs: set[str] = set(index["socs"])
        self._count: int = index["count"]

    def _board(self, row: list[Any]) -> DtBoard | None:
        item = dict(zip(self._columns, row, strict=True))
        try:
            return DtBoard(
                str(item["model"]),
                tuple(str(c) for c in item["compatible"]),
                str(item["soc"]),
                str(item["soc_compatible"]),
                tuple(str(s) for s in item.get("series", ())),
                tuple(str(f) for f in item.get("files", ())) or ("?",),
            )
        except (KeyError, TypeError):
            return None

    def __len__(self) -> int:
        return self._count

    def _agreed(self, packed: str | None) -> DtBoard | None:
        """One board, or the first of several that agree on the SoC (board revisions)."""
        rows = [json.loads(text) for text in packed.split("\n")] if packed else []
        found = [b for b in (self._board(r) for r in rows) if b is not None]
        if not found or len({b.soc_compatible for b in found}) != 1:
            return None
        return found[0]

    def by_model(self, model: object) -> DtBoard | None:
        """The board whose device tree has this model: the exact string (case and spacing
        aside), else without the revision a vendor or the firmware appended ("Radxa ROCK 3
        Model B V1.51", "Raspberry Pi 4 Model B Rev 1.4"); never a shorter board name ("Orange
        Pi 5 Max" is not "Orange Pi 5")."""
        if not isinstance(model, str) or not model.strip():
            return None
        words = _key(model[:_MAX_MODEL]).split(" ")
        for _ in range(4):
            found = self._agreed(self._by_model.get(" ".join(words)))
            if found is not None or len(words) < 3 or not _REVISION_RE.match(words[-1]):
                return found
            words = words[:-1]
        return None

    def soc_named_in(self, model: object) -> str | None:
        """A SoC the device trees know, named as a word of a model no tree has ("Rockchip
        RK3588 EVB7 V11 Board" from a vendor kernel): only names with a digit, 4+ long."""
        if not isinstance(model, str):
            return None
        joined = _WORD_RE.findall(model[:_MAX_MODEL])
        words = {w.upper() for w in joined} | {p.upper() for w in joined for p in w.split("-")}
        found = sorted(words & self._socs)
        return found[0] if len(found) == 1 else None

    def by_compatible(self, compatible: object) -> DtBoard | None:
        """The board whose root compatible list starts with this board compatible."""
        if not isinstance(compatible, str):
            return None
        return self._agreed(self._by_compatible.get(compatible.strip()[:_MAX_MODEL]))


@functools.cache
def load_dt_boards() -> DtBoards:
    """The shipped table (cached). A missing or broken file gives an empty table."""
    from sbctune.catalog.table_cache import cached_file
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("kernel_source", "boards.json")
        index = cached_file("dt-boards-index", path, lambda raw: _index(_decoded(raw)), _is_index)
    except (OSError, ValueError):
        return DtBoards({})
    return DtBoards({}, index)


def _decoded(raw: bytes) -> dict[str, Any]:
    data = json.loads(raw.decode("utf-8"))
    return data if isinstance(data, dict) else {}
