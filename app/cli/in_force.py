"""Before a command measures a baseline (`measure`, `demo`): is tuning in force on the Pi?

The Pi's own sessions are read (`sbctune.workflow.baseline_check.read_in_force`, the function
behind the Baseline page's notice). With tuning in force the command says so on stderr, and
either measures as it is (the run is then stored and shown "with tuning in force", never as
a baseline) or, with `--revert-first`, puts the tuning back, reads the Pi back, and measures
only when nothing is in force (`revert_for_baseline`, as the page's "Revert, then measure the
baseline").
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sbctune.cli.fit import warn
from sbctune.cli.progress import say
from sbctune.remote.target import Target
from sbctune.workflow.baseline_check import (
    TuningInForce,
    read_in_force,
    revert_for_baseline,
)

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.history import History
    from sbctune.history.records import DeviceRecord
    from sbctune.remote.session import Session

FLAG = "--revert-first"


def cli_hint(command: str = "measure", target: str | None = None) -> str:
    """How a real baseline is measured from the command line (`before_after`'s hint), naming
    the Pi as the user types it (`target`: "pi@198.18.4.2"), so the command can be copied as
    printed (walk 27: it said "HOST" where the history knows the Pi). Without a Pi (the demo's
    own lab) the command is given without one."""
    pi = f" {target}" if target else ""
    return f"“sbctune {command}{pi} {FLAG}” puts the tuning back first"


def device_target(device: DeviceRecord) -> str:
    """A device of the history as the user types it to reach it again: user@host, the port only
    when it is not SSH's own, an IPv6 address in brackets (`Target.display`)."""
    return Target(device.host, device.port, device.user or None).display


def add_revert_first_argument(parser: argparse.ArgumentParser, what: str = "measuring") -> None:
    parser.add_argument(
        FLAG,
        action="store_true",
        help="when tuning is in force on the Pi, put it back and read the Pi back before "
        f"{what}, so that the run is a baseline (without it such a run is kept as measured "
        "with tuning in force, not as a baseline)",
    )


@dataclass(frozen=True)
class BeforeBaseline:
    """What was found before measuring, and what was done about it."""

    found: TuningInForce | None = None  # in force when the command connected
    reverted: bool = False  # put back (and read back untuned) before measuring

    def to_json(self) -> dict[str, Any]:
        return {
            "found": self.found.to_json() if self.found is not None else None,
            "reverted_first": self.reverted,
        }


def _warn(text: str) -> None:
    warn(text)


async def settle_before_baseline(
    session: Session, history: History | None, revert_first: bool
) -> BeforeBaseline:
    """Read the Pi's tuning; say it plainly when some is in force; with `revert_first` put it
    back and read the Pi back (a UserError, nothing measured, if it still reads tuned)."""
    found = await read_in_force(session)
    if found is None:
        return BeforeBaseline()
    _warn(f"Tuning is in force on the Pi. {found.notice()}")
    if not revert_first:
        say(
            "Measuring as it is: this run is kept as measured with tuning in force, not as a "
            f"baseline. To measure a baseline, run again with {FLAG} (it puts the tuning back "
            "and reads the Pi back first)."
        )
        return BeforeBaseline(found)
    say("Putting the tuning back, then reading the Pi back…")
    await revert_for_baseline(session, history)
    say("The tuning is put back and the Pi reads back untuned: measuring the baseline.")
    return BeforeBaseline(found, reverted=True)
