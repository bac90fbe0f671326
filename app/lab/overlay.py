"""Make the lab read like the real hardware: fake commands and captured files.

For every command in the profile's bundle a small POSIX shell script goes into the lab's bin
folder, which ``nsinit`` lays over /usr/local/bin and /usr/local/sbin (first on the SSH user's
PATH and on sudo's secure_path). The script prints the capture for the exact command line and
exits with the captured exit code; any other command line runs the real binary if the host
has one, else fails like a missing tool (exit 127, "command not found").

The lab is namespaces on this machine, so the host's own hardware must not show through: the
programs that list hardware (``HARDWARE_PROGRAMS``: lspci, lsusb, the kernel log ...) never run
the host's binary. A line the profile did not capture says "not available in this lab" and
exits as ``HARDWARE_PROGRAMS`` says (127: reported as not installed on the Pi; dmesg 1: no
kernel log). Nothing is invented in their place.

``uname`` answers with the kernel the profile's Pi ran (``sbctune.lab.uname``): fields the
profile does not know read "unknown", never this host's.

Captured files (/proc/interrupts, /proc/cpuinfo, /proc/cmdline, /etc/os-release ...) are
bind-mounted over the real ones; ``HARDWARE_FILES`` the profile did not capture are covered
with an empty file (the host's CPUs, interrupt lines and modules are not the Pi's) or the
lab's model of them (/proc/modules from a captured lsmod, ``proc_modules``); the device-tree
model goes into a tmpfs over /sys/firmware.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sbctune.inventory.bundle import Bundle
from sbctune.lab import uname
from sbctune.lab.link_state import sysfs_duplex
from sbctune.lab.profile import InterfaceSpec
from sbctune.lab.sshd import USER
from sbctune.lab.uname import UnameFacts

_COMMAND = re.compile(r"^[A-Za-z0-9._+-]+$")
_SHELL_META = re.compile(r"[|;&<>$`()\\\"'*?\[\]{}~#]")
MODEL_KEYS = ("/proc/device-tree/model", "/sys/firmware/devicetree/base/model")
REAL_DIRS = ("/usr/sbin", "/usr/bin", "/sbin", "/bin")
# Programs that show the machine's hardware -> exit code of a line the profile did not capture.
HARDWARE_PROGRAMS = {
    "lspci": 127, "lsusb": 127, "lshw": 127, "usb-devices": 127, "dmesg": 1,
    "lsmod": 127,  # this host's modules are not the Pi's
}  # fmt: skip
# Files that show the machine's hardware: empty in the lab unless the profile captured them.
# /proc/cmdline too: the host's boot arguments are not the Pi's, whose firmware puts its device
# tree's bootargs first (a Pi 5's pci=pcie_bus_safe, which the boot tweaks read: boot_rules).
HARDWARE_FILES = ("/proc/cpuinfo", "/proc/interrupts", "/proc/modules", "/proc/cmdline")


@dataclass
class OverlayPlan:
    bin_dir: str
    file_binds: list[tuple[str, str]] = field(default_factory=list)
    """(capture file in the lab folder, path it is mounted over)."""
    model: str | None = None
    skipped: list[str] = field(default_factory=list)


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _command_lines(bundle: Bundle) -> dict[str, dict[str, str]]:
    """Group the bundle's command lines by program: {program: {args: cmdline}}."""
    grouped: dict[str, dict[str, str]] = {}
    for cmdline in bundle.commands:
        words = cmdline.split()
        if words and words[0] == "sudo":
            words = words[1:]
        if not words or not _COMMAND.match(words[0]) or _SHELL_META.search(" ".join(words)):
            continue
        grouped.setdefault(words[0], {})[" ".join(words)] = cmdline
    return grouped


# Programs whose flag variants list the same devices: a variant the profile did not capture is
# answered with the most detailed one it did (a real `lspci -nnk` adds ids and driver lines to
# what a captured plain `lspci` shows; the lab cannot invent those, so they stay unknown).
VARIANT_FALLBACK = {"lspci"}


def _detail(line: str) -> int:
    return sum(len(word) - 1 for word in line.split()[1:] if word.startswith("-"))


def fake_script(
    program: str, cases: list[tuple[str, str, int]], fallback: tuple[str, int] | None = None
) -> str:
    """The shell script standing in for ``program``; cases are (line, capture, exit code).

    ``fallback`` (capture, exit code) answers any other flags-only invocation. Any other line
    runs the host's binary, except for ``HARDWARE_PROGRAMS``: those say the lab does not have
    it and exit with their code.
    """
    lines = [
        "#!/bin/sh",
        f"# sbctune lab: {program} as captured on the real hardware (see the lab's profile).",
        f"prog={_quote(program)}",
        'line="$prog${1+ $*}"',
        'case "$line" in',
    ]
    for line, capture, code in cases:
        lines.append(f"  {_quote(line)}) cat {_quote(capture)}; exit {code} ;;")
    if fallback is not None:
        lines.append(
            f"  {_quote(program)}|{_quote(program + ' -')}*) "
            f"cat {_quote(fallback[0])}; exit {fallback[1]} ;;"
        )
    lines.append("esac")
    if program in HARDWARE_PROGRAMS:
        lines += [
            'echo "$prog: not available in this lab: its profile has no capture of this" >&2',
            f"exit {HARDWARE_PROGRAMS[program]}",
            "",
        ]
        return "\n".join(lines)
    lines += [
        "for dir in " + " ".join(REAL_DIRS) + "; do",
        '  if [ -x "$dir/$prog" ]; then exec "$dir/$prog" "$@"; fi',
        "done",
        'echo "$prog: command not found" >&2',
        "exit 127",
        "",
    ]
    return "\n".join(lines)


