"""Reading a kernel C file the way the driver capability table does (scripts/
regen_driver_caps.py): where a function is defined at file scope, the function around a place,
the text of a function, struct or #define, a macro's number, and the .c files a module is built
from (its Makefile). Kernel style is assumed: bodies open with `{` at column 0."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

_FUNC_START = re.compile(
    r"^(?:static\s+|inline\s+|const\s+|unsigned\s+|struct\s+)*[A-Za-z_][\w\s\*]*?\b(\w+)\s*\(", re.M
)


def defines_function(text: str, name: str) -> bool:
    """Whether C source text defines (not just declares) `name` at file scope."""
    return _definition(text, name) is not None


_DEFINED = re.compile(r"(?m)^(?:[A-Za-z_][^;{}=\n]*?[\s*])?(\w+)\s*\(")
_PARAMS = re.compile(r"[^;{}]*\)\s*(?:__\w+\s*)*\{")


@lru_cache(maxsize=16)
def definitions(text: str) -> dict[str, int]:
    """Function name -> where the line defining it starts, for every function a C file defines
    at file scope (kernel style: the return type may sit on the line above the name)."""
    found: dict[str, int] = {}
    for head in _DEFINED.finditer(text):
        if head.group(1) not in found and _PARAMS.match(text, head.end(), head.end() + 4000):
            found[head.group(1)] = head.start()
    return found


def _definition(text: str, name: str) -> int | None:
    return definitions(text).get(name)


def enclosing_function(text: str, offset: int) -> str | None:
    """The function whose body holds `offset` (kernel style: bodies open with `{` at column 0)."""
    head = text[:offset]
    brace = head.rfind("\n{")
    if brace < 0:
        return None
    names = [m.group(1) for m in _FUNC_START.finditer(head[:brace])]
    return names[-1] if names else None


# a Makefile variable's assignment (`common-objs := enetc.o enetc_cbdr.o enetc_ethtool.o`)
_MAKE_VAR = re.compile(r"^([\w-]+)\s*[:+?]?=\s*(.*)$")
_MAKE_REF = re.compile(r"^\$\(([\w-]+)\)$")


def module_sources(tree: Path, module_path: str) -> list[Path]:
    """The .c files a module is built from, read from its directory's Makefile, with the
    Makefile's own variables expanded (6.1's enetc and liquidio build their ethtool file from
    `$(common-objs)`: audit 49 row 1)."""
    directory = tree / module_path.rsplit("/", 1)[0]
    module = module_path.rsplit("/", 1)[1]
    makefile = directory / "Makefile"
    objects: list[str] = []
    if makefile.is_file():
        text = makefile.read_text(encoding="utf-8", errors="replace").replace("\\\n", " ")
        own = re.compile(rf"^{re.escape(module)}-(?:y|objs|\$\(CONFIG_\w+\))\s*[:+]?=\s*(.*)")
        variables: dict[str, list[str]] = {}
        for line in text.splitlines():
            assigned = _MAKE_VAR.match(line)
            if assigned and not own.match(line):
                added = assigned.group(2).split()
                keep = variables.get(assigned.group(1), []) if "+=" in line else []
                variables[assigned.group(1)] = keep + added
        for line in text.splitlines():
            match = own.match(line)
            if match:
                objects += _expanded(match.group(1).split(), variables)
    files = [directory / o.replace(".o", ".c") for o in dict.fromkeys(objects)]
    files = files or [directory / f"{module}.c"]
    return [f for f in files if f.is_file()]


def _expanded(words: list[str], variables: dict[str, list[str]], depth: int = 0) -> list[str]:
    """The objects of a Makefile list, each `$(name)` of a variable the Makefile assigns
    replaced by its objects (three deep; a `$(module-y)` of the module's own lines is already
    read, and anything else, `$(CONFIG_X)`, names no object)."""
    out: list[str] = []
    for word in words:
        ref = _MAKE_REF.match(word)
        if ref and depth < 3:
            out += _expanded(variables.get(ref.group(1), []), variables, depth + 1)
        elif word.endswith(".o"):
            out.append(word)
    return out


def macro_value(texts: list[str], expr: str, depth: int = 0) -> int | None:
    expr = expr.strip().strip("()").strip()
    if re.fullmatch(r"[0-9]+|0x[0-9a-fA-F]+", expr):
        return int(expr, 0)
    if depth > 4 or not re.fullmatch(r"\w+", expr):
        return None
    for text in texts:
        match = re.search(rf"(?m)^#define\s+{expr}\s+(.+?)\s*(?:/\*.*)?$", text)
        if match:
            return macro_value(texts, match.group(1), depth + 1)
    return None


def symbol_text(text: str, name: str) -> str | None:
    """The text of a function body, a file-scope struct or array initialiser (a string table
    such as igb_priv_flags_strings[][ETH_GSTRING_LEN]) or a #define named `name`."""
    begin = _definition(text, name)
    closing = "\n}"
    if begin is None:
        match = re.search(rf"(?m)^[^\n;]*struct\s+\w+\s+{re.escape(name)}\s*=\s*\{{", text)
        match = match or re.search(
            rf"(?m)^(?:static\s+)?const\s+\w+\s+{re.escape(name)}\s*(?:\[\w*\]\s*)+=\s*\{{", text
        )
        closing = "\n};"
        if match is None:
            # a #define with its continuation lines (a caps macro such as atlantic's
            # DEFAULT_A0_BOARD_BASIC_CAPABILITIES spans many)
            match = re.search(rf"(?m)^#define\s+{re.escape(name)}\b(?:.*\\\n)*.*$", text)
            return match.group(0) if match else None
        begin = match.start()
    end = text.find(closing, begin)
    return text[begin : end if end > 0 else len(text)]
