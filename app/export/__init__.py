"""Exports of runs and reports: CSV, JSON, Markdown, HTML, SVG/PNG charts, bundles, Ansible.

One module per format; `export(fmt, report_data, path)` picks it. `gather(history, run_ids)`
builds the ReportData every format reads.
"""

from sbctune.export.registry import available, export, exporter, formats, register, unregister
from sbctune.export.report_data import ReportData, gather, load_runs, parse_run_ids

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
