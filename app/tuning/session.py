"""Tuning sessions: plan, apply under the auto-revert guard, confirm, revert, find leftovers.

apply():
1. read every value the selected tweaks touch (the snapshot);
2. write session.json, revert.sh and guard.sh to /var/lib/sbctune/tuning/<id> on the Pi;
3. arm the guard (a systemd timer, or a detached `setsid` sleeper where systemd is absent):
   it runs revert.sh when the guard time is up unless the session is confirmed;
4. apply, read each value back and verify it; a refused write (EINVAL, ENOENT, EOPNOTSUPP)
   is "not possible here" with the kernel's reason and the session goes on, any other failure
   reverts everything the session applied;
5. with --persist, write the sysctl.d file, the systemd unit and udev rule (all named sbctune);
6. rewrite revert.sh with exactly what was applied, check reachability over a NEW SSH
   connection, and leave the session armed for `confirm`.

History (`data` of TuningSessionRecord), schema 1:
  {"schema": 1, "id": str, "nic": str|None, "guard_seconds": int, "persist": bool,
   "tweaks": [{"id": tweak_id, "status": applied|already|not_possible|failed|reverted,
               "detail": str, "changes": [{"kind", "target", "before", "after"[, "path"]}]}],
   "persist_changes": [change, ...], "created": ISO 8601, "netns": str, "host": str,
   "options": {plan option: value}}  (the user's plan options, e.g. arm_freq, boot_test;
  `boot-commit` re-plans a test-boot session's tweaks from them)
`changes` lists only what the session changed (and reverts), in the order applied. The same
object is the Pi's session.json.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import secrets
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sbctune.errors import UserError
from sbctune.history import History, TuningSessionRecord
from sbctune.inventory.model import Inventory
from sbctune.remote import KnownHosts, RemoteError, Session, batch
from sbctune.remote.batch import StepResult
from sbctune.remote.quoting import join
from sbctune.tuning import catalog, scripts, tryboot
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.knobs import (
    commands_text,
    read_argv,
    safe_name,
    same_value,
    value_from,
    write_argvs,
)
from sbctune.tuning.model import (
    AppliedSession,
    Change,
    LeftoverSession,
    PlannedTweak,
    Status,
    TuningPlan,
    TweakOutcome,
)
from sbctune.tuning.probe import probe
from sbctune.tuning.remote_state import StoredSession, list_sessions

EventSink = Callable[[str], None]
Reconnect = Callable[[], Awaitable[Session]]
DEFAULT_GUARD_SECONDS = 90
MIN_GUARD_SECONDS = 5
_REFUSALS = (
    "Invalid argument",
    "No such file or directory",
    "Operation not supported",
    "not supported",
    "Permission denied",
    "Operation not permitted",
    "Could not change any device features",  # ethtool -K: the driver or kernel kept it as is
)
_WRITE_FILE = 'umask 022; printf "%s" "$1" >"$2.new" && mv -f -- "$2.new" "$2"'


class TuningError(UserError):
    pass


# --------------------------------------------------------------------------- plan


def _selection(tweak_ids: Sequence[str] | None) -> list[str]:
    known = catalog.load_tweaks()
    if tweak_ids is None:
        return [t.id for t in known if t.recommended and not t.advanced]
    wanted = set(tweak_ids)
    for tweak_id in wanted:
        catalog.tweak(tweak_id)  # a clear error for an unknown id
    return [t.id for t in known if t.id in wanted]


async def plan(
    session: Session,
    inventory: Inventory,
    nic: str | None,
    tweak_ids: Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
) -> TuningPlan:
    """What each selected tweak would change on this Pi and NIC, with the exact commands."""
    options = dict(options or {})
    if nic is not None:
        safe_name(nic, "interface")
        if inventory.nics and inventory.nic(nic) is None:
            names = ", ".join(n.name for n in inventory.nics if n.name)
            raise TuningError(f"The Pi has no interface {nic!r}.", f"Its interfaces: {names}.")
    selected = _selection(tweak_ids)
    nic_obj = inventory.nic(nic) if nic else None
    sysctls = list(catalog.tweak("socket-buffers").params.get("values", {}))
    facts = await probe(session, nic, nic_obj.irqs if nic_obj else [], sysctls)
    pending: dict[str, str] = {}
    items = []
    for tweak in catalog.load_tweaks():
        if tweak.id not in selected:
            continue
        ctx = Context(tweak, facts, inventory, nic_obj, options, pending, tuple(selected))
        item = PLANNERS[tweak.kind](ctx)
        placeholder = f"{scripts.STATE_ROOT}/<session id>"
        for index, change in enumerate(item.changes):
            if change.needed:
                item.commands += commands_text(
                    write_argvs(
                        change, change.after, state_dir=placeholder, index=index, restoring=False
                    )
                )
        items.append(item)
    result = TuningPlan(nic, items, options, list(tweak_ids) if tweak_ids is not None else None)
    result.inventory = inventory
    result.systemd = facts.systemd
    result.options["_netns"] = facts.netns
    result.options["_dirs"] = [
        d
        for d in ("/etc/systemd/system", "/etc/udev/rules.d", "/etc/sysctl.d")
        if facts.ok(f"dir:{d}")
    ]
    if options.get("persist"):
        result.persist_preview = persist_preview(result)
    return result


PREVIEW_ID = "00000000T000000Z-000000"  # stands for the id `apply` will choose


def persist_preview(the_plan: TuningPlan) -> list[Change]:
    """The files `apply --persist` would write for this plan (the session id shown as
    `<session id>`): what keeps the values across a reboot, for the dry run."""
    needed = [c for i in the_plan.items if i.applicable for c in i.changes if c.needed]
    dirs = [str(d) for d in the_plan.options.get("_dirs", [])]
    shown = []
    for change in _persist_changes(PREVIEW_ID, the_plan.nic, needed, dirs):

        def named(text: str | None) -> str | None:
            return None if text is None else text.replace(PREVIEW_ID, "<session id>")

        shown.append(Change(change.kind, named(change.target) or "", named(change.before),
                            named(change.after), named(change.path) or ""))  # fmt: skip
    return shown


make_plan = plan  # `apply` takes a parameter named plan


# --------------------------------------------------------------------------- apply


@dataclass
class _Applied:
    """What happened to each change of one tweak."""

    item: PlannedTweak
    applied: list[Change] = field(default_factory=list)
    impossible: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


def new_session_id() -> str:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return f"{now}-{secrets.token_hex(3)}"


def _refused(stderr: str) -> str | None:
    """The kernel's (or driver's) refusal in a write's error output, or None."""
    for line in reversed(stderr.strip().splitlines()):
        for refusal in _REFUSALS:
            if refusal.lower() in line.lower():
                return line.strip().rsplit(": ", 1)[-1] if ": " in line else line.strip()
    return None


