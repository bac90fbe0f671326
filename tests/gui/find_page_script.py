"""Runs the real main window inside the test's "PC" namespace, clicks Find my Pi on the Connect
page, picks the first entry, and prints what the user sees as JSON (tests/gui/
test_find_page_lab.py). In its own process: the GUI test process lives in the host's network
namespace, where mDNS would reach the host's real networks.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ["SBCTUNE_DATA_DIR"] = tempfile.mkdtemp(prefix="sbctune-find-gui-")

from sbctune.ui.app import create_app, event_loop, make_window, run_until_done


def main() -> int:
    app = create_app()
    window = make_window(app)
    window.show()
    page = window.connect_page
    if len(sys.argv) > 1 and sys.argv[1] == "--scan":
        page.find_card.scan.setChecked(True)

    async def scenario() -> dict[str, object]:
        assert not page.find_card.isVisible()
        page.find_button.click()
        await asyncio.sleep(0.2)
        busy_seen = page.find_card.find_progress.isVisible() and not page.find_button.isEnabled()
        for _ in range(300):  # bounded: 30 s at most
            await asyncio.sleep(0.1)
            if not window.finder.running:
                break
        items = [
            page.find_card.found_list.item(i).text()
            for i in range(page.find_card.found_list.count())
        ]
        if items:
            first = page.find_card.found_list.item(0)
            page.find_card.found_list.itemClicked.emit(first)
        return {
            "busy_seen": busy_seen,
            "card_visible": page.find_card.isVisible(),
            "items": items,
            "status": page.find_card.find_status.text(),
            "host": page.host.currentText(),
            "button_enabled": page.find_button.isEnabled(),
            "accessible": page.find_button.accessibleName(),
        }

    result = run_until_done(event_loop(app), asyncio.wait_for(scenario(), 60))
    print("RESULT " + json.dumps(result), flush=True)
    os._exit(0)  # PySide6 can abort at interpreter shutdown; the result is out


if __name__ == "__main__":
    sys.exit(main())
