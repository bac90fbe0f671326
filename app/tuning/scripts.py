"""The shell scripts a session leaves on the Pi, generated here and nowhere else.

Layout on the Pi (root-owned): ``/var/lib/sbctune/tuning/<session id>/``

- ``session.json``  the snapshot: every change with its value before and after (schema below);
- ``state``         one word: armed | confirmed | reverting | reverted | revert_failed;
- ``revert.sh``     puts every value back, newest first (a restart of the interface before
  what the driver's open sets back: reopen_order) (run by the guard, by
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

from sbctune.remote import snippets
from sbctune.remote.quoting import join
from sbctune.tuning import link_wait, nm_checkpoint, reopen_order
from sbctune.tuning.knobs import joined_argvs, write_argvs
from sbctune.tuning.link_wait import LinkFacts
from sbctune.tuning.model import Change
from sbctune.tuning.reopen_order import OpenFacts
from sbctune.wording import spoken

STATE_ROOT = "/var/lib/sbctune/tuning"
SESSION_ID = re.compile(r"^[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}$")
# States in which a session holds its Pi's one-session lock (see CREATE).
BUSY_STATES = ("prepared", "armed", "reverting")
LINK_PREFIX = "sbctune-session:"

# Shared by revert.sh and the confirm command: stop the guard of the session in "$dir"
# (and NetworkManager's checkpoint, the second layer, if one was taken).
_DISARM = (
    snippets.KILL_GROUP_FUNCTION
    + nm_checkpoint.DESTROY_RECORDED
    + """\
if [ -f "$dir/guard.unit" ]; then
  systemctl stop "$(cat "$dir/guard.unit").timer" >/dev/null 2>&1
  systemctl stop "$(cat "$dir/guard.unit").service" >/dev/null 2>&1
fi
if [ -f "$dir/guard.pid" ]; then
  kill_group "$(cat "$dir/guard.pid")"
  rm -f "$dir/guard.pid"
fi
"""
)

# set_state WORD: the session's state file, replaced atomically (the one write-file helper).
_SET_STATE = snippets.WRITE_FILE_FUNCTION + '\nset_state() { sbctune_write "$1\n" "$dir/state"; }\n'

# Whether the guard of the session in "$dir" runs: its systemd timer (or the service it
# started) is active, or its detached sleeper (or the revert.sh it became) is alive.
GUARD_ALIVE = """\
guard_alive() {
  if [ -f "$dir/guard.unit" ]; then
    u=$(cat "$dir/guard.unit")
    systemctl is-active --quiet "$u.timer" 2>/dev/null ||
      systemctl is-active --quiet "$u.service" 2>/dev/null
    return
  fi
  gp=$(cat "$dir/guard.pid" 2>/dev/null)
  case "$gp" in ''|*[!0-9]*) return 1 ;; esac
  tr '\\0' ' ' <"/proc/$gp/cmdline" 2>/dev/null | grep -qF -- "$dir/"
}
"""

# Give up the Pi's one-session lock if this session (in "$dir") holds it.
_RELEASE = """\
release() {
  for l in "${dir%/*}"/busy-net*; do
    [ "$(readlink "$l" 2>/dev/null)" = "sbctune-session:${dir##*/}" ] && rm -f "$l"
  done
  return 0
}
"""

# Creates a session and takes the Pi's one-session lock in one step (run with sudo as
# `sh -c CREATE sh ROOT ID LOCKNAME REVERT_SH GUARD_SH SESSION_JSON`): the lock is a symlink
# `ROOT/busy-net<netns inode>` naming the session; symlink(2) fails if it exists, so of two
# applies only one gets it. The whole step runs under flock, so a session without
# session.json (written last) found here was cut short while being created and never armed:
# it is removed. A lock whose session ended (confirmed, reverted) is stale and taken over.
# Prints `busy ID STATE` (exit 75) when a session holds it.
CREATE = (
    'root=$1; id=$2; lock="$1/$3"; dir="$1/$2"; revert_sh=$4; guard_sh=$5; json=$6\n'
    'mkdir -p "$root" && chmod 0755 "${root%/*}" "$root" || exit 1\n'
    + snippets.WRITE_FILE_FUNCTION
    + """
