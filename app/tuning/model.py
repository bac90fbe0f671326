"""What tuning deals in: tweak definitions, the changes a tweak makes, plans and outcomes.

A `Change` is one value on the Pi (a sysfs/procfs knob, a sysctl, an ethtool setting, a file,
a service state) with its value before and after. Every tweak is planned as a list of changes;
applying writes each `after`, reverting writes each `before` back, newest first; where the NIC's
driver restarts the interface for a change and its open sets other settings back, the restart
goes first both ways (reopen_order).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from sbctune.inventory.model import Inventory

Risk = Literal["low", "medium", "high"]
# "planned": written to the Pi before anything was applied (a session cut short shows it).
# "not_needed": left out by the planner as not needed here (NotNeeded): nothing to change, not
# a refusal (walk 22: apply said "✗ not possible on this Pi" for flow control the plan called
# "not needed here"). Records written before it say "not_possible" for those.
Status = Literal[
    "applied", "already", "not_needed", "not_possible", "failed", "reverted", "planned"
]
# "nm": one NetworkManager connection property (tuning.nm_persist), for --persist.
ChangeKind = Literal[
    "file", "sysctl", "ethtool", "service", "boot", "mtu", "governor", "irq_affinity", "nm"
]
CHANGE_KINDS: tuple[ChangeKind, ...] = (
    "file", "sysctl", "ethtool", "service", "boot", "mtu", "governor", "irq_affinity", "nm"
)  # fmt: skip
STATUSES: tuple[Status, ...] = (
    "applied", "already", "not_needed", "not_possible", "failed", "reverted", "planned"
)  # fmt: skip
# What a value read back from the Pi says about a change: its `after` is in force, its
# `before` is (the original), something else, or it could not be read.
LiveState = Literal["in_force", "original", "other", "unknown"]


# The planner's words for a tweak held back because it restarts the link of the NIC that carries
# the SSH session (kinds_ethtool); an outcome recorded with them was held back, not refused.
HELD_FOR_LINK = "held back unless you agree to the link dropping briefly"


class NotNeeded(str):
    """A planner's reason for leaving a tweak out that the Pi could take but that is not
    needed here: meant only for NICs known to need it (flow control), or in force in another
    form already (igb's adaptive rx-usecs 3). Still a str wherever a reason is read (the
    advice's within_reach); the planned tweak keeps the class as `not_needed`, which both
    front ends say as "not needed here" rather than "not possible here" (walk18)."""

    __slots__ = ()


@dataclass(frozen=True)
class Tweak:
    id: str
    kind: str
    title: str
    why: str
    sources: tuple[str, ...]
    risk: Risk
    needs_reboot: bool
    advanced: bool  # opt-in only: never part of the default selection
    recommended: bool  # safe to pre-check in the GUI
    params: Mapping[str, Any] = field(default_factory=dict)
    # Sentences that hold only for some NICs or boards (a published test on a Pi 4's USB
    # adapters), each with its sources and where it applies (tuning/why_words.py).
    evidence: tuple[Evidence, ...] = ()
    here: str = ""  # "{iface} runs the {driver} driver ...": this Pi's NIC, in the why


@dataclass(frozen=True)
class Evidence:
    text: str
    sources: tuple[str, ...]
    boards: tuple[str, ...] = ()  # catalog board ids; empty: any board
    buses: tuple[str, ...] = ()  # NIC buses; empty: any
    drivers: tuple[str, ...] = ()  # NIC drivers; empty: any


MAX_IRQ_ORDINAL = 4096


def irq_name_ok(name: str) -> bool:
    """A handler name the scripts can look for exactly: a kernel action name is a device's or
    driver's name (request_irq's `name`); one with a comma (the separator in
    /proc/interrupts), a backslash (awk -v reads escapes), a blank (the scripts compare the
    last word of a line's first name) or a control character is not kept."""
    return (
        0 < len(name) <= 64
        and name.isprintable()
        and not any(ch.isspace() or ch in ",\\" for ch in name)
    )


# A word an ethtool -C write may carry besides its own value (a parameter name or a number).
_WRITTEN_WORD = re.compile(r"[a-z0-9][a-z0-9-]{0,31}")
Written = tuple[tuple[str, tuple[str, ...]], ...]


def _written_from_json(data: Any) -> Written:
    if data is None:
        return ()
    if not isinstance(data, Mapping) or not all(
        isinstance(v, list) and all(isinstance(w, str) for w in v) for v in data.values()
    ):
        raise ValueError(f"unexpected written record {data!r}")
    return tuple((str(k), tuple(v)) for k, v in data.items())


def _irq_from_json(data: Any) -> tuple[str, int]:
    if not isinstance(data, Mapping):
        return "", 0
    name, ordinal = data.get("name"), data.get("ordinal", 0)
    if not isinstance(name, str) or not isinstance(ordinal, int) or isinstance(ordinal, bool):
        raise ValueError(f"unexpected interrupt record {data!r}")
    return name, ordinal


@dataclass(frozen=True)
class Change:
    """One value the session sets. `before`/`after` None: the file does not exist."""

    kind: ChangeKind
    target: str
    before: str | None
    after: str | None
    path: str = ""  # the file behind a knob, sysctl or boot change ("" for the others)
    # An irq_affinity change's interrupt as /proc/interrupts names it (one of its handlers'
    # names, e.g. "enp1s0-rx-0", "eth0", "xhci_hcd") and which of the lines with that name it
    # is (0: the first): Linux numbers interrupts as devices probe, so after a reboot the
    # scripts find it again by name (remote.snippets.WRITE_IRQ_AFFINITY). "": by `path`'s
    # number (a session stored before names were kept).
    irq_name: str = ""
    irq_ordinal: int = 0
    # What an ethtool write of a value puts after the parameter, where that is not the value
    # alone: a driver that rounds down and stores every coalescing value again at each set
    # (macb on RP1: 0.8 us ticks, 49 is written 50, and tx-usecs goes with rx-usecs or an
    # untouched 49 becomes 48). (value, words) pairs; a value not listed is written as is.
    written: Written = ()

    def __post_init__(self) -> None:
        for value, words in self.written:
            if not words or not all(_WRITTEN_WORD.fullmatch(w) for w in (value, *words)):
                raise ValueError(f"unexpected written words {words!r} for {value!r}")
        if self.irq_name and not irq_name_ok(self.irq_name):
            raise ValueError(f"unexpected interrupt name {self.irq_name!r}")
        if not 0 <= self.irq_ordinal < MAX_IRQ_ORDINAL:
            raise ValueError(f"unexpected interrupt ordinal {self.irq_ordinal!r}")

    @property
    def needed(self) -> bool:
        return self.before != self.after

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "target": self.target,
            "before": self.before,
            "after": self.after,
        }
        if self.path:
            data["path"] = self.path
        if self.irq_name:
            data["irq"] = {"name": self.irq_name, "ordinal": self.irq_ordinal}
        if self.written:
            data["written"] = {value: list(words) for value, words in self.written}
        return data

    def words_for(self, value: str) -> tuple[str, ...]:
        """What follows the parameter when `value` is written (`written`, or the value)."""
        return dict(self.written).get(value, (value,))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Change:
        kind = str(data["kind"])
        if kind not in CHANGE_KINDS:
            raise ValueError(f"unknown change kind {kind!r}")
        before, after = data.get("before"), data.get("after")
        return cls(
            kind,
            str(data["target"]),
            None if before is None else str(before),
            None if after is None else str(after),
            str(data.get("path") or ""),
            *_irq_from_json(data.get("irq")),
            _written_from_json(data.get("written")),
        )