def _write_file_argv(path: str, content: str) -> list[str]:
    return ["sh", "-c", _WRITE_FILE, "sh", content, path]


def session_data(
    session_id: str,
    nic: str | None,
    guard_seconds: int,
    persist: bool,
    outcomes: Sequence[TweakOutcome],
    persist_changes: Sequence[Change],
    netns: str,
    host: str,
    created: str,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "schema": 1,
        "id": session_id,
        "nic": nic,
        "guard_seconds": guard_seconds,
        "persist": persist,
        "tweaks": [o.to_json() for o in outcomes],
        "persist_changes": [c.to_json() for c in persist_changes],
        "created": created,
        "netns": netns,
        "host": host,
        "options": dict(options or {}),
    }


def public_options(options: dict[str, Any]) -> dict[str, Any]:
    """The plan options worth keeping with a session (the user's, not the probe's `_...`)."""
    return {
        k: v
        for k, v in options.items()
        if not k.startswith("_") and isinstance(v, (str, int, float, bool, type(None)))
    }


def _changes_in_order(data: dict[str, Any]) -> list[Change]:
    changes = [
        Change.from_json(c)
        for t in data.get("tweaks") or []
        if t.get("status") == "applied"
        for c in t.get("changes") or []
    ]
    return changes + [Change.from_json(c) for c in data.get("persist_changes") or []]