locked=0
take() {
  if h=$(readlink "$lock" 2>/dev/null); then
    hid=${h#sbctune-session:}; st=
    case "$hid" in ''|*[!0-9a-fTZ-]*) hid= ;; *) st=$(cat "$root/$hid/state" 2>/dev/null) ;; esac
    if [ -n "$hid" ] && [ "$locked" = 1 ] && [ ! -f "$root/$hid/session.json" ]; then
      rm -rf -- "${root:?}/$hid"; st=
    fi
    case "$st" in prepared|armed|reverting) printf 'busy %s %s\n' "$hid" "$st"; return 75 ;; esac
    rm -f "$lock"
  fi
  ln -sn "sbctune-session:$id" "$lock" || { echo busy; return 75; }
  mkdir "$dir" && sbctune_write "$revert_sh" "$dir/revert.sh" &&
    sbctune_write "$guard_sh" "$dir/guard.sh" && sbctune_write "prepared
" "$dir/state" && sbctune_write "$json" "$dir/session.json" && return 0
  rm -rf -- "$dir"; rm -f "$lock"; return 1
}
if command -v flock >/dev/null 2>&1; then
  exec 9>>"$root/.busy.lock" && flock -w 20 9 && locked=1 || exit 76
fi
take
"""
)

# The last arming step (`sh -c MARK_ARMED sh DIR`): the state becomes "armed" only once the
# guard is seen running; otherwise it stays "prepared" and the step fails.
MARK_ARMED = (
    "dir=$1\n"
    + _SET_STATE
    + GUARD_ALIVE
    + 'guard_alive || { echo "the guard is not running" >&2; exit 3; }\nset_state armed\n'
)

# The confirm command (run with sudo as `sh -c CONFIRM sh DIR`): disarm unless the guard is
# reverting right now (it holds the lock) or already has; prints the final state.
CONFIRM = (
    'dir=$1\n[ -d "$dir" ] || { echo missing; exit 2; }\n'
    + _SET_STATE
    + _RELEASE
    + 'if mkdir "$dir/lock" 2>/dev/null; then\n'
    + '  st=$(cat "$dir/state" 2>/dev/null)\n'
    + '  if [ "$st" = armed ]; then\n'
    + "".join("    " + line + "\n" for line in _DISARM.splitlines())
    + "    set_state confirmed\n    release\n  fi\n"
    + '  rmdir "$dir/lock"\nfi\ncat "$dir/state"\n'
)

# Undoes a session that changed nothing (`sh -c DISCARD sh DIR`, as root): stops its guard if
# one started, gives up the lock, removes the folder. For a create or arm step that failed.
DISCARD = 'dir=$1\n[ -d "$dir" ] || exit 0\n' + _DISARM + _RELEASE + 'release\nrm -rf -- "$dir"\n'

# Records when the guard was armed (`sh -c ARMED_AT sh DIR`): the guard's deadline counts
# from it, on the Pi's clock.
ARMED_AT = snippets.WRITE_FILE_FUNCTION + '\nsbctune_write "$(date +%s)" "$1/armed_at"'

# Starts guard.sh detached from the SSH session (`sh -c START_SLEEPER sh GUARD PIDFILE`).
START_SLEEPER = snippets.START_DETACHED

# Lists the sessions (no sudo): this netns, the Pi's clock (epoch seconds: a deadline is
# armed_at + guard seconds on the Pi's clock, which may be days off this computer's), then per
# session folder: path, state, session.json, armed_at and the seconds a re-arm held its guard
# for (guard.seconds, when one did), 1/0 whether its guard runs, reverted_by; NUL-separated.
LIST = (
    GUARD_ALIVE + 'readlink /proc/self/ns/net; printf "\\0"; date +%s; printf "\\0"; '
    'for d in "$1"/*/; do [ -f "$d/session.json" ] || continue; dir=${d%/}; '
    'printf "%s\\0" "$d"; cat "$d/state" 2>/dev/null; printf "\\0"; '
    'cat "$d/session.json" 2>/dev/null; printf "\\0"; '
    'cat "$d/armed_at" 2>/dev/null; printf " "; cat "$d/guard.seconds" 2>/dev/null; '
    'printf "\\0"; '
    'if guard_alive; then printf "1\\0"; else printf "0\\0"; fi; '
    'cat "$d/reverted_by" 2>/dev/null; printf "\\0"; done'
)


def lock_name(netns: str) -> str:
    """The Pi's one-session lock for a network namespace ('net:[4026531840]')."""
    return "busy-net" + "".join(ch for ch in netns if ch.isdigit())