@dataclass
class PlannedTweak:
    tweak: Tweak
    applicable: bool
    reason: str  # why not applicable, or what it will do
    changes: list[Change] = field(default_factory=list)
    commands: list[str] = field(default_factory=list)  # the exact commands (dry run)
    impossible: list[tuple[str, str]] = field(default_factory=list)  # (target, kernel's reason)
    # The driver closes and reopens the interface for it (the link drops for seconds): applied
    # under a NetworkManager checkpoint where NM runs, besides the guard.
    restarts_link: bool = False
    # Held back only because it restarts the link of the NIC that carries the SSH session: the
    # user may agree (option allow_link_restart) and plan again.
    needs_link_consent: bool = False
    # The tweak's why and sources for this Pi's board and NIC (why_words.py); "" / (): the
    # tweak's general ones.
    why: str = ""
    sources: tuple[str, ...] = ()
    # The settings the one-line summary names, (target, word) as "GRO" for "eth0 -K gro", and
    # how their words make it ("{} on", joined by `named_join`): the summary names only what
    # the plan read on or sets, and at apply only what was not refused (changes.outcome):
    # proof is read, not assumed (asix's "GRO/GSO/TSO on" while GSO and TSO stayed off).
    named: list[tuple[str, str]] = field(default_factory=list)
    named_form: str = ""
    named_join: str = "/"
    named_all: str = ""  # the summary while every named setting is in force, where it differs
    not_needed: bool = False  # not applicable because not needed here (NotNeeded), not refused

    def summary(self, refused: Collection[str] = ()) -> str:
        """The summary from `named`, without the settings whose targets are in `refused`."""
        words = [word for target, word in self.named if target not in refused]
        if self.named_all and len(words) == len(self.named):
            return self.named_all
        return self.named_form.format(self.named_join.join(words)) if words else ""

    @property
    def current(self) -> dict[str, str | None]:
        return {c.target: c.before for c in self.changes}

    @property
    def target_values(self) -> dict[str, str | None]:
        return {c.target: c.after for c in self.changes}

    @property
    def already(self) -> bool:
        return self.applicable and not any(c.needed for c in self.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.tweak.id,
            "title": self.tweak.title,
            "risk": self.tweak.risk,
            "needs_reboot": self.tweak.needs_reboot,
            "advanced": self.tweak.advanced,
            "recommended": self.tweak.recommended,
            "applicable": self.applicable,
            "already": self.already,
            "restarts_link": self.restarts_link,
            "needs_link_consent": self.needs_link_consent,
            "reason": self.reason,
            "not_needed": self.not_needed,
            "changes": [c.to_json() for c in self.changes],
            "commands": list(self.commands),
            "not_possible": [{"target": t, "reason": r} for t, r in self.impossible],
        }