async def _run_changes(
    session: Session, changes: Sequence[Change], directory: str, first_index: int = 0
) -> list[tuple[Change, StepResult | None, StepResult | None, str | None]]:
    """Write each change and read it back, as root, in one round trip.

    Returns (change, failed write step or None, read step, value read back) per change.
    """
    steps: list[batch.Step] = []
    owners: list[tuple[int, str]] = []
    for offset, change in enumerate(changes):
        index = first_index + offset
        for argv in write_argvs(
            change, change.after, state_dir=directory, index=index, restoring=False
        ):
            steps.append(batch.Step(tuple(argv), f"w{offset}.{len(steps)}", timeout=30))
            owners.append((offset, "w"))
        steps.append(batch.Step(tuple(read_argv(change)), f"r{offset}", timeout=30))
        owners.append((offset, "r"))
    results = await session.run_script(steps, sudo=True, timeout=60 + 5 * len(steps))
    out: list[tuple[Change, StepResult | None, StepResult | None, str | None]] = []
    failed: dict[int, StepResult] = {}
    reads: dict[int, StepResult] = {}
    for (offset, what), result in zip(owners, results, strict=True):
        if what == "w" and not result.ok and offset not in failed:
            failed[offset] = result
        if what == "r":
            reads[offset] = result
    for offset, change in enumerate(changes):
        read = reads.get(offset)
        value = value_from(change, read.exit_code, read.text) if read is not None else None
        out.append((change, failed.get(offset), read, value))
    return out


def _judge(
    item: PlannedTweak,
    results: Sequence[tuple[Change, StepResult | None, StepResult | None, str | None]],
) -> _Applied:
    verdict = _Applied(item, impossible=list(item.impossible))
    for change, failed_write, _read, value in results:
        if failed_write is not None:
            reason = _refused(failed_write.error_text)
            message = failed_write.error_text.strip().splitlines()
            detail = message[-1] if message else f"exit code {failed_write.exit_code}"
            if reason is not None and same_value(change, value, change.before):
                verdict.impossible.append((change.target, reason))
            else:
                verdict.failed.append((change.target, detail))
            continue
        if not same_value(change, value, change.after):
            verdict.failed.append(
                (change.target, f"read back {value!r} after writing {change.after!r}")
            )
            verdict.applied.append(change)  # something was written: revert it
            continue
        verdict.applied.append(change)
    return verdict


def _outcome(verdict: _Applied) -> TweakOutcome:
    tweak_id = verdict.item.tweak.id
    notes = [f"{t}: {r}" for t, r in verdict.impossible]
    if verdict.failed:
        detail = "; ".join(f"{t}: {r}" for t, r in verdict.failed)
        return TweakOutcome(tweak_id, "failed", detail, verdict.applied)
    if verdict.applied:
        detail = verdict.item.reason
        if notes:
            detail += " (not possible here: " + "; ".join(notes) + ")"
        if verdict.item.tweak.needs_reboot:
            detail += "; takes effect after a reboot"
        return TweakOutcome(tweak_id, "applied", detail, verdict.applied)
    if notes:
        return TweakOutcome(tweak_id, "not_possible", "; ".join(notes))
    return TweakOutcome(tweak_id, "already", "already set")


def arm_steps(session_id: str, seconds: int, systemd: bool) -> list[batch.Step]:
    """The commands (as root) that arm the guard: a transient systemd timer where systemd is
    PID 1 (sd_booted: /run/systemd/system exists), a detached `setsid` sleeper otherwise."""
    directory = scripts.session_dir(session_id)
    steps = [batch.command("sh", "-c", 'date +%s >"$1/armed_at"', "sh", directory, key="at")]
    if systemd:
        unit = f"sbctune-guard-{session_id}"
        steps.append(batch.Step(tuple(_write_file_argv(f"{directory}/guard.unit", unit)), "unit"))
        steps.append(batch.Step(tuple(scripts.systemd_guard_argv(session_id, seconds)), "arm"))
    else:
        steps.append(
            batch.command(
                "sh",
                "-c",
                scripts.START_SLEEPER,
                "sh",
                f"{directory}/guard.sh",
                f"{directory}/guard.pid",
                key="arm",
            )
        )
    return steps


