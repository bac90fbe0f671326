"""Static checks of the `sbctune` namespace as it is installed (app/ + ui/ + resources/).

`python scripts/static_checks.py mypy|imports|cycles`. Neither mypy nor import-linter (nor
grimp, which `cycles` runs through scripts/import_cycles.py) can follow
setuptools' package-dir mapping, so this builds a view of the namespace from symlinks under
build/nsview/ and checks that; reports name the real files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIEW = ROOT / "build" / "nsview"
MAPPING = {
    "sbctune": ROOT / "app",
    "sbctune/ui": ROOT / "ui",
    "sbctune/resources": ROOT / "resources",
}


def build_view() -> Path:
    shutil.rmtree(VIEW, ignore_errors=True)
    for rel, src in MAPPING.items():
        for path in src.rglob("*.py"):
            if "__pycache__" in path.parts:
                continue
            dest = VIEW / rel / path.relative_to(src)
            dest.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(path, dest)
    return VIEW


def main(argv: list[str]) -> int:
    which = argv[0] if argv else "mypy"
    view = build_view()
    env = dict(os.environ, PYTHONPATH=str(view))
    if which == "mypy":
        config = str(ROOT / "pyproject.toml")
        cmd = [sys.executable, "-m", "mypy", "--config-file", config, "sbctune"]
    elif which == "imports":
        lint = Path(sys.executable).with_name("lint-imports")
        cmd = [str(lint), "--config", str(ROOT / "pyproject.toml"), "--no-cache"]
    elif which == "cycles":
        cmd = [sys.executable, str(ROOT / "scripts" / "import_cycles.py")]
    else:
        print(f"unknown check {which!r}: use mypy, imports or cycles", file=sys.stderr)
        return 2
    proc = subprocess.run(cmd, cwd=view, env=env, capture_output=True, text=True)
    out = proc.stdout
    # Point messages at the real files.
    for rel, src in sorted(MAPPING.items(), key=lambda item: -len(item[0])):
        out = out.replace(rel + "/", src.relative_to(ROOT).as_posix() + "/")
    sys.stdout.write(out + proc.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
