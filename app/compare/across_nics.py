"""Runs of different NICs compared side by side (walk 22).

"Change (last vs first)" is what tuning did to one NIC. Between the runs of NICs measured
together (`measure --all-nics`), or of two NICs measured apart, it is a difference between
ports, not a change: History's comparison of the four runs of one aggregate said "+11.5 Mbit/s"
from eth0 to eth3, which reads as a gain. So where the runs are not all of one NIC, each run is
named with its NIC and no change is given; an aggregate's total is given by together_lines.
"""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.history.records import RunRecord


def nics_of(runs: Sequence[RunRecord]) -> list[str]:
    """The NICs the runs measured, in run order, each once ("" for a run that names none)."""
    return list(dict.fromkeys(run.nic or "" for run in runs))


def across_nics(runs: Sequence[RunRecord]) -> bool:
    """Whether the runs measured more than one NIC (then no change between them is given)."""
    return len(nics_of(runs)) > 1


def run_label(run: RunRecord, with_nic: bool) -> str:
    """A compared run's column title: "#7", or "#7 eth3" where the runs are of several NICs."""
    return f"#{run.id} {run.nic}" if with_nic and run.nic else f"#{run.id}"


def across_nics_words(runs: Sequence[RunRecord]) -> str:
    """Said above such a comparison, or "" where every run is of one NIC."""
    if not across_nics(runs):
        return ""
    names = ", ".join(n or "a NIC not named" for n in nics_of(runs))
    return (f"These runs measured different NICs ({names}): their figures side by side, with "
            "no change between them (a change is what tuning did to one NIC).")  # fmt: skip