async def _arm(session: Session, session_id: str, seconds: int, systemd: bool) -> None:
    directory = scripts.session_dir(session_id)
    results = await session.run_script(arm_steps(session_id, seconds, systemd), sudo=True,
                                       timeout=30)  # fmt: skip
    bad = [r for r in results if not r.ok]
    if bad:
        raise TuningError(
            "The auto-revert guard could not be armed on the Pi, so nothing was changed.",
            (bad[0].error_text.strip() or f"exit code {bad[0].exit_code}")
            + f" (session folder {directory})",
        )


async def _write_session_files(
    session: Session, directory: str, files: dict[str, str], *, state: str | None = None
) -> None:
    steps = [
        batch.command("mkdir", "-p", "--", directory, key="mkdir"),
        batch.command(
            "chmod", "0755", "/var/lib/sbctune", scripts.STATE_ROOT, directory, key="chmod"
        ),
    ]
    for name, content in files.items():
        steps.append(batch.Step(tuple(_write_file_argv(f"{directory}/{name}", content)), name))
    if state is not None:
        steps.append(batch.Step(tuple(_write_file_argv(f"{directory}/state", state + "\n")), "st"))
    results = await session.run_script(steps, sudo=True, timeout=60)
    bad = [r for r in results if not r.ok]
    if bad:
        raise TuningError(
            f"sbctune could not write its session files to {directory} on the Pi.",
            bad[0].error_text.strip() or f"exit code {bad[0].exit_code}",
        )


def _persist_changes(
    session_id: str, nic: str | None, applied: Sequence[Change], dirs: Sequence[str]
) -> list[Change]:
    """The files that keep the session's values across reboots (all named for sbctune)."""
    directory = scripts.session_dir(session_id)
    sysctls = [c for c in applied if c.kind == "sysctl"]
    runtime = [c for c in applied if c.kind not in ("sysctl", "boot")]
    changes: list[Change] = []
    if sysctls and "/etc/sysctl.d" in dirs:
        path = f"/etc/sysctl.d/90-sbctune-{session_id}.conf"
        changes.append(Change("file", path, None, scripts.sysctl_conf(session_id, sysctls), path))
    if runtime:
        path = f"{directory}/at-boot.sh"
        script = scripts.apply_at_boot_script(session_id, runtime)
        changes.append(Change("file", path, None, script, path))
        if "/etc/systemd/system" in dirs:
            unit = f"sbctune-tuning-{session_id}.service"
            path = f"/etc/systemd/system/{unit}"
            changes.append(Change("file", path, None, scripts.unit_file(session_id), path))
            link = f"/etc/systemd/system/multi-user.target.wants/{unit}"
            changes.append(Change("service", f"enable {unit}", "disabled", "enabled", link))
        if nic and "/etc/udev/rules.d" in dirs:
            path = f"/etc/udev/rules.d/90-sbctune-{session_id}.rules"
            rule = scripts.udev_rule(session_id, safe_name(nic, "interface"))
            changes.append(Change("file", path, None, rule, path))
    return changes