def session_dir(session_id: str) -> str:
    if not SESSION_ID.match(session_id):
        raise ValueError(f"not a session id: {session_id!r}")
    return f"{STATE_ROOT}/{session_id}"


def revert_script(
    session_id: str,
    changes: Sequence[Change],
    indices: Sequence[int] | None = None,
    facts: OpenFacts | None = None,
    kept: Sequence[Change] = (),
    *,
    link: LinkFacts | None = None,
) -> str:
    """revert.sh: restores `changes` (in the order applied) newest first, then records it.
    `indices`: each change's number when it was applied (its backup file's name). With the
    NIC's `facts`, a change that restarts the interface is put back before the settings its
    driver's open sets back (reopen_order.revert_order), and `kept` (the user's own values of
    settings that restart sets back) are written again after it, logged, never failing. With
    its `link` facts, a restore that drops the link is followed by a wait for it to come back
    (link_wait: bounded), whose line goes to the log and to revert.sh's output, so the next
    value is put back, and the caller's next measurement starts, on a link that is up."""
    directory = session_dir(session_id)
    numbers = list(indices) if indices is not None else list(range(len(changes)))
    lines = [
        "#!/bin/sh",
        f"# sbctune tuning session {session_id}: puts back every value the session changed.",
        spoken("# Run by the auto-revert guard, by `sbctune tune revert`, or by hand:"),
        f"#   sudo sh {directory}/revert.sh",
        "umask 022  # files it restores are never writable by other users",
        f"dir={join([directory])}",
        "why=${1:-manual}",
        _SET_STATE.rstrip("\n"),
        _RELEASE.rstrip("\n"),
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
    order = reopen_order.revert_order(changes, facts)
    again = reopen_order.after_last_restart(order, changes, facts)
    back = [changes[i] for i in order]
    # rings' rx and tx go back in one `ethtool -G` (one restart), as they were applied
    runs = joined_argvs(back, [c.before for c in back], state_dir=directory,
                        indices=[numbers[i] for i in order], restoring=True)  # fmt: skip
    kept_done = again is None
    for run, argvs in [*runs, ([len(order)], [])]:
        if not kept_done and again is not None and run[0] >= again:
            lines.append("# values of the user's own that the interface's restart set back")
            for keep in kept:
                for argv in write_argvs(keep, keep.before, restoring=True):
                    lines.append(join(argv) + ' >>"$dir/revert.log" 2>&1')
            kept_done = True
        for at in run:
            if at < len(order):
                lines.append(f"# {back[at].kind} {_comment(back[at].target)}")
        dropping = [back[at] for at in run if at < len(order)]
        iface = (
            link.iface
            if link and argvs and link_wait.any_drops(dropping, link, restoring=True)
            else None
        )
        if iface is not None:
            lines.append("# the link drops with this restore: its state first, then a wait")
            lines.append(join(link_wait.mark_argv(iface, directory)))
        lines += ["step " + join(argv) for argv in argvs]
        if iface is not None:
            wait = join(link_wait.wait_argv(iface, directory))
            lines.append(wait + ' | tee -a "$dir/revert.log"')
    lines += [
        'rm -f "$dir/guard.pid"',
        *nm_checkpoint.DESTROY_RECORDED.rstrip("\n").splitlines(),
        # who and when first: a reader that sees the new state reads them at once
        'sbctune_write "$(date +%s)" "$dir/reverted_at"',
        'sbctune_write "$why\n" "$dir/reverted_by"',
        'if [ "$failed" = 0 ]; then set_state reverted; else set_state revert_failed; fi',
        "release  # the Pi may take a new session",
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
            snippets.WRITE_FILE_FUNCTION,
            'sbctune_write "$$" "$dir/guard.pid"',
            # A re-arm may hold the guard longer (a measurement's planned time): its seconds.
            's=$(cat "$dir/guard.seconds" 2>/dev/null)',
            f"case $s in ''|*[!0-9]*) s={int(seconds)} ;; esac",
            'sleep "$s"',
            'exec sh "$dir/revert.sh" guard',
            "",
        ]
    )


