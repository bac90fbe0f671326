"""scripts/kernel_source.py extracts a glob only when no extracted one covers it: a fresh CI
machine has no cache, and each extraction decompresses the whole tarball (~9 s of CPU for
6.1's), so a test asking "drivers/net/usb/*" after another's "drivers/*" must not pay again."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.kernel_package import cached_package

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))


@pytest.mark.posix_only("builds a Debian package with dpkg-deb and extracts it with tar")
def test_a_glob_an_extracted_one_covers_extracts_nothing(tmp_path: Path) -> None:
    import kernel_source

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
