"""Firmware files a driver declares through a function-like macro of its own (used by
regen_kernel_source.py).

brcmfmac writes no MODULE_FIRMWARE line in its bus files: usb.c says
`BRCMF_FW_DEF(43143, "brcmfmac43143");`, and firmware.h's BRCMF_FW_DEF(fw_name, fw_base)
expands to `MODULE_FIRMWARE(BRCMF_FW_DEFAULT_PATH fw_base ".bin")` (BRCMF_FW_CLM_DEF adds the
".clm_blob"). Such a macro is read from the driver's directory, each of its invocations
expanded: its parameters bound to the call's arguments, string literals joined, object-like
macros of the directory resolved. An argument or macro that is not a string is skipped.
"""

from __future__ import annotations

import re
from pathlib import Path

_FUNC_DEFINE_RE = re.compile(r"^#define\s+(\w+)\(([^)]*)\)((?:[^\n\\]|\\\n)*)", re.M)
_DECLARE_RE = re.compile(r"MODULE_FIRMWARE\(([^;()]*)\)")
_TOKEN_RE = re.compile(r'"((?:[^"\\\n]|\\.)*)"|([A-Za-z_]\w*)')

Macros = dict[str, tuple[list[str], list[str]]]


def firmware_macros(headers: list[Path]) -> Macros:
    """NAME -> (its parameters, the expressions of the MODULE_FIRMWARE lines it expands to)."""
    found: Macros = {}
    for path in headers:
        text = path.read_text(encoding="utf-8", errors="replace")
        if "MODULE_FIRMWARE" not in text:
            continue
        for name, params, body in _FUNC_DEFINE_RE.findall(text):
            if exprs := _DECLARE_RE.findall(body):
                found.setdefault(name, ([p.strip() for p in params.split(",")], exprs))
    return found


def declared_by_macros(text: str, macros: Macros, defines: dict[str, str]) -> list[str]:
    """The firmware files the macro invocations of a source file declare."""
    files: list[str] = []
    for name, (params, exprs) in macros.items():
        if name + "(" not in text:
            continue
        for call in re.finditer(rf"^\s*{re.escape(name)}\(([^()\n]*)\)\s*;", text, re.M):
            args = [a.strip() for a in call.group(1).split(",")]
            if len(args) != len(params):
                continue
            bound = dict(zip(params, args, strict=True))
            for expr in exprs:
                if value := _evaluate(expr, bound, defines):
                    files.append(value)
    return files


def _evaluate(expr: str, bound: dict[str, str], defines: dict[str, str]) -> str | None:
    parts: list[str] = []
    for literal, ident in _TOKEN_RE.findall(expr):
        if not ident:
            parts.append(literal)
            continue
        token = bound.get(ident, ident)
        if token.startswith('"') and token.endswith('"') and len(token) >= 2:
            parts.append(token[1:-1])
        elif token in defines:
            parts.append(defines[token])
        else:
            return None
    return "".join(parts) or None
