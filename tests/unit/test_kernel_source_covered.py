"""scripts/kernel_source.py extracts a glob only when no extracted one covers it: a fresh CI
machine has no cache, and each extraction decompresses the whole tarball (~9 s of CPU for
6.1's), so a test asking "drivers/net/usb/*" after another's "drivers/*" must not pay again."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.kernel_package import cached_package

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))


@pytest.mark.posix_only("builds a Debian package with dpkg-deb and extracts it with tar")
def test_a_glob_an_extracted_one_covers_extracts_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import kernel_source

    monkeypatch.delenv(kernel_source.ALSO_ENV, raising=False)  # the cover rule alone

    files = {"drivers/net/usb/r8152.c": "int r8152;\n", "drivers/net/tun.c": "int tun;\n"}
    files["net/core/dev.c"] = "int dev;\n"
    cache = cached_package(tmp_path, "7.2", files)
    tree = kernel_source.obtain("7.2", ["drivers/*"], cache=cache, offline=True)
    assert (tree.root / "drivers/net/usb/r8152.c").is_file()
    assert not (tree.root / "net").exists()
    # a second extraction would now fail: the tarball it reads is empty
    (tree.root.parent / "linux-source-7.2.tar.xz").write_bytes(b"")
    again = kernel_source.obtain(
        "7.2", ["drivers/net/usb/*", "drivers/net/*"], cache=cache, offline=True
    )
    assert again.root == tree.root
    with pytest.raises(kernel_source.KernelSourceError):  # a glob it has not: extracted
        kernel_source.obtain("7.2", ["net/core/*"], cache=cache, offline=True)


@pytest.mark.posix_only("builds a Debian package with dpkg-deb and extracts it with tar")
def test_the_first_extraction_takes_the_globs_the_run_will_ask_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tests/conftest.py names the trees the tests read: the first extraction of a series takes
    them all, so the next test's new glob decompresses nothing."""
    import kernel_source

    files = {"drivers/net/usb/r8152.c": "int r8152;\n", "net/core/dev.c": "int dev;\n"}
    files["fs/ext4/inode.c"] = "int inode;\n"
    cache = cached_package(tmp_path, "7.2", files)
    monkeypatch.setenv(kernel_source.ALSO_ENV, "drivers/*, net/*")
    tree = kernel_source.obtain("7.2", ["drivers/net/usb/*"], cache=cache, offline=True)
    assert (tree.root / "net/core/dev.c").is_file()
    assert not (tree.root / "fs").exists()  # only what was named
    # a named part the tree lacks is no failure, and not marked extracted
    monkeypatch.setenv(kernel_source.ALSO_ENV, "drivers/*,net/*,sound/*")
    other = cached_package(tmp_path / "other", "5.10", files)
    older = kernel_source.obtain("5.10", ["drivers/net/usb/*"], cache=other, offline=True)
    assert (older.root / "net/core/dev.c").is_file()
    stamp = json.loads((older.root.parent / "extracted.json").read_text(encoding="utf-8"))
    assert "net/*" in stamp and "sound/*" not in stamp
    (tree.root.parent / "linux-source-7.2.tar.xz").write_bytes(b"")
    assert kernel_source.obtain("7.2", ["net/core/*"], cache=cache, offline=True).root == tree.root


def test_the_tests_trees_cover_every_glob_a_regen_script_or_source_test_names() -> None:
    """A glob outside them costs a fresh machine's run one more decompression of the tarball."""
    import ast
    import fnmatch

    from tests.conftest import KERNEL_TREE_GLOBS

    root = Path(__file__).resolve().parents[2]
    files = [*sorted((root / "scripts").glob("*.py")), *sorted((root / "tests").glob("test_*.py"))]
    named = []
    for path in files:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
            if "GLOBS" in targets and isinstance(node.value, ast.Tuple):  # type: ignore[attr-defined]
                named += [
                    (path.name, e.value)
                    for e in node.value.elts  # type: ignore[attr-defined]
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
    assert len(named) > 40  # the scripts' GLOBS were read
    outside = [
        (f, g) for f, g in named if not any(fnmatch.fnmatchcase(g, w) for w in KERNEL_TREE_GLOBS)
    ]
    assert not outside
