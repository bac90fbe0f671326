"""Builds the Linux bundle once per change of its inputs (shared by the test and the bench).

The build goes to build/package-test/ in the repository (git-ignored). A fingerprint of every
input (app/, ui/, resources/, packaging/, Python, PyInstaller, PySide6) is stored next to the
result, so reruns without changes reuse it; a clean clone builds it from scratch (~30 s here).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUILD = ROOT / "build" / "package-test"
INPUTS = ("app", "ui", "resources", "packaging")
BUILD_TIMEOUT_S = 900


def fingerprint() -> str:
    digest = hashlib.sha256()
    for name in ("pyinstaller", "PySide6-Essentials", "pyqtgraph", "numpy", "asyncssh"):
        try:
            digest.update(f"{name}={importlib.metadata.version(name)}\n".encode())
        except importlib.metadata.PackageNotFoundError:
            digest.update(f"{name}=none\n".encode())
    digest.update(sys.version.encode())
    for folder in INPUTS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()


def build_bundle(build: Path = BUILD) -> tuple[Path, float | None]:
    """(the bundle folder, build seconds or None when reused). Raises on a failed build."""
    dist = build / "dist" / "sbctune"
    stamp = build / "fingerprint"
    want = fingerprint()
    if dist.is_dir() and stamp.is_file() and stamp.read_text() == want:
        return dist, None
    shutil.rmtree(build / "dist", ignore_errors=True)
    build.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    pyinstaller = [sys.executable, "-m", "PyInstaller"]
    cmd = [
        *pyinstaller,
        str(ROOT / "packaging" / "sbctune.spec"),
        "--noconfirm",
        "--log-level",
        "WARN",
        "--distpath",
        str(build / "dist"),
        "--workpath",
        str(build / "work"),
    ]
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    start = time.perf_counter()
    proc = subprocess.run(
        cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S
    )
    seconds = time.perf_counter() - start
    (build / "build.log").write_text(proc.stdout + proc.stderr)
    if proc.returncode != 0:
        raise RuntimeError(
            f"PyInstaller failed ({proc.returncode}); log: {build / 'build.log'}\n"
            + (proc.stdout + proc.stderr)[-4000:]
        )
    stamp.write_text(want)
    return dist, seconds


def bundle_size(folder: Path) -> int:
    """Bytes on disk of the bundle's files (symlinks count as links, not their targets)."""
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())


def clean_env(tmp: Path) -> dict[str, str]:
    """An environment for the packaged app: no Python paths, a private data folder."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV") and not k.startswith("SBCTUNE_")
    }
    env["SBCTUNE_DATA_DIR"] = str(tmp / "data")
    env["HOME"] = str(tmp / "home")
    (tmp / "home").mkdir(exist_ok=True)
    return env


def is_supported() -> bool:
    return platform.system() == "Linux"
