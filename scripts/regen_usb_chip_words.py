#!/usr/bin/env python3
"""Regenerate resources/kernel_source/usb_chip_words.json: what the kernel's own USB network
drivers (drivers/net/usb/*.c) say about each device they bind, in their words.

    python scripts/regen_usb_chip_words.py    # obtains the source via kernel_source.py

Two kinds of words, each kept with its file and where in it:
- per ID: the comment right above a USB_DEVICE*() entry of the driver's ID table
  ("/* LAN7850 USB Gigabit Ethernet Device */") and the `.description` of the driver_info the
  entry binds ("ASIX AX88772 USB 2.0 Ethernet"), IDs resolved through the file's #defines;
- per model: a comment sentence "<MODEL> is USB <n.n>" and the function it sits in
  (lan78xx.c lan78xx_init_ltm: "LAN7850 is USB 2.0 and does not support LTM").
tests/unit/test_catalog_usb_generations.py reads these words against the catalog's USB
generation and line rate of every chip. Source: Debian's linux-source-6.1 and -6.12 at the
versions resources/kernel_source/VERSION.json names. Generated; do not edit.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "usb_chip_words.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_tables import pinned_packages, write_json  # noqa: E402

GLOBS = ("drivers/net/usb/*",)
_DEFINE_RE = re.compile(r"^#define\s+(\w+)\s+\(?\s*(0x[0-9a-fA-F]{1,4})\s*\)?\s*$", re.M)
_ENTRY_RE = re.compile(r"\bUSB_DEVICE\w*\s*\(\s*(\w+)\s*,\s*(\w+)")
_COMMENT_RE = re.compile(r"^\s*(?:/\*+\s*(.*?)\s*\*+/|//\s*(.*?))\s*$")
_INFO_RE = re.compile(r"\bstruct\s+driver_info\s+(\w+)\s*=\s*\{(.*?)\n\}\s*;", re.S)
_DESC_RE = re.compile(r"\.description\s*=\s*\"((?:[^\"\\]|\\.)*)\"")
_BINDS_RE = re.compile(r"driver_info\s*=\s*\(\s*unsigned\s+long\s*\)\s*&\s*(\w+)")
_STATES_RE = re.compile(r"\b([A-Z]{2,}[0-9]{3,}[A-Z0-9]*)\s+is\s+(USB\s*[0-9]\.[0-9][^*\n]*)")
_FUNCTION_RE = re.compile(r"^[a-z][\w \t*]*?\b(\w+)\s*\([^;{]*$", re.M)


def _hex(token: str, defines: dict[str, str]) -> str | None:
    value = defines.get(token, token)
    return f"{int(value, 16):04x}" if re.fullmatch(r"0x[0-9a-fA-F]{1,4}", value) else None


def id_words(text: str) -> dict[str, list[str]]:
    """'vvvv:pppp' -> the words the ID table gives it (its comment, its driver_info's
    description), for every USB_DEVICE*() entry in `text`."""
    defines = dict(_DEFINE_RE.findall(text))
    infos = {
        m.group(1): d.group(1)
        for m in _INFO_RE.finditer(text)
        if (d := _DESC_RE.search(m.group(2)))
    }
    lines = text.splitlines()
    found: dict[str, list[str]] = {}
    for number, line in enumerate(lines):
        entry = _ENTRY_RE.search(line)
        if entry is None:
            continue
        vendor, product = _hex(entry.group(1), defines), _hex(entry.group(2), defines)
        if vendor is None or product is None:
            continue
        words: list[str] = []
        above = lines[number - 1] if number else ""
        if above.strip() == "{" and number > 1:
            above = lines[number - 2]
        if (comment := _COMMENT_RE.match(above)) is not None:
            words.append(comment.group(1) or comment.group(2) or "")
        following = "\n".join(lines[number : number + 4])
        if (binds := _BINDS_RE.search(following)) is not None and binds.group(1) in infos:
            words.append(infos[binds.group(1)])
        key = f"{vendor}:{product}"
        found[key] = sorted({*found.get(key, []), *(w for w in words if w)})
    return found


def model_statements(text: str) -> list[tuple[str, str, str]]:
    """(model, what the comment says of it, the function it sits in) for "<MODEL> is USB n.n"."""
    found = []
    for m in _STATES_RE.finditer(text):
        heads = list(_FUNCTION_RE.finditer(text, 0, m.start()))
        function = heads[-1].group(1) if heads else ""
        found.append((m.group(1), m.group(2).strip(), function))
    return found


def table(trees: dict[str, Path]) -> dict[str, object]:
    """The "ids" and "models" of the table, from each series' tree (series -> its root)."""
    ids: dict[str, dict[str, dict[str, list[str]]]] = {}
    models: dict[str, dict[str, object]] = {}
    for series, root in sorted(trees.items()):
        for path in sorted((root / "drivers/net/usb").glob("*.c")):
            text = path.read_text(encoding="utf-8", errors="replace")
            name = path.relative_to(root).as_posix()
            for key, words in id_words(text).items():
                row = ids.setdefault(key, {}).setdefault(name, {"words": [], "series": []})
                row["words"] = sorted({*row["words"], *words})
                row["series"] = [*row["series"], series]
            for model, said, function in model_statements(text):
                entry = models.setdefault(
                    model, {"says": said, "file": name, "function": function, "series": []}
                )
                entry["series"] = [*entry["series"], series]  # type: ignore[misc]
    return {
        "ids": {k: ids[k] for k in sorted(ids)},
        "models": {k: models[k] for k in sorted(models)},
    }


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    found = table(trees)
    out = {
        "about": (
            "What drivers/net/usb/*.c say of each USB ID they bind (the ID table entry's comment,"
            " its driver_info description) and of a model ('LAN7850 is USB 2.0 ...', with its"
            " function). By scripts/regen_usb_chip_words.py; read by"
            " tests/unit/test_catalog_usb_generations.py. Generated; do not edit."
        ),
        "linux-source": used,
        **found,
    }
    write_json(OUT, out, sort_keys=False)
    print(f"{OUT.relative_to(ROOT).as_posix()}: {len(found['ids'])} IDs")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
