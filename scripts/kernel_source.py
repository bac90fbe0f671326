#!/usr/bin/env python3
"""Debian's kernel source, fetched once and extracted only where asked.

    python scripts/kernel_source.py 6.1 6.12 --glob 'drivers/net/*' --glob 'net/core/*'

prints one line per series: the package version and the root of the extracted tree.

Debian ships the kernel's source as the package `linux-source-<series>`: one
`/usr/src/linux-source-<series>.tar.xz` inside. On bookworm both series come from Debian's own
archive (6.1 from bookworm and bookworm-security, 6.12 from bookworm-security as the
`~deb12u1` backport that trixie's kernel is built from), so `apt-get download` needs no root and no
extra sources. The .deb and the extracted paths are cached under
`~/.cache/sbctune/kernel-src/` (or `$SBCTUNE_KERNEL_SRC_CACHE`); a later call that asks for paths
already extracted touches neither the network nor the tarball.

Used by `regen_driver_caps.py` (the driver capability table) and by the test that checks every
cited source function still exists; other generators may ask for other paths (`drivers/usb/core/*`,
`drivers/mmc/*`, `net/core/*`, ...): `regen_board_socs.py` reads the device trees
(`arch/arm/boot/dts/*`, `arch/arm64/boot/dts/*`, `arch/riscv/boot/dts/*`) and
`regen_usb_probe_resets.py` the USB network drivers' probe functions (`drivers/net/*`).
A glob an extracted one covers is not extracted again, and `$SBCTUNE_KERNEL_SRC_WITH` (the tests
set it) names parts taken along with any extraction: each decompresses the whole tarball.
"""

from __future__ import annotations

import argparse
import fnmatch
import functools
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import source_cache

SERIES = ("6.1", "6.12")  # the series the generated tables are read from (pinned_trees)
# Older series whose source a hand fact may cite (a fact of a kernel the tables were not generated
# from: stmmac refusing a running MTU change before 6.0, audit 28). Not in bookworm's archive:
# each comes from its own Debian suite through a private apt configuration under the cache (its
# own sources list, lists and archives), so the machine's apt sources are never touched.
OLDER: dict[str, tuple[str, str, str]] = {
    # series: (archive URI, suite, keyring of that suite, as bookworm's debian-archive-keyring has)
    "5.10": (
        "http://deb.debian.org/debian-security",
        "bullseye-security",
        "/usr/share/keyrings/debian-archive-bullseye-security-automatic.gpg",
    ),
}
# Newer series whose source a hand fact may cite (a fact that changed after 6.12, which the
# table would otherwise apply to every later kernel: audit 31). Fetched the same way as OLDER.
# trixie-backports is NotAutomatic/ButAutomaticUpgrades (pin 100): alone in the private
# sources list its newest version is still apt's candidate.
NEWER: dict[str, tuple[str, str, str]] = {
    "7.2": (
        "http://deb.debian.org/debian",
        "trixie-backports",
        "/usr/share/keyrings/debian-archive-trixie-automatic.gpg",
    ),
}
CITED: dict[str, tuple[str, str, str]] = {**OLDER, **NEWER}  # every series not in SERIES
ALSO_ENV = "SBCTUNE_KERNEL_SRC_WITH"  # globs extracted along with any others (_also)
_STAMP = "extracted.json"


@dataclass(frozen=True)
class KernelSource:
    series: str  # "6.1"
    version: str  # the Debian package version, e.g. "6.1.192-2"
    root: Path  # the tree's top: root / "drivers/net/..." exists for the globs asked

    def path(self, relative: str) -> Path:
        return self.root / relative


class KernelSourceError(RuntimeError):
    """The source could not be obtained; the message says what to do."""


def cache_dir() -> Path:
    return source_cache.cache_dir("SBCTUNE_KERNEL_SRC_CACHE", "kernel-src")


