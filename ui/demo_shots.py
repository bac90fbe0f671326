"""The scripted demo's screenshots: every page of the window, as it is after a live run."""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import EXTRA, PATH, MainWindow
from sbctune.ui.selftest import check_rendered


async def save_every_page(window: MainWindow, folder: Path) -> list[str]:
    """Shows each page in turn and saves it as `live-<page>.png`; returns the pages saved.
    A page that did not render (blank, too small) raises the self-test's failure."""
    folder.mkdir(parents=True, exist_ok=True)
    saved = []
    for key in (*PATH, *EXTRA):
        window.go(key)
        for _ in range(3):
            QApplication.processEvents()
            await asyncio.sleep(0.05)
        check_rendered(window, f"the {key} page", folder, f"live-{key}")
        saved.append(key)
    return saved
