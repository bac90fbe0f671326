"""`sbctune connect HOST`: check that sbctune can log in, what it finds, and how sudo works."""

from __future__ import annotations

import argparse
import asyncio
import json

from sbctune.cli.target_args import add_target_arguments, open_session
from sbctune.cli.tune_status import leftover_text
from sbctune.kernel_words import beside_label
from sbctune.workflow.connecting import connected_facts


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "connect",
        help="log in to the Pi over SSH and report the system and sudo access",
        description="Connect to the Pi over SSH (checking its host key), print its name, "
        "kernel and user, and whether sudo works.",
    )
    add_target_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=lambda args: asyncio.run(_connect(args)))


async def _connect(args: argparse.Namespace) -> int:
    async with await open_session(args) as session:
        facts = await connected_facts(session)
        mode = facts.sudo
        sudo_ok = facts.sudo_ok
        report = {
            "host": facts.display,
            "hostname": facts.hostname,
            "kernel": facts.kernel,
            "user": facts.user,
            "sudo": mode,
            "sudo_ok": sudo_ok,
            "local_address": session.local_address,
        }
        leftover = facts.tuning_leftover
        if leftover is not None:
            report["tuning_leftover"] = {"id": leftover.id, "state": leftover.state,
                                         "orphaned": leftover.orphaned}  # fmt: skip
    if args.json:
        print(json.dumps(report))
    else:
        print(f"Connected to {report['hostname']} ({report['host']}) as {report['user']}")
        print(f"  kernel: {beside_label(str(report['kernel']))}")
        sudo_text = {
            "root": "logged in as root",
            "passwordless": "sudo without password",
            "password": "sudo with password",
        }[mode]
        print(f"  sudo:   {sudo_text}{'' if sudo_ok else ' (FAILED)'}")
        if leftover is not None:
            print(leftover_text(leftover))
    return 0
