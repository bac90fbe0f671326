"""The core (app/) never imports Qt or the GUI: import-linter checks it, and this test checks
that import-linter's contract covers every module of app/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def _contract_sources() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (contract,) = config["tool"]["importlinter"]["contracts"]
    return set(contract["source_modules"])


def test_contract_covers_every_core_module() -> None:
    core = set()
    for path in (ROOT / "app").iterdir():
        if path.name.startswith(("_", ".")) and path.name != "__main__.py":
            continue
        if path.suffix == ".py":
            core.add(f"sbctune.{path.stem}")
        elif (path / "__init__.py").is_file():
            core.add(f"sbctune.{path.name}")
    missing = core - _contract_sources()
    assert not missing, f"add these to the import-linter contract in pyproject.toml: {missing}"


def test_core_does_not_import_qt() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "static_checks.py"), "imports"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 kept, 0 broken" in proc.stdout


def test_cli_runs_without_loading_qt() -> None:
    """Every CLI command registers without importing Qt (so the CLI starts fast, headless)."""
    probe = "import sys, sbctune.cli.main as m; m.build_parser(); print('PySide6' in sys.modules)"
    check = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert check.stdout.strip() == "False", check.stderr
