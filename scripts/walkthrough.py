"""Walk the desktop app's path as a new user does, on a real X server, and screenshot each step.

Xvfb at the given screen size with a window manager (openbox), the app started with a fresh
home (no settings, history or known hosts), driven by the keyboard with xdotool, every step
saved with ImageMagick's `import -window root` to OUT/NN-step.png, for a person to look at.

    .venv/bin/sbctune lab up --profile pi4-ax88179 --name NAME     # prints host and password
    SBCTUNE_PASSWORD=... .venv/bin/python scripts/walkthrough.py --host 198.18.0.2 \
        --size 800x600 --out /tmp/walk/800
    ... --size 1366x768 --scale 1.5 --out /tmp/walk/150

Needs (Debian): xvfb xdotool imagemagick openbox. The steps: Connect empty, a refused port, an
address on the lab's link nobody answers, a wrong password, Cancel while connecting, the new
host key, Inspect (scrolled), a baseline cancelled, a second Start while one runs, a baseline,
Tune (Apply under the guard), Measure again, Results (scrolled), an export, History. Waits are
fixed and generous (a walkthrough, not a test): look at each screenshot.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOOLS = ("Xvfb", "xdotool", "import", "openbox")


class Walk:
    def __init__(self, display: str, out: Path) -> None:
        self.display = display
        self.out = out
        self.count = 0
        self.env = dict(os.environ, DISPLAY=display)

    def xdo(self, *args: str) -> str:
        done = subprocess.run(
            ["xdotool", *args], env=self.env, capture_output=True, text=True, timeout=60
        )
        return done.stdout.strip()

    def keys(self, *combos: str, pause: float = 0.4) -> None:
        for combo in combos:
            self.xdo("key", "--clearmodifiers", combo)
            time.sleep(pause)

    def type(self, text: str) -> None:
        self.xdo("type", "--delay", "30", text)
        time.sleep(0.3)

    def field(self, mnemonic: str, text: str) -> None:
        """Alt+letter to a field, select what is there, type over it."""
        self.keys(f"alt+{mnemonic}", "ctrl+a", "BackSpace")
        self.type(text)

    def shot(self, name: str, wait: float = 1.0) -> Path:
        time.sleep(wait)
        self.count += 1
        path = self.out / f"{self.count:02d}-{name}.png"
        subprocess.run(
            ["import", "-window", "root", str(path)], env=self.env, check=True, timeout=60
        )
        print(f"saved {path}", flush=True)
        return path

    def scroll_shots(self, name: str, pages: int) -> None:
        """Page Down through the current page (the pointer over the window's middle)."""
        for k in range(pages):
            self.xdo("mousemove", "400", "300")
            for _ in range(6):
                self.xdo("click", "5")
            self.shot(f"{name}-scrolled{k + 1}", wait=0.6)


def steps(walk: Walk, host: str, password: str) -> None:
    walk.shot("connect-empty", wait=4)
    # A port nothing listens on (connection refused).
    walk.field("i", host)
    walk.field("o", "2222")
    walk.field("u", "pi")
    walk.field("w", password)
    walk.keys("Return")
    walk.shot("connect-refused", wait=6)
    # An address on the lab's link that nobody answers (no route to host / time-out).
    unreachable = host.rsplit(".", 1)[0] + ".77"
    walk.field("i", unreachable)
    walk.field("o", "22")
    walk.keys("alt+w", "Return")
    walk.shot("connect-unreachable-running", wait=1.5)
    walk.shot("connect-unreachable", wait=25)
    # Cancel while connecting.
    walk.keys("alt+w", "Return")
    time.sleep(0.5)
    walk.keys("Escape")
    walk.shot("connect-cancel-escape", wait=1)
    walk.shot("connect-cancel-later", wait=25)
    # Wrong password on the real host.
    walk.field("i", host)
    walk.field("w", "not-the-password")
    walk.keys("Return")
    walk.shot("hostkey-dialog", wait=5)
    walk.keys("alt+t")
    walk.shot("connect-wrong-password", wait=8)
    walk.field("w", password)
    walk.keys("Return")
    walk.shot("connect-then-inspect", wait=12)
    walk.scroll_shots("inspect", 3)
    # Baseline: start, cancel, start again; a second Start while it runs.
    walk.keys("ctrl+3")
    walk.shot("baseline-page", wait=1.5)
    walk.keys("alt+s")
    walk.shot("baseline-running", wait=12)
    walk.keys("alt+c")
    walk.shot("baseline-cancelled", wait=4)
    walk.keys("alt+s")
    time.sleep(6)
    walk.keys("ctrl+5")
    walk.shot("again-while-baseline-runs", wait=1.5)
    walk.keys("alt+s")
    walk.shot("again-start-while-baseline-runs", wait=2)
    walk.keys("ctrl+3")
    walk.shot("baseline-done", wait=60)
    walk.scroll_shots("baseline", 2)
    # Tune: apply what is ticked, under the guard.
    walk.keys("ctrl+4")
    walk.shot("tune-page", wait=3)
    walk.scroll_shots("tune", 2)
    walk.keys("alt+a")
    walk.shot("tune-applying", wait=3)
    walk.shot("tune-applied", wait=20)
    walk.scroll_shots("tune-applied", 2)
    walk.keys("ctrl+5")
    walk.keys("alt+s")
    walk.shot("again-running", wait=15)
    walk.shot("again-done", wait=60)
    walk.keys("ctrl+6")
    walk.shot("results", wait=3)
    walk.scroll_shots("results", 4)
    # The export folder's dialog (cancelled), then Export all (Alt+A).
    walk.keys("alt+b")
    walk.shot("export-folder-dialog", wait=2)
    walk.keys("Escape")
    walk.keys("alt+a")
    walk.shot("export-all", wait=8)
    walk.keys("ctrl+8")
    walk.shot("history", wait=3)
    walk.scroll_shots("history", 2)
    walk.keys("ctrl+7")
    walk.shot("devices", wait=3)
    walk.keys("ctrl+9")
    walk.shot("settings", wait=3)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--host", required=True, help="the lab's address (lab up prints it)")
    ap.add_argument("--size", default="800x600", help="the screen, WIDTHxHEIGHT")
    ap.add_argument("--scale", default="1", help="QT_SCALE_FACTOR (1.5 for 150 %%)")
    ap.add_argument("--out", type=Path, required=True, help="folder for the PNGs")
    ap.add_argument("--display", default=":79")
    args = ap.parse_args()
    missing = [t for t in TOOLS if shutil.which(t) is None]
    if missing:
        need = "apt-get install xvfb xdotool imagemagick openbox"
        sys.exit(f"missing: {', '.join(missing)} ({need})")
    password = os.environ.get("SBCTUNE_PASSWORD", "")
    if not password:
        sys.exit("SBCTUNE_PASSWORD: the lab's password (lab up prints it)")
    args.out.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="walk-home-"))
    procs: list[subprocess.Popen[bytes]] = []
    walk = Walk(args.display, args.out)
    try:
        procs.append(
            subprocess.Popen(
                ["Xvfb", args.display, "-screen", "0", f"{args.size}x24", "-nolisten", "tcp"]
            )
        )
        time.sleep(2)
        procs.append(subprocess.Popen(["openbox"], env=walk.env))
        time.sleep(1.5)
        app_env = dict(
            walk.env,
            HOME=str(home),  # a new user: no settings, history, known hosts or ~/.ssh
            QT_SCALE_FACTOR=args.scale,
            QT_QPA_PLATFORM="xcb",
            SBCTUNE_CACHE_DIR=str(Path("~/.cache/sbctune").expanduser()),  # built tables only
        )
        app_env.pop("SBCTUNE_PASSWORD", None)  # typed, as a user does
        exe = Path(sys.executable).with_name("sbctune")
        log = (args.out / "app.log").open("wb")
        procs.append(subprocess.Popen([str(exe)], env=app_env, stdout=log, stderr=log))
        walk.xdo("search", "--sync", "--onlyvisible", "--name", "sbctune")
        steps(walk, args.host, password)
        return 0
    finally:
        for proc in reversed(procs):  # only what this script started
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        shutil.rmtree(home, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
