#!/usr/bin/env python3
"""Run a regen script and list the kernel-source files it opened that its own globs do not ask
for (exit 1 if any): files it read only because another generator, or the tests' trees
(SBCTUNE_KERNEL_SRC_WITH), had extracted them into the shared cache, so its table would differ
on a machine whose cache held less (regen_kernel_source's drivers/base, session 29).

    SBCTUNE_KERNEL_SRC_OFFLINE=1 .venv/bin/python scripts/audit_regen_reads.py \\
        scripts/regen_id_formats.py [its arguments]

The script runs as it would (it rewrites its table); the globs are those it passes to
kernel_source.obtain, the files those an "open" audit event names under the cache.
"""

from __future__ import annotations

import os
import runpy
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import kernel_source


def unasked(opened: set[str], globs_by_root: dict[str, list[str]]) -> list[str]:
    """The opened files under a tree whose globs do not name them, as ROOT-NAME/RELATIVE."""
    out: list[str] = []
    for path in sorted(opened):
        for root, globs in globs_by_root.items():
            if path.startswith(root + os.sep):
                relative = Path(path).relative_to(root).as_posix()
                if not kernel_source.asked(relative, globs):
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

    def hook(event: str, args: tuple[object, ...]) -> None:
        if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
            path = os.fsdecode(args[0])
            if path.startswith(cache):
                opened.add(path)

    sys.addaudithook(hook)
    sys.argv = list(argv)
    try:
        runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as done:
        if done.code not in (None, 0):
            raise
    found = unasked(opened, globs_by_root)
    for line in found:
        print(f"unasked: {line}")
    print(f"{argv[0]}: {len(found)} files read that its globs do not extract", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
