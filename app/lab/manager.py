"""Bring labs up: build a lab from its profile (namespace, shaping, overlay, sshd, the shaper)
and start it. Taking labs down is ``teardown``, their health ``lab_status``.

Everything a lab creates is recorded in ``/run/sbctune/labs/<name>/state.json`` before it is
created, and teardown also finds leftovers by name (namespaces ``sbctune-*``, host links
``sbct<lab>{n,p,i}<nic>``), so a crashed run leaves nothing the next one trips over.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from sbctune.lab import (
    controller,
    ethtool_state,
    ip_front,
    irq_model,
    netns,
    overlay,
    shaping_shared,
    sshd,
    sysfs_link,
)
from sbctune.lab.board import board_line, interrupts_line
from sbctune.lab.configs import knobs_config, nsinit_config
from sbctune.lab.errors import LabError
from sbctune.lab.ethtool_table_queues import driver_queues, driver_queues_allocated
from sbctune.lab.fake_ethtool_irqs import HELD_FILE
from sbctune.lab.hostname import DEFAULT, lab_hostname
from sbctune.lab.lab_status import status_unlocked
from sbctune.lab.model import LabInfo, NicInfo
from sbctune.lab.processes import children, port_open, read_pid
from sbctune.lab.profile import LabProfile, load_profile
from sbctune.lab.state import (
    STATE_FILE,
    lab_dir,
    locked,
    netns_name,
    read_state,
    state_names,
    validate_name,
    write_json,
)
from sbctune.lab.system import require_supported, tool
from sbctune.lab.teardown import PRIVSEP_MARKER, marker_dir, teardown

SSH_PORT = 22
UP_TIMEOUT = 30.0
ANNOUNCER_READY_SECONDS = 20.0  # zeroconf imported and announced on every link: ~1-2 s


def _allocate_index() -> int:
    used = {int(s["index"]) for n in state_names() if (s := read_state(n)) and "index" in s}
    taken_blocks = netns.used_bench_subnets()
    links = set(netns.host_links())
    for index in range(netns.MAX_LABS):
        blocks = range(index * netns.NICS_PER_LAB, (index + 1) * netns.NICS_PER_LAB)
        if index in used or taken_blocks.intersection(blocks):
            continue
        if any(
            link.startswith(f"sbct{index}") and link[len(f"sbct{index}")] in netns.LINK_KINDS
            for link in links
        ):
            continue
        return index
    up = sorted(state_names())
    raise LabError(
        f"no free address block for another lab: all {netns.MAX_LABS} blocks of 198.18.0.0/15 "
        f"are in use ({len(up)} labs recorded here: {', '.join(up[:8]) or 'none'})",
        "take a lab down first (`sbctune lab list`, then `sbctune lab down NAME`)",
    )


def _default_name(profile: LabProfile) -> str:
    return str(validate_name(profile.name.lower()[:40]))


# Raspberry Pi OS's default host name, which avahi announces (raspberrypi.local): the lab's
# Pi's name unless a capture of its profile shows another (sbctune.lab.hostname).
ANNOUNCED_HOSTNAME = DEFAULT


def _spawn(name: str, netns_: str, directory: Path) -> subprocess.Popen[bytes]:
    log = open(directory / "nsinit.log", "ab")  # noqa: SIM115 - handed to the child
    try:
        proc = subprocess.Popen(
            [
                tool("ip"),
                "netns",
                "exec",
                netns_,
                tool("unshare"),
                "--mount",
                "--uts",  # the Pi's own host name (nsinit sets it), not this machine's
                "--propagation",
                "private",
                "--",
                sys.executable,
                "-m",
                "sbctune.lab.nsinit",
                str(directory),
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            cwd="/",
        )
    finally:
        log.close()
    children[name] = proc
    return proc


def _spawn_shaper(
    name: str, prof: LabProfile, nics: list[NicInfo], index: int, directory: Path
) -> int:
    """Start the live shaper (tweak effects, full duplex) on the host; returns its pid."""
    write_json(
        directory / controller.CONFIG,
        {
            "profile": str(prof.path),
            "index": index,
            "nics": [
                {
                    "name": n.name,
                    "host_veth": n.host_veth,
                    "ifb": n.ifb,
                    "pi_to_pc_shaper": n.pi_to_pc_shaper,
                    "pc_to_pi_shaper": n.pc_to_pi_shaper,
                }
                for n in nics
            ],
        },
        mode=0o644,
    )
    log = open(directory / "shaper.log", "ab")  # noqa: SIM115 - handed to the child
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "sbctune.lab.controller", str(directory)],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
            cwd="/",
        )
    finally:
        log.close()
    children[name + "/shaper"] = proc
    return proc.pid


def _log_tail(directory: Path) -> str:
    lines: list[str] = []
    for log in ("nsinit.log", "knobs.log", "sshd.log", "shaper.log"):
        with contextlib.suppress(OSError):
            text = (
                (directory / log).read_text(errors="replace", encoding="utf-8").strip().splitlines()
            )
            lines += [f"{log}: {line}" for line in text[-3:]]
    return "\n".join(lines)


def _wait_ready(info: LabInfo, proc: subprocess.Popen[bytes], directory: Path) -> None:
    deadline = time.monotonic() + UP_TIMEOUT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise LabError(
                f"the lab's sshd exited during start-up (code {proc.returncode})",
                _log_tail(directory) or f"see the logs in {directory}",
            )
        if port_open(info.host, info.port) and read_pid(directory / "sshd.pid"):
            return
        time.sleep(0.1)
    raise LabError(
        f"the lab's sshd did not answer on {info.host}:{info.port}",
        _log_tail(directory) or f"see the logs in {directory}",
    )


def _lab_info(name: str, prof: LabProfile, index: int, directory: Path) -> LabInfo:
    """Where the new lab's NICs, sshd and state will be (its password made here)."""
    nics = []
    for j, spec in enumerate(prof.interfaces):
        host_addr, pi_addr = netns.addresses(index, j)
        nics.append(
            NicInfo(
                spec.name,
                pi_addr,
                host_addr,
                24,
                netns.host_veth(index, j),
                spec.test,
                netns.ifb_name(index, j),
            )
        )
    return LabInfo(
        name=name,
        host=next(n.pi_addr for n in nics if n.test),
        port=SSH_PORT,
        user=sshd.USER,
        password=sshd.new_password(),
        nics=shaping_shared.named(nics, prof.shared_limits, index),
        profile=str(prof.path),
        netns=netns_name(name),
        state_dir=str(directory),
        index=index,
        board=board_line(prof.bundle),
        interrupts=interrupts_line(
            prof.bundle.file("/proc/interrupts") is not None,
            "/proc/interrupts" in prof.modelled_files,
        ),
    )


