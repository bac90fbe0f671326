"""Firmware file PREFIXES and the chip each is for, from the drivers that build a firmware
file's name at run time out of a per-chip prefix (used by regen_firmware_chips.py).

A log often names a Wi-Fi chip only through the firmware file its driver loads: iwlwifi runs
"7260-17.ucode", ath11k asks for "ath11k/WCN6855/hw2.1/amss.bin". Such drivers keep, per chip,
a config struct with the chip's name and the prefix of its files; the full name is made at run
time, so no MODULE_FIRMWARE line lists it. Each SPEC says where the prefix is kept and how the
driver makes a path of it (the function, cited); the struct blocks of the driver's directory
are read for (.name, prefix) pairs, macros and `const char x[] = "..."` names resolved.
"""

from __future__ import annotations

import re
from pathlib import Path

# dir: the driver's directory; field: the struct member that holds the prefix; path: how the
# driver turns it into the start of a file name ({} is the member's value); made_by: where;
# logged_without: the part the driver cuts when it prints the file's name in the log.
SPECS: tuple[dict[str, str], ...] = (
    {
        "dir": "drivers/net/wireless/intel/iwlwifi",
        "field": "fw_name_pre",
        "path": "{}-",  # 6.1's prefixes end in "-" ("%s%d.ucode"), 6.12's do not ("%s-%d.ucode")
        "made_by": "iwl-drv.c iwl_request_firmware(): cfg->fw_name_pre, the API number, .ucode",
        "logged_without": "iwlwifi-",  # iwl-drv.c iwl_reduced_fw_name()
        # newer cfgs carry no .name: pcie/drv.c's device table pairs each with its names
        # (IWL_DEV_INFO(device, subdevice, cfg, name), "iwl_ax200_cfg_cc" -> "... AX200 ...")
        "device_table": r"\bIWL_DEV_INFO\(\s*\w+,\s*\w+,\s*(\w+),\s*(\w+)\s*\)",
    },
    {
        "dir": "drivers/net/wireless/ath/ath10k",
        "field": "dir",
        "path": "{}/",
        "made_by": 'core.c ath10k_fetch_fw_file(): "%s/%s" of hw_params.fw.dir and the file',
    },
    {
        "dir": "drivers/net/wireless/ath/ath11k",
        "field": "dir",
        "path": "ath11k/{}/",
        "made_by": 'core.h ath11k_core_create_firmware_path(): "%s/%s/%s" of ATH11K_FW_DIR, '
        "hw_params.fw.dir and the file",
    },
    {
        "dir": "drivers/net/wireless/ath/ath12k",
        "field": "dir",
        "path": "ath12k/{}/",
        "made_by": 'core.h ath12k_core_create_firmware_path(): "%s/%s/%s" of ATH12K_FW_DIR, '
        "hw_params->fw.dir and the file",
    },
)

_DEFINE_RE = re.compile(r"^#define[ \t]+(\w+)[ \t]+((?:[^\n\\]|\\\n)+)", re.M)
_CHAR_RE = re.compile(
    r"^(?:static\s+)?(?:const\s+)?char\s+(\w+)\[\]\s*=\s*(\"[^\"\n]*\")\s*;", re.M
)
_TOKEN_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"|([A-Za-z_]\w*)')
_DRIVER_RE = re.compile(
    r"struct\s+(?:pci|usb|sdio|platform)_driver\s+\w+\s*=\s*\{[^;]*?\.name\s*=\s*"
    r"(?:\"([^\"]+)\"|([A-Za-z_]\w*))",
    re.S,
)


def read_macros(files: list[Path], *, char_arrays: bool = True) -> dict[str, str]:
    """Every #define (continuation lines joined) and, with `char_arrays`, `char x[] = "..."`
    of the files; the first of a name wins (firmware_defines reads the #defines alone)."""
    out: dict[str, str] = {}
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        for name, body in _DEFINE_RE.findall(text):
            out.setdefault(name, body.replace("\\\n", " ").strip())
        for name, literal in _CHAR_RE.findall(text) if char_arrays else ():
            out.setdefault(name, literal)
    return out


def resolve(expr: str, macros: dict[str, str], depth: int = 0) -> str | None:
    """A C string expression (adjacent literals and string macros) as its value; None when
    any part is not a string."""
    expr = expr.strip().rstrip(",").strip()
    if not expr or depth > 8:
        return None
    parts: list[str] = []
    pos = 0
    for m in _TOKEN_RE.finditer(expr):
        if expr[pos : m.start()].strip():
            return None  # an operator or a call: not a plain string
        pos = m.end()
        if m.group(1) is not None:
            parts.append(m.group(1))
            continue
        body = macros.get(m.group(2))
        value = resolve(body, macros, depth + 1) if body is not None else None
        if value is None:
            return None
        parts.append(value)
    return "".join(parts) if parts and not expr[pos:].strip() else None


def _blocks(text: str) -> list[str]:
    """Every brace block's text (nested ones included, each also on its own)."""
    found: list[str] = []
    stack: list[int] = []
    for i, ch in enumerate(text):
        if ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            found.append(text[stack.pop() : i + 1])
    return found


def _block_at(text: str, start: int) -> str:
    """The brace block that opens at text[start] ("" when it does not close)."""
    depth = 0
    for i in range(start, len(text)):
        depth += (text[i] == "{") - (text[i] == "}")
        if depth == 0:
            return text[start : i + 1]
    return ""


