"""apply(): a plan applied under the auto-revert guard, step by step.

1. snapshot: read every value the selected tweaks touch, afresh;
2. create: in ONE remote step, take the Pi's one-session lock and make the session folder
   (two applies started together: one gets the lock, the other a message naming it); write
   session.json (tweaks "planned"), revert.sh (every planned change) and guard.sh; the state
   is "prepared";
3. arm: start the guard (a systemd timer, or a detached `setsid` sleeper where systemd is
   absent); the state becomes "armed" only once the guard is seen running;
4. write: apply, read each value back and verify it; a refused write (EINVAL, ENOENT,
   EOPNOTSUPP) is "not possible here" and the session goes on;
5. persist (--persist): revert.sh first learns the files, then they are written;
6. settle: revert.sh is rewritten with exactly what changed on the Pi (whatever the tweak's
   verdict). If anything failed, it runs at once: everything the session touched, including
   the failed tweak's own changes, goes back. Otherwise a NEW SSH connection checks that the
   Pi still answers, and the session stays armed for `confirm`.

Killed at any point, the Pi is either unchanged (before the guard ran: the session stays
"prepared", found as cut short) or reverted by the guard, whose revert.sh always covers every
change that may have been made.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sbctune.history import History
from sbctune.remote import batch, snippets
from sbctune.remote.batch import StepResult
from sbctune.remote.errors import RemoteTimeout
from sbctune.remote.script_time import COMMAND_SECONDS, script_seconds
from sbctune.tuning import link_wait, nm_checkpoint, rearm, reopen_order, revert_link, scripts
from sbctune.tuning.changes import Written, judge, outcome, restore, run_changes
from sbctune.tuning.errors import TuningError
from sbctune.tuning.history_sync import save
from sbctune.tuning.knobs import same_value
from sbctune.tuning.lifecycle import busy_error, run_revert
from sbctune.tuning.link_wait import LinkFacts
from sbctune.tuning.model import (
    AppliedSession,
    Change,
    PlannedTweak,
    Status,
    TuningPlan,
    TweakOutcome,
)
from sbctune.tuning.planning import persist_changes
from sbctune.tuning.planning import plan as make_plan
from sbctune.tuning.reach import Reconnect, reachable
from sbctune.tuning.record import SessionRecord, public_options
from sbctune.tuning.remote_state import list_sessions
from sbctune.tuning.reopen_order import OpenFacts
from sbctune.tuning.words import session_words, status_words, tweak_title

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

EventSink = Callable[[str], None]
DEFAULT_GUARD_SECONDS = 90
MIN_GUARD_SECONDS = 5


def new_session_id() -> str:
    now = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    return f"{now}-{secrets.token_hex(3)}"


@dataclass
class _Run:
    """One apply in progress: the session being made and what it changed so far."""

    session: Session
    record: SessionRecord
    items: list[PlannedTweak]  # the fresh plan's
    to_apply: list[Change]  # every needed change in order; its index names its backup
    say: EventSink
    touched: list[Written] = field(default_factory=list)  # changed on the Pi, in order
    failed: list[TweakOutcome] = field(default_factory=list)
    # What the NIC's driver restarts the interface for and what its open sets back: the order
    # of the writes, revert.sh and at-boot.sh (reopen_order)
    facts: OpenFacts | None = None
    kept: list[Change] = field(default_factory=list)  # written again after a restart
    # Which writes drop the NIC's link (link_wait): read back, and put back, once it is back
    link: LinkFacts | None = None

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def directory(self) -> str:
        return scripts.session_dir(self.record.id)

    def revert_sh(self, extra: Sequence[Written] = ()) -> str:
        done = [*self.touched, *extra]
        return scripts.revert_script(
            self.id, [w.change for w in done], [w.index for w in done], self.facts, self.kept,
            link=self.link,
        )  # fmt: skip


async def apply(
    session: Session,
    plan: TuningPlan,
    guard_seconds: int = DEFAULT_GUARD_SECONDS,
    persist: bool = False,
    on_event: EventSink | None = None,
    *,
    reconnect: Reconnect | None = None,
    history: History | None = None,
    on_session: Callable[[str, Sequence[Change]], None] | None = None,
) -> AppliedSession:
    """Apply the plan under the auto-revert guard; the session stays armed until `confirm`.
    `on_session`: told the session's id and every change it may make, before the Pi is
    touched (so a caller cancelled part-way knows which session to put back)."""
    say = on_event or (lambda _message: None)
    if guard_seconds < MIN_GUARD_SECONDS:
        raise TuningError(
            f"A guard of {guard_seconds} s is too short to confirm in.",
            f"Use at least {MIN_GUARD_SECONDS} s (the default is {DEFAULT_GUARD_SECONDS}).",
        )
    if plan.inventory is None:
        raise TuningError("This plan was not made by sbctune.tuning.plan().", "Plan again.")
    await _refuse_if_busy(session)
    say("reading every value the tweaks touch (snapshot)")
    options = {**plan.options, "persist": persist}  # --persist reads NetworkManager's settings
    started = time.monotonic()
    fresh = await make_plan(session, plan.inventory, plan.nic, plan.tweak_ids, options)
    allowance = rearm.allowance(time.monotonic() - started, fresh.systemd)
    run = _start(session, plan, fresh, guard_seconds, persist, say)
    if on_session is not None:
        on_session(run.id, list(run.to_apply))
    # Plain words (issue 22): the session's id and its directory are the CLI's to show.
    say("keeping what each setting was, on the Pi, so it can be put back")
    await _create(run, fresh.netns)
    say(f"arming the auto-revert guard ({guard_seconds} s"
        + (f", and {allowance} s for applying)" if allowance else ")"))  # fmt: skip
    try:
        await _arm(run, guard_seconds + allowance, fresh.systemd)
    except RemoteTimeout as exc:
        raise stopped_error(run.id, exc, armed=False) from exc
    try:
        return await _guarded(run, plan, fresh, guard_seconds, allowance, reconnect, history)
    except RemoteTimeout as exc:
        raise stopped_error(run.id, exc, armed=True) from exc


def stopped_error(session_id: str, exc: RemoteTimeout, *, armed: bool) -> TuningError:
    """A Pi too slow to answer in time, part-way through apply: what the Pi is left with and
    what to do (never a half-applied state left unsaid)."""
    which = session_words(session_id, day=False)
    if armed:
        hint = (f"Nothing stays half-applied: the auto-revert guard on the Pi puts back every "
                f"value of {which} when its time runs out, whether sbctune is still "
                "connected or not. `sbctune tune status HOST` shows it once done.")  # fmt: skip
    else:
        hint = (f"Nothing was changed yet. If the guard of {which} did not start, the Pi keeps "
                "it as cut short: `sbctune tune revert HOST` clears it.")  # fmt: skip
    return TuningError(f"Applying stopped: {exc.message}", f"{hint} {exc.hint}")


async def _guarded(
    run: _Run,
    plan: TuningPlan,
    fresh: TuningPlan,
    guard_seconds: int,
    allowance: int,
    reconnect: Reconnect | None,
    history: History | None,
) -> AppliedSession:
    """Everything after the guard is armed: writes, persist, re-arm, settle."""
    session, say, persist = run.session, run.say, run.record.persist
    armed = time.monotonic()
    deadline = time.time() + guard_seconds + allowance
    restarting = any(i.applicable and i.restarts_link for i in fresh.items)
    taken = await nm_checkpoint.take_for(
        session, run.to_apply, run.directory, guard_seconds + allowance, restarting
    )
    checkpoint = taken if isinstance(taken, str) else None
    if isinstance(taken, nm_checkpoint.Refused):
        say(nm_checkpoint.refused_words(taken))
    if checkpoint:
        say("NetworkManager checkpoint taken: NetworkManager puts the network settings back "
            "by itself if the Pi stops answering")  # fmt: skip
    say("applying and verifying")
    await _write(run)
    if persist:
        await _persist(run, fresh)
    if not run.failed and (allowance or time.monotonic() - armed > rearm.REARM_AFTER_SECONDS):
        say(f"applying took {time.monotonic() - armed:.0f} s: the guard's {guard_seconds} s "
            "start again now")  # fmt: skip
        if await rearm.rearm(session, run.id, guard_seconds, fresh.systemd):
            deadline = time.time() + guard_seconds
            if checkpoint:
                await nm_checkpoint.adjust(session, checkpoint, guard_seconds)
    result = AppliedSession(run.id, deadline, run.record.tweaks, persist, plan.nic,
                            guard_seconds, "armed",
                            options=public_options(plan.options))  # fmt: skip
    await _settle(run, result, reconnect)
    result.record_id = save(history, session, result.state, run.record.to_json())
    if result.state == "armed":
        say(f"{session_words(run.id, day=False)}: the guard puts it back unless it is kept")
    return result


async def _refuse_if_busy(session: Session) -> None:
    """A clear refusal before the snapshot (the lock taken in `_create` is what enforces it)."""
    for stored in await list_sessions(session):
        if stored.state in scripts.BUSY_STATES:
            raise busy_error(stored.as_leftover(), stored.id)


def _start(
    session: Session,
    plan: TuningPlan,
    fresh: TuningPlan,
    guard_seconds: int,
    persist: bool,
    say: EventSink,
) -> _Run:
    planned = [
        TweakOutcome(i.tweak.id, "planned", "not applied yet", [c for c in i.changes if c.needed])
        for i in fresh.items
        if i.applicable
    ]
    record = SessionRecord(
        id=new_session_id(),
        nic=plan.nic,
        guard_seconds=guard_seconds,
        persist=persist,
        created=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        netns=fresh.netns,
        host=session.target.host,
        tweaks=planned,
        options=public_options(plan.options),
    )
    to_apply = [c for o in planned for c in o.changes]
    facts = reopen_order.for_plan(fresh)
    return _Run(session, record, fresh.items, to_apply, say, facts=facts, kept=list(fresh.kept),
                link=link_wait.for_plan(fresh))  # fmt: skip


def _write_step(path: str, content: str, key: str) -> batch.Step:
    return batch.Step(tuple(snippets.write_file_argv(path, content)), key)


async def _create(run: _Run, netns: str) -> None:
    """Lock, folder and files in one step (see scripts.CREATE); the state is "prepared"."""
    everything = [Written(c, i, None, c.after) for i, c in enumerate(run.to_apply)]
    create = (
        "sh", "-c", scripts.CREATE, "sh", scripts.STATE_ROOT, run.id, scripts.lock_name(netns),
        run.revert_sh(everything), scripts.guard_script(run.id, run.record.guard_seconds),
        json.dumps(run.record.to_json(), indent=1),
    )  # fmt: skip
    steps = [batch.Step(create, "create")]
    (result,) = await run.session.run_script(steps, sudo=True, timeout=script_seconds(steps),
                                             what="creating the tuning session")  # fmt: skip
    if result.exit_code == 75:
        await _busy(run.session, result)
    if not result.ok:
        raise TuningError(
            f"sbctune could not write its session files to {run.directory} on the Pi, so "
            "nothing was changed.",
            result.error_text.strip() or f"exit code {result.exit_code}",
        )


async def _busy(session: Session, result: StepResult) -> None:
    words = result.text.split()
    holder_id = words[1] if len(words) > 1 and scripts.SESSION_ID.match(words[1]) else ""
    holder = next((s for s in await list_sessions(session) if s.id == holder_id), None)
    raise busy_error(holder.as_leftover() if holder else None, holder_id)


async def _discard(run: _Run) -> None:
    """Nothing was applied: remove the session, its guard and its lock."""
    await run.session.run(["sh", "-c", scripts.DISCARD, "sh", run.directory], sudo=True,
                          timeout=COMMAND_SECONDS)  # fmt: skip


def arm_steps(session_id: str, seconds: int, systemd: bool) -> list[batch.Step]:
    """The commands (as root) that arm the guard: a transient systemd timer where systemd is
    PID 1 (sd_booted: /run/systemd/system exists), a detached `setsid` sleeper otherwise;
    last, the state becomes "armed" if (and only if) the guard is seen running."""
    directory = scripts.session_dir(session_id)
    steps = [batch.command("sh", "-c", scripts.ARMED_AT, "sh", directory, key="at")]
    if systemd:
        unit = f"sbctune-guard-{session_id}"
        steps.append(_write_step(f"{directory}/guard.unit", unit, "unit"))
        steps.append(batch.Step(tuple(scripts.systemd_guard_argv(session_id, seconds)), "arm"))
    else:
        steps.append(batch.command("sh", "-c", scripts.START_SLEEPER, "sh",
                                   f"{directory}/guard.sh", f"{directory}/guard.pid",
                                   key="arm"))  # fmt: skip
    steps.append(batch.command("sh", "-c", scripts.MARK_ARMED, "sh", directory, key="armed"))
    return steps


async def _arm(run: _Run, seconds: int, systemd: bool) -> None:
    steps = arm_steps(run.id, seconds, systemd)
    results = await run.session.run_script(steps, sudo=True, timeout=script_seconds(steps),
                                           what="arming the auto-revert guard")  # fmt: skip
    bad = [r for r in results if not r.ok]
    if bad:
        await _discard(run)
        raise TuningError(
            "The auto-revert guard could not be armed on the Pi, so nothing was changed.",
            (bad[0].error_text.strip() or f"exit code {bad[0].exit_code}")
            + f" (session folder {run.directory})",
        )


async def _write(run: _Run) -> None:
    """Apply every change, judge each tweak, and keep what changed on the Pi."""
    kinds = [k for c in run.to_apply if (k := link_wait.drops(c, run.link)) is not None]
    if kinds and run.link is not None:
        run.say(link_wait.before_words(run.link, kinds, link_wait.about_seconds()))
    written: list[Written] = []
    if run.to_apply:
        written = await run_changes(run.session, run.to_apply, run.directory, facts=run.facts,
                                    kept=run.kept, link=run.link)  # fmt: skip
    for one in written:
        if one.link_waited and run.link is not None:  # what the Pi saw, before the read-back
            run.say(link_wait.words(one.link, run.link.iface))
    outcomes: list[TweakOutcome] = []
    cleanup: list[Written] = []
    position = 0
    for item in run.items:
        if not item.applicable:
            status: Status = (
                "already" if item.already else "not_needed" if item.not_needed else "not_possible"
            )
            outcomes.append(TweakOutcome(item.tweak.id, status, item.reason))
            continue
        count = len([c for c in item.changes if c.needed])
        part, position = written[position : position + count], position + count
        verdict = judge(item, part)
        helpers = [c for c in verdict.applied if c.kind == "service"]
        if (
            item.tweak.kind == "irq_affinity"
            and verdict.applied
            and (len(helpers) == len(verdict.applied))
        ):
            cleanup += [w for w in part if w.change in helpers]  # no interrupt moved:
            verdict.applied = []  # irqbalance goes back on at once
        outcomes.append(outcome(verdict))
        run.say(f"{item.tweak.title}: {status_words(outcomes[-1].status)}")
    if cleanup:
        await restore(run.session, [w.change for w in cleanup], run.directory)
    run.touched = [w for w in written if w.touched and w not in cleanup]
    run.record.tweaks = outcomes
    run.failed = [o for o in outcomes if o.status == "failed"]


async def _persist(run: _Run, fresh: TuningPlan) -> None:
    """The files that keep the values across reboots; revert.sh learns them first, so that a
    guard firing mid-way removes them too."""
    applied = [c for o in run.record.tweaks if o.status == "applied" for c in o.changes]
    if run.failed or not applied:
        return
    # Nothing is made to last once the guard has put the values back (an apply slower than
    # the guard, seen on a TCG VM): the files would outlive a reverted session.
    state = await run.session.run(["cat", f"{run.directory}/state"], timeout=COMMAND_SECONDS)
    if state.stdout.strip() != "armed":
        why = "the guard put the values back while applying; nothing was kept across reboots"
        run.failed.append(TweakOutcome("persist", "failed", why))
        run.record.tweaks.append(run.failed[-1])
        return
    changes = persist_changes(
        run.id, run.record.nic, applied, fresh.persist_dirs, fresh.nm_link, run.facts
    )
    first = len(run.to_apply)
    planned = [Written(c, first + i, None, c.after) for i, c in enumerate(changes)]
    await _write_files(run, {"revert.sh": run.revert_sh(planned)})
    run.say("writing the files that keep the tuning across reboots")
    written = await run_changes(run.session, changes, run.directory, first_index=first)
    for one in written:
        if one.failed is not None or not same_value(one.change, one.value, one.change.after):
            why = one.failed.error_text.strip() if one.failed else "not as written"
            run.failed.append(TweakOutcome("persist", "failed", f"{one.change.target}: {why}"))
    run.touched += [w for w in written if w.touched]
    run.record.persist_changes = [w.change for w in written if w.touched]
    if run.failed:
        run.record.tweaks.append(run.failed[-1])


async def _write_files(run: _Run, files: dict[str, str]) -> None:
    steps = [_write_step(f"{run.directory}/{name}", text, name) for name, text in files.items()]
    results = await run.session.run_script(steps, sudo=True, timeout=script_seconds(steps),
                                           what="writing the session's files")  # fmt: skip
    bad = [r for r in results if not r.ok]
    if bad:
        raise TuningError(
            f"sbctune could not write its session files to {run.directory} on the Pi; the "
            "guard will put every value back when its time runs out.",
            bad[0].error_text.strip() or f"exit code {bad[0].exit_code}",
        )


def reverted_note(cause: str) -> str:
    """What an applied tweak's line adds when another one failed and all was put back: that
    tweak by its title, never its id (s13 walk: "(reverted: offloads-on failed)")."""
    return f" (put back: \u201c{tweak_title(cause)}\u201d failed)"


async def _settle(run: _Run, result: AppliedSession, reconnect: Reconnect | None) -> None:
    """revert.sh with exactly what changed; on a failure, revert it all at once; otherwise
    check that the Pi still answers a new connection."""
    await _write_files(run, {"session.json": json.dumps(run.record.to_json(), indent=1),
                             "revert.sh": run.revert_sh()})  # fmt: skip
    if run.failed:
        run.say("a tweak failed: reverting everything this session changed")
        ahead = revert_link.ahead_words(run.link, [w.change for w in run.touched])
        if ahead:
            run.say(ahead)
        await run_revert(run.session, run.id, nic=run.record.nic or "", on_event=run.say)
        cause = run.failed[0].tweak_id
        for one in run.record.tweaks:
            if one.status == "applied":
                one.status = "reverted"
                one.detail += reverted_note(cause)
            elif one.status == "failed" and one.changes:
                one.detail += " (what it had changed was put back too)"
        result.state = "reverted"
        await _write_files(run, {"session.json": json.dumps(run.record.to_json(), indent=1)})
        return
    run.say("checking that the Pi still answers a new SSH connection")
    result.reachable = await reachable(run.session, reconnect)
    if not result.reachable:
        run.say("the Pi does not answer a new connection: the guard will revert the session")