def _build(
    info: LabInfo, prof: LabProfile, directory: Path
) -> tuple[subprocess.Popen[bytes], int, Path]:
    """Create the namespace, shaping, user, overlay and sshd; (the lab's init, the shaper,
    the sshd host key)."""
    msix = irq_model.pcie_msix(prof.pcie_host, prof.kernel)  # igb/igc: one queue without it
    netns.create(
        info.netns,
        info.index,
        [(i.name, i.mac) for i in prof.interfaces],
        [driver_queues(i.driver, i.chip, prof.cpu.count, i.queues, msix) for i in prof.interfaces],
        [
            driver_queues_allocated(i.driver, i.chip, prof.cpu.count, i.queues)
            for i in prof.interfaces
        ],
    )
    netns.set_gso_max_size(info.netns, ip_front.gso_max_sizes(ip_front.limits(prof)))
    shaping_shared.shape_lab(info.nics, prof.interfaces, prof.shared_limits, info.index)
    sshd.ensure_user()
    sshd.ensure_sudoers()
    if sshd.ensure_privsep_dir():
        marker_dir().joinpath(PRIVSEP_MARKER).touch()
    shadow = sshd.write_shadow(directory, info.password)
    plan = overlay.build(prof.bundle, directory, prof.uname, prof.modelled_files)
    # the NICs' negotiated speed and duplex: store files the knob file system answers from as
    # net-sysfs.c does (sbctune.lab.sysfs_link), never plain files over the veth's
    links = sysfs_link.knobs(
        overlay.link_files(prof.interfaces, directory),
        {i.name: (i.driver, i.chip) for i in prof.interfaces},
        prof.kernel,
        str(directory / ethtool_state.STATE_FILE),
    )
    ethtool_state.install(prof, directory, Path(plan.bin_dir))
    ip_front.install(prof, directory, Path(plan.bin_dir))
    key = sshd.host_key(directory, info.name)
    config = sshd.write_config(directory, key, [n.pi_addr for n in info.nics], SSH_PORT)
    interrupts = next((s for s, target in plan.file_binds if target == "/proc/interrupts"), "")
    held = directory / HELD_FILE  # ethtool_state.install made it where /proc/interrupts is modelled
    write_json(
        directory / "knobs.json",
        {**knobs_config(prof, interrupts, str(held) if held.is_file() else ""), "links": links},
    )
    write_json(directory / "nsinit.json", nsinit_config(prof, plan, directory, shadow, config))
    proc = _spawn(info.name, info.netns, directory)
    _wait_ready(info, proc, directory)
    _spawn_announcer(info.netns, directory, lab_hostname(prof.bundle))
    return proc, _spawn_shaper(info.name, prof, list(info.nics), info.index, directory), key


