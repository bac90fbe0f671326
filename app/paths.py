"""Where sbctune keeps its files on this computer (platformdirs, overridable for tests)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "sbctune"


def data_dir() -> Path:
    """User data (history database, known hosts). `SBCTUNE_DATA_DIR` overrides it."""
    override = os.environ.get("SBCTUNE_DATA_DIR")
    path = Path(override) if override else platformdirs.user_data_path(APP_NAME, appauthor=False)
    # Private like ~/.ssh: the history names the user's hosts, users and network details.
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    return path


def cache_dir() -> Path:
    """Tables built from the shipped resources, kept between runs (safe to delete: they are
    built again). `SBCTUNE_CACHE_DIR` overrides it."""
    override = os.environ.get("SBCTUNE_CACHE_DIR")
    path = Path(override) if override else platformdirs.user_cache_path(APP_NAME, appauthor=False)
    return path / "tables"


def app_known_hosts() -> Path:
    """The host keys the user accepted in sbctune (OpenSSH known_hosts format)."""
    return data_dir() / "known_hosts"


def user_known_hosts() -> Path:
    """OpenSSH's own list, read (never written) so keys trusted in `ssh` are trusted here."""
    return Path("~", ".ssh", "known_hosts").expanduser()
