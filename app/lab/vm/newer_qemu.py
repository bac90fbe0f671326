"""A newer QEMU for the VM lab: Debian trixie's, run from a root that mmdebstrap makes.

Bookworm's QEMU (7.2) has no Intel 82576 (``-device igb`` came with QEMU 8.0), the NIC of
the igb driver. Debian trixie's qemu-system-x86 has it. It is not installed on the host (that
would mix releases): mmdebstrap puts it with its libraries in a root of its own (about 240 MB,
cached in the user cache next to the image, one folder per hash of the build inputs), and it
runs from there with trixie's own dynamic loader::

    ROOT/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --library-path ROOT/usr/lib/x86_64-linux-gnu
        ROOT/usr/bin/qemu-system-x86_64 -L ROOT/usr/share/qemu -L ROOT/usr/share/seabios ...

No chroot (the image, the overlay, the run folder and /dev/net/tun are reached at their host
paths). ``QEMU_MODULE_DIR`` points QEMU at trixie's modules; the lab asks for no device that
lives in a module. A wrapper script ``qemu-system-x86_64`` in the cache folder does all this,
so the lab runs it like any QEMU binary; it execs the loader through a symlink named
``qemu-system-x86_64``, so the process is still called ``qemu-system-x86`` (lab.py's checks).

Only this build touches a package mirror (Debian's).
"""

from __future__ import annotations

import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sbctune.lab.errors import LabError
from sbctune.lab.vm import image

BUILDER_VERSION = "1"
SUITE = "trixie"
PACKAGES = ("qemu-system-x86", "qemu-system-data", "seabios", "ipxe-qemu")
# Documentation and translations are not needed to run QEMU: a smaller root, a faster build.
_EXCLUDES = ("/usr/share/doc/*", "/usr/share/man/*", "/usr/share/locale/*", "/usr/share/info/*")
_LIBDIR = "usr/lib/x86_64-linux-gnu"
_FIRMWARE = ("usr/share/qemu", "usr/share/seabios")
WRAPPER = "qemu-system-x86_64"
BUILD_TIMEOUT = 1800.0
# SBCTUNE_VM_QEMU=host: the host's QEMU (bookworm's 7.2), no igb; unset or "trixie": this one.
CHOICE_ENV = "SBCTUNE_VM_QEMU"
_VERSION = re.compile(r"\bversion (\d{1,3})\.(\d{1,3})\b")


@dataclass(frozen=True)
class NewerQemu:
    folder: Path

    @property
    def root(self) -> Path:
        return self.folder / "root"

    @property
    def wrapper(self) -> Path:
        return self.folder / WRAPPER

    def complete(self) -> bool:
        return self.wrapper.exists() and (self.root / "usr/bin/qemu-system-x86_64").exists()


def build_key() -> str:
    digest = hashlib.sha256()
    for part in (BUILDER_VERSION, SUITE, image.MIRROR, *PACKAGES, "|", *_EXCLUDES):
        digest.update(part.encode() + b"\0")
    return digest.hexdigest()[:16]


def _folder() -> Path:
    return image.cache_root() / f"qemu-{SUITE}-{build_key()}"


def cached() -> NewerQemu | None:
    found = NewerQemu(_folder())
    return found if found.complete() else None


def _log(msg: str) -> None:
    print(f"[vm-qemu] {msg}", file=sys.stderr, flush=True)


