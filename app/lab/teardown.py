"""Take labs down: every process, namespace, link and mount a lab made, found from its state
and by name (namespaces ``sbctune-*``, host links ``sbct<lab>{n,p,i}<nic>`` and
``sbct<lab>s<n>``), so a crashed run leaves nothing the next one trips over; the shared user
and sudoers drop-in go with the last lab."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from pathlib import Path
from typing import Any

from sbctune.lab import carrier_drop, netns, sshd
from sbctune.lab.processes import alive, children, kill_all, mounts_under
from sbctune.lab.state import (
    NETNS_PREFIX,
    STATE_ROOT,
    locked,
    netns_name,
    read_state,
    state_names,
    validate_name,
)
from sbctune.lab.system import require_supported

PRIVSEP_MARKER = "created-run-sshd"


def marker_dir() -> Path:
    path = Path("/run/sbctune")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _stop_shaper(name: str, pids: dict[str, Any]) -> None:
    shaper = pids.get("shaper")
    if isinstance(shaper, int) and alive(shaper, "sbctune.lab.controller"):
        kill_all([shaper])  # first: it re-rates the links this teardown deletes
    shaper_proc = children.pop(name + "/shaper", None)
    if shaper_proc is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            shaper_proc.wait(timeout=5)


def _stop_lab_processes(name: str, ns: str, pids: dict[str, Any], directory: Path) -> None:
    if netns.netns_exists(ns):
        kill_all(netns.pids(ns))
        netns.delete(ns)
    for key in ("sshd", "knobs"):  # normally gone with the namespace; a half-started lab
        pid = pids.get(key)
        if isinstance(pid, int) and alive(pid, str(directory)):
            kill_all([pid])
    proc = children.pop(name, None)
    if proc is not None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5)


def _remove_links(state: dict[str, Any]) -> bool:
    """Delete the lab's host-side links (the state's, and any named with its index)."""
    index = state.get("index")
    links = [
        str(n.get(k))
        for n in state.get("nics", [])
        for k in ("host_veth", "ifb")
        if isinstance(n, dict) and n.get(k)
    ]
    if isinstance(index, int):
        links += [
            link
            for link in netns.host_links()
            if link.startswith(f"sbct{index}") and link[len(f"sbct{index}")] in netns.LINK_KINDS
        ]
    existing = set(netns.host_links())
    found = False
    for link in sorted(set(links)):
        if link in existing:
            found = True
            netns.delete_link(link)
    return found


def teardown(name: str) -> bool:
    """Remove everything of lab ``name`` that exists. Returns True if anything was there."""
    directory = STATE_ROOT / name
    state = read_state(name) or {}
    ns = str(state.get("netns") or netns_name(name))
    found = bool(directory.exists() or netns.netns_exists(ns))
    pids = state.get("pids")
    pids = pids if isinstance(pids, dict) else {}
    _stop_shaper(name, pids)
    _stop_lab_processes(name, ns, pids, directory)
    found = _remove_links(state) or found
    if directory.exists():
        for mount in mounts_under(directory):
            subprocess.run(["umount", "-l", mount], check=False, capture_output=True)
        shutil.rmtree(directory, ignore_errors=True)
    return found


def _shared_cleanup() -> None:
    """When no lab is left: remove the sudoers drop-in, and the user pi if we created it."""
    if state_names() or any(n.startswith(NETNS_PREFIX) for n in netns.list_netns()):
        return
    sshd.remove_sudoers()
    sshd.remove_user_if_ours()
    # the route a carrier drop put in place (carrier_drop.GUARD_ROUTE), gone with the last lab
    guard = ["ip", "route", "del", *carrier_drop.GUARD_ROUTE[2:]]
    subprocess.run(guard, check=False, capture_output=True, timeout=10)
    marker = Path("/run/sbctune") / PRIVSEP_MARKER
    if marker.exists():
        with contextlib.suppress(OSError):
            Path("/run/sshd").rmdir()
        marker.unlink(missing_ok=True)


def down(name: str) -> bool:
    """Take lab ``name`` down; idempotent. Returns True if there was something to remove."""
    validate_name(name)
    require_supported()
    with locked():
        found = teardown(name)
        _shared_cleanup()
        return found


def down_all() -> list[str]:
    """Take every sbctune lab down, including a crashed run's leftovers. Returns their names."""
    require_supported()
    with locked():
        names = set(state_names())
        names |= {n[len(NETNS_PREFIX) :] for n in netns.list_netns() if n.startswith(NETNS_PREFIX)}
        removed = [n for n in sorted(names) if teardown(n)]
        for link in netns.host_links():
            netns.delete_link(link)
        _shared_cleanup()
        return removed
