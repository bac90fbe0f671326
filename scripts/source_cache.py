"""The cache folder a source fetcher keeps its downloads and trees in, and its lock: shared by
scripts/kernel_source.py (Debian's kernel) and scripts/daemon_source.py (the network daemons)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def cache_dir(env: str, name: str) -> Path:
    """$`env` when set, else `name` under ~/.cache/sbctune (or $XDG_CACHE_HOME/sbctune)."""
    override = os.environ.get(env)
    if override:
        return Path(override)
    base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return base / "sbctune" / name


@contextmanager
def locked(directory: Path) -> Iterator[None]:
    """Parallel test workers and engineers share one cache: one extractor at a time."""
    import fcntl  # here, not at the top: posix only, and the Windows lane imports the tests

    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / ".lock", "w", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
