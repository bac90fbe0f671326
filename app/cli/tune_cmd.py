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
from typing import TYPE_CHECKING, Any

from sbctune.advice.inspect import inspect_host
from sbctune.cli.arg_checks import interface_arg, session_id_arg
from sbctune.cli.fit import fit
from sbctune.cli.target_args import add_target_arguments, open_session, target_from_args
from sbctune.cli.tune_apply import apply_and_keep
from sbctune.cli.tune_plan_text import WholeNamesHelpFormatter, plan_lines
from sbctune.cli.tune_status import leftover_text, nothing_to_revert_text, print_status
from sbctune.errors import UserError
from sbctune.history import History, HistoryError
from sbctune.tuning import (
    DEFAULT_GUARD_SECONDS,
    TWEAK_IDS,
    TuningPlan,
    confirm,
    find_leftover,
    plan,
    revert,
    status,
)
from sbctune.tuning.session import boot_commit_plan
from sbctune.wording import session_words, spoken

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


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
        "NIC; a sysctl.d file, systemd unit, udev rule and dhcpcd or ifupdown hook for the rest; "
        "revert removes them)",
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
            return print_status(await status(session, history=history), args.json)
        if args.tune_action == "confirm":
            session_id = await confirm(session, args.session, history=history)
            _out(args, {"confirmed": session_id}, f"Session {session_id} confirmed: kept.")
            return 0

        def say(message: str) -> None:  # what the Pi saw of the link after each restore
            if not args.json:
                print(fit(f"… {message}"), flush=True)

        ids = await revert(session, args.session, history=history, on_event=say)
        # by when each was applied, as apply and status say it (the id: what --session takes)
        named = [f"{session_words(i)} (session {i})" for i in ids]
        if ids:
            text = "Reverted: " + ", ".join(named) + "."
        else:  # why: the Pi's sessions say whether the guard put it back already
            text = nothing_to_revert_text(await status(session, history=history))
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
                    print(fit(plan_lines(the_plan, show_commands=args.show_commands)))
                return 0

            async def reconnect() -> Session:
                return await open_session(args, target)

            return await apply_and_keep(session, the_plan, args, history, reconnect)
        finally:
            history.close()


def _out(args: argparse.Namespace, data: dict[str, Any], text: str) -> None:
    print(json.dumps(data) if args.json else fit(text))


async def _nic_towards_pc(session: Session, quiet: bool = False) -> str | None:
    """The NIC traffic to this PC leaves by: under the bridge, bond or VLAN the route names
    (find_path's rule, as the one-click flow and the window choose), said where it is one."""
    from sbctune.measure.route import find_path  # loaded where a plan is made (issue 22)

    try:
        path = await find_path(session, None)
    except UserError:
        return None
    if path.note and not quiet:
        print(fit(path.note), file=sys.stderr)
    return path.nic


async def _plan(session: Session, args: argparse.Namespace) -> TuningPlan:
    leftover = await find_leftover(session)
    if leftover is not None and leftover.state != "confirmed" and not args.json:
        print(leftover_text(leftover), file=sys.stderr)
    inventory, _ = await inspect_host(session)
    nic = args.nic or await _nic_towards_pc(session, args.json)
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


__all__ = ["UserError", "register"]