async def apply(
    session: Session,
    plan: TuningPlan,
    guard_seconds: int = DEFAULT_GUARD_SECONDS,
    persist: bool = False,
    on_event: EventSink | None = None,
    *,
    reconnect: Reconnect | None = None,
    history: History | None = None,
) -> AppliedSession:
    """Apply the plan under the auto-revert guard; the session stays armed until `confirm`."""
    say = on_event or (lambda _message: None)
    if guard_seconds < MIN_GUARD_SECONDS:
        raise TuningError(
            f"A guard of {guard_seconds} s is too short to confirm in.",
            f"Use at least {MIN_GUARD_SECONDS} s (the default is {DEFAULT_GUARD_SECONDS}).",
        )
    stored = await list_sessions(session)
    waiting = [s for s in stored if s.state in ("armed", "prepared", "reverting")]
    if waiting:
        raise TuningError(
            f"Tuning session {waiting[0].id} on the Pi is still waiting for confirmation.",
            "Confirm it (`sbctune tune confirm HOST`) or revert it (`sbctune tune revert "
            "HOST`) first.",
        )
    if plan.inventory is None:
        raise TuningError("This plan was not made by sbctune.tuning.plan().", "Plan again.")
    say("reading every value the tweaks touch (snapshot)")
    fresh = await make_plan(session, plan.inventory, plan.nic, plan.tweak_ids, plan.options)
    session_id = new_session_id()
    directory = scripts.session_dir(session_id)
    created = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    netns = str(fresh.options.get("_netns") or "")
    to_apply = [c for i in fresh.items if i.applicable for c in i.changes if c.needed]

    def data_for(outcomes: Sequence[TweakOutcome], extra: Sequence[Change]) -> dict[str, Any]:
        return session_data(
            session_id, plan.nic, guard_seconds, persist, outcomes, extra, netns,
            session.target.host, created, public_options(plan.options),
        )  # fmt: skip

    planned = [
        TweakOutcome(i.tweak.id, "applied", "being applied", [c for c in i.changes if c.needed])
        for i in fresh.items
        if i.applicable
    ]
    say(f"writing session {session_id} and its revert script to {directory}")
    await _write_session_files(
        session,
        directory,
        {
            "session.json": json.dumps(data_for(planned, []), indent=1),
            "revert.sh": scripts.revert_script(session_id, to_apply),
            "guard.sh": scripts.guard_script(session_id, guard_seconds),
        },
        state="armed",
    )
    say(f"arming the auto-revert guard ({guard_seconds} s)")
    await _arm(session, session_id, guard_seconds, fresh.systemd)
    deadline = time.time() + guard_seconds

    say("applying and verifying")
    outcomes: list[TweakOutcome] = []
    cleanup: list[Change] = []
    index = 0
    results_by_item = []
    changes_all = [(i, [c for c in i.changes if c.needed]) for i in fresh.items if i.applicable]
    flat = [c for _i, cs in changes_all for c in cs]
    results = await _run_changes(session, flat, directory) if flat else []
    for item, changes in changes_all:
        part = results[index : index + len(changes)]
        index += len(changes)
        results_by_item.append((item, part))
    for item in fresh.items:
        if not item.applicable:
            status: Status = "already" if item.already else "not_possible"
            outcomes.append(TweakOutcome(item.tweak.id, status, item.reason))
            continue
        part = next(p for i, p in results_by_item if i is item)
        if not part:
            outcomes.append(_outcome(_Applied(item, impossible=list(item.impossible))))
            continue
        verdict = _judge(item, part)
        helpers = [c for c in verdict.applied if c.kind == "service"]
        if item.tweak.kind == "irq_affinity" and len(helpers) == len(verdict.applied):
            cleanup += helpers  # no interrupt moved: irqbalance goes back on at once
            verdict.applied = []
        outcomes.append(_outcome(verdict))
        say(f"{item.tweak.id}: {outcomes[-1].status}")
    if cleanup:
        await _restore(session, cleanup, directory)

    persist_changes: list[Change] = []
    failed = [o for o in outcomes if o.status == "failed"]
    applied_changes = [c for o in outcomes if o.status == "applied" for c in o.changes]
    if persist and not failed and applied_changes:
        dirs = [str(d) for d in fresh.options.get("_dirs", [])]
        persist_changes = _persist_changes(session_id, plan.nic, applied_changes, dirs)
        say("writing the files that keep the tuning across reboots")
        checked = await _run_changes(
            session, persist_changes, directory, first_index=len(applied_changes)
        )
        for change, failed_write, _read, value in checked:
            if failed_write is not None or not same_value(change, value, change.after):
                why = failed_write.error_text.strip() if failed_write else "not as written"
                failed.append(TweakOutcome("persist", "failed", f"{change.target}: {why}"))
        if failed:
            outcomes.append(failed[-1])

    everything = applied_changes + persist_changes
    final_data = data_for(outcomes, persist_changes)
    await _write_session_files(
        session,
        directory,
        {
            "session.json": json.dumps(final_data, indent=1),
            "revert.sh": scripts.revert_script(session_id, everything),
        },
    )
    result = AppliedSession(
        session_id, deadline, outcomes, persist, plan.nic, guard_seconds, "armed"
    )
    if failed:
        say("a tweak failed: reverting everything this session applied")
        await _run_revert(session, session_id)
        for outcome in outcomes:
            if outcome.status == "applied":
                outcome.status = "reverted"
                outcome.detail += f" (reverted: {failed[0].tweak_id} failed)"
        result.state = "reverted"
        final_data = data_for(outcomes, persist_changes)
        await _write_session_files(
            session, directory, {"session.json": json.dumps(final_data, indent=1)}
        )
    else:
        say("checking that the Pi still answers a new SSH connection")
        result.reachable = await _reachable(session, reconnect)
        if not result.reachable:
            say("the Pi does not answer a new connection: the guard will revert the session")
    result.record_id = _save(history, session, result.state, final_data)
    return result


