"""Benchmark: the built-in endpoint against the C ``iperf3 -s``, same client, loopback only.

Run on demand (not collected by pytest)::

    .venv/bin/python tests/bench/bench_endpoint.py [--time 3] [--rounds 1] [--parallel 1 4 10]

For each of -P 1/4/10 x forward/reverse/bidir it runs the system ``iperf3 -c`` against both
servers back to back (C first, then built-in; with several rounds the order alternates) and
prints the receiver-side Gbit/s of each and the ratio built-in / C, and the same for the
servers' CPU efficiency (Gbit moved per CPU second of the server process). The built-in
endpoint runs in its own process (``python -m sbctune serve``), as it would for a user.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

HOST = "127.0.0.1"
MODES = {"forward": [], "reverse": ["-R"], "bidir": ["--bidir"]}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def wait_listening(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            # A bare connect would look like a client to the server; use /proc where we can.
            if Path("/proc/net/tcp").exists():
                hexport = f":{port:04X}"
                for line in Path("/proc/net/tcp").read_text(encoding="utf-8").splitlines()[1:]:
                    parts = line.split()
                    if parts[1].endswith(hexport) and parts[3] == "0A":
                        return
            else:
                time.sleep(1.0)
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a process (Linux /proc), else None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pinned(cpu: int | None) -> Callable[[], None] | None:
    """A preexec_fn that keeps the child (and its threads) on one CPU; None: no pinning."""
    if cpu is None:
        return None

    def pin() -> None:
        os.sched_setaffinity(0, {cpu})

    return pin


@contextmanager
def server(kind: str, iperf3: str, cpu: int | None = None) -> Iterator[tuple[int, int]]:
    port = free_port()
    if kind == "c":
        cmd = [iperf3, "-s", "-B", HOST, "-p", str(port)]
    else:
        cmd = [sys.executable, "-m", "sbctune", "serve", "--bind", HOST, "--port", str(port)]
    proc = subprocess.Popen(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=pinned(cpu)
    )
    try:
        wait_listening(port)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def run_client(
    iperf3: str, port: int, parallel: int, mode: str, seconds: int, cpu: int | None = None
) -> float | None:
    """Receiver-side Gbit/s (both directions summed for bidir); None when the client failed."""
    cmd = [iperf3, "-c", HOST, "-p", str(port), "-t", str(seconds), "-P", str(parallel), "-J"]
    out = subprocess.run(
        [*cmd, *MODES[mode]],
        capture_output=True,
        text=True,
        timeout=seconds + 30,
        check=False,
        preexec_fn=pinned(cpu),
    )
    try:
        end = json.loads(out.stdout)["end"]
    except (ValueError, KeyError):
        return None
    total = float(end["sum_received"]["bits_per_second"])
    if mode == "bidir":
        total += float(end["sum_received_bidir_reverse"]["bits_per_second"])
    return total / 1e9


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=int, default=3, help="seconds per test (default 3)")
    parser.add_argument("--rounds", type=int, default=3, help="repeats per cell (default 3)")
    parser.add_argument("--parallel", type=int, nargs="+", default=[1, 4, 10])
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=list(MODES))
    parser.add_argument(
        "--no-pin",
        action="store_true",
        help="let the scheduler place client and server (default: client on CPU 0, server on "
        "CPU 1, the same for both servers, so neither wins by getting a better CPU share)",
    )
    args = parser.parse_args()
    can_pin = hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) >= 2
    client_cpu, server_cpu = (0, 1) if can_pin and not args.no_pin else (None, None)
    iperf3 = shutil.which("iperf3")
    if iperf3 is None:
        print("iperf3 not found on PATH", file=sys.stderr)
        return 2
    version = subprocess.run([iperf3, "--version"], capture_output=True, text=True, check=False)
    print(
        f"machine: {os.cpu_count()} CPU {platform.machine()}, {platform.system()} "
        f"{platform.release()}; python {platform.python_version()}"
    )
    print(f"client and C server: {version.stdout.splitlines()[0]}; -t {args.time}, loopback")
    pins = (
        "not pinned"
        if client_cpu is None
        else f"client on CPU {client_cpu}, server on CPU {server_cpu}"
    )
    print(f"{args.rounds} rounds per cell, order alternating; {pins}")
    print()
    print("Gbit/s: receiver side (both directions summed for bidir), median of the rounds.")
    print("Gbit/cpu-s: bits moved per CPU second of the server process (the server's cost;")
    print("on a shared machine it is steadier than raw throughput).")
    print()
    print(
        f"{'-P':>3} {'mode':<8} {'C Gbit/s':>9} {'built-in':>9} {'ratio':>6}"
        f" {'C Gbit/cpu-s':>13} {'built-in':>9} {'ratio':>6}"
    )
    ratios: list[float] = []
    eff_ratios: list[float] = []
    with (
        server("c", iperf3, server_cpu) as c_srv,
        server("builtin", iperf3, server_cpu) as b_srv,
    ):
        for parallel in args.parallel:
            for mode in args.modes:
                rates: dict[str, list[float]] = {"c": [], "b": []}
                effs: dict[str, list[float]] = {"c": [], "b": []}
                for r in range(args.rounds):
                    order = [("c", c_srv), ("b", b_srv)]
                    if r % 2:
                        order.reverse()
                    for kind, (port, pid) in order:
                        cpu0 = cpu_seconds(pid)
                        value = run_client(iperf3, port, parallel, mode, args.time, client_cpu)
                        cpu1 = cpu_seconds(pid)
                        time.sleep(0.3)
                        if value is None:
                            continue
                        rates[kind].append(value)
                        if cpu0 is not None and cpu1 is not None and cpu1 > cpu0:
                            effs[kind].append(value * args.time / (cpu1 - cpu0))
                c_val, b_val = _median(rates["c"]), _median(rates["b"])
                c_eff, b_eff = _median(effs["c"]), _median(effs["b"])
                ratio = b_val / c_val if c_val and b_val is not None else None
                eff_ratio = b_eff / c_eff if c_eff and b_eff is not None else None
                if ratio is not None:
                    ratios.append(ratio)
                if eff_ratio is not None:
                    eff_ratios.append(eff_ratio)
                print(
                    f"{parallel:>3} {mode:<8} {_fmt(c_val):>9} {_fmt(b_val):>9} {_fmt(ratio):>6}"
                    f" {_fmt(c_eff):>13} {_fmt(b_eff):>9} {_fmt(eff_ratio):>6}",
                    flush=True,
                )
    for name, values in (("throughput", ratios), ("CPU efficiency", eff_ratios)):
        if values:
            print(
                f"{name} ratio built-in/C: min {min(values):.2f}, "
                f"median {statistics.median(values):.2f}"
            )
    return 0


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


if __name__ == "__main__":
    sys.exit(main())
