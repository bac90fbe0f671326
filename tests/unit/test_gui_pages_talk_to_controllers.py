"""GUI pages talk to controllers only: no page imports the history, the SSH layer or the
measuring core (not even inside a function). Checked on the source, so it needs no Qt."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "ui" / "pages"
FORBIDDEN = ("sbctune.history", "sbctune.remote", "sbctune.measure")


def _imports(source: str) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.append((node.lineno, node.module))
            if node.module == "sbctune":  # `from sbctune import history`
                found += [(node.lineno, f"sbctune.{a.name}") for a in node.names]
    return found


def _forbidden(source: str) -> list[str]:
    return [
        f"line {line}: {name}"
        for line, name in _imports(source)
        if any(name == f or name.startswith(f + ".") for f in FORBIDDEN)
    ]


def test_no_page_imports_history_remote_or_measure() -> None:
    pages = sorted(PAGES.glob("*.py"))
    assert len(pages) >= 9, "the pages moved: point this test at them"
    bad = {p.name: _forbidden(p.read_text(encoding="utf-8")) for p in pages}
    assert not {k: v for k, v in bad.items() if v}, bad


def test_pages_reach_the_core_only_through_controllers_and_the_workflow() -> None:
    """Of sbctune, a page imports the GUI (its controllers, widgets), sbctune.workflow and
    the ground everyone may use (text made safe to show, errors, paths, limits, wording)."""
    ground = (
        "sbctune.textsafe", "sbctune.errors", "sbctune.paths", "sbctune.limits", "sbctune.wording",
    )  # fmt: skip
    allowed = ("sbctune.ui", "sbctune.workflow", *ground)
    reach = {
        p.name: [
            name
            for _, name in _imports(p.read_text(encoding="utf-8"))
            if name.startswith("sbctune") and not name.startswith(allowed)
        ]
        for p in sorted(PAGES.glob("*.py"))
    }
    assert not {k: v for k, v in reach.items() if v}, reach


def test_the_check_sees_every_form_of_import() -> None:
    assert _forbidden("from sbctune.history import History") == ["line 1: sbctune.history"]
    assert _forbidden("def f():\n    import sbctune.remote.session") != []
    assert _forbidden("from sbctune import measure") == ["line 1: sbctune.measure"]
    assert _forbidden("from sbctune.ui.controllers.records import RunRecord") == []