async def _connect_pinned(session: Session) -> Session:
    """A new connection that trusts exactly the host key the current one was made with."""
    # Session offers no public accessor for the server's key; it is the open connection's.
    key = session._conn.get_server_host_key()
    with tempfile.TemporaryDirectory(prefix="sbctune-reach-") as folder:
        known = KnownHosts(read_from=[], write_to=Path(folder) / "known_hosts")
        if key is not None:
            known.add(session.target.host, session.target.port, key)
        return await Session.connect(session.target, known_hosts=known)


async def _reachable(session: Session, reconnect: Reconnect | None) -> bool:
    try:
        fresh = await (reconnect() if reconnect else _connect_pinned(session))
    except (RemoteError, OSError):
        return False
    try:
        result = await fresh.run(["true"], timeout=15)
        return result.ok
    except (RemoteError, OSError):
        return False
    finally:
        with contextlib.suppress(OSError, RemoteError):
            await fresh.close()


async def _restore(session: Session, changes: Sequence[Change], directory: str) -> None:
    steps = [
        batch.Step(tuple(argv), f"u{i}", timeout=30)
        for i, change in enumerate(changes)
        for argv in write_argvs(change, change.before, state_dir=directory, restoring=True)
    ]
    await session.run_script(steps, sudo=True, timeout=60)


def _save(
    history: History | None, session: Session, state: str, data: dict[str, Any]
) -> int | None:
    if history is None:
        return None
    device = history.add_device(session.target.host, session.target.port, session.username)
    assert device.id is not None
    existing = next(
        (r for r in history.tuning_sessions(device.id) if r.data.get("id") == data["id"]), None
    )
    record = TuningSessionRecord(
        device_id=device.id,
        started_at=dt.datetime.fromisoformat(str(data["created"])),
        state=state,
        data=data,
        id=existing.id if existing else None,
    )
    return history.save_tuning_session(record)


def _mark(history: History | None, session: Session, session_id: str, state: str) -> None:
    if history is None:
        return
    device = history.device_for(session.target.host, session.target.port, session.username)
    if device is None or device.id is None:
        return
    for record in history.tuning_sessions(device.id):
        if record.data.get("id") == session_id and record.state != state:
            record.state = state
            history.save_tuning_session(record)


# --------------------------------------------------------------------------- confirm / revert


