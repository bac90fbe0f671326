"""Kept IRQ affinity follows the interrupt's handler name, not its number (the VM test's failure:
the e1000e's MSI-X vectors were 32-34 when tuned and 27-29 after the reboot).

In the pi4-ax88179 lab (its captured /proc/interrupts: the built-in bcmgenet's two lines, both
"eth0", are 38 and 39) the tuning is applied, then "a reboot" numbers the interrupts otherwise:
the same captured lines, eth0's now 31 and 32 and the VCHIQ doorbell's and the SD card's 38 and
39. at-boot.sh, the read-back and the revert must act on 31 and 32 and leave 38 and 39 (another
device's now) alone. (Not the arm-pmu's 33-36: the kernel pins those, and the lab refuses a
write to them, driver_caps_audit36a.md row 1.)
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.tuning import apply, confirm, plan, revert, scripts
from sbctune.tuning.changes import read_back
from sbctune.tuning.scripts import STATE_ROOT
from tests.lab_support import connect_to_lab, forget_session, in_lab

pytestmark = [pytest.mark.lab]

SWAP = {31: 38, 32: 39, 38: 31, 39: 32}


def renumber(lab: LabInfo, swap: dict[int, int]) -> str:
    """The lab's /proc/interrupts with the numbers of `swap` exchanged (lines kept byte for
    byte after the colon), in ascending order as the kernel prints them; written in place."""
    text = in_lab(lab, "cat /proc/interrupts")
    head, numbered, tail = [], [], []
    for line in text.splitlines():
        number, sep, rest = line.partition(":")
        if sep and number.strip().isdigit():
            n = swap.get(int(number), int(number))
            numbered.append((n, f"{n:>3}:{rest}"))
        else:
            (tail if numbered else head).append(line)
    new = "\n".join([*head, *(line for _, line in sorted(numbered)), *tail]) + "\n"
    out = in_lab(lab, f"printf '%s' {shlex.quote(new)} >/proc/interrupts; echo rc=$?")
    assert "rc=0" in out, out
    assert in_lab(lab, "cat /proc/interrupts") == new
    return new


def masks(lab: LabInfo, numbers: list[int]) -> dict[int, str]:
    got = in_lab(lab, " ".join(f"cat /proc/irq/{n}/smp_affinity;" for n in numbers))
    return dict(zip(numbers, got.split(), strict=True))


async def test_kept_irq_affinity_follows_the_name_after_renumbering(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("pi4-ax88179")
    assert [line.split()[-1] for line in in_lab(lab, "grep -E ' eth0$' /proc/interrupts")
            .splitlines()] == ["eth0", "eth0"]  # fmt: skip
    before = masks(lab, [31, 32, 38, 39])
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        the_plan = await plan(session, inventory, "eth0", ["irq-affinity"])
        (item,) = [i for i in the_plan.items if i.tweak.id == "irq-affinity"]
        kept = [c for c in item.changes if c.kind == "irq_affinity"]
        assert [(c.path, c.irq_name, c.irq_ordinal) for c in kept] == [
            ("/proc/irq/38/smp_affinity", "eth0", 0),
            ("/proc/irq/39/smp_affinity", "eth0", 1),
        ]
        applied = await apply(session, the_plan, guard_seconds=120)
        try:
            assert applied.state == "armed", applied.outcomes
            tuned = masks(lab, [38, 39])
            assert tuned != {38: before[38], 39: before[39]}
            await confirm(session, applied.id)
            # What --persist leaves for the boot, for these changes (the lab's /etc is the
            # host's: the unit and rule are not written here, at-boot.sh is what they run)
            at_boot = scripts.apply_at_boot_script(applied.id, kept)
            folder = f"{STATE_ROOT}/{applied.id}"
            in_lab(lab, f"printf '%s' {shlex.quote(at_boot)} >{folder}/at-boot.sh")

            # "the reboot": other numbers, every affinity back to the default (every CPU)
            renumbered = renumber(lab, SWAP)
            in_lab(lab, " ".join(f"echo f >/proc/irq/{n}/smp_affinity;" for n in SWAP))
            # the NIC not up yet: its name is nowhere; nothing is written anywhere
            not_up = renumbered.replace(" eth0\n", " eth9\n")
            assert not_up != renumbered
            in_lab(
                lab, f"printf '%s' {shlex.quote(not_up)} >/proc/interrupts; sh {folder}/at-boot.sh"
            )
            log = in_lab(lab, f"cat {folder}/at-boot.log")
            assert 'no interrupt called "eth0"' in log and "were not set" in log, log
            assert set(masks(lab, list(SWAP)).values()) == {"f"}
            in_lab(lab, f"printf '%s' {shlex.quote(renumbered)} >/proc/interrupts")

            # the NIC up (NetworkManager's dispatcher runs at-boot.sh again)
            in_lab(lab, f"sh {folder}/at-boot.sh")
            assert masks(lab, [31, 32]) == {31: tuned[38], 32: tuned[39]}
            assert masks(lab, [38, 39]) == {38: "f", 39: "f"}  # VCHIQ's and the SD card's now
            assert 'interrupt "eth0" is 31 now' in in_lab(lab, f"cat {folder}/at-boot.log")
            live = await read_back(session, kept)
            assert [v.state for v in live] == ["in_force", "in_force"]
            assert [v.value for v in live] == [tuned[38], tuned[39]]

            await revert(session)
            assert masks(lab, [31, 32]) == {31: before[38], 32: before[39]}
            assert masks(lab, [38, 39]) == {38: "f", 39: "f"}
        finally:
            forget_session(applied.id)