def _lab_group() -> int | None:
    """The lab user's group when it exists and we may hand files to it (root), else None."""
    import pwd

    if os.geteuid() != 0:
        return None
    try:
        return pwd.getpwnam(USER).pw_gid
    except KeyError:
        return None


def build(
    bundle: Bundle,
    lab_dir: Path,
    found: UnameFacts | None = None,
    modelled: Mapping[str, str] | None = None,
) -> OverlayPlan:
    """Write captures and fake commands under ``lab_dir``; return what nsinit must mount.
    ``uname`` answers as the profile's Pi (`found`, sbctune.lab.uname), never as this host.
    `modelled`: hardware files the profile did not capture that the lab models from the
    drivers' source (sbctune.lab.irq_model), used instead of an empty file."""
    captures = lab_dir / "captures"
    bin_dir = lab_dir / "bin"
    for folder in (captures, bin_dir):
        folder.mkdir(mode=0o755, parents=True, exist_ok=True)
        os.chmod(folder, 0o755)  # noqa: S103 - the lab user runs and reads these
    # Captures are for the lab's user only (root and group pi), not every user of this host.
    group = _lab_group()
    if group is not None:
        os.chown(captures, 0, group)
        os.chmod(captures, 0o750)  # noqa: S103 - root and the lab user only
    plan = OverlayPlan(bin_dir=str(bin_dir))

    def store(kind: str, index: int, text: str) -> Path:
        path = captures / f"{kind}{index:03d}.txt"
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        if group is None:
            os.chmod(path, 0o644)  # no lab user (a unit test): nobody else to hide it from
        else:
            os.chown(path, 0, group)
            os.chmod(path, 0o640)
        return path

    counter = 0
    grouped = _command_lines(bundle)
    for program in (*HARDWARE_PROGRAMS, "uname"):  # never the host's, even with no capture
        grouped.setdefault(program, {})
    for program, lines in sorted(grouped.items()):
        cases = []
        for line, cmdline in sorted(lines.items()):
            output = bundle.command(cmdline) or ""
            cases.append((line, str(store("cmd", counter, output)), bundle.exit_code(cmdline) or 0))
            counter += 1
        fallback = None
        if program in VARIANT_FALLBACK and cases:
            richest = max(cases, key=lambda case: _detail(case[0]))
            fallback = (richest[1], richest[2])
        script = bin_dir / program
        text = (
            uname.script(found or uname.facts(bundle), cases)
            if program == "uname"
            else fake_script(program, cases, fallback)
        )
        script.write_text(text, encoding="utf-8")
        os.chmod(script, 0o755)  # noqa: S103 - the lab user runs these
    plan.skipped = [
        c
        for c in bundle.commands
        if not any(c in v.values() for v in _command_lines(bundle).values())
    ]

    for index, (path, text) in enumerate(sorted(bundle.files.items())):
        if path in MODEL_KEYS:
            plan.model = text
            continue
        if path.startswith("/proc/device-tree/") or path.startswith("/sys/firmware/"):
            plan.skipped.append(path)
            continue
        plan.file_binds.append((str(store("file", index, text)), path))
    for index, path in enumerate(HARDWARE_FILES):
        if path not in bundle.files:
            text = (modelled or {}).get(path, "")
            plan.file_binds.append((str(store("model" if text else "empty", index, text)), path))
    return plan


def link_files(interfaces: Sequence[InterfaceSpec], lab_dir: Path) -> list[tuple[str, str]]:
    """Binds that make a veth's sysfs `speed` and `duplex` read as the profile's NIC link.

    A veth reports 10000 Mb/s; the real NIC negotiated the profile's `link_speed_mbps`, full
    duplex, except where its driver reports none (link_state.sysfs_duplex: cdc_ncm reads
    "half" on every link). Interfaces without a declared speed are left as the kernel shows them.
    """
    folder = lab_dir / "link"
    folder.mkdir(mode=0o755, parents=True, exist_ok=True)
    binds = []
    for spec in interfaces:
        speed = spec.link.link_speed_mbps
        if speed is None:
            continue
        duplex = sysfs_duplex(spec.driver)  # cdc_ncm: "half", as its ethtool shows
        for attribute, value in (("speed", f"{int(speed)}\n"), ("duplex", f"{duplex}\n")):
            source = folder / f"{spec.name}.{attribute}"
            source.write_text(value, encoding="ascii")
            os.chmod(source, 0o644)
            binds.append((str(source), f"/sys/class/net/{spec.name}/{attribute}"))
    return binds
