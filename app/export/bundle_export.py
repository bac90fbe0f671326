"""The diagnostics bundle (design contract 1) of the runs' Pi, from what the history kept.

A bundle is the Pi's raw command outputs. The history stores the inventory parsed from them;
when that inventory JSON also carries the raw outputs (key "raw": {"host", "commands",
"files", "exit_codes"}), they are written back as a bundle with inventory.bundle. Otherwise
the outputs are gone, and the message says what can be had instead.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sbctune.errors import UserError
from sbctune.export.report_data import ReportData
from sbctune.inventory.bundle import write_bundle


def _texts(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        return {}
    return {str(k): str(v) for k, v in value.items() if isinstance(v, str)}


def export(data: ReportData, path: Path) -> Path:
    for run in reversed(data.runs):
        inventory = data.inventory_for(run) or {}
        raw = inventory.get("raw")
        if isinstance(raw, dict) and (raw.get("commands") or raw.get("files")):
            device = data.devices.get(run.device_id)
            codes = raw.get("exit_codes") if isinstance(raw.get("exit_codes"), dict) else {}
            return write_bundle(
                path,
                str(raw.get("host") or (device.host if device else "")),
                _texts(raw.get("commands")),
                _texts(raw.get("files")),
                {str(k): int(v) for k, v in (codes or {}).items() if isinstance(v, int)},
            )
    host = next((f"{d.user}@{d.host}" for d in data.devices.values()), "HOST")
    raise UserError(
        "The history keeps what was found on the Pi (board, NICs, findings) and the measured "
        "figures, but not the raw command outputs a diagnostics bundle is made of.",
        f"Make a bundle from the Pi itself: “sbctune collect {host} -o pi.zip”. "
        "To share these runs, export “--format json” (everything the history has) or "
        "“--format html” (a report).",
    )