def _run(argv: list[str], cwd: Path | None = None) -> str:
    try:
        done = subprocess.run(argv, cwd=cwd, check=True, capture_output=True, text=True)
    except FileNotFoundError as exc:
        raise KernelSourceError(f"{argv[0]} is missing: this needs a Debian system") from exc
    except subprocess.CalledProcessError as exc:
        raise KernelSourceError(f"{' '.join(argv)} failed: {exc.stderr.strip()[-400:]}") from exc
    return done.stdout


def _package(series: str) -> str:
    if series not in SERIES and series not in CITED:
        known = ", ".join((*SERIES, *CITED))
        raise KernelSourceError(f"unknown kernel series {series!r}: use one of {known}")
    return f"linux-source-{series}"


def _apt_options(cache: Path, series: str) -> list[str]:
    """apt's options for `series`: none for the system's own archive (bookworm), else a private
    configuration under the cache (sources list, lists, archives) with that suite alone."""
    if series not in CITED:
        return []
    uri, suite, keyring = CITED[series]
    apt = cache / "apt" / suite
    (apt / "lists" / "partial").mkdir(parents=True, exist_ok=True)
    (apt / "archives" / "partial").mkdir(parents=True, exist_ok=True)
    (apt / "sources.list.d").mkdir(parents=True, exist_ok=True)  # empty: no other source
    sources = apt / "sources.list"
    sources.write_text(f"deb [signed-by={keyring}] {uri} {suite} main\n", encoding="utf-8")
    return [
        "-o", f"Dir::Etc::sourcelist={sources}",
        "-o", f"Dir::Etc::sourceparts={apt / 'sources.list.d'}",
        "-o", f"Dir::State::lists={apt / 'lists'}",
        "-o", f"Dir::Cache={apt}",
        "-o", "Dir::Cache::pkgcache=",  # no binary cache: the system's is not ours to rewrite
        "-o", "Dir::Cache::srcpkgcache=",
        "-o", "APT::Get::List-Cleanup=0",
    ]  # fmt: skip


def _candidate(package: str, apt: Sequence[str] = ()) -> str:
    if apt and not _run(["apt-cache", *apt, "policy", package]).strip():
        _run(["apt-get", *apt, "update"])  # the private lists are empty: read the suite once
    policy = _run(["apt-cache", *apt, "policy", package])
    for line in policy.splitlines():
        if line.strip().startswith("Candidate:"):
            version = line.split(":", 1)[1].strip()
            if version and version != "(none)":
                return version
    raise KernelSourceError(
        f"apt knows no {package}: run `apt-get update` (bookworm and bookworm-security sources)"
    )


def _cached_debs(cache: Path, package: str) -> list[Path]:
    return sorted((cache / "debs").glob(f"{package}_*.deb"))


def _deb_version(deb: Path) -> str:
    stat = deb.stat()
    return _deb_version_of(deb, stat.st_mtime_ns, stat.st_size)


@functools.cache
def _deb_version_of(deb: Path, mtime_ns: int, size: int) -> str:
    """Asked once per process and file (each obtain() asks twice, under the shared lock)."""
    return _run(["dpkg-deb", "-f", str(deb), "Version"]).strip()


def _fetch_deb(
    cache: Path, package: str, version: str | None, offline: bool, apt: Sequence[str] = ()
) -> Path:
    """The .deb of `package` (at `version`, or apt's candidate), downloading it when missing."""
    debs = _cached_debs(cache, package)
    if offline or (version is None and os.environ.get("SBCTUNE_KERNEL_SRC_OFFLINE")):
        if not debs:
            raise KernelSourceError(f"no cached {package} in {cache / 'debs'} (offline)")
        return debs[-1]
    for deb in debs if version else ():
        if _deb_version(deb) == version:
            return deb  # pinned and cached: no apt at all
    want = version or _candidate(package, apt)
    for deb in debs:
        if _deb_version(deb) == want:
            return deb
    (cache / "debs").mkdir(parents=True, exist_ok=True)
    if apt and version:
        _run(["apt-get", *apt, "update"])  # a pinned version the private lists may not have yet
    _run(["apt-get", *apt, "download", f"{package}={want}"], cwd=cache / "debs")
    for deb in _cached_debs(cache, package):
        if _deb_version(deb) == want:
            return deb
    raise KernelSourceError(f"apt-get download {package}={want} left no .deb in {cache / 'debs'}")