def _spawn_announcer(netns_: str, directory: Path, name: str = ANNOUNCED_HOSTNAME) -> None:
    """mDNS announcements on the lab's links, as avahi on Raspberry Pi OS (`sbctune find`).
    A process of the lab's namespace: taken down with the lab's other processes."""
    path = directory / "mdns.log"
    log = open(path, "ab")  # noqa: SIM115 - handed to the child
    start = log.tell()
    try:
        child = subprocess.Popen(
            [tool("ip"), "netns", "exec", netns_, sys.executable, "-m",
             "sbctune.lab.mdns_announce", name],
            stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, cwd="/",
        )  # fmt: skip
    finally:
        log.close()
    _wait_announcing(child, path, start)


def _wait_announcing(child: subprocess.Popen[bytes], log: Path, start: int) -> None:
    """Back from `lab up` only once the Pi answers mDNS, as a booted Pi's avahi does: the
    announcer says so after registering on every link (zeroconf's announcements sent). A find
    started at once after `lab up` heard nothing on a busy machine (test_find_lab, eth1) while
    the announcer was still importing. Bounded; a lab whose announcer failed still serves SSH
    and its log (mdns.log) says why."""
    deadline = time.monotonic() + ANNOUNCER_READY_SECONDS
    while time.monotonic() < deadline and child.poll() is None:
        with contextlib.suppress(OSError), open(log, "rb") as fh:
            fh.seek(start)
            if b"announcing " in fh.read(4096):
                return
        time.sleep(0.05)


def up(profile: str | Path, name: str | None = None) -> LabInfo:
    """Build and start a lab from a profile (a shipped name or a folder). Needs Linux + root."""
    require_supported()
    prof = load_profile(profile)
    name = validate_name(name) if name else _default_name(prof)
    with locked():
        existing = status_unlocked(name)
        if existing.state == "running":
            raise LabError(
                f"a lab named {name!r} is already up",
                f"take it down with `sbctune lab down {name}` or choose another --name",
            )
        if existing.state != "absent":
            teardown(name)  # a crashed run's leftovers: clean them first
        index = _allocate_index()
        directory = lab_dir(name)
        directory.mkdir(mode=0o755, parents=True)
        os.chmod(directory, 0o755)  # noqa: S103 - the lab user reads bin/ and captures/
        info = _lab_info(name, prof, index, directory)
        state: dict[str, Any] = {
            **info.to_json(),
            "status": "starting",
            "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        }
        write_json(directory / STATE_FILE, state)
        try:
            proc, shaper, key = _build(info, prof, directory)
        except BaseException:
            with contextlib.suppress(Exception):
                teardown(name)
            raise
        pids = {"sshd": proc.pid, "shaper": shaper}
        knobs_pid = read_pid(directory / "knobs.pid")
        if knobs_pid:
            pids["knobs"] = knobs_pid
        info = LabInfo(**{**info.__dict__, "pids": pids})
        write_json(directory / STATE_FILE, {**state, **info.to_json(), "status": "running"})
        _trust_host_key(info, key)
        return info


def _trust_host_key(info: LabInfo, key: Path) -> None:
    """The lab's host key is new on every `up`, by design: sbctune trusts it for the lab's
    addresses, so a second lab on a reused address is not a "changed host key" stop."""
    from sbctune.remote.hostkeys import KnownHosts  # asyncssh: not for `sbctune lab profiles`

    public = key.with_name(key.name + ".pub").read_text(encoding="ascii")
    known = KnownHosts()
    for nic in info.nics:
        known.replace(nic.pi_addr, info.port, public)
