"""Where labs keep their state (``/run/sbctune/labs/<name>/``) and the lock around changes."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sbctune.lab.errors import LabError

STATE_ROOT = Path(os.environ.get("SBCTUNE_LAB_STATE_DIR", "/run/sbctune/labs"))
# Survives reboots: records that the lab created the `pi` user (so `down` removes only that).
MARKER_DIR = Path(os.environ.get("SBCTUNE_LAB_MARKER_DIR", "/var/lib/sbctune/lab"))
NETNS_PREFIX = "sbctune-"
STATE_FILE = "state.json"
# One lock for the machine, whatever SBCTUNE_LAB_STATE_DIR says: labs kept in different state
# folders (a test run beside another) still share this host's 198.18.0.0/15 blocks and link
# names, so their address allocation must be serialised by one lock (the default state folder's).
MACHINE_LOCK = Path("/run/sbctune/labs/.lock")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")


def validate_name(name: str) -> str:
    if not _NAME.match(name):
        raise LabError(
            f"invalid lab name {name!r}",
            "use up to 40 lower-case letters, digits and dashes, starting with a letter or digit",
        )
    return name


def lab_dir(name: str) -> Path:
    return STATE_ROOT / validate_name(name)


def netns_name(name: str) -> str:
    return NETNS_PREFIX + name


def ensure_root() -> None:
    STATE_ROOT.mkdir(parents=True, exist_ok=True)
    # The lab user reads the fake commands and captures under here.
    for folder in (STATE_ROOT, STATE_ROOT.parent):
        os.chmod(folder, 0o755)  # noqa: S103 - the lab user reads lab files below


@contextlib.contextmanager
def locked() -> Iterator[None]:
    """Serialise lab changes across processes on this machine (two `up`s must not pick one
    address block), whichever state folder each keeps its labs in (MACHINE_LOCK)."""
    import fcntl  # Unix only; imported here so the package imports everywhere

    ensure_root()
    MACHINE_LOCK.parent.mkdir(parents=True, exist_ok=True)
    with open(MACHINE_LOCK, "a+", encoding="utf-8") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def write_json(path: Path, data: Any, mode: int = 0o600) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=2)
        fh.write("\n")
    os.replace(tmp, path)


def read_state(name: str) -> dict[str, Any] | None:
    path = lab_dir(name) / STATE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def state_names() -> list[str]:
    if not STATE_ROOT.is_dir():
        return []
    return sorted(p.name for p in STATE_ROOT.iterdir() if p.is_dir() and _NAME.match(p.name))