def _own(block: str) -> str:
    """A block's text at its own level (nested blocks cut out)."""
    out, depth = [], 0
    for ch in block[1:-1]:
        depth += ch == "{"
        if depth == 0:
            out.append(ch)
        depth -= ch == "}"
    return "".join(out)


_MEMBER = r"\.{field}\s*=\s*([^,\n}}]+(?:\n\s*\"[^\"\n]*\")*)"


def chip_pairs(folder: Path, field: str) -> list[tuple[str, str, str]]:
    """(chip name, prefix member's value, source file) of each struct block of a driver's
    directory that says both; a member set by a macro the block uses counts too."""
    files = sorted(folder.rglob("*.[ch]"))
    macros = read_macros(files)
    member = re.compile(_MEMBER.format(field=re.escape(field)))
    by_macro = {n: m.group(1) for n, body in macros.items() if (m := member.search(body))}
    found: list[tuple[str, str, str]] = []
    for path in sorted(folder.rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if f".{field}" not in text and not any(n in text for n in by_macro):
            continue
        for block in _blocks(text):
            own = _own(block)
            name_m = re.search(r"\.name\s*=\s*([^,\n}]+)", own)
            if name_m is None:
                continue
            value_m = member.search(block)
            raw = value_m.group(1) if value_m else None
            if raw is None:
                used = [n for n in by_macro if re.search(rf"\b{n}\b", own)]
                raw = by_macro[used[0]] if len(used) == 1 else None
            name = resolve(name_m.group(1), macros)
            value = resolve(raw, macros) if raw is not None else None
            if name and value:
                found.append((name, value, str(path)))
    return found


_STRUCT_RE = re.compile(r"\bstruct\s+\w+\s+(\w+)\s*=\s*\{")


def table_pairs(folder: Path, field: str, table: str) -> list[tuple[str, str, str]]:
    """(chip name, prefix member's value, source file) from a device table that pairs a
    config struct (by its variable's name) with a name: the struct's prefix member, set in
    its block or by a macro the block uses."""
    files = sorted(folder.rglob("*.[ch]"))
    macros = read_macros(files)
    member = re.compile(_MEMBER.format(field=re.escape(field)))
    by_macro = {n: m.group(1) for n, body in macros.items() if (m := member.search(body))}
    values: dict[str, str] = {}
    for path in sorted(folder.rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in _STRUCT_RE.finditer(text):
            own = _block_at(text, m.end() - 1)
            raw = (found.group(1) if (found := member.search(own)) else None) or next(
                (by_macro[n] for n in by_macro if re.search(rf"\b{n}\b", _own(own))), None
            )
            if raw is not None and (value := resolve(raw, macros)):
                values[m.group(1)] = value
    found_pairs: list[tuple[str, str, str]] = []
    for path in sorted(folder.rglob("*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        for cfg, name_macro in re.findall(table, text):
            name = resolve(name_macro, macros)
            if cfg in values and name:
                found_pairs.append((name, values[cfg], str(path)))
    return found_pairs


def driver_names(folder: Path) -> list[str]:
    """The names the directory's drivers register under (`.name` of their driver structs),
    macros resolved across the directory (iwlwifi's DRV_NAME is in iwl-drv.h)."""
    files = sorted(folder.rglob("*.[ch]"))
    macros = read_macros(files)
    names: set[str] = set()
    for path in sorted(folder.rglob("*.c")):
        for literal, macro in _DRIVER_RE.findall(
            path.read_text(encoding="utf-8", errors="replace")
        ):
            name = literal or resolve(macro, macros)
            if name:
                names.add(name)
    return sorted(names)


def family(names: list[str]) -> str:
    """One label for the chips that share a prefix: the words all their names have, in the
    first name's order ("Intel(R) Wireless 7260" for the AC, N and dual-band 7260s), or the
    names joined when they share no model number."""
    unique = list(dict.fromkeys(names))
    if len(unique) == 1:
        return unique[0]
    common = [w for w in unique[0].split() if all(w in n.split() for n in unique[1:])]
    if any(re.search(r"\d{3}", w) and not w.endswith("MHz") for w in common):
        return " ".join(common)
    more = f" (or {len(unique) - 2} more)" if len(unique) > 2 else ""
    return " or ".join(unique[:2]) + more


def prefixes(root: Path) -> dict[str, dict[str, object]]:
    """{prefix: {chip, names, drivers, file, made_by, logged_without?}} for one source tree."""
    out: dict[str, dict[str, object]] = {}
    for spec in SPECS:
        folder = root / spec["dir"]
        if not folder.is_dir():
            continue
        drivers = driver_names(folder)
        names: dict[str, list[str]] = {}
        files: dict[str, str] = {}
        pairs = chip_pairs(folder, spec["field"])
        if spec.get("device_table"):
            pairs += table_pairs(folder, spec["field"], spec["device_table"])
        for name, value, path in pairs:
            prefix = spec["path"].format(value.rstrip("-/"))
            names.setdefault(prefix, []).append(name)
            files.setdefault(prefix, Path(path).relative_to(root).as_posix())
        for prefix, said in sorted(names.items()):
            row: dict[str, object] = {
                "chip": family(said),
                "names": sorted(set(said)),
                "drivers": drivers,
                "file": files[prefix],
                "made_by": f"{spec['dir']}/{spec['made_by']}",
            }
            if spec.get("logged_without"):
                row["logged_without"] = spec["logged_without"]
            out[prefix] = row
    return out
