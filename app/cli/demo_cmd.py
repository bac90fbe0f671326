"""`sbctune demo [HOST]`: the main job, end to end, against a real Pi or the virtual Pi lab.

With no host it brings up the lab (`pi4-ax88179`), runs the flow over real SSH, prints what it
found, and takes the lab down again whatever happens. The flow grows with the product: today
it connects and inspects; measuring and tuning join it as they land.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from sbctune.cli.target_args import add_credential_arguments, open_session
from sbctune.inventory.inspect import inspect_host
from sbctune.inventory.report import render
from sbctune.remote import KnownHosts, Secret, Session, Target

DEFAULT_PROFILE = "pi4-ax88179"
LAB_NAME = "demo"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "demo",
        help="run the one-click flow (against the virtual Pi lab when no Pi is given)",
    )
    parser.add_argument(
        "target",
        nargs="?",
        metavar="[USER@]HOST[:PORT]",
        help="a real Pi; without it the virtual Pi lab is used (Linux, root)",
    )
    parser.add_argument(
        "--profile",
        default=DEFAULT_PROFILE,
        help=f"lab profile when no Pi is given (default {DEFAULT_PROFILE})",
    )
    add_credential_arguments(parser)
    parser.set_defaults(func=_demo)


def _step(text: str) -> None:
    print(f"==> {text}", file=sys.stderr, flush=True)


async def _flow(session: Session) -> None:
    _step(f"Inspecting {session.target.display}")
    started = time.perf_counter()
    inventory, collection = await inspect_host(session)
    took = time.perf_counter() - started
    _step(
        f"Inventory in {took:.2f} s over {collection.round_trips} SSH round trips"
        + (" (with sudo)" if collection.used_sudo else "")
    )
    print(render(inventory))


def _demo(args: argparse.Namespace) -> int:
    if args.target:

        async def real() -> None:
            async with await open_session(args) as session:
                await _flow(session)

        asyncio.run(real())
        return 0

    from sbctune import lab  # the lab is Linux-only; imported only when used

    _step(f"Bringing up the virtual Pi lab (profile {args.profile})")
    info = lab.up(args.profile, name=LAB_NAME)
    try:
        _step(f"Lab up: ssh {info.user}@{info.host} (password {info.password})")
        target = Target(info.host, info.port, info.user, password=Secret(info.password))
        # Every lab has a fresh host key: trust it in a file of its own, never the user's.
        known = KnownHosts(read_from=[], write_to=Path(info.state_dir) / "demo_known_hosts")

        async def in_lab() -> None:
            session = await Session.connect(target, known_hosts=known, accept_new_host_key=True)
            async with session:
                await _flow(session)

        asyncio.run(in_lab())
    finally:
        _step("Taking the lab down")
        lab.down(LAB_NAME)
    return 0
