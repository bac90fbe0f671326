"""Writing a session's changes on the Pi, reading them back, and judging what happened.

A refused write (EINVAL, ENOENT, EOPNOTSUPP, EPERM, EIO) that left the value as it was is "not
possible here" with the kernel's reason; any other failure fails the tweak. Whatever the verdict, a
change whose value read back is no longer its `before` was touched, and is reverted with the
session.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.remote.script_time import script_seconds
from sbctune.tuning import link_wait, reopen_order
from sbctune.tuning.knobs import joined_argvs, read_argv, same_value, value_from, write_argvs
from sbctune.tuning.link_wait import LinkFacts, LinkWait
from sbctune.tuning.model import Change, LiveState, LiveValue, PlannedTweak, TweakOutcome
from sbctune.tuning.reopen_order import OpenFacts
from sbctune.tuning.setting_names import target_label

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

_REFUSALS = (
    "Invalid argument",
    "No such file or directory",
    "Operation not supported",
    "not supported",
    "Permission denied",
    "Operation not permitted",
    # EIO: /proc/irq/N/smp_affinity of an interrupt whose chip cannot be steered, before 6.12
    # (kernel/irq/proc.c write_irq_affinity; EPERM from 6.12).
    "Input/output error",
    "I/O error",  # the same EIO in musl's words (busybox on Alpine)
    "Could not change any device features",  # ethtool -K: the driver or kernel kept it as is
    # EOVERFLOW: a CPU mask naming a CPU the system does not have (rps_cpus, smp_affinity).
    "Value too large for defined data type",
    "exceeds maximum",  # virtio_net: "requested ring size exceeds maximum" (netlink extack)
)


@dataclass(frozen=True)
class Written:
    """One change after its write: the failed write step (None: it went through) and the
    value read back (None: unreadable, or the file does not exist)."""

    change: Change
    index: int  # its number in the session (names its backup file)
    failed: StepResult | None
    value: str | None
    # Read back after a change that restarted the interface, whose driver sets this setting back
    # at every open (reopen_order): why a value other than the one written is shown.
    set_back: str = ""
    # A write that drops the link (link_wait): True, and what the Pi saw before the read-back
    # (None: it did not say), on the first change of that write
    link_waited: bool = False
    link: LinkWait | None = None

    @property
    def touched(self) -> bool:
        """Whether the Pi's value is no longer the one from before (so it must be reverted)."""
        return not same_value(self.change, self.value, self.change.before)


@dataclass
class Verdict:
    """What happened to each change of one tweak."""

    item: PlannedTweak
    applied: list[Change] = field(default_factory=list)
    impossible: list[tuple[str, str]] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)


# A driver's own words come before the errno's in ethtool's netlink output
# ("netlink error: requested ring size exceeds maximum (offset 36)", then "netlink error:
# Invalid argument"): those refusals are looked for first.
_SPECIFIC = _REFUSALS[8:]
_OFFSET = re.compile(r"\s*\(offset \d+\)$")


def refused(stderr: str) -> str | None:
    """The kernel's (or driver's) refusal in a write's error output, or None."""
    lines = stderr.strip().splitlines()
    for refusals in (_SPECIFIC, _REFUSALS):
        for line in reversed(lines):
            for refusal in refusals:
                if refusal.lower() in line.lower():
                    words = line.strip().rsplit(": ", 1)[-1] if ": " in line else line.strip()
                    return _OFFSET.sub("", words)
    return None


