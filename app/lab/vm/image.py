"""Build and cache the VM lab's Debian bookworm image (mmdebstrap from Debian's mirror).

The cache lives in the user cache directory (platformdirs), one folder per hash of the build
inputs (package list, customize hook, address plan, builder version), so a changed input builds
a new image and an unchanged one is reused. A folder holds:

- ``rootfs.qcow2``: the root file system (ext4 on the whole disk); each lab boots a qcow2
  copy-on-write overlay on top of it, so every lab starts clean;
- ``vmlinuz``, ``initrd.img``: the Debian kernel (linux-image-amd64) for direct kernel boot;
- ``password``: the password of the user ``pi`` (0600, generated per build);
- ``repo/``: a flat APT repository with Debian's iperf3 and libiperf0 (the image has no iperf3).

Only this build (and the repository fetch) touches a package mirror.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from sbctune.lab.errors import LabError
from sbctune.lab.vm import plan

BUILDER_VERSION = "1"
SUITE = "bookworm"
MIRROR = "http://deb.debian.org/debian"
DISK_SIZE = "3G"
PACKAGES = (
    "systemd-sysv", "dbus", "udev", "kmod", "network-manager", "sudo", "openssh-server",
    "ethtool", "usbutils", "pciutils", "iproute2", "procps", "iputils-ping", "less",
    "linux-image-amd64", "initramfs-tools", "ca-certificates",
)  # fmt: skip
# iperf3 and what it needs that the image lacks (checked at build time: `_check_repo_deps`).
REPO_PACKAGES = ("iperf3", "libiperf0", "libsctp1")
# Host tools the build needs -> their Debian package (installed by `ensure_host_tools`).
HOST_TOOLS = {
    "mmdebstrap": "mmdebstrap",
    "qemu-system-x86_64": "qemu-system-x86",
    "qemu-img": "qemu-utils",
    "dpkg-scanpackages": "dpkg-dev",
    "mkfs.ext4": "e2fsprogs",
}
HOOK = Path(__file__).with_name("customize.sh")
BUILD_TIMEOUT = 3600.0


@dataclass(frozen=True)
class Image:
    folder: Path

    @property
    def disk(self) -> Path:
        return self.folder / "rootfs.qcow2"

    @property
    def kernel(self) -> Path:
        return self.folder / "vmlinuz"

    @property
    def initrd(self) -> Path:
        return self.folder / "initrd.img"

    @property
    def repo(self) -> Path:
        return self.folder / "repo"

    def password(self) -> str:
        return (self.folder / "password").read_text(encoding="utf-8").strip()

    def complete(self) -> bool:
        parts = (self.disk, self.kernel, self.initrd, self.folder / "password", self.repo)
        return all(p.exists() for p in parts) and (self.repo / "Packages").exists()


def cache_root() -> Path:
    override = os.environ.get("SBCTUNE_VM_CACHE")
    if override:
        return Path(override)
    return platformdirs.user_cache_path("sbctune", appauthor=False) / "vm-images"


def build_key() -> str:
    """Hash of every build input: a change to any of them means a new image."""
    digest = hashlib.sha256()
    for part in (BUILDER_VERSION, SUITE, MIRROR, DISK_SIZE, *PACKAGES, "|", *REPO_PACKAGES):
        digest.update(part.encode() + b"\0")
    digest.update(HOOK.read_bytes())
    digest.update(plan.address_plan().encode())
    return digest.hexdigest()[:16]


def cached_image() -> Image | None:
    image = Image(cache_root() / build_key())
    return image if image.complete() else None


def _log(msg: str) -> None:
    print(f"[vm-image] {msg}", file=sys.stderr, flush=True)


def _run(argv: list[str], *, timeout: float = BUILD_TIMEOUT, cwd: Path | None = None) -> str:
    try:
        done = subprocess.run(
            argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise LabError(f"{argv[0]} failed: {exc}") from exc
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-15:]
        raise LabError(f"{' '.join(argv[:3])} ... failed", "\n".join(tail))
    return done.stdout


def ensure_host_tools() -> None:
    """Install the build's Debian packages when a tool is missing (root, Debian host)."""
    missing = sorted({pkg for exe, pkg in HOST_TOOLS.items() if not _which(exe)})
    if not missing:
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        raise LabError(
            "the VM lab needs " + ", ".join(missing),
            "install them (Debian: `sudo apt-get install " + " ".join(missing) + "`)",
        )
    _log("installing " + " ".join(missing))
    env_argv = ["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]
    _run([*env_argv, "update"], timeout=600)
    _run([*env_argv, "install", "-y", "--no-install-recommends", *missing], timeout=1200)


def _which(exe: str) -> str | None:
    return shutil.which(exe) or shutil.which(exe, path="/usr/sbin:/sbin")


def _mmdebstrap(rootdir: Path, pwfile: Path, planfile: Path) -> None:
    hook = f'sh {HOOK} "$1" {pwfile} {planfile}'
    argv = [
        "mmdebstrap", "--variant=important", "--mode=root", "--format=directory",
        "--include=" + ",".join(PACKAGES), f"--customize-hook={hook}",
        SUITE, str(rootdir), MIRROR,
    ]  # fmt: skip
    _run(argv)


def _extract_boot(rootdir: Path, out: Path) -> None:
    boot = rootdir / "boot"
    kernels = sorted(boot.glob("vmlinuz-*"))
    initrds = sorted(boot.glob("initrd.img-*"))
    if not kernels or not initrds:
        raise LabError("the image has no kernel or initrd in /boot", "rebuild with --force")
    shutil.copyfile(kernels[-1], out / "vmlinuz")
    shutil.copyfile(initrds[-1], out / "initrd.img")


def _make_disk(rootdir: Path, out: Path) -> None:
    raw = out / "rootfs.raw"
    # mkfs.ext4 -d fills the file system from a folder: no loop device, no mount.
    _run(["mkfs.ext4", "-q", "-F", "-L", "sbctune-vm", "-d", str(rootdir), str(raw), DISK_SIZE])
    _run(["qemu-img", "convert", "-O", "qcow2", str(raw), str(out / "rootfs.qcow2")])
    raw.unlink()


def _fetch_repo(out: Path) -> None:
    """Debian's iperf3 + libiperf0 as a flat repository (``deb [trusted=yes] URL ./``)."""
    repo = out / "repo"
    repo.mkdir()
    # apt-get download runs as the _apt user when it can: the folder must be writable by it.
    os.chmod(repo, 0o777)  # noqa: S103 - temporary, tightened below
    try:
        _run(["apt-get", "download", *REPO_PACKAGES], cwd=repo, timeout=600)
    except LabError:  # a fresh machine's package lists may be missing or stale
        _run(["apt-get", "update"], timeout=600)
        _run(["apt-get", "download", *REPO_PACKAGES], cwd=repo, timeout=600)
    os.chmod(repo, 0o755)  # noqa: S103 - served read-only to the VM
    packages = _run(["dpkg-scanpackages", "--multiversion", "."], cwd=repo)
    (repo / "Packages").write_text(packages, encoding="utf-8")


def _installed(rootdir: Path) -> set[str]:
    status = (rootdir / "var/lib/dpkg/status").read_text(encoding="utf-8", errors="replace")
    names: set[str] = set()
    for stanza in status.split("\n\n"):
        fields = dict(
            line.split(": ", 1) for line in stanza.splitlines() if ": " in line and line[0] != " "
        )
        if fields.get("Status", "").endswith(" installed"):
            names.add(fields.get("Package", ""))
            names.update(p.split()[0] for p in fields.get("Provides", "").split(",") if p.strip())
    return names


def _check_repo_deps(rootdir: Path, repo: Path) -> None:
    """Every dependency of the repository's packages is in the image or in the repository,
    so `apt-get install iperf3` in the VM cannot fail on a missing package."""
    have = _installed(rootdir) | set(REPO_PACKAGES)
    for deb in sorted(repo.glob("*.deb")):
        for field in ("Pre-Depends", "Depends"):
            line = _run(["dpkg-deb", "-f", str(deb), field]).strip()
            for dep in filter(None, (d.strip() for d in line.split(","))):
                alternatives = [a.split()[0].split(":")[0] for a in dep.split("|")]
                if not have.intersection(alternatives):
                    raise LabError(
                        f"{deb.name} needs {dep}, which is neither in the image nor the repository",
                        "add it to REPO_PACKAGES in sbctune/lab/vm/image.py",
                    )


def build(*, force: bool = False) -> Image:
    """Build the image unless a complete one for these inputs is cached; return it."""
    image = Image(cache_root() / build_key())
    if image.complete() and not force:
        return image
    if os.geteuid() != 0:
        raise LabError("building the VM image needs root (mmdebstrap --mode=root)")
    ensure_host_tools()
    image.folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=image.folder.parent, prefix=".build-") as tmp:
        work = Path(tmp)
        out = work / "out"
        out.mkdir()
        password = secrets.token_urlsafe(12)
        pwfile = work / "chpasswd"
        pwfile.write_text(f"pi:{password}\n", encoding="utf-8")
        os.chmod(pwfile, 0o600)
        planfile = work / "plan"
        planfile.write_text(plan.address_plan(), encoding="utf-8")
        _log(f"mmdebstrap {SUITE} from {MIRROR} (several minutes)")
        _mmdebstrap(work / "root", pwfile, planfile)
        _extract_boot(work / "root", out)
        _log("making the disk image")
        _make_disk(work / "root", out)
        _log("fetching " + " ".join(REPO_PACKAGES) + " for the local APT repository")
        _fetch_repo(out)
        _check_repo_deps(work / "root", out / "repo")
        fd = os.open(out / "password", os.O_WRONLY | os.O_CREAT, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(password + "\n")
        if image.folder.exists():
            shutil.rmtree(image.folder)
        out.rename(image.folder)
    _log(f"image ready: {image.folder}")
    return image
