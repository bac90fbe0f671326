"""NetworkManager checkpoints: a second safety layer for changes to addressing or MTU.

Where NetworkManager manages the Pi's NICs (Raspberry Pi OS bookworm), sbctune asks it for a
checkpoint before such a change: ``CheckpointCreate`` on D-Bus (signature ``aouu``: devices
(none = all), rollback timeout in seconds, flags). If the Pi then stops answering and nobody
confirms, NetworkManager rolls the devices back by itself when the timeout runs out, even if
sbctune's own guard cannot run. Confirm destroys the checkpoint; revert rolls it back.
`nmcli` has no verb for checkpoints, so this goes through `busctl` (part of systemd).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sbctune.remote import snippets
from sbctune.tuning.model import Change

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

NM = "org.freedesktop.NetworkManager"
NM_PATH = "/org/freedesktop/NetworkManager"
_CREATED = re.compile(r'^o "(/org/freedesktop/NetworkManager/Checkpoint/\d+)"\s*$')
_PATH = re.compile(r"^/org/freedesktop/NetworkManager/Checkpoint/\d+$")
# Kinds of change that can cut the Pi off its network if they go wrong.
ADDRESSING_KINDS = frozenset({"mtu"})
# NM rolls back this long after sbctune's own guard time: the guard acts first, NM is the
# second layer (for when the guard itself cannot run).
MARGIN_SECONDS = 30
RECORD = "nm_checkpoint"  # the file in the session folder that names the checkpoint

# Destroys the checkpoint recorded in the session folder "$dir" (confirm, revert, guard).
DESTROY_RECORDED = f"""\
cp=$(cat "$dir/{RECORD}" 2>/dev/null)
case "$cp" in
  /org/freedesktop/NetworkManager/Checkpoint/*[!0-9]*) ;;
  /org/freedesktop/NetworkManager/Checkpoint/[0-9]*)
    busctl call {NM} {NM_PATH} {NM} CheckpointDestroy o "$cp" >/dev/null 2>&1 ;;
esac
rm -f "$dir/{RECORD}"
"""


@dataclass(frozen=True)
class Refused:
    """NetworkManager runs but took no checkpoint: its reason (busctl's words, one line)."""

    why: str


def refused_words(refused: Refused) -> str:
    """What apply says: the user agreed to a link drop under "the guard and, where
    NetworkManager runs, its checkpoint"; NM runs here and there is none (audit 45). NM refuses,
    for one, a device another checkpoint already holds (nm-checkpoint-manager.c)."""
    why = "".join(ch if ch.isprintable() else " " for ch in refused.why).strip()[:160]
    said = f" ({why})" if why else ""
    return (f"NetworkManager runs but took no checkpoint{said}: only sbctune's guard puts "
            "these settings back if the Pi stops answering")  # fmt: skip


def touches_addressing(changes: list[Change]) -> bool:
    return any(c.kind in ADDRESSING_KINDS and c.needed for c in changes)


def create_argv(rollback_seconds: int) -> list[str]:
    # Devices: none (= every device NM manages); flags 0 (keep other checkpoints).
    return [
        "busctl", "call", NM, NM_PATH, NM, "CheckpointCreate", "aouu",
        "0", str(max(1, int(rollback_seconds))), "0",
    ]  # fmt: skip


def parse_created(stdout: str) -> str | None:
    """The checkpoint's object path from busctl's reply (``o "/org/.../Checkpoint/N"``)."""
    match = _CREATED.match(stdout.strip()[:200])
    return match.group(1) if match else None


def _checked(path: str) -> str:
    if not _PATH.match(path):
        raise ValueError(f"not a NetworkManager checkpoint path: {path[:80]!r}")
    return path


def destroy_argv(path: str) -> list[str]:
    return ["busctl", "call", NM, NM_PATH, NM, "CheckpointDestroy", "o", _checked(path)]


def adjust_argv(path: str, seconds: int) -> list[str]:
    """NM's rollback timeout, counted afresh from now (after the guard was re-armed)."""
    return ["busctl", "call", NM, NM_PATH, NM, "CheckpointAdjustRollbackTimeout", "ou",
            _checked(path), str(max(1, int(seconds)))]  # fmt: skip


def rollback_argv(path: str) -> list[str]:
    return ["busctl", "call", NM, NM_PATH, NM, "CheckpointRollback", "o", _checked(path)]


async def nm_running(session: Session) -> bool:
    result = await session.run(["systemctl", "is-active", "--quiet", "NetworkManager"])
    return result.ok


async def create(session: Session, rollback_seconds: int) -> str | Refused | None:
    """Take a checkpoint (sudo); None where NetworkManager does not run, Refused where it
    runs and takes none."""
    if not await nm_running(session):
        return None
    result = await session.run(create_argv(rollback_seconds), sudo=True, timeout=60)
    path = parse_created(result.stdout) if result.ok else None
    if path is None:
        lines = (result.stderr or result.stdout).strip().splitlines()
        return Refused(lines[-1][:300] if lines else f"exit code {result.exit_code}")
    return path


async def destroy(session: Session, path: str) -> bool:
    result = await session.run(destroy_argv(path), sudo=True, timeout=60)
    return result.ok


async def rollback(session: Session, path: str) -> bool:
    result = await session.run(rollback_argv(path), sudo=True, timeout=60)
    return result.ok


async def take_for(
    session: Session,
    changes: list[Change],
    directory: str,
    guard_seconds: int,
    restarting: bool = False,
) -> str | Refused | None:
    """Before changes to addressing or MTU, or that restart an interface: a checkpoint recorded
    in the session folder (so confirm and revert destroy it); None where none is needed or
    NetworkManager is absent; Refused where NM runs and took none (or it could not be
    recorded)."""
    if not touches_addressing(changes) and not restarting:
        return None
    path = await create(session, guard_seconds + MARGIN_SECONDS)
    if path is None or isinstance(path, Refused):
        return path
    argv = snippets.write_file_argv(f"{directory}/{RECORD}", path)
    if not (await session.run(argv, sudo=True, timeout=30)).ok:
        await destroy(session, path)
        return Refused("its path could not be recorded in the session folder")
    return path


async def adjust(session: Session, path: str, guard_seconds: int) -> bool:
    result = await session.run(adjust_argv(path, guard_seconds + MARGIN_SECONDS), sudo=True,
                               timeout=60)  # fmt: skip
    return result.ok
