"""`sbctune measure HOST`: iperf3 between the Pi and this PC, live, with a seed-shaped table."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from textwrap import fill
from typing import TYPE_CHECKING, Any, TypeVar, cast

from sbctune.cli.arg_checks import int_range, interface_arg, udp_rate
from sbctune.cli.fit import fit, terminal_width
from sbctune.cli.in_force import BeforeBaseline, add_revert_first_argument, settle_before_baseline
from sbctune.cli.measure_live import Progress, TogetherProgress
from sbctune.cli.progress import say
from sbctune.cli.prompt import read_line
from sbctune.cli.stop_signals import run_stoppable
from sbctune.cli.target_args import add_target_arguments, open_session
from sbctune.errors import UserError
from sbctune.history import History, HistoryError
from sbctune.history.keep import Kept, RunNotSaved, keep, unsaved_document
from sbctune.history.run_tuning import change_text, changed_during_run, tuning_text, tweaks_in_force
from sbctune.measure.aggregate import aggregate_text, measure_aggregate, reachable_nics
from sbctune.measure.install import InstallPlan
from sbctune.measure.latency import report as latency_report
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.persist import save_aggregate
from sbctune.measure.plans import Plan, plan_named, presets
from sbctune.measure.runner import CANCELLED, measure
from sbctune.measure.table import nic_words, text
from sbctune.wording import counted
from sbctune.workflow.baseline_check import is_fair_baseline, not_a_baseline
from sbctune.workflow.calibrating import measure_twice
from sbctune.workflow.guard_hold import held_words
from sbctune.workflow.measuring import Measured, MeasureRequest, measure_and_keep
from sbctune.workflow.rules import offering_install
from sbctune.workflow.snapshot import take_snapshots
from sbctune.workflow.tuning_read import read_tuning, run_tuning

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session


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
        help="quick: 3 trials × 5 s per direction; thorough: the published tests' method "
        "(10 streams, 5 trials × 13 s, half and full duplex, PC throttled)",
    )
    _add_extra_test_arguments(parser)
    parser.add_argument(
        "--nic",
        action="append",
        type=interface_arg,
        metavar="IFACE",
        help="the Pi's interface to test (default: the route to this PC); give it several "
        "times to measure those NICs at once, each against its own endpoint on its network, "
        "and get their total",
    )
    parser.add_argument(
        "--all-nics",
        action="store_true",
        help="measure at once every NIC of the Pi on whose network this PC has an address",
    )
    parser.add_argument(
        "--endpoint",
        choices=["builtin", "iperf3"],
        default="builtin",
        help="this PC's side: sbctune's built-in endpoint or the system iperf3",
    )
    parser.add_argument(
        "--iperf3-path", help="the iperf3 binary on this PC (with --endpoint iperf3)"
    )
    _add_custom_plan_arguments(parser)
    parser.add_argument(
        "--allow-other-route",
        action="store_true",
        help="measure even if traffic to this PC leaves through another NIC",
    )
    parser.add_argument(
        "--pc-port",
        type=int_range(1, 65534, "the port (full duplex also uses the next one)"),
        default=0,
        metavar="N",
        help="port this PC listens on for the Pi (full duplex also uses N+1; default: any "
        "free port); handy with a firewall rule for a fixed port",
    )
    parser.add_argument(
        "--install-iperf3",
        action="store_true",
        help="if iperf3 is missing on the Pi, install it with the Pi's package manager "
        "(through sudo) without asking",
    )
    parser.add_argument(
        "--repeat",
        type=int_range(1, 2, "--repeat"),
        default=1,
        metavar="N",
        help="2: measure twice with nothing changed (A/A calibration) and report the "
        "run-to-run spread of this Pi and network; compare and advice use it from then on",
    )
    add_revert_first_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object at the end")
    parser.set_defaults(func=lambda args: run_stoppable(_measure(args)))


def _add_extra_test_arguments(parser: argparse.ArgumentParser) -> None:
    """--udp and --no-latency: what runs besides the plan's TCP tests."""
    parser.add_argument(
        "--udp",
        type=udp_rate,
        metavar="MBPS",
        help="after the plan's TCP tests, one UDP test per direction paced at MBPS Mbit/s "
        "(iperf3 -u -b): jitter, loss and out-of-order datagrams next to the rate. Pick a "
        "rate below the link's: above it, loss only measures the overload",
    )
    parser.add_argument(
        "--no-latency",
        action="store_true",
        help="do not measure latency under load (the Pi's UDP probes to this PC during each "
        "TCP test and for 2 s before it)",
    )


