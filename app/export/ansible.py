"""An Ansible playbook that applies the kept tweaks of a tuning session to a fleet of Pis.

Only modules shipped with ansible-core are used (ansible.posix.sysctl is a separate
collection): lineinfile/copy/file/systemd_service where they fit, and read-then-write pairs of
`command` tasks for kernel knobs, so each task changes only what differs (idempotent) and
`--check` reports what would change. Each change kind of the tuning record (see BRIEF/T's
schema: file, sysctl, ethtool, service, governor, irq_affinity, mtu, boot) maps to tasks here.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

from sbctune.errors import UserError
from sbctune.export import yaml_text
from sbctune.export.describe import tweak_title
from sbctune.export.report_data import ReportData
from sbctune.history.records import TuningSessionRecord
from sbctune.history.run_tuning import RUN_STATE_WORDS
from sbctune.remote import snippets
from sbctune.resources import resource_root
from sbctune.tuning.model import MAX_IRQ_ORDINAL, Change, irq_name_ok

KEPT_STATUSES = ("applied", "already")
KEPT_STATE = "confirmed"  # armed sessions are reverted by their guard; reverted ones are gone
SYSCTL_FILE = "/etc/sysctl.d/90-sbctune.conf"
BOOT_DIRS = ("/boot/firmware", "/boot")
_MASK_PATHS = re.compile(r"(rps_cpus|xps_cpus|smp_affinity)$")

Task = dict[str, Any]


@cache
def _ethtool_checks() -> dict[str, Any]:
    text = (resource_root() / "templates" / "ansible_ethtool.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


class _Builder:
    """Turns one session's kept changes into tasks; numbers the registered variables."""

    def __init__(self, nic: str | None, persisted_paths: set[str]) -> None:
        self.nic = nic
        self.persisted = persisted_paths
        self.count = 0
        self.tasks: list[Task] = []
        self.boot_lookup = False

    def var(self) -> str:
        self.count += 1
        return f"sbctune_read_{self.count}"

    def iface(self, text: str) -> str:
        """Put the session's interface name behind a variable (fleet Pis may differ)."""
        if not self.nic:
            return text
        text = text.replace(f"/sys/class/net/{self.nic}/", "/sys/class/net/{{ sbctune_nic }}/")
        return "{{ sbctune_nic }}" if text == self.nic else text

    # -- kinds ---------------------------------------------------------------------------
    def knob(self, label: str, path: str, want: str) -> None:
        """A sysfs or procfs value: read it, write it when it differs (tee, no shell)."""
        path = self.iface(path)
        reg = self.var()
        norm = "| trim"
        if _MASK_PATHS.search(path):  # masks print with leading zeros and commas
            norm = "| trim | regex_replace('^[0,]+', '')"
            want = want.strip().lstrip("0,")
        self.tasks.append({
            "name": f"{label}: read {path}",
            "ansible.builtin.command": {"argv": ["cat", path]},
            "register": reg, "changed_when": False, "check_mode": False,
        })  # fmt: skip
        self.tasks.append({
            "name": f"{label}: {path} = {want}",
            "ansible.builtin.command": {"argv": ["tee", path], "stdin": want},
            "vars": {"sbctune_want": want},
            "when": f"({reg}.stdout {norm}) != sbctune_want",
        })  # fmt: skip

    def file(self, label: str, path: str, after: str | None) -> None:
        if path.startswith(("/sys/", "/proc/")):
            if after is None:
                raise UserError(f"The tuning record removes {path}, a kernel file.")
            self.knob(label, path, after)
            return
        if after is None:
            self.tasks.append({
                "name": f"{label}: remove {path}",
                "ansible.builtin.file": {"path": path, "state": "absent"},
                "when": "sbctune_persist | bool",
            })  # fmt: skip
            return
        parent = path.rsplit("/", 1)[0] or "/"
        executable = path.endswith(".sh") or "/bin/" in path
        self.tasks.append({
            "name": f"{label}: folder {parent}",
            "ansible.builtin.file": {"path": parent, "state": "directory", "mode": "0755"},
            "when": "sbctune_persist | bool",
        })  # fmt: skip
        self.tasks.append({
            "name": f"{label}: {path}",
            "ansible.builtin.copy": {
                "dest": path, "content": yaml_text.Unsafe(after), "owner": "root",
                "group": "root", "mode": "0755" if executable else "0644",
            },
            "when": "sbctune_persist | bool",
        })  # fmt: skip

    def sysctl(self, label: str, key: str, after: str) -> None:
        reg = self.var()
        want = " ".join(after.split())
        self.tasks.append({
            "name": f"{label}: read {key}",
            "ansible.builtin.command": {"argv": ["sysctl", "-n", key]},
            "register": reg, "changed_when": False, "check_mode": False,
        })  # fmt: skip
        self.tasks.append({
            "name": f"{label}: {key} = {want}",
            "ansible.builtin.command": {"argv": ["sysctl", "-w", f"{key}={want}"]},
            "vars": {"sbctune_want": want},
            "when": f"({reg}.stdout | trim | regex_replace('\\s+', ' ')) != sbctune_want",
        })  # fmt: skip
        if not any(p.startswith("/etc/sysctl.d/") for p in self.persisted):
            self.tasks.append({
                "name": f"{label}: keep {key} across reboots",
                "ansible.builtin.lineinfile": {
                    "path": SYSCTL_FILE, "create": True, "mode": "0644",
                    "regexp": f"^\\s*{re.escape(key)}\\s*=", "line": f"{key} = {want}",
                },
                "when": "sbctune_persist | bool",
            })  # fmt: skip

    def ethtool(self, label: str, target: str, after: str, written: tuple[str, ...] = ()) -> None:
        """`written`: what ethtool writes for `after` where the driver stores another value than
        it reads back (the record's `written`: stmmac's rx-usecs 51 is written 52; macb's 49 is
        written 50 with tx-usecs beside it), so that the play's read-back finds `after`."""
        parts = target.split()
        if len(parts) < 3:
            raise UserError(f"Cannot read the ethtool change {target!r} of the tuning record.")
        iface, flag, param = self.iface(parts[0]), parts[1], parts[2]
        argv = ["ethtool", flag, iface, param, *(written or (after,))]
        check: dict[str, Any] = _ethtool_checks().get(flag) or {}
        pattern = None
        if check:
            template = (check.get("patterns") or {}).get(param) or check.get("default")
            if template:
                value = (check.get("values") or {}).get(after, after)
                pattern = template.replace("{param}", re.escape(param)).replace(
                    "{value}", re.escape(value)
                )
        name = f"{label}: ethtool {flag} {iface} {param} {after}"
        if pattern is None:  # no known way to read it back: set it every time, say so
            self.tasks.append({
                "name": name + " (cannot be read back: always reported as changed)",
                "ansible.builtin.command": {"argv": argv}, "changed_when": True,
            })  # fmt: skip
            return
        reg = self.var()
        self.tasks.append({
            "name": f"{label}: read ethtool {check['show']} {iface}",
            "ansible.builtin.command": {"argv": ["ethtool", check["show"], iface]},
            "register": reg, "changed_when": False, "check_mode": False,
        })  # fmt: skip
        self.tasks.append({
            "name": name,
            "ansible.builtin.command": {"argv": argv},
            "vars": {"sbctune_expect": pattern},
            "when": f"{reg}.stdout is not search(sbctune_expect)",
        })  # fmt: skip

    def service(self, label: str, target: str, after: str) -> None:
        """T's records: "irqbalance" active -> inactive, or "enable UNIT" -> enabled."""
        verb, _, unit = target.partition(" ")
        if verb in ("enable", "disable") and unit:
            self.tasks.append({
                "name": f"{label}: {verb} {unit}",
                "ansible.builtin.systemd_service": {
                    "name": unit, "enabled": verb == "enable", "daemon_reload": True,
                },
                "when": "sbctune_persist | bool",
            })  # fmt: skip
            return
        states = {"inactive": "stopped", "stopped": "stopped", "active": "started",
                  "running": "started", "started": "started"}  # fmt: skip
        state = states.get(after.strip().lower())
        if state is None:
            raise UserError(f"Cannot tell what the tuning record wants of {target}: {after!r}.")
        # ansible.builtin.service works with systemd and OpenRC (Alpine) alike.
        self.tasks.append({
            "name": f"{label}: {target} {after} (until reboot)",
            "ansible.builtin.service": {"name": target, "state": state},
        })  # fmt: skip

    def governor(self, label: str, target: str, after: str) -> None:
        if target.startswith("/"):
            self.knob(label, target, after)
            return
        policies, reg = self.var(), self.var()
        self.tasks += [
            {
                "name": f"{label}: find the CPU frequency policies",
                "ansible.builtin.find": {
                    "paths": "/sys/devices/system/cpu/cpufreq", "patterns": "policy*",
                    "file_type": "directory",
                },
                "register": policies, "check_mode": False,
            },
            {
                "name": f"{label}: read the governors",
                "ansible.builtin.command": {"argv": ["cat", "{{ item.path }}/scaling_governor"]},
                "loop": f"{{{{ {policies}.files }}}}",
                "register": reg, "changed_when": False, "check_mode": False,
            },
            {
                "name": f"{label}: governor {after}",
                "ansible.builtin.command": {
                    "argv": ["tee", "{{ item.item.path }}/scaling_governor"], "stdin": after,
                },
                "loop": f"{{{{ {reg}.results }}}}",
                "vars": {"sbctune_want": after},
                "when": "(item.stdout | trim) != sbctune_want",
            },
        ]  # fmt: skip

    def irq_affinity(self, label: str, target: str, after: str, irq: Any = None) -> None:
        """By the interrupt's handler name where the record kept one (IRQ numbers move between
        boots and between Pis: the snippet finds the number where the play runs, as at-boot.sh
        does, and fails the task where no interrupt has that name); else by number."""
        name, ordinal = _irq_name(irq)
        if name is None:
            path = target if target.startswith("/") else f"/proc/irq/{target}/smp_affinity"
            self.knob(f"{label} (IRQ numbers as on the measured Pi)", path, after)
            return
        want = after.strip().lstrip("0,")
        where = [name, str(ordinal), "/proc/interrupts", "/proc/irq"]
        reg = self.var()
        self.tasks.append({
            "name": f"{label}: read the CPUs of interrupt {name}",
            "ansible.builtin.command": {
                "argv": ["sh", "-c", snippets.READ_IRQ_AFFINITY, "sh", *where],
            },
            "register": reg, "changed_when": False, "check_mode": False,
        })  # fmt: skip
        self.tasks.append({
            "name": f"{label}: CPUs of interrupt {name} = {want}",
            "ansible.builtin.command": {
                "argv": ["sh", "-c", snippets.WRITE_IRQ_AFFINITY, "sh", after.strip(), *where],
            },
            "vars": {"sbctune_want": want},
            "when": f"({reg}.stdout | trim | regex_replace('^[0,]+', '')) != sbctune_want",
        })  # fmt: skip

    def mtu(self, label: str, target: str, after: str) -> None:
        iface = self.iface(target.rsplit("/", 1)[-1] if target.startswith("/") else target)
        reg = self.var()
        self.tasks.append({
            "name": f"{label}: read the MTU of {iface}",
            "ansible.builtin.command": {"argv": ["cat", f"/sys/class/net/{iface}/mtu"]},
            "register": reg, "changed_when": False, "check_mode": False,
        })  # fmt: skip
        self.tasks.append({
            "name": f"{label}: MTU {after} on {iface} (until reboot; the network manager owns it)",
            "ansible.builtin.command": {"argv": ["ip", "link", "set", "dev", iface, "mtu", after]},
            "vars": {"sbctune_want": after},
            "when": f"({reg}.stdout | trim) != sbctune_want",
        })  # fmt: skip

    def boot_path(self, target: str) -> str:
        """config.txt and cmdline.txt live in /boot/firmware (Bookworm) or /boot (older)."""
        folder, _, name = target.rpartition("/")
        if folder in BOOT_DIRS:
            self.boot_lookup = True
            return "{{ sbctune_boot_dir }}/" + name
        return target

    def boot(self, label: str, tweak_id: str, target: str, before: str, after: str) -> None:
        """T's records hold the whole file before and after; the playbook adds only what the
        tweak added: its marked block (config.txt) or its token (cmdline.txt)."""
        path = self.boot_path(target)
        begin, end = f"# >>> sbctune {tweak_id}", f"# <<< sbctune {tweak_id}"
        lines = after.splitlines()
        start = next((i for i, line in enumerate(lines) if line.startswith(begin)), None)
        if start is not None:
            stop = next((i for i in range(start, len(lines)) if lines[i].startswith(end)), None)
            block = lines[start + 1 : stop] if stop is not None else []
            self.tasks.append({
                "name": f"{label}: {', '.join(block)} in {path} (after a reboot)",
                "ansible.builtin.blockinfile": {
                    "path": path, "block": "\n".join(block),
                    "marker": f"# {{mark}} sbctune {tweak_id}",
                    "marker_begin": ">>>", "marker_end": "<<<",
                },
                "notify": "sbctune reboot",
            })  # fmt: skip
            return
        added = [word for word in after.split() if word not in before.split()]
        if path.endswith("cmdline.txt"):
            for token in added:
                self.tasks.append({
                    "name": f"{label}: {token} on the kernel command line (after a reboot)",
                    "ansible.builtin.lineinfile": {
                        "path": path, "backrefs": True,
                        "regexp": f"^(?!.*(?:^|\\s){re.escape(token)}(?:\\s|$))(.*?)\\s*$",
                        "line": f"\\1 {token}",
                    },
                    "notify": "sbctune reboot",
                })  # fmt: skip
            return
        new_lines = [line for line in lines if line not in before.splitlines()]
        for line in new_lines:
            self.tasks.append({
                "name": f"{label}: {line} in {path} (after a reboot)",
                "ansible.builtin.lineinfile": {"path": path, "line": line},
                "notify": "sbctune reboot",
            })  # fmt: skip

    def add(self, tweak_id: str, change: dict[str, Any]) -> None:
        label = f"{tweak_id}"
        kind, target = change.get("kind"), str(change.get("target") or "")
        before, after = change.get("before"), change.get("after")
        after_text = None if after is None else str(after)
        if kind == "file":
            self.file(label, target, after_text)
            return
        if kind == "boot":
            self.boot(label, tweak_id, target, str(before or ""), after_text or "")
            return
        if after_text is None:
            raise UserError(
                f"The tuning record's {kind} change of {target!r} has no value to set.",
                "Export the playbook from a session whose tweaks were applied.",
            )
        handlers = {"sysctl": self.sysctl, "governor": self.governor, "mtu": self.mtu}
        if kind == "ethtool":
            self.ethtool(label, target, after_text, _written(change, after_text))
        elif kind == "service":
            self.service(label, target, after_text)
        elif kind == "irq_affinity":
            self.irq_affinity(label, target, after_text, change.get("irq"))
        elif kind in handlers:
            handlers[kind](label, target, after_text)
        else:
            raise UserError(f"The tuning record has a change of unknown kind {kind!r}.")