@dataclass
class TuningPlan:
    nic: str | None
    items: list[PlannedTweak]
    options: dict[str, Any] = field(default_factory=dict)
    tweak_ids: list[str] | None = None  # the selection asked for (None: the recommended set)
    inventory: Inventory | None = None  # kept so that apply can read every value afresh
    systemd: bool = False
    netns: str = ""  # the Pi's network namespace the plan was read in ('net:[4026531840]')
    persist_dirs: list[str] = field(default_factory=list)  # where --persist can write
    nm_link: Any = None  # tuning.nm_persist.NmLink: NetworkManager manages the NIC
    persist_preview: list[Change] = field(default_factory=list)  # with options["persist"]
    # Settings of the user's own that a change restarting the interface sets back and no tweak
    # writes (reopen_order.note_resets): written again after the restart and after undoing it.
    kept: list[Change] = field(default_factory=list)

    def item(self, tweak_id: str) -> PlannedTweak | None:
        return next((i for i in self.items if i.tweak.id == tweak_id), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "nic": self.nic,
            "options": self.options,
            "items": [i.to_json() for i in self.items],
            "persist_files": [
                {"path": c.path, "kind": c.kind, "target": c.target, "content": c.after}
                for c in self.persist_preview
            ],
        }


@dataclass
class TweakOutcome:
    tweak_id: str
    status: Status
    detail: str = ""
    changes: list[Change] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.tweak_id,
            "status": self.status,
            "detail": self.detail,
            "changes": [c.to_json() for c in self.changes],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TweakOutcome:
        status = str(data.get("status"))
        if status not in STATUSES:
            raise ValueError(f"unknown tweak status {status!r}")
        return cls(
            str(data["id"]),
            status,
            str(data.get("detail") or ""),
            [Change.from_json(c) for c in data.get("changes") or []],
        )


@dataclass
class AppliedSession:
    id: str
    guard_deadline: float  # epoch seconds on this computer's clock
    outcomes: list[TweakOutcome]
    persist: bool = False
    nic: str | None = None
    guard_seconds: int = 90
    state: str = "armed"
    reachable: bool = True
    record_id: int | None = None  # the history row, when saved
    # The plan options it was applied with (record.public_options): the user's choices and
    # consent, which keeping it across reboots later plans with again (not today's ticks).
    options: dict[str, Any] = field(default_factory=dict)

    def outcome(self, tweak_id: str) -> TweakOutcome | None:
        return next((o for o in self.outcomes if o.tweak_id == tweak_id), None)


@dataclass(frozen=True)
class LiveValue:
    """One change of a session as read back from the Pi just now."""

    change: Change
    value: str | None
    state: LiveState


@dataclass
class LeftoverSession:
    """A session found on the Pi: still guarded, kept, broken, or (in `status`) reverted."""

    id: str
    state: str  # prepared | armed | confirmed | reverting | reverted | revert_failed
    started_at: str
    nic: str | None
    persist: bool
    outcomes: list[TweakOutcome]
    # When armed: when the guard reverts, on THIS computer's clock (epoch seconds), from the
    # seconds left on the Pi's own clock (the two may be days apart).
    guard_deadline: float | None = None
    netns: str = ""
    guard_running: bool | None = None  # None: not known (an older listing)
    reverted_by: str = ""  # guard | manual, once reverted
    problem: str = ""  # why the session's record could not be read (then outcomes is empty)
    live: list[LiveValue] = field(default_factory=list)  # read back by `status`

    @property
    def guarded(self) -> bool:
        return self.state == "armed" and self.guard_running is not False

    @property
    def orphaned(self) -> bool:
        """Waiting for a guard that is not running: sbctune stopped before the guard was
        armed, or the guard died (a reboot ends a detached sleeper and a transient timer)."""
        return self.state in ("prepared", "armed") and self.guard_running is False

    def live_states(self, tweak_id: str | None = None) -> list[LiveState]:
        """The read-back states of the session's changes (of one tweak with `tweak_id`)."""
        if tweak_id is None:
            return [v.state for v in self.live]
        outcome = next((o for o in self.outcomes if o.tweak_id == tweak_id), None)
        mine = set(outcome.changes) if outcome is not None else set()
        return [v.state for v in self.live if v.change in mine]
