#!/usr/bin/env python3
"""Run a regen script and list the kernel-source files it opened (and folders it listed) that
its own globs do not ask for (exit 1 if it opened any): what it read only because another
generator, or the tests' trees (SBCTUNE_KERNEL_SRC_WITH), had extracted it into the shared cache,
so its table would differ on a machine whose cache held less (regen_kernel_source's drivers/base,
session 29).

    SBCTUNE_KERNEL_SRC_OFFLINE=1 .venv/bin/python scripts/audit_regen_reads.py \\
        scripts/regen_id_formats.py [its arguments]

The script runs as it would (it rewrites its table); the globs are those it passes to
kernel_source.obtain, the files those an "open" audit event names under the cache and the folders
an "os.scandir" or "os.listdir" one does (a walk that only counts or lists files).
"""

from __future__ import annotations

import os
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernel_source


def _listed(folder: str, globs: Sequence[str]) -> bool:
    """Whether listing `folder` stays within `globs`: a folder they extract, or one on the way
    to one (listing drivers/ for drivers/net/* is how a walk gets there; drivers/base is not)."""
    inside = kernel_source.asked(f"{folder}/x", globs)
    return inside or any(g.strip("/").startswith(f"{folder}/") or g.startswith("*") for g in globs)


def unasked(
    opened: set[str], globs_by_root: dict[str, list[str]], listed: frozenset[str] = frozenset()
) -> list[str]:
    """The files opened (and folders listed) under a tree that its globs do not name, as
    ROOT-NAME/RELATIVE (a folder with a trailing /)."""
    out: list[str] = []
    for path in sorted(opened | listed):
        for root, globs in globs_by_root.items():
            if path.startswith(root + os.sep):
                relative = Path(path).relative_to(root).as_posix()
                if path in listed and not _listed(relative, globs):
                    out.append(f"{Path(root).parent.name}/{relative}/")
                elif path in opened and not kernel_source.asked(relative, globs):
                    out.append(f"{Path(root).parent.name}/{relative}")
    return out


def main(argv: Sequence[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    globs_by_root: dict[str, list[str]] = {}
    real = kernel_source.obtain

    def obtain(series: str, globs: Sequence[str], **kw: object) -> kernel_source.KernelSource:
        source = real(series, globs, **kw)  # type: ignore[arg-type]
        globs_by_root.setdefault(str(source.root), []).extend(globs)
        return source

    kernel_source.obtain = obtain  # type: ignore[assignment]  # pinned_trees calls it too
    cache = str(kernel_source.cache_dir())
    opened: set[str] = set()
    listed: set[str] = set()

    def hook(event: str, args: tuple[object, ...]) -> None:
        named = args and isinstance(args[0], (str, bytes, os.PathLike))
        if event in ("open", "os.scandir", "os.listdir") and named:
            path = os.path.normpath(os.fsdecode(args[0]))  # type: ignore[arg-type]
            if path.startswith(cache):
                (opened if event == "open" else listed).add(path)

    sys.addaudithook(hook)
    sys.argv = list(argv)
    try:
        runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as done:
        if done.code not in (None, 0):
            raise
    found = unasked(opened, globs_by_root, frozenset(listed))
    files = [f for f in found if not f.endswith("/")]
    for line in found:
        # a folder only listed is a note: its files may be skipped by asked() (regen_kernel_source
        # walks drivers/base for dd.c); a file read beyond the globs is the defect
        print(f"{'listed' if line.endswith('/') else 'unasked'}: {line}")
    print(
        f"{argv[0]}: {len(files)} files read, {len(found) - len(files)} folders listed "
        "that its globs do not extract",
        file=sys.stderr,
    )
    return 1 if files else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
