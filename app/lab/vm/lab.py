"""Bring the VM lab up and down: namespace with taps, local APT repository, QEMU.

State lives in ``/run/sbctune/vms/<name>/`` (state.json, the qcow2 overlay, the serial console
log, QEMU's pid and QMP socket). The namespace is ``sbctvm-<name>``: not ``sbctune-*``, so the
namespace lab's leftover sweep never touches it. One VM lab at a time on a machine (it is
shared: QEMU gets 2 vCPUs and nothing more).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from sbctune.lab.errors import LabError
from sbctune.lab.state import validate_name
from sbctune.lab.system import run, which
from sbctune.lab.vm import accel, image, newer_qemu, plan, qemu, supervise

VM_ROOT = Path(os.environ.get("SBCTUNE_LAB_STATE_DIR", "/run/sbctune/labs")).parent / "vms"
NETNS_PREFIX = "sbctvm-"
BOOT_TIMEOUT = float(os.environ.get("SBCTUNE_VM_BOOT_TIMEOUT", "600"))
USER = "pi"


@dataclass(frozen=True)
class VmLab:
    name: str
    netns: str
    host: str
    """The VM's management address (SSH there from inside ``netns``)."""
    user: str
    password: str
    accel: str
    accel_why: str
    run_dir: str
    qemu_pid: int
    repo_pid: int
    boot_seconds: float = 0.0
    qemu: str = ""
    """Which QEMU runs the VM (trixie's from the cache, or the host's) and its version."""
    igb: bool = False
    """Whether the VM has the Intel 82576 (igb): QEMU 8.0 or newer."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def in_netns(self, argv: list[str]) -> list[str]:
        """``argv`` run inside the lab's namespace (where the VM's NICs are reachable)."""
        return [_ip(), "netns", "exec", self.netns, *argv]


def _ip() -> str:
    found = which("ip")
    if not found:
        raise LabError("`ip` is missing", "install iproute2")
    return found


def run_dir(name: str) -> Path:
    return VM_ROOT / validate_name(name)


def load(name: str) -> VmLab | None:
    try:
        data = json.loads((run_dir(name) / "state.json").read_text(encoding="utf-8"))
        return VmLab(**data)
    except (OSError, ValueError, TypeError):
        return None


def names() -> list[str]:
    if not VM_ROOT.is_dir():
        return []
    return sorted(p.name for p in VM_ROOT.iterdir() if (p / "state.json").exists())


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] != "Z"


def _save(lab: VmLab) -> None:
    path = Path(lab.run_dir) / "state.json"
    fd = os.open(path.with_suffix(".tmp"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(lab.to_json(), fh, indent=2)
    os.replace(path.with_suffix(".tmp"), path)


def _make_netns(netns: str) -> None:
    ip = _ip()
    run([ip, "netns", "add", netns], what="creating the VM lab's namespace")
    run([ip, "-n", netns, "link", "set", "lo", "up"])
    for (tap, multi), nic in zip(qemu.tap_names(), plan.NICS, strict=True):
        args = [ip, "-n", netns, "tuntap", "add", "dev", tap, "mode", "tap"]
        run(args + (["multi_queue"] if multi else []), what="creating a tap")
        run([ip, "-n", netns, "link", "set", tap, "addrgenmode", "none"])
        run([ip, "-n", netns, "addr", "add", f"{nic.host_addr}/{nic.prefix}", "dev", tap])
        run([ip, "-n", netns, "link", "set", tap, "up"])


def _start_repo(netns: str, img: image.Image, folder: Path) -> int:
    log = open(folder / "repo.log", "ab")  # noqa: SIM115 - handed to the child
    mgmt = plan.NICS[0]
    argv = [
        _ip(), "netns", "exec", netns, sys.executable, "-m", "http.server",
        "--bind", mgmt.host_addr, "--directory", str(img.repo), str(plan.REPO_PORT),
    ]  # fmt: skip
    proc = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
    )
    log.close()
    return proc.pid


def _ssh_banner(lab: VmLab) -> bool:
    probe = (
        "import socket,sys\n"
        "s=socket.create_connection((sys.argv[1],22),timeout=3)\n"
        "sys.exit(0 if s.recv(8).startswith(b'SSH-') else 1)\n"
    )
    argv = lab.in_netns([sys.executable, "-c", probe, lab.host])
    try:
        done = subprocess.run(argv, capture_output=True, timeout=10, check=False)
    except subprocess.TimeoutExpired:
        return False
    return done.returncode == 0


def wait_for_ssh(lab: VmLab, timeout: float = BOOT_TIMEOUT) -> float:
    """Seconds until the VM's sshd answered; LabError with the console's tail on timeout."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if not _alive(lab.qemu_pid):
            raise LabError(
                "QEMU exited while the VM booted", f"{qemu_log_tail(lab)}\n{console_tail(lab)}"
            )
        if _ssh_banner(lab):
            return time.monotonic() - start
        time.sleep(2)
    raise LabError(f"the VM did not answer SSH within {timeout:.0f} s", console_tail(lab))


def _tail(lab: VmLab, filename: str, lines: int) -> str:
    try:
        text = (Path(lab.run_dir) / filename).read_bytes()[-8192:]
    except OSError:
        return f"(no {filename})"
    return "\n".join(text.decode(errors="replace").splitlines()[-lines:])


def console_tail(lab: VmLab, lines: int = 15) -> str:
    return _tail(lab, "console.log", lines)


def qemu_log_tail(lab: VmLab, lines: int = 10) -> str:
    return _tail(lab, "qemu.log", lines)


