"""JSON: everything the report knows, with a schema version for scripts that read it."""

from __future__ import annotations

import json
from dataclasses import asdict
from datetime import datetime
from pathlib import Path
from typing import Any

import sbctune
from sbctune.compare.attribution import contributions
from sbctune.export.report_data import ReportData
from sbctune.textsafe import visible

SCHEMA_VERSION = 1


def _default(value: object) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def document(data: ReportData) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "format": "sbctune-export",
        "generator": f"sbctune {sbctune.__version__}",
        "created": data.created.isoformat(),
        "devices": [asdict(d) for d in data.devices.values()],
        "inventories": {str(k): v for k, v in data.inventories.items()},
        "runs": [asdict(r) for r in data.runs],
        "tuning_sessions": [asdict(s) for s in data.tuning_sessions],
        "comparison": data.comparison.to_json(),
        # What each tweak did alone ("Find what helps"), from the runs (compare.attribution).
        "contributions": [c.to_json() for c in contributions(data.runs)],
        "findings": [asdict(f) for f in data.findings],
        "recommendations": [asdict(r) for r in data.recommendations],
        "advice_source": data.advice_source,
    }


def export(data: ReportData, path: Path) -> Path:
    text = json.dumps(document(data), indent=2, ensure_ascii=False, default=_default)
    # C1, bidi and zero-width characters become \\uXXXX escapes: the same values once parsed,
    # nothing raw in the file (json.dumps escapes only C0 with ensure_ascii=False).
    path.write_text(visible(text) + "\n", encoding="utf-8", newline="\n")
    return path
