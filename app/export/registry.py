"""The exporter registry: a format name -> a function writing ReportData to a path.

The core's formats are found by module name, imported when used. Formats that need a library
the core must not import (PNG needs a raster library: Qt) are registered at start-up by the
layer that has it: ui/launcher.py registers "png" before handing over to the CLI.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from sbctune.errors import UserError
from sbctune.safefiles import OutputExists, check_output, write_output

__all__ = [
    "BUILTIN",
    "PLUGGABLE",
    "OutputExists",
    "available",
    "export",
    "exporter",
    "formats",
    "register",
    "unregister",
]

if TYPE_CHECKING:  # at run time only the exporters read it (reading runs is a heavy import)
    from sbctune.export.report_data import ReportData

Exporter = Callable[["ReportData", Path], Path]

# Format -> (module, what it writes); each module has `export(data, path) -> Path`.
BUILTIN: dict[str, tuple[str, str]] = {
    "csv": ("sbctune.export.csv_export", "one row per run × direction × mode"),
    "json": ("sbctune.export.json_export", "everything, with a schema version"),
    "md": ("sbctune.export.markdown", "tables shaped like the forum write-ups"),
    "html": ("sbctune.export.html_report", "a single-file report that opens offline"),
    "svg": ("sbctune.export.svg_export", "the charts as one SVG"),
    "ansible": ("sbctune.export.ansible", "a playbook applying the kept tweaks to a fleet"),
    "bundle": ("sbctune.export.bundle_export", "the diagnostics bundle of the runs' Pi"),
}
# Formats another layer provides; listed so the CLI can offer them and explain their absence.
PLUGGABLE: dict[str, tuple[str, str]] = {
    "png": (
        "the charts as one PNG image",
        "PNG export needs the GUI libraries (PySide6). Run the “sbctune” program installed "
        "with the desktop app (not “python -m sbctune”), or export “--format svg” or “html”.",
    ),
}

_registered: dict[str, Exporter] = {}


def register(fmt: str, exporter: Exporter) -> None:
    """Add or replace the exporter for `fmt` (the ui layer does this for "png")."""
    _registered[fmt] = exporter


def unregister(fmt: str) -> None:
    _registered.pop(fmt, None)


def formats() -> list[str]:
    return [*BUILTIN, *PLUGGABLE]


def available(fmt: str) -> bool:
    return fmt in _registered or fmt in BUILTIN


def exporter(fmt: str) -> Exporter:
    if fmt in _registered:
        return _registered[fmt]
    if fmt in BUILTIN:
        module = importlib.import_module(BUILTIN[fmt][0])
        found: Exporter = module.export
        return found
    if fmt in PLUGGABLE:
        raise UserError(f"Cannot export {fmt.upper()} here.", PLUGGABLE[fmt][1])
    raise UserError(f"Unknown export format {fmt!r}.", f"Use one of: {', '.join(formats())}.")


def export(fmt: str, report_data: ReportData, path: str | Path, *, overwrite: bool = False) -> Path:
    """Write `report_data` as `fmt` to `path`; returns the path written.

    Never through a link and never over an existing file without `overwrite`
    (sbctune.safefiles.write_output)."""
    check_output(Path(path), overwrite=overwrite)
    write = exporter(fmt)
    return write_output(path, lambda private: write(report_data, private), overwrite=overwrite)
