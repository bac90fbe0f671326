"""`sbctune --self-test`: open the main window, visit every page with SAMPLE DATA in the light
and the dark theme, and exit 0 when each rendered; non-zero with the reason otherwise.

It runs in a throw-away data directory, so the user's history and settings are never touched.
`--screenshots DIR` saves each page as a PNG (the GUI tests use it).
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import traceback
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

from sbctune.remote import HostKeyInfo
from sbctune.ui.main_window import EXTRA, PATH, MainWindow
from sbctune.ui.runtime import create_app, event_loop, make_window, run_until_done
from sbctune.ui.widgets.dialogs import AboutDialog, HostKeyDialog
from sbctune.wording import counted

SAMPLE_KEY = HostKeyInfo(
    "sample.invalid", 22, "ssh-ed25519", "SHA256:SAMPLEDATAselftestNOTaREALkeyFingerprint00"
)


class SelfTestFailure(Exception):
    pass


def check_rendered(widget: QWidget, what: str, shots: Path | None, name: str) -> None:
    pixmap = widget.grab()
    if pixmap.isNull() or pixmap.width() < 50 or pixmap.height() < 50:
        raise SelfTestFailure(f"{what} did not render (got {pixmap.width()}x{pixmap.height()})")
    image = pixmap.toImage()
    # A page that rendered has more than one colour (text on a background).
    corner = image.pixel(0, 0)
    step = max(1, image.width() // 40)
    if all(
        image.pixel(x, y) == corner
        for x in range(0, image.width(), step)
        for y in range(0, image.height(), max(1, image.height() // 40))
    ):
        raise SelfTestFailure(f"{what} rendered blank")
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        if not pixmap.save(str(shots / f"{name}.png")):
            raise SelfTestFailure(f"could not save the screenshot of {what}")


async def _settle(app: QApplication) -> None:
    for _ in range(3):
        app.processEvents()
        await asyncio.sleep(0.02)


def load_sample_data(window: MainWindow) -> None:
    from sbctune.ui import sample_data

    inventory = sample_data.sample_inventory()
    device_id, before, after = sample_data.sample_runs(window.history)
    window.state.model.show_sample(device_id, inventory, before, after)
    window.inspect_page.show_inventory(inventory)
    for page in (window.baseline_page, window.again_page):
        page.show_still(sample_data.sample_live())
    window.tune_page.show_plan(sample_data.sample_tuning_plan())
    window.setWindowTitle(f"sbctune — {sample_data.LABEL}")


async def visit_every_page(
    window: MainWindow, app: QApplication, shots: Path | None = None
) -> list[str]:
    """Each page in each theme; returns what was checked (raises SelfTestFailure)."""
    checked = []
    original = window.settings.theme
    try:
        for theme in ("light", "dark"):
            window.theme.apply(theme)
            for key in (*PATH, *EXTRA):
                window.go(key)
                await _settle(app)
                if window.stack.currentWidget() is not window.page(key):
                    raise SelfTestFailure(f"the {key} page could not be shown")
                check_rendered(window, f"the {key} page ({theme})", shots, f"{key}-{theme}")
                checked.append(f"{key}/{theme}")
            for name, dialog in (
                ("hostkey", HostKeyDialog(SAMPLE_KEY, window)),
                ("about", AboutDialog([("sbctune", "self-test"), ("Qt", "sample")], window)),
            ):
                dialog.show()
                await _settle(app)
                check_rendered(dialog, f"the {name} dialog ({theme})", shots, f"{name}-{theme}")
                dialog.close()
                dialog.deleteLater()
                checked.append(f"{name}/{theme}")
    finally:
        window.theme.apply(original)
    return checked


def run_self_test(args: list[str]) -> int:
    shots: Path | None = None
    if "--screenshots" in args:
        index = args.index("--screenshots")
        if index + 1 >= len(args):
            print("sbctune self-test: --screenshots needs a folder", file=sys.stderr)
            return 2
        shots = Path(args[index + 1])
    # A throw-away data directory: no sample run may land in the user's history.
    scratch = tempfile.TemporaryDirectory(prefix="sbctune-selftest-")
    os.environ["SBCTUNE_DATA_DIR"] = scratch.name
    try:
        app = create_app(offscreen_if_headless=True)
        loop = event_loop(app)
        window = make_window(app)
        window.show()

        async def run() -> list[str]:
            try:
                load_sample_data(window)
                return await visit_every_page(window, app, shots)
            finally:
                window.close()
                await asyncio.sleep(0.05)
                window.history.close()

        checked = run_until_done(loop, run())
    except SelfTestFailure as exc:
        print(f"sbctune self-test FAILED: {exc}", file=sys.stderr)
        return 1
    except Exception:
        print("sbctune self-test FAILED with an error:", file=sys.stderr)
        traceback.print_exc()
        return 1
    finally:
        scratch.cleanup()
    print(f"sbctune self-test OK: {counted(len(checked), 'view')} rendered ({', '.join(checked)})")
    return 0
