"""A lab's health (running, broken, leftover or absent) and the list of this host's labs."""

from __future__ import annotations

from sbctune.lab import netns
from sbctune.lab.model import LabInfo, LabStatus
from sbctune.lab.processes import alive, port_open
from sbctune.lab.shared_status import read_limits
from sbctune.lab.state import (
    NETNS_PREFIX,
    STATE_ROOT,
    netns_name,
    read_state,
    state_names,
    validate_name,
)


def status_unlocked(name: str, *, with_limits: bool = False) -> LabStatus:
    directory = STATE_ROOT / name
    state = read_state(name)
    ns = netns_name(name)
    has_ns = netns.netns_exists(ns)
    if state is None:
        if has_ns or directory.exists():
            return LabStatus(name, "leftover", None, ("no state.json: a crashed run's leftover",))
        return LabStatus(name, "absent", None)
    info = LabInfo.from_json(state)
    problems = []
    if state.get("status") != "running":
        # in words, not the state file's raw word ("status 'starting'", walk 27)
        problems.append("start-up has not finished (it is still starting, or its lab up stopped)")
    if not has_ns:
        problems.append(f"network namespace {ns} is missing")
    if not alive(info.pids.get("sshd"), "sshd"):
        problems.append("sshd is not running")
    if not alive(info.pids.get("knobs"), "knobs_fs"):
        problems.append("the knobs file system is not running")
    if "shaper" in info.pids and not alive(info.pids.get("shaper"), "sbctune.lab.controller"):
        problems.append("the lab's shaper (tweak effects, full duplex) is not running")
    if not problems and not port_open(info.host, info.port):
        problems.append(f"sshd does not answer on {info.host}:{info.port}")
    limits = tuple(read_limits(info.nics)) if with_limits and not problems else ()
    return LabStatus(name, "broken" if problems else "running", info, tuple(problems), limits)


def status(name: str) -> LabStatus:
    """The health of lab ``name``: running, broken, leftover or absent; a running lab's
    shared limits as the kernel holds them now."""
    validate_name(name)
    return status_unlocked(name, with_limits=True)


def list_labs(*, with_limits: bool = False) -> list[LabStatus]:
    """Every lab this host has (with state, or a namespace left by a crash)."""
    names = set(state_names())
    names |= {n[len(NETNS_PREFIX) :] for n in netns.list_netns() if n.startswith(NETNS_PREFIX)}
    return [status_unlocked(n, with_limits=with_limits) for n in sorted(names)]
