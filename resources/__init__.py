"""Data files (catalog, lab profiles, templates), shipped with the package."""

from __future__ import annotations

from importlib.machinery import SourceFileLoader, SourcelessFileLoader
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importlib.resources (and its tempfile) only for a package not on disk
    from importlib.resources.abc import Traversable


def resource_root() -> Traversable:
    """The folder that holds every shipped data file."""
    loader, origin = __spec__.loader, __spec__.origin
    if isinstance(loader, (SourceFileLoader, SourcelessFileLoader)) and origin:
        # What files() gives for a package on disk (its loader's FileReader: the folder of
        # __init__), without the first call's import of importlib.readers and zipfile
        # (~10-16 ms of every command that reads a table)
        return Path(origin).parent
    from importlib.resources import files

    return files(__name__)  # a zip, a frozen app: its own reader