def systemd_guard_argv(session_id: str, seconds: int, suffix: str = "") -> list[str]:
    """A transient timer; AccuracySec so it fires when the user's countdown ends (systemd's
    default accuracy is a minute). `suffix` names a re-armed guard (see tuning.rearm)."""
    directory = session_dir(session_id)
    return [
        "systemd-run",
        "--quiet",
        f"--unit=sbctune-guard-{session_id}{suffix}",
        f"--on-active={int(seconds)}s",
        "--timer-property=AccuracySec=100ms",
        "/bin/sh",
        f"{directory}/revert.sh",
        "guard",
    ]


def apply_at_boot_script(
    session_id: str, changes: Sequence[Change], facts: OpenFacts | None = None
) -> str:
    """at-boot.sh (with --persist): sets the session's runtime values again after a boot or
    when a USB NIC is plugged in (the sysctls go to sysctl.d instead), in the order applying
    writes them (a restart of the interface before what the driver's open sets back)."""
    directory = session_dir(session_id)
    lines = [
        "#!/bin/sh",
        f"# sbctune tuning session {session_id}, kept across reboots: sets its values again.",
        "# Started by sbctune-tuning-<id>.service at boot, by the udev rule when the NIC",
        "# appears and by the NetworkManager, dhcpcd or ifupdown hook that brings it up.",
        spoken("# `sbctune tune revert` removes the unit, the rule, the hook and this file."),
        f"dir={join([directory])}",
        'log="$dir/at-boot.log"',
    ]
    order = reopen_order.apply_order(changes, facts)
    ahead = [changes[i] for i in order]
    for _run, argvs in joined_argvs(ahead, [c.after for c in ahead], state_dir=directory,
                                    indices=order, restoring=False):  # fmt: skip
        lines += [join(argv) + ' >>"$log" 2>&1' for argv in argvs]
    lines.append("exit 0\n")
    return "\n".join(lines)


def sysctl_conf(session_id: str, changes: Sequence[Change]) -> str:
    lines = [
        f"# sbctune tuning session {session_id} (kept across reboots).",
        spoken("# `sbctune tune revert` removes this file."),
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
            spoken(
                "# sbctune tuning session kept across reboots; `sbctune tune revert` removes it."
            ),
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
    """The rule that runs at-boot.sh on the NIC's `add` (a replug, a USB NIC found late).

    `iface` is the name the NIC has now, which udev itself may have given it: an `add` event's
    KERNEL is the kernel's name (eth1, usb0), and udevd renames the interface only after every
    rule ran (udev-event.c: udev_event_execute_rules, then rename_netif), so a renamed NIC
    (Debian's enx<MAC> from 73-usb-net-by-mac.link, end0, enp1s0) is matched by the NAME an
    earlier rule set (80-net-setup-link.rules; this file is 90-) and an unrenamed one by its
    KERNEL name with NAME unset (net.ifnames=0, Raspberry Pi OS's eth0/eth1)."""
    directory = session_dir(session_id)
    run = f'RUN+="/bin/sh {directory}/at-boot.sh"'
    return (
        "# sbctune tuning session kept across reboots: re-applies it when the NIC appears\n"
        + spoken("# (a USB adapter plugged in again). `sbctune tune revert` removes this file.\n")
        + "# By the name udev gives the NIC, else by the kernel's name when udev gives none.\n"
        + f'ACTION=="add", SUBSYSTEM=="net", NAME=="{iface}", {run}\n'
        + f'ACTION=="add", SUBSYSTEM=="net", NAME=="", KERNEL=="{iface}", {run}\n'
    )
