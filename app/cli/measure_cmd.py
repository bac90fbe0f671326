"""`sbctune measure HOST`: iperf3 between the Pi and this PC, live, with a seed-shaped table."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys

from sbctune.cli.target_args import add_target_arguments, open_session
from sbctune.history import History
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import DIRECTION_LABEL, plan_named, presets
from sbctune.measure.runner import (
    Event,
    LiveInterval,
    PiLoad,
    TestFinished,
    TestStarted,
    measure,
)
from sbctune.measure.sampler import PiSample
from sbctune.measure.table import text


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "measure",
        help="measure throughput between the Pi and this PC with iperf3, live",
        description="Run iperf3 between the Pi (client) and this computer: Pi→PC, PC→Pi and "
        "both at once, with live per-second figures.",
    )
    add_target_arguments(parser)
    parser.add_argument(
        "--plan",
        default="quick",
        choices=sorted(presets()),
        help="quick: 10 s per direction; thorough: the seed method (65 s, "
        "10 streams, half and full duplex, PC throttled)",
    )
    parser.add_argument("--nic", help="the Pi's interface to test (default: the route to this PC)")
    parser.add_argument(
        "--endpoint",
        choices=["builtin", "iperf3"],
        default="builtin",
        help="this PC's side: sbctune's built-in endpoint or the system iperf3",
    )
    parser.add_argument(
        "--iperf3-path", help="the iperf3 binary on this PC (with --endpoint iperf3)"
    )
    parser.add_argument("--duration", type=int, help="seconds per test (a custom plan)")
    parser.add_argument("--streams", type=int, help="parallel streams (a custom plan)")
    parser.add_argument("--omit", type=int, help="seconds omitted at the start (a custom plan)")
    parser.add_argument(
        "--allow-other-route",
        action="store_true",
        help="measure even if traffic to this PC leaves through another NIC",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.set_defaults(func=lambda args: asyncio.run(_measure(args)))


class _Progress:
    """Live lines: each second's throughput per direction, with the Pi's busiest core."""

    def __init__(self) -> None:
        self.last_load: PiSample | None = None

    def __call__(self, event: Event) -> None:
        if isinstance(event, PiLoad):
            self.last_load = event.sample
            return
        _print_event(event, self.last_load)


def _busiest(sample: PiSample | None) -> str:
    if sample is None or not sample.cpus:
        return ""
    core = max(sample.cpus, key=lambda c: c.busy)
    return f"   Pi busiest: cpu{core.cpu} {core.busy:3.0f}% (irq+softirq {core.irq_softirq:.0f}%)"


def _print_event(event: Event, load: PiSample | None) -> None:
    if isinstance(event, TestStarted):
        print(f"--> {event.spec.label}", file=sys.stderr, flush=True)
    elif isinstance(event, LiveInterval):
        i = event.interval
        note = " (omitted)" if i.omitted else ""
        print(
            f"    {i.t:5.1f} s  {DIRECTION_LABEL[event.direction]}  {i.mbps:8.1f} Mbit/s{note}"
            f"{_busiest(load)}",
            file=sys.stderr,
            flush=True,
        )
    elif isinstance(event, TestFinished):
        for outcome in event.outcomes:
            figure = f"{outcome.mean_mbps:.1f} Mbit/s" if outcome.mean_mbps is not None else "-"
            extra = f" ({outcome.error})" if outcome.error else ""
            print(
                f"    = {DIRECTION_LABEL[outcome.direction]}: {figure}{extra}",
                file=sys.stderr,
                flush=True,
            )


async def _measure(args: argparse.Namespace) -> int:
    plan = plan_named(args.plan).with_overrides(
        duration=args.duration, streams=args.streams, omit=args.omit
    )
    async with await open_session(args) as session:
        run = await measure(
            session,
            plan,
            nic=args.nic,
            endpoint=args.endpoint,
            iperf3_path=args.iperf3_path,
            on_event=_Progress(),
            allow_wrong_route=args.allow_other_route,
        )
        user = session.username
    with History.open() as history:
        save_measurement(history, session.target, user, run, plan)
    if run.route_warning:
        print(f"WARNING: {run.route_warning}", file=sys.stderr)
    if args.json:
        print(json.dumps(run.to_json(), indent=2))
    else:
        print(text(run))
    print(f"Saved as run {run.run_id} in the history.", file=sys.stderr)
    return 0 if run.complete else 4