def up(name: str = "vm", *, wait: bool = True) -> VmLab:
    validate_name(name)
    if os.geteuid() != 0:
        raise LabError("the VM lab needs root (namespaces, taps)", "run it with sudo")
    img = image.build()
    image.ensure_host_tools()  # a cached image does not mean QEMU is installed here
    for other in names():
        existing = load(other)
        if existing and _alive(existing.qemu_pid):
            raise LabError(
                f"VM lab {other} is already running (one VM at a time on a shared machine)",
                f"use it, or take it down: sbctune lab down {other}",
            )
        down(other)
    qemu_bin, qemu_why = newer_qemu.choose(which("qemu-system-x86_64"))
    folder = run_dir(name)
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    netns = NETNS_PREFIX + name
    try:
        return _start(name, img, folder, netns, (qemu_bin, qemu_why), wait)
    except BaseException:
        down(name)
        raise


def _start(
    name: str, img: image.Image, folder: Path, netns: str, qemu_pick: tuple[str, str], wait: bool
) -> VmLab:
    qemu_bin, qemu_why = qemu_pick
    found = newer_qemu.version(qemu_bin)
    if found is None:
        raise LabError(f"QEMU does not run: {qemu_bin} --version failed", qemu_why)
    igb = newer_qemu.has_igb(found)
    overlay = folder / "overlay.qcow2"
    run(
        ["qemu-img", "create", "-q", "-f", "qcow2", "-F", "qcow2", "-b", str(img.disk),
         str(overlay)],
        what="creating the VM's copy-on-write overlay",
    )  # fmt: skip
    mode, why = accel.choose(qemu_bin, img.kernel)
    # Recorded before anything is started, so `down` finds what a crash leaves.
    which_qemu = f"QEMU {found[0]}.{found[1]}, {qemu_why}"
    lab = VmLab(name, netns, plan.NICS[0].vm_addr, USER, img.password(), mode, why,
                str(folder), 0, 0, qemu=which_qemu, igb=igb)  # fmt: skip
    _save(lab)
    _make_netns(netns)
    repo_pid = _start_repo(netns, img, folder)
    lab = VmLab(**{**lab.to_json(), "repo_pid": repo_pid})
    _save(lab)
    pid = _start_supervised_qemu(lab, qemu.command(qemu_bin, img, overlay, folder, mode, igb=igb))
    lab = VmLab(**{**lab.to_json(), "qemu_pid": pid})
    _save(lab)
    if wait:
        lab = VmLab(**{**lab.to_json(), "boot_seconds": round(wait_for_ssh(lab), 1)})
        _save(lab)
    return lab


def _start_supervised_qemu(lab: VmLab, qemu_argv: list[str]) -> int:
    """Start QEMU under sbctune.lab.vm.supervise (which starts it again when the guest
    reboots); the supervisor's pid, which stands for the VM in ``qemu_pid``."""
    folder = Path(lab.run_dir)
    argv = lab.in_netns([sys.executable, "-m", "sbctune.lab.vm.supervise", str(folder), "--",
                         *qemu_argv])  # fmt: skip
    with open(folder / "supervisor.log", "ab") as log:
        proc = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True
        )
    # QEMU refuses bad options at once: say so here rather than as a boot that never answers.
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
    if proc.poll() is not None:
        raise LabError("QEMU did not start", qemu_log_tail(lab))
    return proc.pid


def _qemu_pid(lab: VmLab) -> int:
    """QEMU's pid from its pidfile, 0 unless that process is still a QEMU (pids get reused)."""
    try:
        pid = int((Path(lab.run_dir) / "qemu.pid").read_text(encoding="utf-8").strip())
        comm = Path(f"/proc/{pid}/comm").read_text(encoding="utf-8").strip()
    except (OSError, ValueError):
        return 0
    return pid if comm.startswith("qemu-system") else 0


def hard_reset(lab: VmLab) -> bool:
    """Reset the VM as a board's reset button would (no shutdown: what the guest had not
    written to its disk is lost); its supervisor starts QEMU again. False when no QEMU ran."""
    pid = _qemu_pid(lab)
    if not pid:
        return False
    (Path(lab.run_dir) / supervise.RESET_MARKER).touch()
    _kill(pid)
    return True


def console_lines_with(lab: VmLab, needles: tuple[str, ...], limit: int = 20) -> list[str]:
    """The last ``limit`` console lines holding one of ``needles`` (the kernel's hung-task and
    stall reports, say), from the log's last 256 KiB."""
    try:
        with (Path(lab.run_dir) / "console.log").open("rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 262144))
            text = fh.read().decode(errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if any(n in line for n in needles)][-limit:]


def _kill(pid: int, grace: float = 10.0) -> None:
    if not pid or not _alive(pid):
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.1)
        if not _alive(pid):
            return


def down(name: str) -> bool:
    """Stop QEMU and the repository server, delete the namespace and the state. Idempotent."""
    folder = run_dir(name)
    lab = load(name)
    found = folder.exists()
    if lab:
        _kill(lab.qemu_pid)  # the supervisor: it stops QEMU first
        _kill(_qemu_pid(lab))  # a QEMU whose supervisor died
        if lab.repo_pid:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(lab.repo_pid, signal.SIGTERM)
            _kill(lab.repo_pid, grace=3)
    netns = NETNS_PREFIX + name
    listed = run([_ip(), "netns", "list"], check=False).stdout.split()
    if netns in listed:
        run([_ip(), "netns", "del", netns], check=False)
        found = True
    shutil.rmtree(folder, ignore_errors=True)
    return found
