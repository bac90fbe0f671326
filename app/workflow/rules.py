"""The rules both front ends follow, written once: which tweaks are in force, keeping a
cancelled run's tests, installing iperf3 (with the user's yes) and trying again.

Qt-free and CLI-free: the GUI controllers and the CLI commands call these, never their own
copies.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from sbctune.history import History
from sbctune.history.keep import save_or_file, unsaved_document
from sbctune.history.records import RunRecord
from sbctune.measure.install import InstallPlan, Iperf3NotInstalled, install_iperf3
from sbctune.measure.outcome import MeasureRun
from sbctune.measure.persist import save_measurement
from sbctune.measure.plans import Plan
from sbctune.tuning import AppliedSession
from sbctune.tuning.model import Change, TuningPlan

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session
    from sbctune.workflow.flow_types import Attribution

T = TypeVar("T")
TuningState = Literal["guarded", "confirmed", "reverted"]
InstallAsker = Callable[[InstallPlan], Awaitable[bool]]

# An outcome whose tweak holds its new value while the session is in force.
_IN_FORCE = ("applied", "already")
# ... and of those, the ones the session changed: "already" was so before it (walk 15,
# problem 3: History named "offloads on", already on, as tuning in force).
_CHANGED = ("applied",)


# ---------------------------------------------------------------------- tweaks in force
def kept_tweaks(applied: AppliedSession) -> list[str]:
    """The session's tweaks that hold their new value (applied now, or already so)."""
    return [o.tweak_id for o in applied.outcomes if o.status in _IN_FORCE]


def as_confirmed(plan: TuningPlan, applied: AppliedSession) -> list[str]:
    """Keeping a confirmed session across reboots plans its tweaks again (after putting it
    back, so that the plan has the values to write): make that plan write what was confirmed,
    never what planning gives today. Each change takes the value the session set for the same
    setting (`after`, and how it is written); one the session did not set is dropped, as is a
    tweak the session did not keep. Returns what differed, in plain words."""
    confirmed = {(c.kind, c.target): c for o in applied.outcomes if o.status in _IN_FORCE
                 for c in o.changes}  # fmt: skip
    kept = set(kept_tweaks(applied))
    said: list[str] = []
    for item in plan.items:
        if item.tweak.id not in kept:
            item.applicable, item.changes = False, []
            continue
        mine: list[Change] = []
        for change in item.changes:
            was = confirmed.get((change.kind, change.target))
            if not change.needed or (was is not None and was.after == change.after):
                mine.append(change if was is None else replace(change, written=was.written))
            elif was is None:
                said.append(f"{change.target}: not set by the confirmed session, left out")
            else:
                said.append(f"{change.target}: keeps the confirmed {was.after}, not {change.after}")
                mine.append(replace(change, after=was.after, written=was.written))
        item.changes = mine
    return said


def changed_tweaks(applied: AppliedSession) -> list[str]:
    """The session's tweaks in force because it changed them: what "tuning in force" names."""
    return [o.tweak_id for o in applied.outcomes if o.status in _CHANGED]


def kept_in_data(tweaks: list[dict[str, Any]]) -> list[Any]:
    """The same, from a session as the history or the Pi keeps it (`{"id", "status"}` dicts)."""
    return [t.get("id") for t in tweaks if t.get("status") in _IN_FORCE]


def in_force(applied: AppliedSession | None, state: TuningState | None) -> bool:
    """A session is in force while guarded or confirmed; reverted (or none) is not."""
    return applied is not None and state in ("guarded", "confirmed")


def run_tuning_state(
    applied: AppliedSession | None, state: TuningState | None
) -> dict[str, Any] | None:
    """What a run stores as `tuning_state`: the session and its tweaks in force while it ran."""
    if applied is None or not in_force(applied, state):
        return None
    return {"session": applied.id, "tweaks": changed_tweaks(applied)}


def advice_tuning(
    applied: AppliedSession | None, state: TuningState | None
) -> dict[str, Any] | None:
    """The tweaks in force in the session-data shape `advise(tuning=...)` reads, so advice does
    not recommend again what is already applied."""
    if applied is None or not in_force(applied, state):
        return None
    return {"tweaks": [{"id": o.tweak_id, "status": o.status} for o in applied.outcomes]}