def _written(change: dict[str, Any], after: str) -> tuple[str, ...]:
    """The words the record says ethtool writes for `after` (Change.written, checked as the
    tuning checks it: the record is a file the user can hand us), or () for `after` itself."""
    try:
        words = Change.from_json(change).words_for(after)
    except (ValueError, KeyError, TypeError) as exc:
        target = str(change.get("target") or "")[:80]
        raise UserError(
            f"The tuning record's ethtool change of {target!r} names words sbctune never writes.",
            "Export the playbook from a session sbctune recorded.",
        ) from exc
    return () if words == (after,) else words


def _irq_name(irq: Any) -> tuple[str | None, int]:
    """The record's interrupt name and ordinal, or None where it kept none or an odd one (the
    record is a file the user can hand us: the same rules as the tuning's own)."""
    if not isinstance(irq, dict):
        return None, 0
    name, ordinal = irq.get("name"), irq.get("ordinal", 0)
    if not isinstance(name, str) or not irq_name_ok(name):
        return None, 0
    if not isinstance(ordinal, int) or not 0 <= ordinal < MAX_IRQ_ORDINAL:
        return None, 0
    return name, ordinal


def _named(tweak_id: str) -> str:
    title = tweak_title(tweak_id)
    return tweak_id if title == tweak_id else f"{tweak_id} ({title})"


