"""The guard's time counts from when apply finished, not from when it was armed.

The guard is armed before the first write (so every change is covered), but on a slow Pi (or
a VM on an emulated CPU) applying can take longer than the guard time: the guard then fired
mid-apply, and the user saw a countdown that had already run out. So once the writes are done
and their read-back verified, the guard is armed afresh for the full guard time and the old one
stopped: at every moment one guard is running (the new one starts before the old one stops),
and `armed_at` is rewritten so that `status` shows the deadline the user was told.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.remote import batch, snippets
from sbctune.remote.script_time import script_seconds
from sbctune.tuning import scripts

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

# Re-arm only when applying took long enough for the difference to matter.
REARM_AFTER_SECONDS = 3.0
# Until it is re-armed, the guard also allows for the writes themselves: a batch about as big
# as the snapshot's, so a few times what the snapshot took (on a TCG VM: 40 s, and the writes
# outlasted a 60 s guard). Killed mid-apply, the Pi still reverts by itself, that much later.
ALLOWANCE_FACTOR = 3.0
MAX_ALLOWANCE_SECONDS = 300


def allowance(snapshot_seconds: float, systemd: bool) -> int:
    """Seconds added to the first guard (the systemd timer only: the detached sleeper's
    guard.sh sleeps the guard time itself, and its re-arm starts the same script)."""
    if not systemd:
        return 0
    return int(min(MAX_ALLOWANCE_SECONDS, ALLOWANCE_FACTOR * max(0.0, snapshot_seconds)))


# `sh -c REARM_SYSTEMD sh DIR NEW_UNIT SECONDS SYSTEMD-RUN-ARGV...`: start the new timer,
# record its name and seconds, then stop the old one (if the old one fires in between,
# revert.sh runs as it would have).
REARM_SYSTEMD = (
    "dir=$1; new=$2; secs=$3; shift 3\n"
    + snippets.WRITE_FILE_FUNCTION
    + """
old=$(cat "$dir/guard.unit" 2>/dev/null)
[ "$(cat "$dir/state" 2>/dev/null)" = armed ] || exit 4
"$@" || exit 3
sbctune_write "$new" "$dir/guard.unit" || exit 3
sbctune_write "$secs" "$dir/guard.seconds"
sbctune_write "$(date +%s)" "$dir/armed_at"
if [ -n "$old" ] && [ "$old" != "$new" ]; then
  systemctl stop "$old.timer" >/dev/null 2>&1
fi
exit 0
"""
)

# `sh -c REARM_SLEEPER sh DIR SECONDS`: a new detached sleeper (guard.sh writes guard.pid
# itself and sleeps the seconds in guard.seconds), then the old one's process group is ended;
# if the new one does not start, the old one stays, and so do its guard.seconds.
REARM_SLEEPER = (
    "dir=$1; secs=$2\n"
    + snippets.WRITE_FILE_FUNCTION
    + "\n"
    + snippets.KILL_GROUP_FUNCTION
    + """
[ "$(cat "$dir/state" 2>/dev/null)" = armed ] || exit 4
old=$(cat "$dir/guard.pid" 2>/dev/null)
held=$(cat "$dir/guard.seconds" 2>/dev/null)
[ -n "$secs" ] && sbctune_write "$secs" "$dir/guard.seconds"
mv -f "$dir/guard.pid" "$dir/guard.pid.old" 2>/dev/null
set -- "$dir/guard.sh" "$dir/guard.pid"
"""
    + snippets.START_DETACHED.replace('[ -s "$2" ]', 'ok=0; [ -s "$2" ] && ok=1')
    + """
if [ "$ok" = 1 ]; then
  kill_group "$old"
  rm -f "$dir/guard.pid.old"
  sbctune_write "$(date +%s)" "$dir/armed_at"
  exit 0
fi
mv -f "$dir/guard.pid.old" "$dir/guard.pid"
# The old guard runs on with its own seconds: the listing must show those, not these.
if [ -n "$held" ]; then
  sbctune_write "$held" "$dir/guard.seconds"
else
  rm -f "$dir/guard.seconds"
fi
exit 3
"""
)


def rearm_argv(session_id: str, seconds: int, systemd: bool, round_no: int = 2) -> list[str]:
    directory = scripts.session_dir(session_id)
    if systemd:
        argv = scripts.systemd_guard_argv(session_id, seconds, suffix=f"-{round_no}")
        unit = argv[2].split("=", 1)[1]
        return ["sh", "-c", REARM_SYSTEMD, "sh", directory, unit, str(int(seconds)), *argv]
    return ["sh", "-c", REARM_SLEEPER, "sh", directory, str(int(seconds))]


async def rearm(
    session: Session, session_id: str, seconds: int, systemd: bool, round_no: int = 2
) -> bool:
    """Arm the guard afresh for `seconds` from now; False if the old guard had to stay.
    `round_no` names the new systemd timer (a heartbeat re-arms many times)."""
    step = batch.Step(tuple(rearm_argv(session_id, seconds, systemd, round_no)), "rearm")
    (result,) = await session.run_script([step], sudo=True, timeout=script_seconds([step]),
                                         what="starting the guard's time again")  # fmt: skip
    return result.ok