def _tarball(deb: Path, work: Path, series: str) -> Path:
    """Only the tarball out of the .deb (dpkg-deb -x would also unpack docs we never read)."""
    tarball = work / f"linux-source-{series}.tar.xz"
    if tarball.exists():
        return tarball
    work.mkdir(parents=True, exist_ok=True)
    member = f"./usr/src/linux-source-{series}.tar.xz"
    with subprocess.Popen(
        ["dpkg-deb", "--fsys-tarfile", str(deb)], stdout=subprocess.PIPE
    ) as deb_tar:
        _check_pipe(
            subprocess.run(
                ["tar", "-x", "-C", str(work), "--strip-components=3", member],
                stdin=deb_tar.stdout,
                capture_output=True,
                text=True,
                check=False,
            ),
            f"extracting {member} from {deb.name}",
        )
    if not tarball.exists():
        raise KernelSourceError(f"{deb.name} holds no {member}")
    return tarball


def _check_pipe(done: subprocess.CompletedProcess[str], what: str) -> None:
    if done.returncode != 0:
        raise KernelSourceError(f"{what} failed: {done.stderr.strip()[-400:]}")


def _stamp(tree: Path) -> set[str]:
    try:
        return set(json.loads((tree / _STAMP).read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return set()


def _also() -> list[str]:
    """Globs to extract with any extraction ($SBCTUNE_KERNEL_SRC_WITH, comma-separated; the
    tests set the trees they read, tests/kernel_trees.py TEST_GLOBS): each extraction
    decompresses the whole tarball, so a fresh machine's run does it once per series instead
    of once per new glob. Each must exist in every series' tarball (tar fails on one that
    matches nothing)."""
    return [g.strip().strip("/") for g in os.environ.get(ALSO_ENV, "").split(",") if g.strip()]


def _absent_extras(
    run: subprocess.CompletedProcess[str], package: str, also: list[str]
) -> set[str] | None:
    """The globs of `also` the tarball has no member for, when tar failed for them alone (a
    tree without one of the tests' parts: it is simply not extracted, nor marked done); None
    when tar failed otherwise (or did not fail)."""
    if run.returncode == 0:
        return set()
    absent: set[str] = set()
    for line in run.stderr.splitlines():
        if line.startswith("tar: Exiting with failure status"):
            continue
        member = line.removeprefix("tar: ").removesuffix(": Not found in archive")
        glob = member.removeprefix(f"{package}/")
        if member == line or glob == member or glob not in also:
            return None
        absent.add(glob)
    return absent


def _covered(glob: str, done: set[str]) -> bool:
    """Whether an extracted glob matches `glob` (itself included)."""
    return any(fnmatch.fnmatchcase(glob, d) for d in done)


def asked(relative: str, globs: Sequence[str]) -> bool:
    """Whether a path of the tree (relative to its top) is one `globs` extract. The cache holds
    what every caller asked for (and the tests' trees, SBCTUNE_KERNEL_SRC_WITH), so a generator
    that walks a folder reads only the files its own globs name, or its table would depend on
    what others extracted before it (regen_kernel_source gained drivers/base/*'s messages)."""
    return any(fnmatch.fnmatchcase(relative, g.strip("/")) for g in globs)


def _uncovered(globs: list[str]) -> list[str]:
    """`globs` without those another one already matches: tar takes each member for the first
    pattern it matches and fails ("Not found in archive") for a pattern left with none, so a
    fresh tree asked for "net/mac80211/*" and "net/mac80211/iface.c" at once was never extracted
    (a cache filled one glob at a time hid it; audit 31 met it on 7.2)."""
    unique = list(dict.fromkeys(globs))
    return [g for g in unique if not any(o != g and fnmatch.fnmatchcase(g, o) for o in unique)]


def obtain(
    series: str,
    globs: Sequence[str],
    *,
    version: str | None = None,
    cache: Path | None = None,
    offline: bool = False,
) -> KernelSource:
    """The source tree of `linux-source-<series>` with at least `globs` extracted.

    `globs` are tar wildcards relative to the tree's top ("drivers/net/*", "net/core/dev.c").
    `version` pins a package version (else apt's candidate; with `offline` or
    SBCTUNE_KERNEL_SRC_OFFLINE=1, the newest cached one).
    """
    package = _package(series)
    cache = cache or cache_dir()
    with source_cache.locked(cache):
        deb = _fetch_deb(cache, package, version, offline, _apt_options(cache, series))
        got = _deb_version(deb)
        tree_parent = cache / f"{package}_{got}"
        tree = tree_parent / package
        done = _stamp(tree_parent)
        # A glob an extracted one matches is there already ("drivers/net/usb/*" after
        # "drivers/*"): a fresh machine's run would otherwise decompress the whole tarball
        # again (~9 s of CPU each) for files it has.
        asked = [g.strip("/") for g in globs if not _covered(g.strip("/"), done)]
        # the tarball is decompressed anyway: take what this run will ask for next
        also = [g for g in _also() if not _covered(g, done) and g not in asked] if asked else []
        todo = _uncovered(asked + also)
        if todo:
            tarball = _tarball(deb, tree_parent, series)
            members = [f"{package}/{g}" for g in todo]
            run = subprocess.run(
                ["tar", "-xJf", str(tarball), "-C", str(tree_parent), "--wildcards", *members],
                capture_output=True,
                text=True,
                check=False,
            )
            absent = _absent_extras(run, package, also)
            if absent is None:
                _check_pipe(run, f"extracting {', '.join(todo)} from {tarball.name}")
                absent = set()
            extracted = done | set(asked) | (set(also) - absent)
            (tree_parent / _STAMP).write_text(json.dumps(sorted(extracted)), encoding="utf-8")
        return KernelSource(series=series, version=got, root=tree)


def pinned_trees(globs: Sequence[str], pins: Path) -> tuple[dict[str, Path], dict[str, str]]:
    """Every series' tree with `globs`, at the package versions `pins` (a VERSION.json whose
    "packages" map `linux-source-<series>` to a version): the roots and the versions used, as
    the regen scripts that read 6.1 and 6.12 side by side need them."""
    versions = json.loads(pins.read_text(encoding="utf-8"))["packages"]
    trees: dict[str, Path] = {}
    used: dict[str, str] = {}
    for series in SERIES:
        source = obtain(series, globs, version=versions.get(f"linux-source-{series}"))
        trees[series], used[series] = source.root, source.version
    return trees, used


def write_table(
    out: Path, script: str, versions: dict[str, str], body: dict[str, object], *, sort_keys: bool
) -> None:
    """Write a regen script's table: today's date, the script, the kernel versions read
    ("linux-source") and the table's own keys, as JSON with one-space indents."""
    data = {
        "generated": datetime.now(UTC).date().isoformat(),
        "script": script,
        "linux-source": versions,
        **body,
    }
    out.write_text(json.dumps(data, indent=1, sort_keys=sort_keys) + "\n", encoding="utf-8")


def forget(cache: Path | None = None) -> None:
    """Remove the whole cache (the next `obtain` downloads again)."""
    shutil.rmtree(cache or cache_dir(), ignore_errors=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("series", nargs="+", choices=(*SERIES, *CITED))
    parser.add_argument("--glob", action="append", default=[], help="tar wildcard under the tree")
    parser.add_argument("--offline", action="store_true", help="use the cached .deb only")
    args = parser.parse_args(argv)
    for series in args.series:
        started = time.monotonic()
        try:
            source = obtain(series, args.glob or ["drivers/net/*"], offline=args.offline)
        except KernelSourceError as exc:
            print(f"linux-source-{series}: {exc}", file=sys.stderr)
            return 1
        print(f"{series}\t{source.version}\t{source.root}\t{time.monotonic() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