def kept_tweaks(record: TuningSessionRecord) -> list[dict[str, Any]]:
    return [
        t
        for t in record.data.get("tweaks") or []
        if t.get("status") in KEPT_STATUSES and t.get("changes")
    ]


def choose_session(data: ReportData) -> TuningSessionRecord:
    named = [data.tuning_session_for(r) for r in reversed(data.runs)]
    candidates = [s for s in named if s is not None] + list(reversed(data.tuning_sessions))
    if not candidates:
        raise UserError(
            "These runs have no tuning session, so there are no kept tweaks to turn into a "
            "playbook.",
            "Export a run measured after tuning (“sbctune history HOST” shows them), or name a "
            "session with --tuning-session ID.",
        )
    for record in candidates:
        if record.state == KEPT_STATE and kept_tweaks(record):
            return record
    first = candidates[0]
    raise UserError(
        f"Tuning session {first.data.get('id')} kept no tweaks (it is "
        f"{RUN_STATE_WORDS.get(first.state, first.state)}).",
        "Only a confirmed session's tweaks stay on the Pi; tune again and keep them.",
    )


def playbook(data: ReportData) -> str:
    record = choose_session(data)
    session = record.data
    persisted = {
        str(c.get("target"))
        for t in kept_tweaks(record)
        for c in t.get("changes") or []
        if c.get("kind") == "file"
    }
    persist_changes = [c for c in session.get("persist_changes") or [] if isinstance(c, dict)]
    persisted |= {str(c.get("target")) for c in persist_changes if c.get("kind") == "file"}
    builder = _Builder(session.get("nic"), persisted)
    tweaks = kept_tweaks(record)
    for tweak in tweaks:
        for change in tweak.get("changes") or []:
            builder.add(str(tweak.get("id")), change)
    for change in persist_changes:  # sysctl.d file, at-boot script, unit, udev rule
        builder.add("keep across reboot", change)
    pre: list[Task] = []
    if builder.boot_lookup:
        pre = [
            {
                "name": "find the boot folder (/boot/firmware since Raspberry Pi OS Bookworm)",
                "ansible.builtin.stat": {"path": BOOT_DIRS[0] + "/config.txt"},
                "register": "sbctune_boot_stat",
            },
            {
                "name": "use it",
                "ansible.builtin.set_fact": {
                    "sbctune_boot_dir": "{{ '" + BOOT_DIRS[0] + "' if "
                    "sbctune_boot_stat.stat.exists else '" + BOOT_DIRS[1] + "' }}"
                },
            },
        ]
    device = data.devices.get(record.device_id)
    play = {
        "name": f"sbctune: the kept network tweaks of tuning session {session.get('id')}",
        "hosts": "{{ sbctune_hosts | default('raspberrypis') }}",
        "become": True,
        "gather_facts": False,
        "vars": {
            "sbctune_nic": session.get("nic") or "eth0",
            "sbctune_persist": bool(session.get("persist", False)),
            "sbctune_reboot": False,
        },
        "tasks": pre + builder.tasks,
        "handlers": [
            {
                "name": "sbctune reboot",
                "ansible.builtin.reboot": {"msg": "sbctune: boot configuration changed"},
                "when": "sbctune_reboot | bool",
            }
        ],
    }
    header = [
        "Generated by sbctune from tuning session "
        f"{session.get('id')} ({record.state}, {record.started_at.isoformat(timespec='seconds')})"
        + (f" on {device.user}@{device.host}" if device else "")
        + ".",
        "Kept tweaks: "
        + ", ".join(f"{t.get('id')} ({tweak_title(str(t.get('id')))})" for t in tweaks),
        "Run:  ansible-playbook -i HOSTS this.yml -e sbctune_hosts=GROUP [--check]",
        "Vars: sbctune_nic (interface to tune), sbctune_persist (keep across reboot),",
        "      sbctune_reboot (reboot when config.txt changed). Check with --check first:",
        "      every task reads the current value and changes only what differs.",
    ]
    return yaml_text.dump([play], header)


def export(data: ReportData, path: Path) -> Path:
    path.write_text(playbook(data), encoding="utf-8", newline="\n")
    return path
