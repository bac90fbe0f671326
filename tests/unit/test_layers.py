"""The layers of DESIGN.md hold: import-linter's contracts in pyproject.toml pass, every module
of sbctune sits in the layers contract, the core never imports Qt or the lab, and no import
cycle exists among sbctune's modules, even through imports inside functions."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest
import tomllib

ROOT = Path(__file__).resolve().parents[2]
# Imports that break a contract today and that another stream's work removes (issue 12):
# each must name who removes it. Anything else broken fails the test. Remove an entry when it
# is gone: the test then keeps it from coming back.
KNOWN_BROKEN: set[str] = set()
# Import cycles that another stream removes, as sets of their modules.
KNOWN_CYCLES: set[frozenset[str]] = set()
# Why the checks of the source run on Linux only: the source is the same on every OS.
STATIC_CHECKS = "static_checks.py views the source through symlinks; lint-imports, grimp: Linux set"


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _contract(kind: str, name_part: str) -> dict[str, object]:
    (found,) = [c for c in _contracts() if c["type"] == kind and name_part in str(c["name"])]
    return found


def _children() -> set[str]:
    """The direct children of `sbctune`: app's modules and packages, plus ui and resources."""
    found = {"ui", "resources"}
    for path in (ROOT / "app").iterdir():
        if path.suffix == ".py" and path.name != "__init__.py":
            found.add(path.stem)
        elif (path / "__init__.py").is_file():
            found.add(path.name)
    return found


def _layer_names(layer: str) -> set[str]:
    return {part.strip().strip("()") for part in re.split(r"[|:]", layer)}


def _static_check(which: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "static_checks.py"), which],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_module_is_in_the_layers_contract() -> None:
    layers = _contract("layers", "Layers")
    assert layers["containers"] == ["sbctune"]
    assert layers["exhaustive"] is True
    placed: set[str] = set()
    for layer in layers["layers"]:  # type: ignore[attr-defined]
        placed |= _layer_names(layer)
    placed |= set(layers["exhaustive_ignores"])  # type: ignore[arg-type]
    missing = _children() - placed
    assert not missing, (
        f"place these in the layers contract in pyproject.toml (DESIGN.md, 'Layers'): {missing}"
    )


def test_only_the_lab_is_left_out_of_the_layers() -> None:
    """The lab is the one side tool, protected: only the entry points that run a lab import it."""
    assert _contract("layers", "Layers")["exhaustive_ignores"] == ["lab"]
    lab = _contract("protected", "lab")
    assert lab["protected_modules"] == ["sbctune.lab"]
    assert set(lab["allowed_importers"]) == {"sbctune.cli.lab_cmd", "sbctune.ui.demo"}  # type: ignore[arg-type]


def test_core_never_imports_qt_contract_covers_every_core_module() -> None:
    qt = _contract("forbidden", "Qt")
    sources = {str(m).removeprefix("sbctune.") for m in qt["source_modules"]}  # type: ignore[attr-defined]
    missing = _children() - {"ui"} - sources
    assert not missing, f"add these to the Qt contract's source_modules: {missing}"


def _broken_imports(report: str) -> set[str]:
    """`importer -> imported` of each chain lint-imports lists under "Broken contracts"."""
    broken = report.partition("Broken contracts")[2]
    return {m.group(1) for m in re.finditer(r"^-\s+(\S+ -> \S+)\s+\(l\.", broken, re.M)}


@pytest.mark.posix_only(STATIC_CHECKS)
def test_contracts_hold() -> None:
    proc = _static_check("imports")
    report = proc.stdout + proc.stderr
    assert "Contracts:" in report, report
    broken = _broken_imports(report)
    assert not broken - KNOWN_BROKEN, f"imports that cross the layers (pyproject.toml):\n{report}"
    # The known imports break the layers contract only; any other broken contract is new.
    assert (" 1 broken." if broken else " 0 broken.") in report, report
    assert (proc.returncode == 0) == (not broken), report


@pytest.mark.posix_only(STATIC_CHECKS)
def test_no_import_cycle() -> None:
    proc = _static_check("cycles")
    report = proc.stdout + proc.stderr
    assert "import cycle(s) among" in report, report
    groups = {
        frozenset(line.split(":", 1)[1].replace(" ", "").split(","))
        for line in report.splitlines()
        if line.strip().startswith("members:")
    }
    assert not groups - KNOWN_CYCLES, f"import cycles (break them, DESIGN.md 'Layers'):\n{report}"


def _cycles_module() -> ModuleType:
    path = ROOT / "scripts" / "import_cycles.py"
    spec = importlib.util.spec_from_file_location("import_cycles", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cycle_finder_finds_a_cycle_through_a_function_level_import() -> None:
    """The finder itself: a loop of three modules inside a larger graph, and nothing else."""
    cycles = _cycles_module()
    edges = {
        "p.a": ["p.b", "p.errors"],
        "p.b": ["p.c"],
        "p.c": ["p.a", "p.errors"],  # the import a function of p.c makes
        "p.errors": [],
        "p.top": ["p.a"],
    }
    assert cycles.components(edges) == [["p.a", "p.b", "p.c"]]
    assert cycles.shortest_cycle(edges, ["p.a", "p.b", "p.c"]) == ["p.a", "p.b", "p.c", "p.a"]
    del edges["p.c"][0]
    assert cycles.components(edges) == []


def test_cli_runs_without_loading_qt() -> None:
    """Every CLI command registers without importing Qt (so the CLI starts fast, headless)."""
    probe = "import sys, sbctune.cli.main as m; m.build_parser(); print('PySide6' in sys.modules)"
    check = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60
    )
    assert check.stdout.strip() == "False", check.stderr
