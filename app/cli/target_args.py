"""How every CLI command that talks to a Pi takes its target and credentials.

`[user@]host[:port]`, `--identity FILE`, the password from `--password-stdin` or the
`SBCTUNE_PASSWORD` environment variable (never from argv), the sudo password likewise when it
differs, and `--accept-new-host-key` for scripts.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sbctune.cli.arg_checks import keepalive_seconds, positive_seconds
from sbctune.cli.prompt import read_line
from sbctune.remote import Secret, Target, parse_target
from sbctune.remote.target import DEFAULT_KEEPALIVE_S, password_from_env

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.hostkeys import HostKeyInfo
    from sbctune.remote.session import Session


def add_target_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "target",
        metavar="[USER@]HOST[:PORT]",
        help="the Pi: its name or address, e.g. raspberrypi.local; "
        "with a user name and port: pi@raspberrypi.local:2222",
    )
    add_credential_arguments(parser)


def add_credential_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("connection")
    group.add_argument(
        "-i",
        "--identity",
        action="append",
        type=Path,
        default=[],
        metavar="FILE",
        help="private key file (repeatable); the SSH agent and ~/.ssh keys are tried too",
    )
    group.add_argument(
        "--password-stdin",
        action="store_true",
        help="read the login password from the first line of standard input "
        "(or set SBCTUNE_PASSWORD)",
    )
    group.add_argument(
        "--sudo-password-stdin",
        action="store_true",
        help="read the sudo password from standard input (after the login password, if both) "
        "or set SBCTUNE_SUDO_PASSWORD; defaults to the login password",
    )
    group.add_argument(
        "--accept-new-host-key",
        action="store_true",
        help="trust a host key seen for the first time (a changed key is always refused)",
    )
    group.add_argument(
        "--connect-timeout",
        type=positive_seconds,
        default=10.0,
        metavar="SECONDS",
        help="give up connecting after this long (default 10)",
    )
    group.add_argument(
        "--keepalive",
        type=keepalive_seconds,
        default=DEFAULT_KEEPALIVE_S,
        metavar="SECONDS",
        help="ask the Pi for a sign of life after this long without a word; 3 unanswered and "
        "the connection counts as lost (default 7: a silently dead link is noticed in about "
        "28 s)",
    )


def _read_secret_line() -> Secret:
    line = sys.stdin.readline()
    return Secret(line.rstrip("\r\n"))


def target_from_args(args: argparse.Namespace) -> Target:
    user, host, port = parse_target(args.target)
    password = _read_secret_line() if args.password_stdin else password_from_env("SBCTUNE_PASSWORD")
    sudo_password = (
        _read_secret_line()
        if args.sudo_password_stdin
        else password_from_env("SBCTUNE_SUDO_PASSWORD")
    )
    return Target(
        host=host,
        port=port,
        user=user,
        identity_files=tuple(args.identity),
        password=password,
        sudo_password=sudo_password,
        connect_timeout=args.connect_timeout,
        keepalive_interval=args.keepalive,
    )


async def _ask_on_terminal(info: HostKeyInfo) -> bool:
    if not sys.stdin.isatty():
        return False
    print(
        f"The authenticity of host '{info.host}' (port {info.port}) can't be established.\n"
        f"Its {info.key_type} key fingerprint is {info.fingerprint}.",
        file=sys.stderr,
    )
    answer = await read_line("Trust this host and connect? [y/N] ")
    return answer.strip().lower() in ("y", "yes")


async def open_session(args: argparse.Namespace, target: Target | None = None) -> Session:
    """Connect as the arguments say, asking on the terminal about a new host key."""
    from sbctune.remote import KnownHosts, Session  # SSH: only a command that logs in loads it

    known = KnownHosts()
    session = await Session.connect(
        target or target_from_args(args),
        known_hosts=known,
        on_unknown_host_key=_ask_on_terminal,
        accept_new_host_key=args.accept_new_host_key,
    )
    if known.not_saved:  # a read-only or full data folder: trusted now, asked again next time
        print(f"WARNING: the accepted host key could not be saved ({known.not_saved}); "
              "sbctune will ask again next time.", file=sys.stderr)  # fmt: skip
    return session
