"""Which QEMU accelerator can run a stock kernel here: KVM, or TCG (emulation) as fallback.

A ``/dev/kvm`` can exist and still be unusable: KVM_CREATE_VM may fail, or (nested
virtualisation on some hosts) the VM is created but the guest hangs in the kernel's
decompressor and never prints a line. So the probe is a short timed boot of the image's own
kernel with KVM, watching the serial console for "Linux version"; no line within the timeout
means TCG. The verdict is cached for this host boot (``/run``), keyed by the kernel.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import time
from pathlib import Path

KVM_GET_API_VERSION = 0xAE00
KVM_CREATE_VM = 0xAE01
PROBE_TIMEOUT = 15.0
VERDICT_DIR = Path(os.environ.get("SBCTUNE_LAB_STATE_DIR", "/run/sbctune/labs")).parent / "vm"


def kvm_ioctl_ok() -> tuple[bool, str]:
    """True when /dev/kvm opens and creates a VM (the cheap half of the check)."""
    import fcntl  # Linux only: imported here so the lab's modules import on any system

    try:
        fd = os.open("/dev/kvm", os.O_RDWR | os.O_CLOEXEC)
    except OSError as exc:
        return False, f"/dev/kvm: {exc.strerror}"
    try:
        version = fcntl.ioctl(fd, KVM_GET_API_VERSION)
        if version != 12:
            return False, f"KVM API version {version}, expected 12"
        vm_fd = fcntl.ioctl(fd, KVM_CREATE_VM, 0)
        os.close(vm_fd)
    except OSError as exc:
        return False, f"KVM_CREATE_VM failed: {exc.strerror}"
    finally:
        os.close(fd)
    return True, "KVM_CREATE_VM works"


def _timed_boot(qemu: str, kernel: Path) -> tuple[bool, str]:
    with tempfile.TemporaryDirectory(prefix="sbctune-kvm-probe-") as tmp:
        console = Path(tmp) / "console"
        argv = [
            qemu, "-machine", "q35,accel=kvm", "-cpu", "host", "-m", "256", "-smp", "1",
            "-nodefaults", "-display", "none", "-no-reboot",
            "-serial", f"file:{console}", "-kernel", str(kernel),
            "-append", "console=ttyS0 panic=-1 earlyprintk=ttyS0",
        ]  # fmt: skip
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + PROBE_TIMEOUT
        seen = False
        try:
            while time.monotonic() < deadline and proc.poll() is None:
                if console.exists() and b"Linux version" in console.read_bytes()[:65536]:
                    seen = True
                    break
                time.sleep(0.2)
            if not seen and console.exists():
                seen = b"Linux version" in console.read_bytes()[:65536]
        finally:
            proc.kill()
            _, err = proc.communicate(timeout=10)
    if seen:
        return True, "a KVM test boot printed the kernel banner"
    why = err.decode(errors="replace").strip().splitlines()[-1:] if err else []
    detail = f" ({why[0][:200]})" if why else " (hangs in the decompressor)"
    return False, f"a KVM test boot printed nothing in {PROBE_TIMEOUT:.0f} s{detail}"


def choose(qemu: str, kernel: Path) -> tuple[str, str]:
    """(``kvm`` or ``tcg``, why). ``SBCTUNE_VM_ACCEL`` forces one."""
    forced = os.environ.get("SBCTUNE_VM_ACCEL", "").lower()
    if forced in ("kvm", "tcg"):
        return forced, "SBCTUNE_VM_ACCEL"
    ok, why = kvm_ioctl_ok()
    if not ok:
        return "tcg", why
    key = hashlib.sha256(kernel.read_bytes()).hexdigest()[:16]
    verdict = VERDICT_DIR / f"kvm-{key}"
    try:
        cached = verdict.read_text(encoding="utf-8").split("\n", 1)
        return cached[0], cached[1] + " (cached)"
    except (OSError, IndexError):
        pass
    ok, why = _timed_boot(qemu, kernel)
    accel = "kvm" if ok else "tcg"
    try:
        VERDICT_DIR.mkdir(parents=True, exist_ok=True)
        verdict.write_text(f"{accel}\n{why}", encoding="utf-8")
    except OSError:
        pass
    return accel, why
