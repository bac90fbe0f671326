"""Every `from tests.x import name` in the test tree names something module x defines.

Stop 33's CI died at collection: a refactor removed a helper from one GUI lab test module that
another still imported, and no check before CI imports the lab GUI modules (mypy covers only
sbctune). This reads the test tree's own imports with `ast`, in well under a second."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def _defined_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.If, ast.Try)):
            # `if TYPE_CHECKING:` / try-import blocks: what they bind counts too.
            inner = ast.Module(body=list(ast.iter_child_nodes(node)), type_ignores=[])  # type: ignore[arg-type]
            names |= _defined_names(inner)
    return names


def _module_file(root: Path, dotted: str) -> Path | None:
    parts = dotted.split(".")[1:]
    rel = Path(*parts)
    # `from tests import x`: the package itself, no file of its own name
    files = (root / rel.with_suffix(".py"),) if parts else ()
    for candidate in (*files, root / rel / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def unresolved_test_imports(root: Path = TESTS) -> list[str]:
    problems: list[str] = []
    cache: dict[Path, set[str]] = {}
    for source in sorted(root.rglob("*.py")):
        tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.ImportFrom) and node.module and node.level == 0):
                continue
            if node.module != "tests" and not node.module.startswith("tests."):
                continue
            where = f"{source.relative_to(root.parent).as_posix()}:{node.lineno}"
            target = _module_file(root, node.module)
            if target is None:
                problems.append(f"{where}: no module {node.module}")
                continue
            if target not in cache:
                cache[target] = _defined_names(ast.parse(target.read_text(encoding="utf-8")))
            for alias in node.names:
                submodule = _module_file(root, f"{node.module}.{alias.name}")
                if alias.name not in cache[target] and submodule is None:
                    problems.append(f"{where}: {node.module} has no {alias.name}")
    return problems


def test_every_import_from_the_test_tree_resolves() -> None:
    assert unresolved_test_imports() == []


def test_the_check_finds_a_removed_helper(tmp_path: Path) -> None:
    """The check itself can fail: stop 33's shape, a helper removed that another module imports."""
    root = tmp_path / "tests"
    (root / "gui").mkdir(parents=True)
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "gui" / "__init__.py").write_text("", encoding="utf-8")
    (root / "gui" / "test_a.py").write_text(
        "SHORT = 1\n\nasync def kept() -> None: ...\n", encoding="utf-8"
    )
    (root / "gui" / "test_b.py").write_text(
        "from tests.gui.test_a import SHORT, _pi\nfrom tests.gui import test_a\n"
        "from tests.nowhere import x\n",
        encoding="utf-8",
    )
    assert unresolved_test_imports(root) == [
        "tests/gui/test_b.py:1: tests.gui.test_a has no _pi",
        "tests/gui/test_b.py:3: no module tests.nowhere",
    ]
