"""`sbctune serve`: the built-in iperf3-compatible server, a drop-in for ``iperf3 -s``.

For PCs without iperf3: the Pi (or any machine) runs a stock ``iperf3 -c`` against it, TCP
or UDP (``-u``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from typing import Any

from sbctune.cli.arg_checks import int_range
from sbctune.measure.endpoint import (
    DEFAULT_PORT,
    IperfEndpoint,
    TestResult,
    TestStart,
    format_summary,
)
from sbctune.wording import counted

# What a stock `iperf3 -c` may ask of it (sbctune.measure.endpoint: TCP, UDP `-u`, `-R`, bidir).
SERVES = "TCP and UDP (-u), to or from this computer (-R) or both ways (--bidir)"
_MODES = {"forward": "client sends", "reverse": "reverse, here sends", "bidir": "bidirectional"}


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the built-in iperf3 server (like “iperf3 -s”)",
        description="Run sbctune's built-in iperf3-compatible server, so an unmodified "
        "“iperf3 -c” can measure to this computer without iperf3 installed here. "
        f"{SERVES}. Ctrl-C stops it.",
    )
    parser.add_argument(
        "--bind",
        "-B",
        default="0.0.0.0",  # noqa: S104  (like `iperf3 -s`: the Pi must reach it)
        metavar="ADDR",
        help="address to listen on (default: all IPv4 addresses; “::” for IPv6 and IPv4)",
    )
    parser.add_argument(
        "--port",
        "-p",
        type=int_range(0, 65535, "the port"),
        default=DEFAULT_PORT,
        metavar="N",
        help=f"port to listen on (default: {DEFAULT_PORT}, as iperf3; 0 picks a free one)",
    )
    parser.add_argument(
        "--one-off",
        "-1",
        action="store_true",
        help="serve one test, then exit (like “iperf3 -s -1”)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(serve(args.bind, args.port, one_off=args.one_off))
    except KeyboardInterrupt:  # where the loop cannot take over SIGINT (Windows)
        print("stopped", flush=True)
        return 0


def _print_start(info: TestStart) -> None:
    host, port = info.client
    params = info.params
    limit = f"{params.duration} s" if params.duration else "until byte count"
    print(
        f"test {info.test_id} from {host}:{port}: {_MODES.get(params.mode, params.mode)}, "
        f"{counted(params.parallel, 'stream')}, {limit}",
        flush=True,
    )


def _print_result(result: TestResult) -> None:
    for line in format_summary(result):
        print(line, flush=True)
    if result.reason and result.sums:
        print(f"  ({result.reason})", flush=True)


async def serve(bind: str, port: int, *, one_off: bool = False) -> int:
    """Serve until Ctrl-C / SIGTERM (or after one test); returns the exit code."""
    endpoint = IperfEndpoint(
        bind,
        port,
        one_off=one_off,
        on_result=_print_result,
        on_test_start=_print_start,
    )
    await endpoint.start()
    host, bound = endpoint.address
    shown = f"[{host}]" if ":" in host else host
    print(f"Listening on {shown}:{bound} (iperf3-compatible: {SERVES}). Ctrl-C stops.", flush=True)

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    handled: list[signal.Signals] = []
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
            handled.append(sig)
    try:
        stopper = asyncio.ensure_future(stop.wait())
        closed = asyncio.ensure_future(endpoint.wait_closed())
        await asyncio.wait({stopper, closed}, return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        closed.cancel()
    finally:
        await endpoint.stop()
        for sig in handled:
            loop.remove_signal_handler(sig)  # posix-only: those added above
    if stop.is_set():
        print("stopped", flush=True)
    sys.stdout.flush()
    return 0