async def confirm(
    session: Session, session_id: str | None = None, *, history: History | None = None
) -> str:
    """Disarm the guard: the session's values stay. Returns the session's id."""
    stored = await _pick(session, session_id, ("armed",))
    directory = scripts.session_dir(stored.id)
    result = await session.run(["sh", "-c", scripts.CONFIRM, "sh", directory], sudo=True)
    state = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else "unknown"
    if state != "confirmed":
        _mark(history, session, stored.id, state)
        raise TuningError(
            f"Session {stored.id} could not be confirmed: it is {state}.",
            "The guard time ran out before the confirmation and the Pi put the values back. "
            "Apply again with a longer --guard.",
        )
    _mark(history, session, stored.id, "confirmed")
    return stored.id


async def _pick(session: Session, session_id: str | None, states: Sequence[str]) -> StoredSession:
    sessions = await list_sessions(session)
    if session_id is not None:
        _check_id(session_id)
        found = next((s for s in sessions if s.id == session_id), None)
        if found is None:
            raise TuningError(f"The Pi has no tuning session {session_id}.",
                              "`sbctune tune status HOST` lists the sessions.")  # fmt: skip
        if found.state not in states:
            raise TuningError(f"Session {session_id} is {found.state}, not waiting for "
                              "confirmation.", _NOT_WAITING_HINT)  # fmt: skip
        return found
    found = next((s for s in sessions if s.state in states), None)
    if found is None:
        newest = sessions[0] if sessions else None
        if newest is not None and newest.state == "reverted":
            raise TuningError(
                "There is no tuning session on the Pi waiting for confirmation: the newest, "
                f"{newest.id}, was already put back (its guard time ran out, or it was "
                "reverted).",
                _NOT_WAITING_HINT,
            )
        raise TuningError(
            "There is no tuning session on the Pi waiting for confirmation.",
            "`sbctune tune status HOST` shows the sessions; apply one with `sbctune tune apply`.",
        )
    return found


_NOT_WAITING_HINT = (
    "Apply the tweaks again (`sbctune tune apply HOST`) and confirm within the guard time; "
    "--guard SECONDS gives more time. `sbctune tune status HOST` shows every session."
)


def _check_id(session_id: str) -> None:
    """A session id typed by the user: its form is checked before it goes near a path."""
    if not scripts.SESSION_ID.match(session_id):
        raise TuningError(
            f"'{session_id}' is not a tuning session id.",
            "`sbctune tune status HOST` lists the sessions with their ids.",
        )


async def _run_revert(session: Session, session_id: str) -> str:
    directory = scripts.session_dir(session_id)
    result = await session.run(
        ["sh", "-c", 'sh "$1/revert.sh" manual; cat "$1/state"', "sh", directory],
        sudo=True,
        timeout=120,
    )
    lines = result.stdout.strip().splitlines()
    state = lines[-1] if lines else "unknown"
    if state != "reverted":
        log = await session.run(["tail", "-n", "5", f"{directory}/revert.log"], timeout=15)
        raise TuningError(
            f"Session {session_id} was not fully reverted (it is {state}).",
            "What failed: "
            + " | ".join(log.stdout.strip().splitlines()[-3:])
            + f". Run `sudo sh {directory}/revert.sh` on the Pi to try again.",
        )
    return state


async def revert(
    session: Session, session_id: str | None = None, *, history: History | None = None
) -> list[str]:
    """Put back every value of a session (by default: every active one, newest first).

    Returns the ids reverted. A session older than another active one cannot be reverted on
    its own (the newer one's snapshot was taken on top of it)."""
    sessions = [s for s in await list_sessions(session) if s.active]
    if session_id is not None:
        _check_id(session_id)
        index = next((i for i, s in enumerate(sessions) if s.id == session_id), None)
        if index is None:
            raise TuningError(
                f"The Pi has no active tuning session {session_id}.",
                "`sbctune tune status HOST` lists the sessions.",
            )
        if index > 0:
            raise TuningError(
                f"Session {session_id} has a newer session on top of it ({sessions[0].id}).",
                "Revert the newer one first, or revert all with `sbctune tune revert HOST`.",
            )
        sessions = sessions[:1]
    reverted = []
    for stored in sessions:
        await _run_revert(session, stored.id)
        _mark(history, session, stored.id, "reverted")
        reverted.append(stored.id)
    return reverted


