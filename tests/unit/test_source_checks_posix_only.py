"""A unit test that reads Debian's kernel source is marked posix_only.

tests/unit also runs in the Windows lane, where the kernel source cannot be obtained
(scripts/kernel_source.py: apt-get, dpkg-deb, tar and an fcntl lock): a test that calls
kernel_trees(), obtain() or pinned_trees() without the mark fails there (test_unseen_classes61's
raw-IP table did, in session 29's lane) though it passes on Linux.
"""

from __future__ import annotations

import ast
from pathlib import Path

UNIT = Path(__file__).resolve().parent
_READERS = ("kernel_trees(", "obtain(", "pinned_trees(")


def _unmarked_readers(source: str) -> list[str]:
    """Test functions that call a kernel-source reader with no posix_only mark on them or on
    their module (pytestmark)."""
    tree = ast.parse(source)
    module_marked = any(
        isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets)
        and "posix_only" in ast.unparse(node.value)
        for node in tree.body
    )
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not node.name.startswith("test_"):
            continue
        body = ast.unparse(node)
        marked = module_marked or any("posix_only" in ast.unparse(d) for d in node.decorator_list)
        if not marked and any(reader in body for reader in _READERS):
            found.append(node.name)
    return found


def test_every_unit_test_that_reads_the_kernel_source_is_posix_only() -> None:
    paths = [p for p in sorted(UNIT.rglob("test_*.py")) if p != Path(__file__).resolve()]
    assert len(paths) > 300
    unmarked = {
        str(path.relative_to(UNIT)): names
        for path in paths
        if (names := _unmarked_readers(path.read_text(encoding="utf-8")))
    }
    assert unmarked == {}, f"mark them @pytest.mark.posix_only(...): {unmarked}"


def test_the_check_sees_an_unmarked_reader() -> None:
    bare = "def test_a(): kernel_trees(GLOBS)\ndef test_b(): pass\n"
    assert _unmarked_readers(bare) == ["test_a"]
    marked = '@pytest.mark.posix_only("apt")\ndef test_a(): kernel_trees(GLOBS)\n'
    assert _unmarked_readers(marked) == []
    module = 'pytestmark = pytest.mark.posix_only("apt")\ndef test_a(): obtain("6.1", G)\n'
    assert _unmarked_readers(module) == []
