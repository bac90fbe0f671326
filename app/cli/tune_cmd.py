"""`sbctune tune plan|apply|confirm|revert|status HOST`: tuning under an auto-revert guard.

`apply` applies the tweaks, arms the guard on the Pi and checks that a new SSH connection
still gets through. Then, on a terminal, it asks whether to keep the settings (no answer
before the guard time is up = revert); elsewhere it leaves the session armed for
`sbctune tune confirm HOST` (or confirms by itself with `--confirm` once the check passed).
If the app dies or the link drops meanwhile, the Pi reverts by itself when the guard expires.

Boot tweaks need a reboot, which happens only with `--reboot` after the settings were kept
(otherwise the command is printed). Where the Pi supports tryboot they go to tryboot.txt first:
the reboot is a one-time test boot, and `boot-commit` writes them to config.txt afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import TYPE_CHECKING, Any

from sbctune import aio
from sbctune.advice.inspect import inspect_host
from sbctune.cli.arg_checks import interface_arg, session_id_arg
from sbctune.cli.prompt import read_line
from sbctune.cli.target_args import add_target_arguments, open_session, target_from_args
from sbctune.cli.tune_plan_text import (
    WholeNamesHelpFormatter,
    applied_lines,
    held_for_link,
    plan_lines,
    status_line,
)
from sbctune.errors import UserError
from sbctune.history import History, HistoryError
from sbctune.limits import parse_json
from sbctune.tuning import (
    DEFAULT_GUARD_SECONDS,
    TWEAK_IDS,
    AppliedSession,
    LeftoverSession,
    TuningPlan,
    apply,
    confirm,
    find_leftover,
    plan,
    revert,
    status,
)
from sbctune.tuning.remote_state import list_sessions
from sbctune.tuning.session import boot_commit_plan, makes_test_boot, needs_reboot, reboot
from sbctune.tuning.tryboot import reboot_instruction
from sbctune.wording import counted, spoken
from sbctune.workflow.leftover import leftover_notice

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

_MARK = {
    "applied": "✔",
    "already": "=",
    "not_possible": "✗",
    "failed": "!",
    "reverted": "↺",
    "planned": "·",
}
# What the values read back from the Pi say (`tune status`).
_LIVE = {
    "in_force": "in force",
    "original": "not in force (the original values)",
    "other": "changed since (neither the session's nor the original values)",
    "unknown": "could not be read back",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "tune",
        help="apply tuning under an auto-revert guard; confirm, revert, status",
        description="Tune the Pi's network: plan (a dry run), apply "
        "under an auto-revert guard, confirm, revert, status.",
    )
    actions = parser.add_subparsers(dest="tune_action", metavar="ACTION", required=True)
    for name, text in (
        (
            "plan",
            "show what each tweak would change and why (dry run; --show-commands adds "
            "the exact commands)",
        ),
        ("apply", "apply the tweaks under an auto-revert guard"),
        ("confirm", "keep the settings of the session waiting for confirmation"),
        ("revert", "put back every value of the tuning sessions (newest first)"),
        ("status", "list the tuning sessions kept on the Pi"),
        (
            "boot-commit",
            "after a good test boot (tryboot): write the boot tweaks to config.txt for good",
        ),
    ):
        action = actions.add_parser(
            name, help=text, description=text, formatter_class=WholeNamesHelpFormatter
        )
        add_target_arguments(action)
        action.add_argument("--json", action="store_true", help="print one JSON object")
        if name in ("plan", "apply"):
            _add_plan_arguments(action)
        if name == "plan":
            action.add_argument(
                "--show-commands",
                action="store_true",
                help="also print the exact commands each tweak runs on the Pi",
            )
        if name == "boot-commit":
            action.add_argument(
                "--nic",
                type=interface_arg,
                help="the Pi's interface (default: the test session's)",
            )
        if name in ("apply", "boot-commit"):
            action.add_argument(
                "--reboot",
                action="store_true",
                help="after the settings are kept, reboot the Pi when a tweak needs it (into a "
                "one-time test boot where the boot tweaks went to tryboot.txt); without it, "
                "sbctune only prints the command",
            )
        if name in ("confirm", "revert"):
            action.add_argument(
                "--session",
                type=session_id_arg,
                metavar="ID",
                help="the session (default: latest)",
            )
        if name in ("apply", "boot-commit"):
            action.add_argument(
                "--guard",
                type=int,
                default=DEFAULT_GUARD_SECONDS,
                metavar="SECONDS",
                help=f"revert by itself after this long unless confirmed (default "
                f"{DEFAULT_GUARD_SECONDS})",
            )
            action.add_argument(
                "--confirm",
                action="store_true",
                help="confirm by itself once a new SSH connection got through (for scripts)",
            )
        action.set_defaults(func=lambda args: asyncio.run(_main(args)))


def _add_plan_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tweak",
        action="append",
        choices=TWEAK_IDS,
        metavar="NAME",
        help='a tweak to apply, by the name "tune plan" shows after --tweak (repeatable; '
        "default: the recommended set). NAME is one of: " + ", ".join(TWEAK_IDS),
    )
    parser.add_argument(
        "--nic",
        type=interface_arg,
        help="the Pi's interface (default: the one this PC talks to)",
    )
    parser.add_argument(
        "--persist",
        action="store_true",
        help="keep across reboots (NetworkManager's own ethtool settings where it manages the "
        "NIC; a sysctl.d file, systemd unit, udev rule for the rest; revert removes them)",
    )
    parser.add_argument("--mtu", type=int, help="the MTU with --tweak mtu-jumbo (default 9000)")
    parser.add_argument(
        "--path-supports-jumbo",
        action="store_true",
        help="your statement that every device between the Pi and its peers (switch, PC) "
        "uses the same larger MTU; required with --tweak mtu-jumbo",
    )
    parser.add_argument(
        "--arm-freq", type=int, metavar="MHZ", help="the CPU clock with --tweak boot-arm-freq"
    )
    parser.add_argument(
        "--no-tryboot",
        action="store_true",
        help="boot tweaks: edit config.txt/cmdline.txt directly instead of testing them once "
        "through tryboot.txt (where the Pi supports it)",
    )
    parser.add_argument(
        "--rps-exclude-irq-cpu",
        action="store_true",
        help="with --tweak rps-rfs: leave the CPU that takes the NIC's interrupt out of the "
        "receive packet steering",
    )
    parser.add_argument(
        "--allow-link-restart",
        action="store_true",
        help="allow changes that restart the interface or renegotiate its link (rings on "
        "macb, igb, igc, atlantic, stmmac; Energy-Efficient Ethernet and flow control on most "
        "drivers) even on the NIC that carries the SSH session; the guard reverts them",
    )


async def _on_the_pis_sessions(session: Session, args: argparse.Namespace) -> int:
    """status, confirm, revert: the Pi's sessions are the truth and the history only keeps a
    copy, so a history that cannot be opened (busy, damaged) never stops them."""
    try:
        history: History | None = History.open()
    except HistoryError as exc:
        history = None
        print(f"sbctune: {spoken(exc.message)} The Pi's sessions are handled without the history.",
              file=sys.stderr)  # fmt: skip
    try:
        if args.tune_action == "status":
            return _print_status(await status(session, history=history), args.json)
        if args.tune_action == "confirm":
            session_id = await confirm(session, args.session, history=history)
            _out(args, {"confirmed": session_id}, f"Session {session_id} confirmed: kept.")
            return 0
        ids = await revert(session, args.session, history=history)
        text = "Reverted: " + ", ".join(ids) if ids else "There was nothing to revert."
        _out(args, {"reverted": ids}, text)
        return 0
    finally:
        if history is not None:
            history.close()


async def _main(args: argparse.Namespace) -> int:
    target = target_from_args(args)
    async with await open_session(args, target) as session:
        if args.tune_action in ("status", "confirm", "revert"):
            return await _on_the_pis_sessions(session, args)
        history = History.open()
        try:
            if args.tune_action == "boot-commit":
                inventory, _ = await inspect_host(session)
                the_plan, persist = await boot_commit_plan(
                    session, inventory, args.nic, history=history
                )
                args.persist = persist
            else:
                the_plan = await _plan(session, args)
            if args.tune_action == "plan":
                if args.json:
                    print(json.dumps(the_plan.to_json(), indent=2))
                else:
                    print("\n".join(plan_lines(the_plan, show_commands=args.show_commands)))
                return 0

            async def reconnect() -> Session:
                return await open_session(args, target)

            return await _apply(session, the_plan, args, history, reconnect)
        finally:
            history.close()


def _out(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    print(json.dumps(data) if args.json else text)


async def _nic_towards_pc(session: Session) -> str | None:
    result = await session.run(["ip", "-j", "route", "get", session.local_address], timeout=15)
    try:
        routes = parse_json(result.stdout or "[]")
        return str(routes[0]["dev"]) if routes else None
    except (ValueError, KeyError, IndexError, TypeError):
        return None


async def _plan(session: Session, args: argparse.Namespace) -> TuningPlan:
    leftover = await find_leftover(session)
    if leftover is not None and leftover.state != "confirmed" and not args.json:
        print(_leftover_text(leftover), file=sys.stderr)
    inventory, _ = await inspect_host(session)
    nic = args.nic or await _nic_towards_pc(session)
    options: dict[str, Any] = {"persist": args.persist}
    if args.mtu:
        options["mtu"] = args.mtu
    if args.path_supports_jumbo:
        options["path_supports_jumbo"] = True
    if args.arm_freq:
        options["arm_freq"] = args.arm_freq
    if args.no_tryboot:
        options["boot_test"] = False
    if args.rps_exclude_irq_cpu:
        options["rps_exclude_irq_cpu"] = True
    if args.allow_link_restart:
        options["allow_link_restart"] = True
    return await plan(session, inventory, nic, args.tweak, options)


async def _ask_keep(seconds: float) -> bool | None:
    """y/n on the terminal, or None when the guard time runs out first."""
    prompt = f"Keep these settings? [y/N] (reverted by itself in {int(seconds)} s) "
    try:
        answer = await aio.wait_for(read_line(prompt), seconds)
    except asyncio.TimeoutError:
        print()
        return None
    return answer.strip().lower() in ("y", "yes")


async def _apply(
    session: Session,
    the_plan: TuningPlan,
    args: argparse.Namespace,
    history: History,
    reconnect: Any,
) -> int:
    def say(message: str) -> None:
        if not args.json:
            print(f"… {message}", flush=True)

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
        return await _interrupted(session, before, history)
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
        print("\n".join(applied_lines(applied, held_for_link(the_plan), _MARK)))
    if applied.state == "reverted":
        _final(args, result, "A tweak failed, so everything was put back.")
        return 1
    if not applied.reachable:
        _final(args, result, "The Pi did not answer a new SSH connection: it reverts by itself "
               f"within {args.guard} s.")  # fmt: skip
        return 1
    keep: bool | None = None
    if args.confirm:
        keep = True
    elif sys.stdin.isatty() and not args.json:
        try:
            keep = await _ask_keep(applied.guard_deadline - time.time() - 2)
        except asyncio.CancelledError:  # Ctrl-C at the question: a clear "no"
            return await _interrupted(session, before, history)
    if keep is None and not (sys.stdin.isatty() and not args.json):
        result["state"] = "armed"
        _final(args, result, f"Armed: run “sbctune tune confirm {args.target}” within "
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
        await _after_reboot_tweaks(session, applied, args, result)
        if args.json:
            print(json.dumps(result, indent=2))
        return 0
    await revert(session, applied.id, history=history)
    result["state"] = "reverted"
    _final(args, result, "Reverted: every value is back as it was.")
    return 0


async def _interrupted(session: Session, before: set[str], history: History) -> int:
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


async def _after_reboot_tweaks(
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


def _final(args: argparse.Namespace, result: dict[str, Any], text: str) -> None:
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(text)


def _leftover_text(leftover: LeftoverSession) -> str:
    notice = leftover_notice(leftover)
    hint = (
        "“sbctune tune confirm” keeps it, “sbctune tune revert” puts it back."
        if notice.can_keep
        else "“sbctune tune revert” puts its values back."
    )
    return f"{'Warning' if notice.urgent else 'Note'}: {notice.headline} {notice.detail} {hint}"


def _status_json(s: LeftoverSession) -> dict[str, Any]:
    return {
        "id": s.id, "state": s.state, "started_at": s.started_at, "nic": s.nic,
        "persist": s.persist, "guard_deadline": s.guard_deadline,
        "guard_running": s.guard_running, "orphaned": s.orphaned, "reverted_by": s.reverted_by,
        "problem": s.problem, "in_force": s.live_states().count("in_force"),
        "outcomes": [{**o.to_json(), "live": s.live_states(o.tweak_id)} for o in s.outcomes],
    }  # fmt: skip


def _state_text(s: LeftoverSession) -> str:
    if s.orphaned:
        return f"{s.state}, CUT SHORT: its guard is not running (revert it)"
    if s.state == "armed" and s.guard_deadline:
        at = time.strftime("%H:%M:%S", time.localtime(s.guard_deadline))
        return f"armed (reverts by itself at {at})"
    if s.state == "reverted" and s.reverted_by:
        return "reverted by its guard" if s.reverted_by == "guard" else "reverted"
    return s.state


def _live_text(states: list[str]) -> str:
    if not states:
        return ""
    if len(set(states)) == 1:
        return _LIVE.get(states[0], states[0])
    return f"{states.count('in_force')} of {counted(len(states), 'value')} in force"


def _print_status(sessions: list[LeftoverSession], as_json: bool) -> int:
    if as_json:
        print(json.dumps([_status_json(s) for s in sessions], indent=2))
        return 0
    if not sessions:
        print("No tuning sessions on this Pi.")
        return 0
    for s in sessions:
        persist = "yes" if s.persist else "no"
        print(f"{s.id}  {_state_text(s)}  nic={s.nic or '-'}  persist={persist}")
        if s.problem:
            print(f"    {s.problem}")
        for o in s.outcomes:
            live = _live_text(list(s.live_states(o.tweak_id)))
            what = status_line(o.status, o.detail, o.tweak_id, _MARK)
            print(f"    {what}" + (f"; on the Pi now: {live}" if live else ""))
    return 0


__all__ = ["UserError", "register"]