def needs_reboot(applied: AppliedSession) -> bool:
    """Whether a tweak the session applied only takes effect after a reboot."""
    known = {t.id: t for t in catalog.load_tweaks()}
    return any(
        o.status == "applied" and o.tweak_id in known and known[o.tweak_id].needs_reboot
        for o in applied.outcomes
    )


def makes_test_boot(applied: AppliedSession) -> bool:
    """Whether the session wrote tryboot.txt (so the reboot should be a test boot)."""
    return tryboot.writes_tryboot(
        c for o in applied.outcomes if o.status == "applied" for c in o.changes
    )


async def reboot(session: Session, *, test_boot: bool) -> None:
    """Reboot the Pi (into a one-time test boot with `test_boot`), two seconds from now."""
    result = await session.run(tryboot.reboot_argv(test_boot), sudo=True, timeout=30)
    if not result.ok:
        raise TuningError(
            "The Pi refused to reboot.",
            (result.stderr.strip() or f"exit code {result.exit_code}")
            + f". Reboot it by hand: `{tryboot.reboot_instruction(test_boot)}`.",
        )


async def tryboot_active(session: Session) -> bool | None:
    """Whether this boot is a tryboot (the firmware's flag); None where it cannot be read."""
    result = await session.run(["od", "-An", "-tx1", tryboot.FLAG_PATH], timeout=15)
    return tryboot.flag_from_od(result.stdout) if result.ok else None


async def boot_commit_plan(
    session: Session, inventory: Inventory, nic: str | None, *, history: History | None = None
) -> tuple[TuningPlan, bool]:
    """After a good test boot: put the test session's tweaks back as a plan that writes the
    boot changes to config.txt / cmdline.txt. Returns (plan, persist of the test session).

    The test session (which wrote tryboot.txt) is reverted first: the Pi runs the test
    configuration right now, and config.txt has not been touched yet."""
    flag = await tryboot_active(session)
    if not flag:
        state = "was not set" if flag is False else f"could not be read ({tryboot.FLAG_PATH})"
        raise TuningError(
            f"The Pi is not running a test boot: the firmware's tryboot flag {state}.",
            "Reboot it into the test configuration first (`sudo reboot '0 tryboot'`, or "
            "`sbctune tune apply ... --reboot`). If it came back on the old configuration, "
            "the test boot failed and fell back: revert with `sbctune tune revert HOST`.",
        )
    active = [s for s in await list_sessions(session) if s.active]
    test = next((s for s in active if tryboot.writes_tryboot(_changes_in_order(s.data))), None)
    if test is None:
        raise TuningError(
            "No tuning session on the Pi wrote tryboot.txt, so there is nothing to commit.",
            "`sbctune tune status HOST` lists the sessions.",
        )
    ids = [str(t["id"]) for t in test.data.get("tweaks") or [] if t.get("status") == "applied"]
    options = dict(test.data.get("options") or {})
    options["boot_test"] = False
    await revert(session, test.id, history=history)
    the_nic = nic or (test.data["nic"] if isinstance(test.data.get("nic"), str) else None)
    the_plan = await plan(session, inventory, the_nic, ids, options)
    return the_plan, bool(test.data.get("persist"))


async def find_leftover(session: Session) -> LeftoverSession | None:
    """The newest session on the Pi that was not reverted (armed, kept, or broken), if any."""
    for stored in await list_sessions(session):
        if stored.active:
            return stored.as_leftover()
    return None


async def status(session: Session, *, history: History | None = None) -> list[LeftoverSession]:
    """Every session the Pi keeps for this network namespace, newest first. With `history`,
    the stored states follow the Pi's (a guard that ran out reverted without sbctune)."""
    stored = await list_sessions(session)
    for one in stored:
        _mark(history, session, one.id, one.state)
    return [s.as_leftover() for s in stored]


def describe_commands(argvs: Sequence[Sequence[str]]) -> list[str]:
    return [join(list(a)) for a in argvs]
