"""Time limits in the core and the GUI work the same on every Python sbctune supports (3.10+).

On Python 3.10 ``asyncio.TimeoutError`` is not the built-in ``TimeoutError`` (they became one
in 3.11), so a function that bounds an await with ``wait_for`` and catches or suppresses only
``TimeoutError`` lets the time-out through there: the guard's heartbeat ended at its first
wait, and the guard could revert the tuning in the middle of a run. And ``asyncio.wait_for``
may drop a cancellation on 3.10 and 3.11 (CPython gh-86296): ``sbctune.aio.wait_for`` is the
one to use. This reads the source, as the Pythons this machine lacks cannot run it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = [ROOT / "app", ROOT / "ui"]
AIO = ROOT / "app" / "aio.py"


def _sources() -> Iterator[tuple[Path, ast.Module]]:
    for folder in CHECKED:
        for path in sorted(folder.rglob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


def _name(node: ast.expr) -> str:
    return ast.unparse(node)


def _caught(node: ast.AST) -> list[list[str]]:
    """The exception names of each except clause and contextlib.suppress(...) under `node`."""
    found: list[list[str]] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.ExceptHandler) and sub.type is not None:
            types = sub.type.elts if isinstance(sub.type, ast.Tuple) else [sub.type]
            found.append([_name(t) for t in types])
        elif isinstance(sub, ast.Call) and _name(sub.func).split(".")[-1] == "suppress":
            found.append([_name(a) for a in sub.args])
    return found


def _uses_wait_for(node: ast.AST) -> bool:
    return any(
        isinstance(sub, ast.Call) and _name(sub.func).split(".")[-1] in ("wait_for", "timeout")
        for sub in ast.walk(node)
    )


def test_product_code_bounds_awaits_with_sbctune_aio_wait_for() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path, tree in _sources()
        if path != AIO
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and _name(node.func) == "asyncio.wait_for"
    ]
    assert found == [], f"use sbctune.aio.wait_for (keeps a cancellation): {found}"


def test_a_time_limit_is_caught_as_asyncio_timeout_error() -> None:
    found = []
    for path, tree in _sources():
        for func in ast.walk(tree):
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if not _uses_wait_for(func):
                continue
            for names in _caught(func):
                if "TimeoutError" in names and "asyncio.TimeoutError" not in names:
                    found.append(f"{path.relative_to(ROOT)}: {func.name}")
    assert found == [], f"catch asyncio.TimeoutError (not TimeoutError on 3.10): {found}"


def test_the_check_sees_the_mistake_it_is_for() -> None:
    bad = ast.parse(
        "async def beat(wake):\n"
        "    with suppress(TimeoutError):\n"
        "        await asyncio.wait_for(wake.wait(), 1)\n"
    )
    func = bad.body[0]
    assert _uses_wait_for(func)
    assert _caught(func) == [["TimeoutError"]]
