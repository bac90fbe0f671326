#!/usr/bin/env python3
"""Regenerate resources/kernel_source/mips_system_types.json: the formats MIPS platform code
writes its "system type" with (get_system_type()), from arch/mips/ralink and arch/mips/ath79.

    python scripts/regen_mips_system_types.py    # obtains the source via kernel_source.py

Why: a MIPS SoC names itself in one string, printed twice: in the log (arch/mips/ralink/prom.c
prom_init(): pr_info("SoC Type: %s\\n", get_system_type()); arch/mips/ath79/setup.c
ath79_detect_sys_type(): pr_info("SoC: %s\\n", ath79_sys_type)) and as /proc/cpuinfo's
"system type" (arch/mips/kernel/proc.c show_cpuinfo()), beside its "machine" (the device tree's
model). The string is a sentence ("MediaTek MT7628AN ver:1 eco:2", "Qualcomm Atheros QCA9558 ver
1 rev 0"): the platform's sprintf format says which word is the SoC (the word holding its %s).
Source: Debian's linux-source-6.1 and -6.12 at the versions resources/kernel_source/VERSION.json
names.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
OUT = KS / "mips_system_types.json"
sys.path.insert(0, str(Path(__file__).resolve().parent))

from regen_tables import add_once, pinned_packages, write_json  # noqa: E402

GLOBS = ("arch/mips/ralink/*", "arch/mips/ath79/*", "arch/mips/kernel/proc.c")
# sprintf(ath79_sys_type, "fmt", ...) / snprintf(soc_info->sys_type, RAMIPS_SYS_TYPE_LEN, "fmt"
_WRITE_RE = re.compile(
    r"\bs?n?printf\s*\(\s*[\w>.-]*sys_type\s*,(?:\s*[\w\s+-]+,)?\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)"
)
_LITERAL_RE = re.compile(r"\"((?:[^\"\\]|\\.)*)\"")
# where the string is printed: the log lines and /proc/cpuinfo's keys; each must still exist
_PRINTS = {
    "SoC Type: ": ("arch/mips/ralink/prom.c", r'pr_info\("SoC Type: %s\\n", get_system_type\(\)\)'),
    "SoC: ": ("arch/mips/ath79/setup.c", r'pr_info\("SoC: %s\\n", ath79_sys_type\)'),
    "system type": ("arch/mips/kernel/proc.c", r'"system type\\t\\t: %s\\n", get_system_type\(\)'),
    "machine": ("arch/mips/kernel/proc.c", r'"machine\\t\\t\\t: %s\\n"'),
}


def formats(text: str) -> list[str]:
    """The system-type formats written in `text` whose SoC word a literal word precedes
    ("MediaTek %s ver:%u eco:%u"; not lantiq's bare "%s rev %s")."""
    found = []
    for m in _WRITE_RE.finditer(text):
        fmt = "".join(_LITERAL_RE.findall(m.group(1)))
        words = fmt.split()
        soc = next((i for i, w in enumerate(words) if "%s" in w), None)
        if soc is not None and soc > 0 and "%" not in " ".join(words[:soc]):
            found.append(fmt)
    return found


def main() -> int:
    trees, used = pinned_packages(GLOBS)
    found: dict[str, dict[str, list[str]]] = {}
    for series, root in trees.items():
        for what, (rel, pattern) in _PRINTS.items():
            if not re.search(pattern, (root / rel).read_text(encoding="utf-8")):
                raise SystemExit(f"{series}: {rel} no longer prints {what!r} that way")
        for folder in ("arch/mips/ralink", "arch/mips/ath79"):
            for path in sorted((root / folder).glob("*.c")):
                for fmt in formats(path.read_text(encoding="utf-8", errors="replace")):
                    row = found.setdefault(fmt, {"files": [], "series": []})
                    rel = path.relative_to(root).as_posix()
                    add_once(row, files=rel, series=series)
    write_json(
        OUT,
        {
            "about": (
                "The formats of MIPS get_system_type() strings (arch/mips/ralink, "
                "arch/mips/ath79): the word holding %s is the SoC. Printed by ralink "
                "prom_init() as 'SoC Type: ', ath79_detect_sys_type() as 'SoC: ' and "
                "arch/mips/kernel/proc.c show_cpuinfo() as /proc/cpuinfo's 'system type'; "
                "by scripts/regen_mips_system_types.py. Generated; do not edit."
            ),
            "packages": used,
            "printed_as": sorted(_PRINTS),
            "formats": found,
        },
        sort_keys=True,
    )
    print(f"{len(found)} MIPS system-type formats -> {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
