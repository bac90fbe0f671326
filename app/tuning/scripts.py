"""The shell scripts a session leaves on the Pi, generated here and nowhere else.

Layout on the Pi (root-owned): ``/var/lib/sbctune/tuning/<session id>/``

- ``session.json``  the snapshot: every change with its value before and after (schema below);
- ``state``         one word: armed | confirmed | reverting | reverted | revert_failed;
- ``revert.sh``     puts every value back, newest first (run by the guard, by
  ``sbctune tune revert``, or by hand: ``sudo sh /var/lib/sbctune/tuning/<id>/revert.sh``);
- ``guard.sh`` + ``guard.pid`` (a detached ``setsid`` sleeper) or ``guard.unit`` (a systemd
  timer): runs ``revert.sh guard`` when the guard time is up, unless the session is confirmed;
- ``revert.log``, ``backups/`` (boot files as they were), ``at-boot.sh`` (with --persist).

/var/lib survives a reboot, so a session kept across reboots can still be reverted later.

Every line built from a value goes through `quoting.join`: each element is shell-quoted, so
values read from the Pi (remote text) are never interpreted by the shell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sbctune.remote.quoting import join
from sbctune.tuning.knobs import write_argvs
from sbctune.tuning.model import Change

STATE_ROOT = "/var/lib/sbctune/tuning"
SESSION_ID = re.compile(r"^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$")

# Shared by revert.sh and the confirm command: stop the guard of the session in "$dir".
_DISARM = """\
if [ -f "$dir/guard.unit" ]; then
  systemctl stop "$(cat "$dir/guard.unit").timer" >/dev/null 2>&1
  systemctl stop "$(cat "$dir/guard.unit").service" >/dev/null 2>&1
fi
if [ -f "$dir/guard.pid" ]; then
  gpid=$(cat "$dir/guard.pid")
  case "$gpid" in ''|*[!0-9]*) ;; *) kill -TERM -- "-$gpid" 2>/dev/null ;; esac
  rm -f "$dir/guard.pid"
fi
"""

_SET_STATE = """\
set_state() { printf '%s\\n' "$1" >"$dir/state.new" && mv -f "$dir/state.new" "$dir/state"; }
"""

# The confirm command (run with sudo as `sh -c CONFIRM sh DIR`): disarm unless the guard is
# reverting right now (it holds the lock) or already has; prints the final state.
CONFIRM = (
    'dir=$1\n[ -d "$dir" ] || { echo missing; exit 2; }\n'
    + _SET_STATE
    + 'if mkdir "$dir/lock" 2>/dev/null; then\n'
    + '  st=$(cat "$dir/state" 2>/dev/null)\n'
    + '  if [ "$st" = armed ]; then\n'
    + "".join("    " + line + "\n" for line in _DISARM.splitlines())
    + "    set_state confirmed\n  fi\n"
    + '  rmdir "$dir/lock"\nfi\ncat "$dir/state"\n'
)

# Starts guard.sh detached from the SSH session (its own session and process group, so a
# lost connection or a killed app does not take it down); waits until it recorded its PID.
START_SLEEPER = (
    'setsid sh "$1" </dev/null >/dev/null 2>&1 &\n'
    'i=0; while [ ! -s "$2" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i+1)); done\n'
    '[ -s "$2" ]'
)


def session_dir(session_id: str) -> str:
    if not SESSION_ID.match(session_id):
        raise ValueError(f"not a session id: {session_id!r}")
    return f"{STATE_ROOT}/{session_id}"


def revert_script(session_id: str, changes: Sequence[Change]) -> str:
    """revert.sh: restores `changes` (in the order applied) newest first, then records it."""
    directory = session_dir(session_id)
    lines = [
        "#!/bin/sh",
        f"# sbctune tuning session {session_id}: puts back every value the session changed.",
        "# Run by the auto-revert guard, by `sbctune tune revert`, or by hand:",
        f"#   sudo sh {directory}/revert.sh",
        "umask 022  # files it restores are never writable by other users",
        f"dir={join([directory])}",
        "why=${1:-manual}",
        _SET_STATE.rstrip("\n"),
        "# One actor at a time: a confirm and the guard never act together.",
        'if ! mkdir "$dir/lock" 2>/dev/null; then',
        '  echo "sbctune: session $dir is busy (being confirmed or reverted)" >&2; exit 75',
        "fi",
        "trap 'rmdir \"$dir/lock\" 2>/dev/null' EXIT",
        'st=$(cat "$dir/state" 2>/dev/null)',
        '[ "$st" = reverted ] && exit 0',
        'if [ "$why" = guard ] && [ "$st" = confirmed ]; then exit 0; fi',
        'if [ "$why" != guard ]; then',
        *("  " + line for line in _DISARM.splitlines()),
        "fi",
        "set_state reverting",
        'printf "%s revert (%s)\\n" "$(date +%s)" "$why" >>"$dir/revert.log"',
        "failed=0",
        'step() { "$@" >>"$dir/revert.log" 2>&1 || '
        '{ failed=1; echo "sbctune: could not restore: $*" >>"$dir/revert.log"; }; }',
    ]
    for index in reversed(range(len(changes))):
        change = changes[index]
        lines.append(f"# {change.kind} {_comment(change.target)}")
        for argv in write_argvs(
            change, change.before, state_dir=directory, index=index, restoring=True
        ):
            lines.append("step " + join(argv))
    lines += [
        'rm -f "$dir/guard.pid"',
        'if [ "$failed" = 0 ]; then set_state reverted; else set_state revert_failed; fi',
        'date +%s >"$dir/reverted_at"',
        'printf "%s\\n" "$why" >"$dir/reverted_by"',
        '[ "$failed" = 0 ]',
        "",
    ]
    return "\n".join(lines)


def _comment(text: str) -> str:
    """Remote text in a comment line: one line, printable, so it cannot end the comment."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)[:200]


