"""The About box's facts: versions of the app, Qt and iperf3 on this PC and on the Pi."""

from __future__ import annotations

import asyncio
import platform
import sys

import PySide6
from PySide6.QtCore import qVersion

import sbctune
from sbctune import aio
from sbctune.errors import UserError
from sbctune.measure.pc_endpoint import find_system_iperf3
from sbctune.ui.controllers.state import AppState


async def pc_iperf3_version(configured: str | None) -> str:
    try:
        binary = find_system_iperf3(configured)
    except UserError:
        return "not installed (the built-in speed test is used)"
    try:
        proc = await asyncio.create_subprocess_exec(
            str(binary),
            "--version",
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await aio.wait_for(proc.communicate(), 5)
    except (OSError, asyncio.TimeoutError):
        return f"{binary} (did not answer --version)"
    first = out.decode(errors="replace").strip().splitlines()
    return f"{first[0] if first else '?'} ({binary})"


def _pyqtgraph_version() -> str:
    import pyqtgraph  # here: a slow import the first window does without

    return str(pyqtgraph.__version__)


async def about_facts(state: AppState, iperf3_path: str | None) -> list[tuple[str, str]]:
    pi = state.info
    return [
        ("sbctune", sbctune.__version__),
        ("Qt", f"{qVersion()} (PySide6 {PySide6.__version__})"),
        ("pyqtgraph", _pyqtgraph_version()),
        ("Python", f"{platform.python_version()} on {platform.system()} {platform.machine()}"),
        ("iperf3 on this PC", await pc_iperf3_version(iperf3_path)),
        (
            "iperf3 on the Pi",
            (pi.iperf3_pi or "not installed") if pi is not None else "not connected",
        ),
        ("Built-in speed test", "speaks iperf3's language, part of sbctune"),
        ("Executable", sys.executable),
    ]