async def run_changes(
    session: Session,
    changes: Sequence[Change],
    directory: str,
    first_index: int = 0,
    facts: OpenFacts | None = None,
    kept: Sequence[Change] = (),
    link: LinkFacts | None = None,
) -> list[Written]:
    """Write each change and read it back, as root, in one round trip. With the NIC's `facts`,
    the changes that restart the interface are written before the settings its open sets back,
    and those are read back after every write (reopen_order); with its `link` facts, a write
    that drops the link is read back only once the link is back (link_wait). The result keeps
    `changes`' order."""
    steps: list[batch.Step] = []
    owners: list[tuple[tuple[int, ...], str]] = []
    last = reopen_order.read_last(changes, facts)
    order = reopen_order.apply_order(changes, facts)
    again = reopen_order.after_last_restart(order, changes, facts)
    ordered = [changes[o] for o in order]
    kept_done = again is None
    # Rings' rx and tx in one `ethtool -G` (knobs.joined_argvs): one restart, one link drop;
    # each value is still read back and judged on its own.
    for run, argvs in joined_argvs(
        ordered, [c.after for c in ordered], state_dir=directory,
        indices=[first_index + o for o in order], restoring=False,
    ):  # fmt: skip
        if not kept_done and again is not None and run[0] >= again:
            _write_kept(steps, owners, kept)
            kept_done = True
        offsets = tuple(order[at] for at in run)
        iface = _dropping_iface([changes[o] for o in offsets], link) if argvs else None
        if iface is not None:  # the NIC's state before the write that drops its link
            steps.append(batch.Step(tuple(link_wait.mark_argv(iface, directory)), f"m{len(steps)}",
                                    timeout=30))  # fmt: skip
            owners.append(((), "m"))
        for argv in argvs:
            steps.append(batch.Step(tuple(argv), f"w{offsets[0]}.{len(steps)}", timeout=30))
            owners.append((offsets, "w"))
        if iface is not None:  # the read-back waits for the link to be back
            steps.append(batch.Step(tuple(link_wait.wait_argv(iface, directory)),
                                    f"l{offsets[0]}", timeout=link_wait.STEP_SECONDS,
                                    max_bytes=200))  # fmt: skip
            owners.append(((offsets[0],), "l"))
        for offset in offsets:
            if offset not in last:
                steps.append(batch.Step(tuple(read_argv(changes[offset])), f"r{offset}",
                                        timeout=30))  # fmt: skip
                owners.append(((offset,), "r"))
    if not kept_done:
        _write_kept(steps, owners, kept)
    for offset in sorted(last):
        steps.append(batch.Step(tuple(read_argv(changes[offset])), f"r{offset}", timeout=30))
        owners.append(((offset,), "r"))
    dropped_by, again_read = _read_again(changes, order, last, link)
    for offset in again_read:
        steps.append(batch.Step(tuple(read_argv(changes[offset])), f"R{offset}", timeout=30))
        owners.append(((offset,), "R"))
    results = await session.run_script(steps, sudo=True, timeout=script_seconds(steps),
                                       what="the tuning's writes and their read-back")  # fmt: skip
    failed: dict[int, StepResult] = {}
    reads: dict[int, StepResult] = {}
    finals: dict[int, StepResult] = {}
    waits: dict[int, LinkWait | None] = {}
    for (offsets, what), result in zip(owners, results, strict=True):
        if what == "l":
            waits[offsets[0]] = link_wait.parse(result.text, link.iface if link else "")
        for offset in offsets:
            if what == "w" and not result.ok and offset not in failed:
                failed[offset] = result
            if what == "r":
                reads[offset] = result
            if what == "R":
                finals[offset] = result
    out = []
    for offset, change in enumerate(changes):
        read = reads.get(offset)
        value = value_from(change, read.exit_code, read.text) if read is not None else None
        set_back = ""
        if offset in last and facts is not None and not same_value(change, value, change.after):
            set_back = reopen_order.set_back_words(facts, value, change)
        final = finals.get(offset)
        if final is not None and same_value(change, value, change.after) and offset not in failed:
            now = value_from(change, final.exit_code, final.text)
            if not same_value(change, now, change.after):
                value, set_back = now, _undone_words(now, dropped_by, link)
        out.append(Written(change, first_index + offset, failed.get(offset), value, set_back,
                           offset in waits, waits.get(offset)))  # fmt: skip
    return out