def _add_custom_plan_arguments(parser: argparse.ArgumentParser) -> None:
    """--duration, --streams, --omit, --trials: a preset plan with these changed."""
    parser.add_argument(
        "--duration",
        type=int_range(1, None, "the duration"),
        help="seconds per test (a custom plan)",
    )
    parser.add_argument(
        "--streams",
        # iperf3's own limit: "number of parallel streams too large (maximum = 128)"
        type=int_range(1, 128, "the number of streams"),
        help="parallel streams, 1 to 128 (a custom plan)",
    )
    parser.add_argument(
        "--omit",
        type=int_range(0, None, "the omitted time"),
        help="seconds omitted at the start (a custom plan)",
    )
    parser.add_argument(
        "--trials",
        type=int_range(1, 20, "the number of trials"),
        help="trials per test, 1 to 20; compare's interval needs 2 or more (a custom plan)",
    )


Consent = Callable[[InstallPlan], Awaitable[bool]]


def ask_to_install(args: argparse.Namespace) -> Consent:
    """Yes with --install-iperf3; else ask on a terminal; never yes without the user."""

    async def consent(plan: InstallPlan) -> bool:
        if args.install_iperf3:
            return True
        if not (sys.stdin.isatty() and sys.stderr.isatty()):
            return False
        print(
            f"iperf3 is not installed on the Pi ({plan.distro}). sbctune can install it now "
            f"with:\n    {plan.command}",
            file=sys.stderr,
        )
        # Not input(): Ctrl-C at the question must end the command, not wait for Enter.
        answer = await read_line("Install iperf3 on the Pi? [y/N] ")
        return answer.strip().lower() in ("y", "yes")

    return consent


_Partial = TypeVar("_Partial")


def _keep_partial(partial: _Partial | None) -> _Partial:
    """Inside `except CancelledError` (Ctrl-C): with something measured, the cancellation is
    handled here (the caller saves it and exits 130); with nothing, it goes on."""
    task = asyncio.current_task()
    if partial is None or task is None:
        raise asyncio.CancelledError
    uncancel = getattr(task, "uncancel", None)  # Python 3.11+; 3.10 needs nothing
    if uncancel is not None:
        uncancel()
    return partial


async def measure_offering_install(
    session: Session, consent: Consent, **options: Any
) -> MeasureRun:
    """`measure`, and when iperf3 is missing on the Pi, install it if `consent` says so."""

    async def attempt() -> MeasureRun:
        return await measure(session, **options)

    return await offering_install(session, consent, say, attempt)


async def _measure(args: argparse.Namespace) -> int:
    plan = plan_named(args.plan).with_overrides(
        duration=args.duration, streams=args.streams, omit=args.omit, trials=args.trials
    )
    if args.all_nics or len(args.nic or []) > 1:
        if args.udp:
            raise UserError("--udp measures one NIC at a time.", "Leave out --all-nics, or --udp.")
        return await _measure_together(args, plan)
    request = _request(args, plan.with_udp(args.udp))
    if args.repeat == 2:
        return await _calibrate(args, request)
    progress = Progress()
    kept: list[Measured] = []
    # A history that cannot take the run (damaged, read-only, full disk) must not cost it:
    # the run is measured, printed, and kept in a file (sbctune.history.keep).
    with History.open_or_stand_in() as history:
        async with await open_session(args) as session:
            before = await settle_before_baseline(session, history, args.revert_first)
            try:
                measured = await measure_and_keep(
                    session,
                    history,
                    request,
                    on_event=progress,
                    ask_install=ask_to_install(args),
                    report=say,
                    on_partial=kept.append,
                    on_hold=lambda hold: say(held_words(hold) + "."),
                )
            except asyncio.CancelledError:  # Ctrl-C: the runner stopped both sides already
                measured = _keep_partial(kept[-1] if kept else None)
            except RunNotSaved as lost:
                return _print_run(args, cast(MeasureRun, lost.result), lost.message, lost.file,
                                  {"before_measuring": before.to_json()})  # fmt: skip
    return _print_measured(args, measured, before)


