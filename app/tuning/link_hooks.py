"""`--persist`'s hooks on the NIC's link-up where NetworkManager does not manage it (audit 12).

The unit (ordered before the network) and the udev rule (the NIC's `add`) run at-boot.sh before
anything opens the interface. A value the driver refuses while the interface is down or sets back
when it opens (persist_gaps) needs a run once it is open: NetworkManager's dispatcher gives one
(nm_persist); where dhcpcd or ifupdown brings the NIC up, their own hooks do:

- dhcpcd (Raspberry Pi OS bullseye and older; Debian's dhcpcd-base): dhcpcd-run-hooks(8) loads
  every file of its hooks folder into its own shell with `$interface` and `$reason`; CARRIER is
  "dhcpcd has detected the carrier is up", after dhcpcd opened the interface. Loaded, not run:
  the file must not `exit` or `exec` (it would end dhcpcd-run-hooks there).
- ifupdown: `ifup` runs /etc/network/if-up.d/ with run-parts (executable files whose names are
  letters, digits, `-` and `_`) after bringing the interface up, with `$IFACE`. So do its two
  other implementations: Alpine's ifupdown-ng (libifupdown/lifecycle.c lif_lifecycle_run_phase:
  `/bin/run-parts /etc/network/if-%s.d` for each phase, `allow_addon_scripts` on by default) and
  BusyBox's `ifup` (networking/ifupdown.c: run-parts of /etc/network/if-up.d).

A hook is written only where its program manages the NIC now (dhcpcd runs; ifupdown's record of
the NIC exists), so the plan never counts a hook that nothing will run. The three ifupdowns keep
that record differently (audit 45): Debian's ifupdown 0.8 a file per interface,
/run/network/ifstate.<iface>; ifupdown-ng one file, /run/ifstate (its Makefile's STATE_FILE),
with a line `<iface>=<iface> <refcount>[ explicit]` per interface up (libifupdown/state.c
lif_state_write); BusyBox one file, /var/run/ifstate (CONFIG_IFUPDOWN_IFSTATE_PATH), a line
`<iface>=<iface>` each.
"""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.remote.quoting import join
from sbctune.tuning import nm_persist

IFUPDOWN_DIR = "/etc/network/if-up.d"
# dhcpcd5 (bullseye) keeps its hooks in /lib, dhcpcd-base (bookworm on) in /usr/lib; with a
# merged /usr both are one folder, so the first found is written
DHCPCD_DIRS = ("/lib/dhcpcd/dhcpcd-hooks", "/usr/lib/dhcpcd/dhcpcd-hooks")
DIRS = (*DHCPCD_DIRS, IFUPDOWN_DIR)


# ifupdown-ng's and BusyBox's one state file each (see above)
SHARED_STATES = ("/run/ifstate", "/var/run/ifstate")
# `sh -c IFUPDOWN_HAS sh IFACE FILE...`: exit 0 where one of the files records IFACE as up: a
# per-interface file (Debian's) by existing, a shared one by a line starting `IFACE=`. The
# shared file's text is read as data only (a literal prefix in `case`), at most 64 KiB.
IFUPDOWN_HAS = (
    'i=$1; shift; for f in "$@"; do case "$f" in\n'
    '  */ifstate.*) [ -e "$f" ] && exit 0 ;;\n'
    '  *) [ -f "$f" ] || continue\n'
    '     s=$(head -c 65536 "$f" | while IFS= read -r l; do\n'
    '       case "$l" in "$i="*) echo up; break ;; esac; done)\n'
    '     [ -n "$s" ] && exit 0 ;;\n'
    "esac; done; exit 1"
)


def ifupdown_state(iface: str) -> str:
    """Debian's ifupdown's record of an interface it brought up (ifupdown 0.8 and later)."""
    return f"/run/network/ifstate.{iface}"


def ifupdown_states(iface: str) -> tuple[str, ...]:
    """Every file in which one of the three ifupdowns records `iface` as up (IFUPDOWN_HAS)."""
    return (ifupdown_state(iface), *SHARED_STATES)


def managed_dirs(dirs: Sequence[str], dhcpcd_runs: bool, ifupdown_has_nic: bool) -> list[str]:
    """`dirs` without the hook folders of a program that does not manage the NIC now."""
    first_dhcpcd = next((d for d in DHCPCD_DIRS if d in dirs), None)
    kept = []
    for folder in dirs:
        if folder in DHCPCD_DIRS and (not dhcpcd_runs or folder != first_dhcpcd):
            continue
        if folder == IFUPDOWN_DIR and not ifupdown_has_nic:
            continue
        kept.append(folder)
    return kept


def hook_path(folder: str, session_id: str) -> str:
    return f"{folder}/90-sbctune-{session_id}"


def is_executable_hook(path: str) -> bool:
    """A hook its program runs only when executable (and, for NM, owned by root, not writable
    by others): written through nm_persist.WRITE_SCRIPT, mode 0755."""
    folder, _, name = path.rpartition("/")
    return bool(name) and (folder == IFUPDOWN_DIR or nm_persist.is_dispatcher(path))


def hook_script(folder: str, iface: str, at_boot: str) -> str:
    """The hook of `folder` that runs at-boot.sh once `iface` is up."""
    name, script = join([iface]), join([at_boot])
    if folder in DHCPCD_DIRS:
        return "\n".join(
            [
                "# sbctune tuning session kept across reboots: loaded by dhcpcd-run-hooks; sets",
                "# the values again once dhcpcd sees the carrier of the open NIC (no exit here:",
                "# dhcpcd-run-hooks loads this file into its shell). Reverting the session",
                '# ("sbctune tune revert") removes this file.',
                f'if [ "$interface" = {name} ] && [ "$reason" = CARRIER ] && [ -f {script} ]; then',
                f"    /bin/sh {script}",
                "fi",
                "",
            ]
        )
    return "\n".join(
        [
            "#!/bin/sh",
            "# sbctune tuning session kept across reboots: sets its values again once ifup has",
            '# brought the NIC up. Reverting the session ("sbctune tune revert") removes it.',
            f'[ "$IFACE" = {name} ] && [ -f {script} ] || exit 0',
            f"exec /bin/sh {script}",
            "",
        ]
    )
