"""Regenerate resources/tuning/debian_abi.json: which upstream patch levels each Debian kernel ABI
number was built from, read from Debian's own changelog (audit 30 row 2).

A Debian kernel names its series and ABI only ("6.1.0-13-arm64"): `uname -r` carries no patch
level, so a fact a stable backport changed (igc's tx-usecs in queue-pair mode: 6.1.56) was
neither claimed nor denied there. Debian's changelog says it: every upload's entry names its
upstream version ("linux (6.1.55-1) bookworm; ...") and the uploads that change the ABI say
"* Bump ABI to N". An upload without that line keeps the ABI before it; a series starts at 1.
So ABI N of a series is built from the upstream versions of the uploads that carry it.

Since 6.1.148-1 ("Generate kernel ABI name suffix automatically if not configured", "Delete
ABI name suffix and ABI reference") no upload names its ABI: an ABI above the last one named is
only known to be at least the first upload after that one's uploads ("above").

Source: the changelog inside the linux-source-SERIES .deb the table is pinned to
(`/usr/share/doc/linux-source-SERIES/changelog.Debian.gz`), obtained by scripts/kernel_source.py
(cached, locked). Run: `.venv/bin/python scripts/regen_debian_abi.py`.
"""

from __future__ import annotations

import gzip
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernel_source
from regen_tables import write_json

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "resources" / "tuning" / "debian_abi.json"
CAPS = ROOT / "resources" / "tuning" / "driver_caps.json"
# the series whose Debian kernels are named "SERIES.0-ABI-FLAVOUR" (bullseye's 5.10, bookworm's
# 6.1); Debian's 6.12 names carry the patch level ("6.12.38+deb13-arm64")
ABI_SERIES = ("5.10", "6.1")
_HEADER = re.compile(r"^linux \(([0-9][^)\s]*)\) ")
_BUMP = re.compile(r"^\s+\*\s+Bump ABI to ([0-9]+)")
_AUTO = "Generate kernel ABI name suffix automatically"


def _upstream(version: str) -> tuple[str, tuple[int, int, int] | None]:
    """("6.1", (6, 1, 55)) of a Debian version "6.1.55-1"; a release candidate or a ".0"-less
    first upload ("6.1~rc8-1~exp1", "6.0-1~exp1") has no patch level (None)."""
    upstream = version.rsplit("-", 1)[0]
    parts = upstream.split("~")[0].split(".")
    series = ".".join(parts[:2])
    if len(parts) < 3 or "~" in upstream or not all(p.isdigit() for p in parts[:3]):
        return series, None
    return series, (int(parts[0]), int(parts[1]), int(parts[2]))


def abi_table(changelog: str, series: str) -> dict[str, Any]:
    """ABI number -> [first, last] upstream patch level of `series`' uploads with that ABI, and
    "above": the last ABI a changelog line names with the first patch level after it."""
    entries: list[list[Any]] = []  # [series, level, bumped ABI or None, auto]
    for line in changelog.splitlines():
        header = _HEADER.match(line)
        if header:
            entries.append([*_upstream(header.group(1)), None, False])
            continue
        bump = _BUMP.match(line)
        if bump and entries and entries[-1][2] is None:
            entries[-1][2] = int(bump.group(1))
        if _AUTO in line and entries:
            entries[-1][3] = True
    abi = 1
    spans: dict[int, list[tuple[int, int, int]]] = {}
    order: list[tuple[int, int, int]] = []
    auto = False
    for entry_series, level, bumped, auto_here in reversed(entries):  # oldest first
        if entry_series != series:
            continue
        # from the upload that generates the suffix on, the changelog names no ABI (5.10.244,
        # 6.1.148): those uploads only bound the ABIs above the last one named
        auto = auto or auto_here
        abi = bumped if bumped is not None and not auto else abi
        if level is None:
            continue
        order.append(level)
        if not auto:
            spans.setdefault(abi, []).append(level)
    if not spans:
        raise SystemExit(f"no {series} upload in the changelog")
    top = max(spans)
    after = [lv for lv in order if lv > max(spans[top])]
    return {
        "abi": {str(n): [_dotted(min(v)), _dotted(max(v))] for n, v in sorted(spans.items())},
        "above": {"abi": top, "first": _dotted(min(after)) if after else None},
    }


def _dotted(level: tuple[int, int, int]) -> str:
    return ".".join(str(p) for p in level)


def _changelog(series: str, version: str) -> str:
    package = f"linux-source-{series}"
    cache = kernel_source.cache_dir()
    kernel_source.obtain(series, [], version=version)  # the pinned .deb, fetched once (cached)
    deb = next(d for d in kernel_source._cached_debs(cache, package)
               if kernel_source._deb_version(d) == version)  # fmt: skip
    member = f"./usr/share/doc/{package}/changelog.Debian.gz"
    with subprocess.Popen(["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE) as tar:
        done = subprocess.run(["tar", "-xO", member], stdin=tar.stdout, capture_output=True,
                              check=True)  # fmt: skip
    return gzip.decompress(done.stdout).decode("utf-8", "replace")


def pins() -> dict[str, str]:
    """The Debian package version of each series, as driver_caps.json is pinned to."""
    caps = json.loads(CAPS.read_text(encoding="utf-8"))
    found = {**caps.get("kernels", {}), **caps.get("cited_kernels", {})}
    return {s: str(found[s]["version"]) for s in ABI_SERIES}


def main() -> int:
    out: dict[str, Any] = {
        "format": "sbctune-debian-abi",
        "generated_by": "scripts/regen_debian_abi.py",
        "series": {},
    }
    for series, version in pins().items():
        table = abi_table(_changelog(series, version), series)
        table["source"] = (f"linux-source-{series} {version} "
                           f"/usr/share/doc/linux-source-{series}/changelog.Debian.gz")  # fmt: skip
        out["series"][series] = table
    write_json(OUT, out)
    print(f"wrote {OUT.relative_to(ROOT)}: " + ", ".join(
        f"{s} ABI 1-{t['above']['abi']}" for s, t in out["series"].items()))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