def _request(args: argparse.Namespace, plan: Plan) -> MeasureRequest:
    return MeasureRequest(
        plan,
        nic=args.nic[0] if args.nic else None,
        endpoint=args.endpoint,
        iperf3_path=args.iperf3_path,
        allow_wrong_route=args.allow_other_route,
        pc_port=args.pc_port,
        options={"latency": False} if args.no_latency else {},
    )


async def _calibrate(args: argparse.Namespace, request: MeasureRequest) -> int:
    """`--repeat 2`: two runs with nothing changed, both kept, and their spread."""
    with History.open() as history:
        async with await open_session(args) as session:
            before = await settle_before_baseline(session, history, args.revert_first)
            done = await measure_twice(
                session, history, request, on_event=Progress(),
                ask_install=ask_to_install(args), report=say,
            )  # fmt: skip
    for measured in (done.first, done.second):
        code = _print_measured(args, measured, before)
        if code:
            return code
    print(f"\nA/A calibration (runs {done.calibration.run_a} and {done.calibration.run_b}, "
          "nothing changed between them):")  # fmt: skip
    for line in done.lines:
        print(f"  {line}")
    print("compare and advice use this run-to-run spread for this Pi from now on.")
    return 0


def _keep_and_show(
    args: argparse.Namespace,
    save: Callable[[History], list[int]],
    unsaved: dict[str, Any],
    as_json: Callable[[], dict[str, Any]],
    as_text: Callable[[], str],
    label: str = "",
) -> None:
    """Save the result (or its fallback file, see sbctune.history.keep), then print it: the
    table or JSON is printed whatever happened to the history, and the JSON says where the
    result went."""
    try:
        kept: Kept | None = keep(save, unsaved)
        failure: HistoryError | None = None
    except HistoryError as exc:  # not even a file could be written: print, then say so
        kept, failure = None, exc
    if args.json:
        document = as_json()
        if kept is not None and kept.file is not None:
            document["unsaved_file"] = str(kept.file)
        print(json.dumps(document, indent=2), flush=True)
    else:
        print(as_text(), flush=True)
    if failure is not None:
        raise failure
    assert kept is not None
    message = kept.message()
    print(message.replace(" in the history.", f"{label} in the history."), file=sys.stderr)


def _print_measured(args: argparse.Namespace, measured: Measured, before: BeforeBaseline) -> int:
    """The run, where it was kept, and whether it may be called a baseline (as read back)."""
    saved = f"Saved as run {measured.record.id} in the history."
    record, hold = measured.record, measured.hold
    if changed_during_run(record):
        saved = f"WARNING: {change_text(record)}: not a fair before or after.\n{saved}"
    elif hold is not None:
        saved = (f"{saved}\nTuning: {tuning_text(record)}; its guard was held for the whole run "
                 f"({counted(hold.beats, 'heartbeat')}) and reverts it "
                 f"{hold.guard_seconds} s from now "
                 f"unless you keep it: “sbctune tune confirm {args.target}”.")  # fmt: skip
    elif tweaks_in_force(record):
        saved = f"{saved}\nTuning: {tuning_text(record)}."
    if not changed_during_run(record) and (words := not_a_baseline(record)):
        saved = f"{saved}\n{words}"
    extra = {"before_measuring": before.to_json(), "baseline": is_fair_baseline(record)}
    return _print_run(args, measured.run, saved, extra=extra)


