"""`sbctune advise HOST|RUN`: what limits the Pi's network, and what to change or buy."""

from __future__ import annotations

import argparse
import asyncio
import json

from sbctune.advice import Advice, advise
from sbctune.advice.aggregate import advice_runs
from sbctune.advice.inspect import inspect_host
from sbctune.advice.report import render
from sbctune.advice.stored import inventory_from_json
from sbctune.catalog import load_catalog
from sbctune.cli.fit import fit
from sbctune.cli.target_args import add_credential_arguments, open_session
from sbctune.compare.calibration import calibration_note
from sbctune.errors import UserError
from sbctune.history import History, NotFound, RunRecord
from sbctune.inventory.model import Inventory
from sbctune.workflow.rules import advice_tuning_of_run


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "advise",
        help="findings and ranked recommendations for a Pi (live) or a stored run",
        description="HOST: inspect the Pi over SSH and add its latest measurement from the "
        "history. RUN: a run id from the history (“sbctune history”), advised from its stored "
        "inventory and figures.",
    )
    parser.add_argument(
        "source",
        metavar="[USER@]HOST[:PORT]|RUN",
        help="the Pi (its name or address, e.g. raspberrypi.local or pi@192.168.1.20), or a "
        "run id from “sbctune history”",
    )
    parser.add_argument("--json", action="store_true", help="print the advice as JSON")
    add_credential_arguments(parser)
    parser.set_defaults(func=_advise)


def _advise(args: argparse.Namespace) -> int:
    if (
        args.source.lstrip("-").isascii() and args.source.lstrip("-").isdigit()
    ):  # a run id ("-3" is not a host either)
        advice, heading = _from_run(int(args.source))
    else:
        args.target = args.source
        advice, heading = asyncio.run(_from_host(args))
    if args.json:
        print(json.dumps(advice.to_json(), indent=2))
    else:
        # fit to the terminal: a recommendation's detail ran to 372 columns at 80 (walk 24)
        print(fit(render(advice, heading)))
    return 0


def _from_run(run_id: int) -> tuple[Advice, str]:
    with History.open() as history:
        try:
            run = history.run(run_id)
        except NotFound:
            raise UserError(
                f"There is no run {run_id} in the history.",
                "List the stored runs with “sbctune history”, or give a host name to inspect.",
            ) from None
        device = history.device(run.device_id)
        inventory_id = run.inventory_id or device.last_inventory_id
        inventory = inventory_from_json(history.inventory(inventory_id)) if inventory_id else None
        tuning = advice_tuning_of_run(run.tuning_state)
        runs = (
            advice_runs(history.runs_for_device(run.device_id), run) if run.aggregate_id else [run]
        )
        spread = calibration_note(history, runs)
    advice = advise(inventory or Inventory(), runs, load_catalog(), tuning)
    if spread:
        advice.notes.append(spread)
    if inventory is None:
        advice.notes.append(
            "No inventory is stored for this device: advice from the figures alone. "
            f"“sbctune advise {device.user}@{device.host}” adds what the hardware shows."
        )
    return advice, f"Advice for run {run_id} ({run.nic or 'default NIC'}) on {device.host}"


async def _from_host(args: argparse.Namespace) -> tuple[Advice, str]:
    async with await open_session(args) as session:
        inventory, _collection = await inspect_host(session)
        user = session.username
        target = session.target
    runs: list[RunRecord] = []
    with History.open() as history:
        device = history.add_device(target.host, target.port, user)
        assert device.id is not None
        history.save_inventory(device.id, inventory.to_json())
        stored = history.runs_for_device(device.id)
        tuning = history.tuning_sessions(device.id)
        # The latest run (the state the Pi is in now), with the latest NICs-together measurement.
        runs = advice_runs(stored)
        spread = calibration_note(history, runs)
    advice = advise(inventory, runs, load_catalog(), tuning)
    if spread:
        advice.notes.append(spread)
    what = f"run {runs[0].id} of {runs[0].started_at:%Y-%m-%d %H:%M}" if runs else "no run yet"
    return advice, f"Advice for {target.host} ({what})"
