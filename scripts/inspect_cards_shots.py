"""Inspect's NIC cards for a bundle, as the desktop app draws them, saved as PNGs to look at.

The app connects to a Pi, not to a bundle; the lab has no switch or Wi-Fi profile. So the cards
of a real capture (a DSA router's ports, a Wi-Fi dongle) are seen here, the window at the given
size and scale, scrolled a page at a time:

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/inspect_cards_shots.py BUNDLE OUT \
        [--size 800x600] [--scale 1.5]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("bundle", type=Path, help="a bundle folder or zip (tests/captures/corpus/…)")
    ap.add_argument("out", type=Path, help="folder for the PNGs")
    ap.add_argument("--size", default="800x600")
    ap.add_argument("--scale", default="1")
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["QT_SCALE_FACTOR"] = args.scale
    from sbctune.advice.inspect import inspect_bundle
    from sbctune.history import History
    from sbctune.remote import KnownHosts
    from sbctune.ui.app import create_app, make_window

    args.out.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix="cards-"))
    app = create_app()
    window = make_window(
        app,
        history=History.open(scratch / "history.sqlite3"),
        known_hosts=lambda: KnownHosts(read_from=[], write_to=scratch / "known_hosts"),
    )
    width, height = (int(v) for v in args.size.split("x"))
    scale = float(args.scale)
    window.resize(int(width / scale), int(height / scale))
    window.show()
    window.go("inspect")
    page = window.page("inspect")
    page.show_inventory(inspect_bundle(args.bundle))  # type: ignore[attr-defined]
    bar = page.verticalScrollBar()
    for k in range(40):  # bounded: 40 screens
        bar.setValue(k * page.viewport().height() * 9 // 10)  # type: ignore[attr-defined]
        for _ in range(5):
            app.processEvents()
        path = args.out / f"{args.bundle.name[:40]}-{k}.png"
        window.grab().save(str(path))
        print(f"saved {path}")
        if bar.value() >= bar.maximum():
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
