"""`sbctune find`: Raspberry Pis on this PC's networks (mDNS; port 22 only with --scan)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import json
from typing import TYPE_CHECKING, Any

from sbctune.cli.arg_checks import positive_seconds
from sbctune.history import History, HistoryError
from sbctune.textsafe import visible

if TYPE_CHECKING:
    from sbctune.discovery import FoundHost


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "find",
        help="find Raspberry Pis on this PC's network (mDNS; --scan also probes port 22)",
        description="List the Raspberry Pis (and other hosts running sshd) on this PC's "
        "networks. Listens for mDNS announcements (Raspberry Pi OS's _workstation._tcp "
        "and _ssh._tcp) and resolves raspberrypi.local and the .local names you used "
        "before. Only with --scan does it connect to port 22 of the addresses of this "
        "PC's own subnet (at most 254 per network). Raspberry Pis, told by their MAC "
        "address, come first.",
    )
    parser.add_argument(
        "--seconds",
        type=positive_seconds,
        default=3.0,
        metavar="S",
        help="how long to listen for mDNS answers (default 3, at most 30)",
    )
    parser.add_argument(
        "--scan",
        action="store_true",
        help="also probe port 22 on this PC's own subnet (at most a /24 per network)",
    )
    parser.add_argument(
        "--interface",
        action="append",
        default=[],
        metavar="ADDR",
        type=_ipv4,
        help="use only the network of this local IPv4 address (repeatable)",
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.set_defaults(func=run)


def _ipv4(text: str) -> str:
    try:
        return str(ipaddress.IPv4Address(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--interface takes one of this PC's IPv4 addresses, not {text!r}"
        ) from None


def _names_used_before() -> tuple[str, ...]:
    """The `.local` hosts of the history; none when there is no usable history."""
    from sbctune.workflow.finding import names_used_before

    with contextlib.suppress(HistoryError, OSError), History.open() as history:
        return names_used_before(history)
    return ()


def _line(host: FoundHost) -> str:
    kind = host.kind_words.replace("SSH", "sshd")
    mac = f"MAC {host.mac}" if host.mac else ""
    how = ", ".join(host.sources)
    name = visible(host.hostname or "")[:80]  # from the network: shown, never obeyed
    return f"  {host.address:<15}  {name:<28}  {kind:<26}  {mac:<21}  {how}"


def run(args: argparse.Namespace) -> int:
    # Imported here: zeroconf is only needed by this command, not by every CLI start.
    from sbctune.discovery.model import found_summary
    from sbctune.workflow.finding import find, find_options, nothing_found_hint

    options = find_options(
        args.seconds, scan=args.scan, interfaces=args.interface, names_before=_names_used_before()
    )
    if not args.json:
        how = "mDNS and port 22 on this PC's subnet" if args.scan else "mDNS"
        print(f"Looking for Raspberry Pis ({how}, {options.seconds:g} s)…", flush=True)
    hosts = asyncio.run(find(options))
    if args.json:
        out: dict[str, Any] = {"hosts": [h.to_json() for h in hosts], "scanned": args.scan}
        print(json.dumps(out, indent=2))
        return 0
    if not hosts:
        print("No Pi answered.")
        print(nothing_found_hint(args.scan, "“sbctune find --scan”"))
        return 1
    for host in hosts:
        print(_line(host))
    best = hosts[0]
    print(f"\n{found_summary(hosts)}. Connect: sbctune connect pi@{best.address}")
    return 0
