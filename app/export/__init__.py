"""Exports of runs and reports: CSV, JSON, Markdown, HTML, SVG/PNG charts, bundles, Ansible.

One module per format; `export(fmt, report_data, path)` picks it. `gather(history, run_ids)`
builds the ReportData every format reads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sbctune.export.registry import available, export, exporter, formats, register, unregister

if TYPE_CHECKING:
    from sbctune.export.report_data import ReportData, gather, load_runs, parse_run_ids

# Reading runs pulls in advice and comparison (~0.15 s): loaded on first use, so registering an
# exporter at start-up (the launcher's PNG) costs a command nothing.
_FROM_REPORT_DATA = ("ReportData", "gather", "load_runs", "parse_run_ids")


def __getattr__(name: str) -> Any:
    if name in _FROM_REPORT_DATA:
        from sbctune.export import report_data

        return getattr(report_data, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ReportData",
    "available",
    "export",
    "exporter",
    "formats",
    "gather",
    "load_runs",
    "parse_run_ids",
    "register",
    "unregister",
]
