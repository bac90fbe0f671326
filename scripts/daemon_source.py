#!/usr/bin/env python3
"""Debian's source of the network daemons, fetched once and extracted only where asked.

    python scripts/daemon_source.py            # every pinned source: version and tree root

The journal formats in resources/catalog/daemon_lines.json come from systemd-networkd and
NetworkManager. Their source is the upstream release tarball Debian builds from (the
`.orig.tar.*` of the Debian source packages `systemd` and `network-manager`, bookworm's and
trixie's), at the versions pinned in daemon_lines.json's "sources". The `.dsc` is fetched from
Debian's pool (deb.debian.org; no deb-src line in apt's sources is needed), the tarball it lists
is downloaded and checked against the `.dsc`'s SHA-256, and only the directories asked for are
extracted. Everything is cached under `~/.cache/sbctune/daemon-src/` (or
`$SBCTUNE_DAEMON_SRC_CACHE`); a later call for paths already extracted touches no network.
Debian's own patches (the `.debian.tar.xz`) are not applied: they touch none of the cited files'
log formats in these versions (the check reads the upstream text verbatim).

A pin with a "deb" (and its "sha256") names a binary package instead: ifplugd 0.28-19.5, whose
.dsc the pool serves but whose ifplugd_0.28.orig.tar.gz it does not (404). Its .deb is fetched
from the same pool, checked against the pinned SHA-256 (bookworm's Packages index gives it) and
its globs extracted with dpkg-deb: the executable's strings are what the table is checked on.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import source_cache

POOL = "http://deb.debian.org/debian/pool/main"
_STAMP = "extracted.json"
_MAX_DOWNLOAD = 64 * 1024 * 1024  # the largest tarball here is ~17 MB


@dataclass(frozen=True)
class Pin:
    key: str  # "systemd-bookworm"
    package: str  # the Debian source package: "systemd", "network-manager"
    version: str  # the Debian version: "252.39-1~deb12u2"
    globs: tuple[str, ...]  # tar wildcards below the tree's top
    # a binary package instead of the source: its .deb's file name in the pool and that file's
    # SHA-256 (the one the suite's Packages index gives), for a package whose upstream tarball
    # the pool no longer serves (ifplugd_0.28.orig.tar.gz: its .dsc is there, the tarball is not)
    deb: str = ""
    sha256: str = ""


@dataclass(frozen=True)
class DaemonSource:
    pin: Pin
    upstream: str  # the release the tarball holds: "252.39"
    root: Path

    def path(self, relative: str) -> Path:
        return self.root / relative


class DaemonSourceError(RuntimeError):
    """The source could not be obtained; the message says why."""


def cache_dir() -> Path:
    return source_cache.cache_dir("SBCTUNE_DAEMON_SRC_CACHE", "daemon-src")


def pins(table: dict[str, object]) -> list[Pin]:
    """The sources a daemon_lines.json names ("sources": key -> package, version, globs)."""
    sources = table["sources"]
    assert isinstance(sources, dict)
    return [
        Pin(
            key, str(info["package"]), str(info["version"]), tuple(info["globs"]),
            str(info.get("deb", "")), str(info.get("sha256", "")),
        )
        for key, info in sources.items()
    ]  # fmt: skip


def _pool_dir(package: str) -> str:
    return f"{POOL}/{package[0]}/{package}"


def _get(url: str) -> bytes:
    try:
        with urllib.request.urlopen(url, timeout=60) as reply:  # noqa: S310 (a fixed https/http pool)
            data: bytes = reply.read(_MAX_DOWNLOAD + 1)
    except OSError as exc:
        raise DaemonSourceError(f"could not fetch {url}: {exc}") from exc
    if len(data) > _MAX_DOWNLOAD:
        raise DaemonSourceError(f"{url} is larger than {_MAX_DOWNLOAD} bytes")
    return data


def _orig_of(dsc: str) -> tuple[str, str]:
    """(file name, sha256) of the upstream tarball a .dsc lists."""
    in_sha = False
    for line in dsc.splitlines():
        if line.startswith("Checksums-Sha256:"):
            in_sha = True
            continue
        if in_sha and not line.startswith(" "):
            break
        parts = line.split()
        if in_sha and len(parts) == 3 and ".orig.tar." in parts[2]:
            return parts[2], parts[0]
    raise DaemonSourceError("the .dsc lists no .orig tarball")


def _tarball(pin: Pin, cache: Path) -> Path:
    dsc_name = f"{pin.package}_{pin.version}.dsc"
    dsc_path = cache / "dsc" / dsc_name
    if not dsc_path.exists():
        dsc_path.parent.mkdir(parents=True, exist_ok=True)
        dsc_path.write_bytes(_get(f"{_pool_dir(pin.package)}/{dsc_name}"))
    name, sha = _orig_of(dsc_path.read_text(encoding="utf-8", errors="replace"))
    tar_path = cache / "tarballs" / name
    if tar_path.exists() and hashlib.sha256(tar_path.read_bytes()).hexdigest() == sha:
        return tar_path
    data = _get(f"{_pool_dir(pin.package)}/{name}")
    if hashlib.sha256(data).hexdigest() != sha:
        raise DaemonSourceError(f"{name}: SHA-256 differs from its .dsc")
    tar_path.parent.mkdir(parents=True, exist_ok=True)
    tar_path.write_bytes(data)
    return tar_path


def _deb(pin: Pin, cache: Path) -> Path:
    """The pinned .deb, fetched once and checked against the pinned SHA-256."""
    deb_path = cache / "debs" / pin.deb
    if deb_path.exists() and hashlib.sha256(deb_path.read_bytes()).hexdigest() == pin.sha256:
        return deb_path
    data = _get(f"{_pool_dir(pin.package)}/{pin.deb}")
    if hashlib.sha256(data).hexdigest() != pin.sha256:
        raise DaemonSourceError(f"{pin.deb}: SHA-256 differs from the pinned one")
    deb_path.parent.mkdir(parents=True, exist_ok=True)
    deb_path.write_bytes(data)
    return deb_path


def _extract_deb(deb: Path, into: Path, globs: Sequence[str]) -> None:
    """The files of `deb`'s data that match `globs` (paths below its root, no leading "./")."""
    into.mkdir(parents=True, exist_ok=True)
    data = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], capture_output=True,
                          check=False)  # fmt: skip
    if data.returncode != 0:
        raise DaemonSourceError(f"dpkg-deb could not read {deb.name}: {data.stderr[-300:]!r}")
    done = subprocess.run(
        ["tar", "-x", "-C", str(into), "--wildcards", *[f"./{g}" for g in globs]],
        input=data.stdout, capture_output=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise DaemonSourceError(f"extracting {list(globs)}: {done.stderr[-300:]!r}")


def _stamp(tree_parent: Path) -> set[str]:
    try:
        return set(json.loads((tree_parent / _STAMP).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return set()


def _top_dir(tarball: Path) -> str:
    listing = subprocess.run(
        ["tar", "-tf", str(tarball)], capture_output=True, text=True, check=False
    )
    first = listing.stdout.split("\n", 1)[0]
    if listing.returncode not in (0, 141) and not first:
        raise DaemonSourceError(f"cannot list {tarball.name}: {listing.stderr.strip()[-300:]}")
    return first.split("/", 1)[0]


def obtain(pin: Pin, *, cache: Path | None = None, offline: bool = False) -> DaemonSource:
    """The upstream tree of `pin` with at least its globs extracted (offline: cache only)."""
    cache = cache or cache_dir()
    upstream = pin.version.split("-")[0].split(":")[-1]
    tree_parent = cache / (f"{pin.package}_{pin.version}" + ("_deb" if pin.deb else ""))
    with source_cache.locked(cache):
        done = _stamp(tree_parent)
        todo = [g for g in pin.globs if g not in done]
        top_file = tree_parent / "top.txt"
        if todo:
            if offline or os.environ.get("SBCTUNE_DAEMON_SRC_OFFLINE"):
                raise DaemonSourceError(f"{pin.package} {pin.version} is not cached in {cache}")
            if pin.deb:
                _extract_deb(_deb(pin, cache), tree_parent / "deb", todo)
                top_file.write_text("deb", encoding="utf-8")
                stamp = json.dumps(sorted(done | set(todo)))
                (tree_parent / _STAMP).write_text(stamp, encoding="utf-8")
                return DaemonSource(pin=pin, upstream=upstream, root=tree_parent / "deb")
            tarball = _tarball(pin, cache)
            top = _top_dir(tarball)
            tree_parent.mkdir(parents=True, exist_ok=True)
            done_tar = subprocess.run(
                ["tar", "-xf", str(tarball), "-C", str(tree_parent), "--wildcards",
                 *[f"{top}/{g}" for g in todo]],
                capture_output=True, text=True, check=False,
            )  # fmt: skip
            if done_tar.returncode != 0:
                raise DaemonSourceError(f"extracting {todo}: {done_tar.stderr.strip()[-300:]}")
            top_file.write_text(top, encoding="utf-8")
            stamp = json.dumps(sorted(done | set(todo)))
            (tree_parent / _STAMP).write_text(stamp, encoding="utf-8")
        top = top_file.read_text(encoding="utf-8").strip()
        return DaemonSource(pin=pin, upstream=upstream, root=tree_parent / top)


def main(argv: Sequence[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--offline", action="store_true", help="use the cache only")
    args = parser.parse_args(argv)
    table_path = Path(__file__).resolve().parent.parent / "resources/catalog/daemon_lines.json"
    table = json.loads(table_path.read_text(encoding="utf-8"))
    for pin in pins(table):
        started = time.monotonic()
        try:
            source = obtain(pin, offline=args.offline)
        except DaemonSourceError as exc:
            print(f"{pin.key}: {exc}", file=sys.stderr)
            return 1
        print(f"{pin.key}\t{pin.version}\t{source.root}\t{time.monotonic() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