def _mmdebstrap(rootdir: Path) -> None:
    argv = [
        "mmdebstrap", "--variant=essential", "--mode=root", "--format=directory",
        *(f"--dpkgopt=path-exclude={p}" for p in _EXCLUDES),
        "--include=" + ",".join(PACKAGES), SUITE, str(rootdir), image.MIRROR,
    ]  # fmt: skip
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LabError(f"mmdebstrap {SUITE} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-15:]
        raise LabError(f"mmdebstrap {SUITE} (QEMU) failed", "\n".join(tail))


def wrapper_text(folder: Path) -> str:
    """The wrapper script for a newer QEMU whose root is ``folder/root``."""
    root = folder / "root"
    firmware: list[str] = []
    for sub in _FIRMWARE:
        firmware += ["-L", str(root / sub)]
    argv = [
        str(folder / "ld" / WRAPPER), "--library-path", str(root / _LIBDIR),
        str(root / "usr/bin/qemu-system-x86_64"), *firmware,
    ]  # fmt: skip
    modules = shlex.quote(str(root / _LIBDIR / "qemu"))
    return (
        "#!/bin/sh\n"
        f"# Debian {SUITE}'s QEMU, run with its own loader and libraries (sbctune VM lab).\n"
        f'QEMU_MODULE_DIR={modules} exec {shlex.join(argv)} "$@"\n'
    )


def _finish(folder: Path) -> None:
    loader = folder / "root" / _LIBDIR / "ld-linux-x86-64.so.2"
    if not loader.exists():
        raise LabError(f"the {SUITE} root has no dynamic loader", str(loader))
    (folder / "ld").mkdir()
    (folder / "ld" / WRAPPER).symlink_to(loader)
    wrapper = folder / WRAPPER
    wrapper.write_text(wrapper_text(folder), encoding="utf-8")
    os.chmod(wrapper, 0o755)  # noqa: S103 - a program


def build(*, force: bool = False) -> NewerQemu:
    """Build the trixie QEMU root unless a complete one for these inputs is cached."""
    found = NewerQemu(_folder())
    if found.complete() and not force:
        return found
    if os.geteuid() != 0:
        raise LabError(f"building {SUITE}'s QEMU needs root (mmdebstrap --mode=root)")
    if not shutil.which("mmdebstrap"):
        image.ensure_host_tools()
    found.folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=found.folder.parent, prefix=".qemu-build-") as tmp:
        work = Path(tmp) / "out"
        work.mkdir()
        _log(f"mmdebstrap {SUITE} with {', '.join(PACKAGES)} (a minute or two)")
        _mmdebstrap(work / "root")
        if found.folder.exists():
            shutil.rmtree(found.folder)
        work.rename(found.folder)  # the wrapper names the final folder: written after the move
    try:
        _finish(found.folder)
    except BaseException:
        shutil.rmtree(found.folder, ignore_errors=True)
        raise
    _log(f"{SUITE}'s QEMU ready: {found.wrapper}")
    return found


def version(qemu: str) -> tuple[int, int] | None:
    """(major, minor) from ``qemu --version``, None when it does not run."""
    try:
        done = subprocess.run(
            [qemu, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_version(done.stdout) if done.returncode == 0 else None


def parse_version(text: str) -> tuple[int, int] | None:
    """(major, minor) from QEMU's ``--version`` words; None for anything else."""
    found = _VERSION.search(text[:4096])
    return (int(found.group(1)), int(found.group(2))) if found else None


def choose(host_qemu: str | None) -> tuple[str, str]:
    """(QEMU to run, why): trixie's unless SBCTUNE_VM_QEMU=host or it cannot be built, then
    the host's. LabError when there is neither."""
    if os.environ.get(CHOICE_ENV, "").lower() == "host":
        why = f"the host's QEMU ({CHOICE_ENV}=host)"
    else:
        try:
            newer = build()
        except LabError as exc:
            _log(f"{SUITE}'s QEMU is unavailable ({exc}); the host's QEMU runs, without igb")
            why = f"the host's QEMU ({SUITE}'s is unavailable: {exc})"
        else:
            return str(newer.wrapper), f"Debian {SUITE}'s QEMU"
    if not host_qemu:
        raise LabError("qemu-system-x86_64 is missing", "run scripts/vm-build-image.sh")
    return host_qemu, why


def has_igb(qemu_version: tuple[int, int] | None) -> bool:
    """QEMU emulates the 82576 (igb) from 8.0 on."""
    return qemu_version is not None and qemu_version >= (8, 0)
