"""Boot tweaks after apply: whether a reboot is needed, the (test) reboot, and `boot-commit`,
which writes a good test boot's settings to config.txt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.history import History
from sbctune.inventory.model import Inventory
from sbctune.tuning import boot_proof, catalog, tryboot
from sbctune.tuning.errors import TuningError
from sbctune.tuning.lifecycle import revert
from sbctune.tuning.model import AppliedSession, TuningPlan
from sbctune.tuning.planning import plan
from sbctune.tuning.remote_state import list_sessions

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


def needs_reboot(applied: AppliedSession) -> bool:
    """Whether a tweak the session applied only takes effect after a reboot."""
    known = {t.id: t for t in catalog.load_tweaks()}
    return any(
        o.status == "applied" and o.tweak_id in known and known[o.tweak_id].needs_reboot
        for o in applied.outcomes
    )


def makes_test_boot(applied: AppliedSession) -> bool:
    """Whether the session wrote tryboot.txt (so the reboot should be a test boot)."""
    return tryboot.writes_tryboot(
        c for o in applied.outcomes if o.status == "applied" for c in o.changes
    )


async def reboot(session: Session, *, test_boot: bool) -> None:
    """Reboot the Pi (into a one-time test boot with `test_boot`), two seconds from now."""
    result = await session.run(tryboot.reboot_argv(test_boot), sudo=True, timeout=30)
    if not result.ok:
        raise TuningError(
            "The Pi refused to reboot.",
            (result.stderr.strip() or f"exit code {result.exit_code}")
            + f". Reboot it by hand: `{tryboot.reboot_instruction(test_boot)}`.",
        )


async def tryboot_active(session: Session) -> bool | None:
    """Whether this boot is a tryboot (the firmware's flag); None where it cannot be read."""
    result = await session.run(["od", "-An", "-tx1", tryboot.FLAG_PATH], timeout=15)
    return tryboot.flag_from_od(result.stdout) if result.ok else None


async def boot_commit_plan(
    session: Session, inventory: Inventory, nic: str | None, *, history: History | None = None
) -> tuple[TuningPlan, bool]:
    """After a good test boot: put the test session's tweaks back as a plan that writes the
    boot changes to config.txt / cmdline.txt. Returns (plan, persist of the test session).

    The test session (which wrote tryboot.txt) is reverted first: the Pi runs the test
    configuration right now, and config.txt has not been touched yet."""
    flag = await tryboot_active(session)
    if not flag:
        state = "was not set" if flag is False else f"could not be read ({tryboot.FLAG_PATH})"
        raise TuningError(
            f"The Pi is not running a test boot: the firmware's tryboot flag {state}.",
            "Reboot it into the test configuration first (`sudo reboot '0 tryboot'`, or "
            "`sbctune tune apply ... --reboot`). If it came back on the old configuration, "
            "the test boot failed and fell back: revert with `sbctune tune revert HOST`.",
        )
    active = [s for s in await list_sessions(session) if s.active]
    test = next(
        (s for s in active if s.record and tryboot.writes_tryboot(s.record.applied_changes())),
        None,
    )
    if test is None or test.record is None:
        raise TuningError(
            "No tuning session on the Pi wrote tryboot.txt, so there is nothing to commit.",
            "`sbctune tune status HOST` lists the sessions.",
        )
    record = test.record
    # Proof is read, not assumed: the flag says tryboot.txt was read, not that it took.
    found = await boot_proof.read_in_force(session, nic or record.nic)
    missing = boot_proof.not_in_force(record, *found)
    if missing:
        raise TuningError(
            "The test boot did not put the boot tweaks in force: " + "; ".join(missing) + ".",
            "config.txt was not changed. `sbctune tune revert HOST` removes the test files; "
            "reboot normally afterwards.",
        )
    ids = [t.tweak_id for t in record.tweaks if t.status == "applied"]
    options: dict[str, object] = dict(record.options)
    options["boot_test"] = False
    await revert(session, test.id, history=history)
    the_plan = await plan(session, inventory, nic or record.nic, ids, dict(options))
    return the_plan, record.persist
