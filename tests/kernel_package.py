"""A linux-source-<series> package built here, laid out as Debian's is (the tree as
/usr/src/linux-source-<series>.tar.xz inside), in a kernel_source.py cache of its own: what
scripts/kernel_source.py's tests extract from without the network."""

from __future__ import annotations

import subprocess
from pathlib import Path


def cached_package(tmp_path: Path, series: str, files: dict[str, str]) -> Path:
    """The cache folder holding the package of `files` (path under the tree -> text)."""
    src = tmp_path / "src"
    for rel, text in files.items():
        path = src / f"linux-source-{series}" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    package = tmp_path / "pkg"
    (package / "usr" / "src").mkdir(parents=True)
    tarball = package / "usr" / "src" / f"linux-source-{series}.tar.xz"
    subprocess.run(["tar", "-cJf", str(tarball), "-C", str(src), f"linux-source-{series}"],
                   check=True)  # fmt: skip
    (package / "DEBIAN").mkdir()
    (package / "DEBIAN" / "control").write_text(
        f"Package: linux-source-{series}\nVersion: {series}.0-1\nArchitecture: all\n"
        "Maintainer: tests <tests@example.invalid>\nDescription: test tree\n",
        encoding="utf-8",
    )
    cache = tmp_path / "cache"
    (cache / "debs").mkdir(parents=True)
    deb = cache / "debs" / f"linux-source-{series}_{series}.0-1_all.deb"
    subprocess.run(["dpkg-deb", "--build", str(package), str(deb)], check=True,
                   capture_output=True)  # fmt: skip
    return cache