def advice_tuning_of_run(tuning_state: dict[str, Any] | None) -> dict[str, Any] | None:
    """The same, from what a stored run kept as `tuning_state` (the tweaks in force while it
    was measured, not whatever came later)."""
    tweaks = [t for t in (tuning_state or {}).get("tweaks") or [] if isinstance(t, str)]
    return {"tweaks": [{"id": t, "status": "applied"} for t in tweaks]} if tweaks else None


# A page's own measurement, as the user knows it: the page's name in the sidebar.
MEASURING_PAGES = {"baseline": "Baseline", "after": "Measure again"}


def measuring_words(measuring: str) -> str:
    """Why another test cannot start now: a second iperf3 run would share the link."""
    page = MEASURING_PAGES.get(measuring, measuring)
    return (f"A test is running on {page}: one test at a time, as two would share the link "
            f"and each slow the other. Wait for it to finish, or cancel it on {page}.")  # fmt: skip


def apply_blocked(
    state: TuningState | None, flow_running: bool, measuring: str | None = None
) -> str | None:
    """Why "Apply" cannot be used now (the button's tooltip), or None when it can."""
    if flow_running:
        return ("The one-click flow is running: it applies, measures and keeps its own tweaks. "
                "Wait for it to finish, or cancel it.")  # fmt: skip
    if measuring is not None:
        page = MEASURING_PAGES.get(measuring, measuring)
        return (f"A test is running on {page}: a tweak applied now would change the Pi under "
                f"it. Wait for it to finish, or cancel it on {page}.")  # fmt: skip
    if state == "guarded":
        return ("Tuning is on trial on the Pi (one at a time): keep it or revert it first, or "
                "let its guard revert it.")  # fmt: skip
    return None


# ---------------------------------------------------------------------- keeping runs
def save_run(
    history: History,
    session: Session,
    run: MeasureRun,
    plan: Plan,
    inventory_id: int | None = None,
    tuning_state: dict[str, Any] | None = None,
) -> RunRecord:
    """Store a measurement under its device; the record as the history keeps it. When the
    history cannot take it, it goes to a file and RunNotSaved (carrying `run`) says where."""
    target = session.target
    document = unsaved_document(target.host, target.port, session.username, plan.name,
                                run.to_json())  # fmt: skip
    run_id = save_or_file(
        history,
        lambda h: save_measurement(
            h, target, session.username, run, plan, inventory_id, tuning_state
        ),
        document,
        run,
    )
    return history.run(run_id)


def keep_partial(
    history: History,
    session: Session,
    run: MeasureRun | None,
    plan: Plan,
    inventory_id: int | None = None,
    tuning_state: dict[str, Any] | None = None,
) -> RunRecord | None:
    """A cancelled run: store the tests measured so far (the runner marked them incomplete);
    None when nothing was measured yet, so an empty run never lands in the history."""
    if run is None or not any(t.intervals for t in run.tests):
        return None
    return save_run(history, session, run, plan, inventory_id, tuning_state)


# ---------------------------------------------------------------------- iperf3 missing
async def offering_install(
    session: Session,
    ask: InstallAsker,
    report: Callable[[str], None],
    attempt: Callable[[], Awaitable[T]],
) -> T:
    """`attempt()`; if iperf3 is missing on the Pi and the user agrees (`ask` shows the exact
    command), install it with the Pi's package manager and try once more. Declining re-raises
    `Iperf3NotInstalled`, whose hint says how to install it by hand; nothing was changed."""
    try:
        return await attempt()
    except Iperf3NotInstalled as missing:
        plan = missing.plan
        if plan.manager is None or not await ask(plan):
            raise
    report(f"Installing iperf3 on the Pi: {plan.command}")
    version = await install_iperf3(session, plan)
    report(f"iperf3 {'.'.join(map(str, version))} is installed on the Pi; measuring.")
    return await attempt()


async def never_install(_plan: InstallPlan) -> bool:
    """The answer when nobody can be asked: no."""
    return False


def no_help_of(attribution: Attribution | None) -> dict[str, str]:
    """Tweak id -> what it did alone, for the tweaks "Find what helps" measured as no help and
    reverted (`advise(no_help=...)`), so Results does not recommend them again unsaid."""
    if attribution is None:
        return {}
    return {
        c.tweak_id: c.summary
        for c in attribution.contributions
        if not c.helps and not c.changed_during_run
    }