def _read_again(
    changes: Sequence[Change], order: Sequence[int], last: set[int], link: LinkFacts | None
) -> tuple[Change | None, list[int]]:
    """The last write (in `order`) that drops the NIC's link, and the NIC's values written
    before it that nothing else reads after it: read again after every write, so that what a
    session calls applied is what it leaves in force, also where a later restart undoes a value
    in a way the table does not name (audit 38a)."""
    if link is None:
        return None, []
    dropping = [n for n, i in enumerate(order) if link_wait.drops(changes[i], link) is not None]
    if not dropping:
        return None, []
    by = changes[order[dropping[-1]]]
    # the changes of that write's own command (rx and tx rings: one `ethtool -G`) are its own
    earlier = [i for i in order[: dropping[-1]] if _command(changes[i]) != _command(by)]
    again = sorted(i for i in earlier if i not in last and _of_nic(changes[i], link.iface))
    return by, again


def _command(change: Change) -> tuple[str, ...]:
    """What a change's command writes: the NIC and ethtool option, or the kind and target."""
    words = change.target.split(" ")
    return (change.kind, *words[:2]) if change.kind == "ethtool" else (change.kind, change.target)


def _of_nic(change: Change, iface: str) -> bool:
    """Whether `change` is a setting of the NIC `iface` (its ethtool values, its MTU, its
    queues' files, its interrupts' affinity) that a restart of it could undo."""
    if change.kind == "ethtool":
        return change.target.split(" ")[0] == iface
    if change.kind == "mtu":
        return change.target == iface
    if change.kind == "file":
        return change.target.startswith(f"/sys/class/net/{iface}/")
    return change.kind == "irq_affinity"


# a later write that drops the link, in the words of the outcome's reader
_WHAT = {"-G": "the ring change", "-L": "the channel change", "--set-eee": "the EEE change",
         "-A": "the flow control change", "-K": "the offload change"}  # fmt: skip


def _undone_words(now: str | None, by: Change | None, link: LinkFacts | None) -> str:
    """Why a value that read back as written is not in force after the session's writes."""
    shown = "no value" if now is None else repr(now)
    what = "a later change"
    if by is not None and by.kind == "mtu":
        what = "the MTU change"
    elif by is not None:
        option = by.target.split(" ")[1] if len(by.target.split(" ")) == 3 else ""
        what = _WHAT.get(option, target_label(by.target))
    iface = link.iface if link is not None else "the interface"
    return (f"it read back as written, but after {what} dropped the link of {iface} it shows "
            f"{shown}, so it is not in force")  # fmt: skip


def _dropping_iface(changes: Sequence[Change], link: LinkFacts | None) -> str | None:
    """The NIC whose link one write of `changes` drops, or None."""
    return link.iface if link is not None and link_wait.any_drops(changes, link) else None


def _write_kept(
    steps: list[batch.Step], owners: list[tuple[tuple[int, ...], str]], kept: Sequence[Change]
) -> None:
    """The user's own values of settings the restart sets back, written again (not judged)."""
    for change in kept:
        for argv in write_argvs(change, change.after, restoring=False):
            steps.append(batch.Step(tuple(argv), f"k{len(steps)}", timeout=30))
            owners.append(((), "k"))


def judge(item: PlannedTweak, results: Sequence[Written]) -> Verdict:
    verdict = Verdict(item, impossible=list(item.impossible))
    for one in results:
        change, value = one.change, one.value
        if one.failed is not None:
            reason = refused(one.failed.error_text)
            message = one.failed.error_text.strip().splitlines()
            detail = message[-1] if message else f"exit code {one.failed.exit_code}"
            if reason is not None and same_value(change, value, change.before):
                verdict.impossible.append((change.target, reason))
            else:
                verdict.failed.append((change.target, detail))
            continue
        if not same_value(change, value, change.after):
            # None: the Pi showed no value for it (not "read back None": s13 walk)
            seen = "no value was shown" if value is None else f"read back {value!r}"
            detail = f"{seen} after writing {change.after!r}"
            if one.set_back:  # the driver's open undid it: in plain words (issue 21)
                detail += f": {one.set_back}"
            verdict.failed.append((change.target, detail))
        verdict.applied.append(change)
    return verdict