def _print_run(
    args: argparse.Namespace, run: MeasureRun, saved: str, unsaved_file: Path | None = None,
    extra: dict[str, Any] | None = None,
) -> int:  # fmt: skip
    """The table (or JSON, with `extra`) and where the run went (`unsaved_file`: a file)."""
    if run.route_warning:
        print(f"WARNING: {run.route_warning}", file=sys.stderr)
    if args.json:
        document = run.to_json()
        if run.latency is not None:  # the stored probes, plus their percentiles and verdicts
            document["latency"]["summary"] = latency_report.summary_json(run.latency)
        if unsaved_file is not None:
            document["unsaved_file"] = str(unsaved_file)
        print(json.dumps(document | (extra or {}), indent=2))
    else:
        print(f"NIC tested: {nic_words(run)}\n")  # the window names it too (walk18)
        print(text(run))
        # the verdicts fit the terminal, between words (walk s23: 89 columns at 80)
        latency = latency_report.table_lines(run.latency)
        latency += fit(latency_report.sentence_lines(run.latency)).splitlines()
        print("\n" + "\n".join(latency) if latency else "", end="\n" if latency else "")
    if run.error:
        print(f"Stopped early: {run.error}.", file=sys.stderr)
    # where the run went and the tuning it ran under, fit to the terminal (walk s23: "Measured
    # with tuning in force (…): this run is not a baseline." ran to 150 columns)
    print(fit(saved, terminal_width(sys.stderr)), file=sys.stderr)
    if run.error == CANCELLED:
        return 130
    return 0 if run.complete else 4


async def _measure_together(args: argparse.Namespace, plan: Plan) -> int:
    """Several NICs at once (--nic A --nic B ..., or --all-nics): per-NIC lines and the total."""
    progress = TogetherProgress()
    async with await open_session(args) as session:
        await settle_before_baseline(session, None, args.revert_first)
        start = await read_tuning(session)  # each NIC's run is kept with the tuning read back
        nics = list(dict.fromkeys(args.nic or []))
        if args.all_nics:
            reach = await reachable_nics(session)
            found = reach.nics
            nics = [n for n in nics if n in found] + [n for n in found if n not in nics]
            for why in reach.left_out.values():  # down or no link: it would carry nothing
                print(fill(f"Left out: {why}.", 79, subsequent_indent="  "), file=sys.stderr)
            if len(nics) < 2:
                raise UserError(
                    "This computer has an address on the network of fewer than two of the "
                    f"Pi's NICs with a link ({', '.join(found) or 'none'}), so they cannot be "
                    "measured together against separate endpoints.",
                    "Give this computer an address on each NIC's network (one port or adapter "
                    "per NIC), bring up those left out, then try again, or name the NICs with "
                    "--nic.",
                )
            print(f"Measuring together: {', '.join(nics)}", file=sys.stderr, flush=True)
        # each NIC's settings as it starts, kept with its run as a run of one NIC keeps them
        with History.open_or_stand_in() as history:
            inventory_id, states = await take_snapshots(session, history, nics)
        try:
            agg = await measure_aggregate(
                session,
                plan,
                nics,
                endpoint=args.endpoint,
                iperf3_path=args.iperf3_path,
                on_event=progress,
                allow_wrong_route=args.allow_other_route,
                pc_port=args.pc_port,
            )
        except asyncio.CancelledError:  # Ctrl-C: the runner stopped both sides already
            agg = _keep_partial(progress.run)
        user, tuning = session.username, run_tuning(start, await read_tuning(session))
    for nic, run in zip(agg.nics, agg.runs, strict=False):
        run.pi_state = states.get(nic)
    for run in agg.runs:
        if run.route_warning:
            print(f"WARNING: {run.nic}: {run.route_warning}", file=sys.stderr)
    _keep_and_show(
        args,
        lambda history: save_aggregate(
            history, session.target, user, agg, plan, inventory_id, tuning
        ),
        unsaved_document(session.target.host, session.target.port, user, plan.name, agg.to_json()),
        lambda: agg.to_json(),
        lambda: aggregate_text(agg),
        f" (aggregate {agg.id})",
    )
    if agg.error:
        print(f"Stopped early: {agg.error}.", file=sys.stderr)
    if agg.error == CANCELLED:
        return 130
    return 0 if agg.complete else 4
