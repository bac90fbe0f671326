"""`sbctune tune apply`, after the plan: apply under the guard, ask whether to keep the
settings (or leave the session armed), confirm or revert, and the reboot a boot tweak needs.
Ctrl-C puts back what this apply changed."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from sbctune import aio
from sbctune.cli.fit import fit
from sbctune.cli.prompt import read_line
from sbctune.cli.tune_plan_text import applied_lines, held_for_link
from sbctune.cli.tune_status import MARK
from sbctune.errors import UserError
from sbctune.history import History
from sbctune.tuning import AppliedSession, TuningPlan, apply, confirm, revert, status
from sbctune.tuning.remote_state import list_sessions
from sbctune.tuning.session import makes_test_boot, needs_reboot, reboot
from sbctune.tuning.tryboot import reboot_instruction
from sbctune.wording import spoken

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


async def ask_keep(seconds: float) -> bool | None:
    """y/n on the terminal, or None when the guard time runs out first."""
    prompt = f"Keep these settings? [y/N] (reverted by itself in {int(seconds)} s) "
    try:
        answer = await aio.wait_for(read_line(prompt), seconds)
    except asyncio.TimeoutError:
        print()
        return None
    return answer.strip().lower() in ("y", "yes")


async def apply_and_keep(
    session: Session,
    the_plan: TuningPlan,
    args: argparse.Namespace,
    history: History,
    reconnect: Any,
) -> int:
    def say(message: str) -> None:
        if not args.json:
            print(fit(f"… {message}"), flush=True)

    # Only the ids: status() would also read back every value of the old sessions (one
    # process per value; minutes on a slow or emulated Pi).
    before = {s.id for s in await list_sessions(session)}
    try:
        applied = await apply(
            session,
            the_plan,
            guard_seconds=args.guard,
            persist=args.persist,
            on_event=say,
            reconnect=reconnect,
            history=history,
        )
    except asyncio.CancelledError:
        return await interrupted(session, before, history)
    result: dict[str, Any] = {
        "id": applied.id,
        "state": applied.state,
        "guard_deadline": applied.guard_deadline,
        "reachable": applied.reachable,
        "outcomes": [o.to_json() for o in applied.outcomes],
        "held_for_link": held_for_link(the_plan),  # held back: need --allow-link-restart
    }
    if not args.json:
        print(f"Session {applied.id}:")
        print(fit(applied_lines(applied, held_for_link(the_plan), MARK)))
    if applied.state == "reverted":
        final(args, result, "A tweak failed, so everything was put back.")
        return 1
    if not applied.reachable:
        final(args, result, "The Pi did not answer a new SSH connection: it reverts by itself "
               f"within {args.guard} s.")  # fmt: skip
        return 1
    keep: bool | None = None
    if args.confirm:
        keep = True
    elif sys.stdin.isatty() and not args.json:
        try:
            keep = await ask_keep(applied.guard_deadline - time.time() - 2)
        except asyncio.CancelledError:  # Ctrl-C at the question: a clear "no"
            return await interrupted(session, before, history)
    if keep is None and not (sys.stdin.isatty() and not args.json):
        result["state"] = "armed"
        final(args, result, f"Armed: run “sbctune tune confirm {args.target}” within "
               f"{max(0, int(applied.guard_deadline - time.time()))} s to keep these settings; "
               "otherwise the Pi puts them back by itself.")  # fmt: skip
        if needs_reboot(applied) and not args.json:
            print("Not rebooting: the session waits for confirmation. After “confirm”: "
                  f"“{reboot_instruction(makes_test_boot(applied))}” on the Pi.")  # fmt: skip
        return 0
    if keep:
        await confirm(session, applied.id, history=history)
        result["state"] = "confirmed"
        if not args.json:
            print("Confirmed: the settings stay (until “sbctune tune revert”).")
        await after_reboot_tweaks(session, applied, args, result)
        if args.json:
            print(json.dumps(result, indent=2))
        return 0
    await revert(session, applied.id, history=history)
    result["state"] = "reverted"
    final(args, result, "Reverted: every value is back as it was.")
    return 0


async def interrupted(session: Session, before: set[str], history: History) -> int:
    """Ctrl-C during apply: put back what this apply had changed, at once, rather than leave
    the Pi half-tuned until its guard runs out."""
    task = asyncio.current_task()
    uncancel = getattr(task, "uncancel", None)  # Python 3.11+; 3.10 needs nothing
    if uncancel is not None:
        uncancel()  # handled here: revert, then exit 130
    print("\nInterrupted: putting back what this session changed…", file=sys.stderr, flush=True)
    try:
        ours = [s for s in await status(session) if s.id not in before and s.state != "reverted"]
        for leftover in ours:
            await revert(session, leftover.id, history=history)
            print(f"Session {leftover.id} reverted: every value is back as it was.",
                  file=sys.stderr)  # fmt: skip
        if not ours:
            print("Nothing had been changed yet.", file=sys.stderr)
    except UserError as exc:
        print(f"sbctune: {spoken(exc.message)}", file=sys.stderr)
        print("  hint: The Pi's guard puts the values back by itself when its time runs out; "
              "“sbctune tune status HOST” shows the session, “sbctune tune revert HOST” "
              "reverts it now.", file=sys.stderr)  # fmt: skip
    return 130


async def after_reboot_tweaks(
    session: Session, applied: AppliedSession, args: argparse.Namespace, result: dict[str, Any]
) -> None:
    """The reboot a boot tweak needs: done with --reboot (after the user kept the settings),
    otherwise only said. Never automatic."""
    if not needs_reboot(applied):
        return
    test_boot = makes_test_boot(applied)
    command = reboot_instruction(test_boot)
    result["reboot"] = {"test_boot": test_boot, "command": command, "done": bool(args.reboot)}
    if test_boot:
        after = (
            "If the Pi does not come back within a few minutes, power-cycle it: it then starts "
            "with the old config.txt. When it is back, “sbctune tune boot-commit "
            f"{args.target}” writes the tested settings to config.txt (revert: “sbctune tune "
            f"revert {args.target}”)."
        )
    else:
        after = "The boot settings take effect after this reboot."
    if args.reboot:
        await reboot(session, test_boot=test_boot)
        text = f"Rebooting the Pi ({command})" + (" into a one-time test boot. " if test_boot
                                                  else ". ") + after  # fmt: skip
    else:
        text = f"To take effect, reboot the Pi: “{command}” (or add --reboot). " + after
    if args.json:
        result["reboot"]["next"] = after
    else:
        print(text)


def final(args: argparse.Namespace, result: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(fit(text))