def _summary_read_back(verdict: Verdict) -> str:
    """The tweak's reason with its summary naming only what is in force: a setting the Pi
    refused while writing (read back as before) is taken out of it (PlannedTweak.named)."""
    item = verdict.item
    head = item.summary({target for target, _why in item.impossible})
    if not item.named or not head or not item.reason.startswith(head):
        return item.reason
    now = item.summary({target for target, _why in verdict.impossible})
    return (now or "none of what it names is on") + item.reason[len(head) :]


def _refused_name(target: str) -> str:
    """A refused setting in the outcome's detail: in words first ("TCP segmentation offload
    (eth0 -K tso)"), as `tune plan` and the Tune page name it. A file of /proc or /sys stays
    as it is: the detail's reader says its refusal as the kernel's answer (detail_words)."""
    return target if target.startswith("/") else target_label(target)


def outcome(verdict: Verdict) -> TweakOutcome:
    tweak_id = verdict.item.tweak.id
    notes = [f"{_refused_name(t)}: {r}" for t, r in verdict.impossible]
    if verdict.failed:
        detail = "; ".join(f"{t}: {r}" for t, r in verdict.failed)
        return TweakOutcome(tweak_id, "failed", detail, verdict.applied)
    if verdict.applied:
        detail = _summary_read_back(verdict)
        if notes:
            detail += " (not possible here: " + "; ".join(notes) + ")"
        if verdict.item.tweak.needs_reboot:
            detail += "; takes effect after a reboot"
        return TweakOutcome(tweak_id, "applied", detail, verdict.applied)
    if notes and verdict.item.changes and verdict.item.already:
        # What it can set is set; the rest the driver refuses (macb's TSO): in force, not refused.
        return TweakOutcome(
            tweak_id, "already", "already set (not possible here: " + "; ".join(notes) + ")"
        )
    if notes:
        return TweakOutcome(tweak_id, "not_possible", "; ".join(notes))
    return TweakOutcome(tweak_id, "already", "already set")


async def restore(session: Session, changes: Sequence[Change], directory: str) -> None:
    """Put `changes` back at once (newest first), as root, in one round trip."""
    back = list(reversed(changes))
    runs = joined_argvs(back, [c.before for c in back], state_dir=directory,
                        indices=[0] * len(back), restoring=True)  # fmt: skip
    steps = [
        batch.Step(tuple(argv), f"u{i}", timeout=30)
        for i, (_run, argvs) in enumerate(runs)
        for argv in argvs
    ]
    if steps:
        await session.run_script(steps, sudo=True, timeout=script_seconds(steps),
                                 what="putting values back")  # fmt: skip


def live_state(change: Change, value: str | None, readable: bool) -> LiveState:
    if not readable and change.kind != "service":  # a service's state is its exit code
        return "unknown"
    if same_value(change, value, change.after):
        return "in_force"
    if same_value(change, value, change.before):
        return "original"
    return "other"


async def read_back(session: Session, changes: Sequence[Change]) -> list[LiveValue]:
    """The Pi's value of each change right now (as the login user: no password prompt)."""
    if not changes:
        return []
    steps = [batch.Step(tuple(read_argv(c)), f"r{i}", timeout=20) for i, c in enumerate(changes)]
    results = await session.run_script(steps, timeout=script_seconds(steps),
                                       what="reading the tuned values back")  # fmt: skip
    live = []
    for change, result in zip(changes, results, strict=True):
        value = value_from(change, result.exit_code, result.text)
        readable = result.ok or (change.kind in ("file", "boot") and "No such file" in
                                 result.error_text)  # fmt: skip
        live.append(LiveValue(change, value, live_state(change, value, readable)))
    return live