def guard_script(session_id: str, seconds: int) -> str:
    directory = session_dir(session_id)
    return "\n".join(
        [
            "#!/bin/sh",
            f"# sbctune auto-revert guard of session {session_id}: reverts after {seconds} s",
            "# unless the session is confirmed (which kills this process group).",
            f"dir={join([directory])}",
            'echo $$ >"$dir/guard.pid.new" && mv -f "$dir/guard.pid.new" "$dir/guard.pid"',
            f"sleep {int(seconds)}",
            'exec sh "$dir/revert.sh" guard',
            "",
        ]
    )


def systemd_guard_argv(session_id: str, seconds: int) -> list[str]:
    directory = session_dir(session_id)
    return [
        "systemd-run",
        "--quiet",
        f"--unit=sbctune-guard-{session_id}",
        f"--on-active={int(seconds)}s",
        "--timer-property=AccuracySec=100ms",
        "/bin/sh",
        f"{directory}/revert.sh",
        "guard",
    ]


def apply_at_boot_script(session_id: str, changes: Sequence[Change]) -> str:
    """at-boot.sh (with --persist): sets the session's runtime values again after a boot or
    when a USB NIC is plugged in (the sysctls go to sysctl.d instead)."""
    directory = session_dir(session_id)
    lines = [
        "#!/bin/sh",
        f"# sbctune tuning session {session_id}, kept across reboots: sets its values again.",
        "# Started by sbctune-tuning-<id>.service at boot and by the udev rule when the NIC",
        "# appears. `sbctune tune revert` removes the unit, the rule and this file.",
        f"dir={join([directory])}",
        'log="$dir/at-boot.log"',
    ]
    for index, change in enumerate(changes):
        for argv in write_argvs(
            change, change.after, state_dir=directory, index=index, restoring=False
        ):
            lines.append(join(argv) + ' >>"$log" 2>&1')
    lines.append("exit 0\n")
    return "\n".join(lines)


def sysctl_conf(session_id: str, changes: Sequence[Change]) -> str:
    lines = [
        f"# sbctune tuning session {session_id} (kept across reboots).",
        "# `sbctune tune revert` removes this file.",
    ]
    for change in changes:
        value = " ".join((change.after or "").split())
        if "\n" in value or not re.match(r"^[a-z0-9_.]+$", change.target):
            continue
        lines.append(f"{change.target} = {value}")
    return "\n".join(lines) + "\n"


def unit_file(session_id: str) -> str:
    directory = session_dir(session_id)
    return "\n".join(
        [
            "# sbctune tuning session kept across reboots; `sbctune tune revert` removes it.",
            "[Unit]",
            f"Description=sbctune network tuning (session {session_id})",
            "After=network-pre.target systemd-udev-settle.service",
            "",
            "[Service]",
            "Type=oneshot",
            f"ExecStart=/bin/sh {directory}/at-boot.sh",
            "",
            "[Install]",
            "WantedBy=multi-user.target",
            "",
        ]
    )


def udev_rule(session_id: str, iface: str) -> str:
    directory = session_dir(session_id)
    return (
        "# sbctune tuning session kept across reboots: re-applies it when the NIC appears\n"
        "# (a USB adapter plugged in again). `sbctune tune revert` removes this file.\n"
        f'ACTION=="add", SUBSYSTEM=="net", KERNEL=="{iface}", '
        f'RUN+="/bin/sh {directory}/at-boot.sh"\n'
    )
