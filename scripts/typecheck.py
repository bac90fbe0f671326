"""Run mypy on the `sbctune` namespace as it is installed (app/ + ui/ + resources/).

mypy cannot follow setuptools' package-dir mapping, so this builds a view of the namespace
from symlinks under build/typecheck/ and checks that; reports name the real files.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIEW = ROOT / "build" / "typecheck"
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


def main() -> int:
    view = build_view()
    cmd = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"), "sbctune"]
    proc = subprocess.run(cmd, cwd=view, capture_output=True, text=True)
    out = proc.stdout
    # Point messages at the real files.
    for rel, src in sorted(MAPPING.items(), key=lambda item: -len(item[0])):
        out = out.replace(rel + "/", str(src.relative_to(ROOT)) + "/")
    sys.stdout.write(out + proc.stderr)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
