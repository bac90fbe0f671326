"""Audit 46 (resources/tuning/driver_caps_audit46.md): the Raspberry Pi tree's newest branches
against mainline, for the drivers on the Pi's own ports (macb on RP1, bcmgenet, lan78xx,
smsc95xx) and the interrupt chips under them.

Row 1: the Pi 5's eth0 interrupt sits on rp1_irq_chip. The Raspberry Pi tree's own
drivers/mfd/rp1.c gave that chip rp1_irq_set_affinity (raspberrypi/linux PR #6090, issue #6077;
rpi-6.12.y has it: issue #7101's "did not update eff. affinity mask" on 6.12.62+rpt-rpi-2712 is
printed only after the callback succeeded, kernel/irq/manage.c irq_do_set_affinity), so there it
moves. Mainline drives the RP1 with its own drivers/misc/rp1/rp1_pci.c (macb's Ethernet from
6.18), whose rp1_irq_chip has no irq_set_affinity: __irq_can_set_affinity is false and
write_irq_affinity (kernel/irq/proc.c, 7.2) refuses every write with EPERM. On a Pi 5 running a
mainline kernel (Debian's 7.2 backport) sbctune planned "eth0's interrupt moved off CPU 0" and
the lab took the write; the kernel refuses it.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from sbctune.inventory.irq_chips import fixed_irqs
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.lab import configs, load_profile
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts, Read
from tests.knob_tree import irq_mask_write
from tests.lab_profiles import profile_copy
from tests.plan_one import plan_one

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
# a real Pi 5's /proc/interrupts (raspberrypi/linux issue 6898): "104: ... rp1_irq_chip 6 ... eth0"
PI5 = CAPTURES / "pi5_linux_6898_ip_s_rx_drops_interrupts_cpu0_ethtool_s_grep.txt"
MAINLINE = ["7.2.12+bpo-arm64", "6.18.3-arm64"]  # Debian's backport; any mainline 6.18 on
PI_TREE = ["6.12.62+rpt-rpi-2712", "6.18.39+rpt-rpi-2712", "6.12.54-v8-16k+", "6.1.0-rpi7-rpi-2712"]
WHERE = "drivers/misc/rp1/rp1_pci.c: rp1_irq_chip"


def _eth0(kernel: str) -> tuple[list[int], str | None]:
    parsed = parse_interrupts(PI5.read_text(encoding="utf-8"))[0]
    return fixed_irqs(parsed, [104], kernel)


@pytest.mark.parametrize("kernel", MAINLINE)
def test_inspect_calls_the_pi5s_eth0_interrupt_fixed_on_a_mainline_kernel(kernel: str) -> None:
    fixed, why = _eth0(kernel)
    assert fixed == [104]
    assert why is not None and WHERE in why and "RP1" in why


@pytest.mark.parametrize("kernel", [*PI_TREE, "", "6.12.0-arm64"])
def test_on_the_raspberry_pi_tree_or_an_unknown_kernel_it_still_moves(kernel: str) -> None:
    """rp1_irq_set_affinity (the tree's own rp1.c), and a kernel whose release is not known
    claims nothing (the write says). Holds before the fix too."""
    assert _eth0(kernel) == ([], None)


def _plan(kernel: str):  # type: ignore[no-untyped-def]
    found = Facts("eth0")
    found.knobs["/sys/devices/system/cpu/online"] = Read(True, "0-3")
    found.knobs["/proc/irq/104/smp_affinity"] = Read(True, "f")
    nic = Nic("eth0", driver="macb", chip="RP1", irqs=[104])
    nic.fixed_irqs, nic.fixed_irqs_why = _eth0(kernel)
    return plan_one("irq-affinity", found, nic, kernel)


def test_irq_affinity_is_not_planned_for_a_pi5_on_mainline() -> None:
    item = _plan("7.2.12+bpo-arm64")
    assert not item.applicable
    assert not item.changes
    assert "cannot be moved off CPU 0" in item.reason
    assert WHERE in item.reason


def test_irq_affinity_is_still_planned_for_a_pi5_on_raspberry_pi_os() -> None:
    item = _plan("6.12.62+rpt-rpi-2712")
    assert item.applicable, item.reason
    assert [c.target for c in item.changes if c.kind == "irq_affinity"] == [
        "/proc/irq/104/smp_affinity"
    ]


def _write(tmp_path: Path, kernel: str, mask: str) -> tuple[int | None, str]:
    """`echo MASK > /proc/irq/112/smp_affinity` (the pi5-macb profile's eth0, rp1_irq_chip 6)
    in the lab's knob tree for `kernel`: the errno (None when taken) and what it reads after."""
    copy = profile_copy(tmp_path, "pi5-macb", "pi5", kernel=kernel)
    code, after = irq_mask_write(configs.knobs_config(load_profile(str(copy))), 112, mask)
    return code, after.strip()


@pytest.mark.parametrize("kernel", MAINLINE)
def test_the_labs_pi5_on_mainline_refuses_to_move_eth0(tmp_path: Path, kernel: str) -> None:
    assert _write(tmp_path, kernel, "2\n") == (errno.EPERM, "f")


def test_the_labs_pi5_on_raspberry_pi_os_moves_eth0(tmp_path: Path) -> None:
    assert _write(tmp_path, "6.12.62+rpt-rpi-2712", "2\n") == (None, "2")


# ------------------------------------------------------------------------------ row 2
# On a kernel that threads every handler (PREEMPT_RT: uname -v, init/Makefile's preempt-flag),
# the handler thread follows an affinity write only through the chip's effective mask
# (kernel/irq/manage.c irq_thread_check_affinity), which the Raspberry Pi tree's rp1_irq_chip
# leaves empty (issue 7101: smp_affinity f, effective_affinity 0 on 6.12.62+rpt-rpi-2712; issue
# 7301 on PREEMPT_RT: the thread stays). irq-affinity was planned as "moved off CPU 0".

# real uname -a lines: kdoren/linux issue 1 (a Pi 4 on 5.4.81-rt45-v8+, before and after the
# rebuild with PREEMPT_RT), raspberrypi/linux issue 2244 (the RT patch's older two words)
RT_UNAME = (
    "Linux jambox 5.4.81-rt45-v8+ #9 SMP PREEMPT_RT Mon Dec 28 00:13:29 PST 2020 aarch64 GNU/Linux"
)
NOT_RT_UNAME = (
    "Linux raspberrypi 5.4.81-rt45-v8+ #4 SMP PREEMPT Sat Dec 12 04:48:41 PST 2020 aarch64"
    " GNU/Linux"
)


def _board(uname: str) -> Board:
    from sbctune.advice.inspect import inventory_from_raw
    from sbctune.inventory.raw import RawOutputs

    return inventory_from_raw(RawOutputs(commands={"uname -a": uname + "\n"})).board


def test_inspect_reads_a_kernel_that_threads_its_handlers_from_uname() -> None:
    assert _board(RT_UNAME).irq_threads == "PREEMPT_RT"
    assert _board(NOT_RT_UNAME).irq_threads is None
    assert _board(RT_UNAME).kernel == "5.4.81-rt45-v8+"


def _rt_plan(effective: str, threads: str | None = "PREEMPT_RT"):  # type: ignore[no-untyped-def]
    found = Facts("eth0")
    found.knobs["/sys/devices/system/cpu/online"] = Read(True, "0-3")
    found.knobs["/proc/irq/104/smp_affinity"] = Read(True, "f")
    found.knobs["/proc/irq/104/effective_affinity"] = Read(True, effective)
    nic = Nic("eth0", driver="macb", chip="RP1", irqs=[104])
    tweak = catalog.tweak("irq-affinity")
    board = Board(kernel="6.12.62+rpt-rpi-2712", irq_threads=threads)
    inventory = Inventory(board=board, nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak.id,)))


def test_on_an_rt_kernel_a_handler_thread_that_would_not_follow_is_not_moved() -> None:
    item = _rt_plan("0")
    assert not item.applicable
    assert not item.changes
    assert "runs every interrupt handler in a thread" in item.reason
    assert "effective_affinity reads 0 while smp_affinity reads f" in item.reason
    assert "kernel/irq/manage.c: irq_thread_check_affinity" in item.reason


@pytest.mark.parametrize(("effective", "threads"), [("1", "PREEMPT_RT"), ("0", None)])
def test_a_chip_that_reports_its_mask_or_a_kernel_without_threads_still_moves(
    effective: str, threads: str | None
) -> None:
    """The GIC fills the effective mask (a Pi 4's bcmgenet: the thread follows); without
    PREEMPT_RT the handler runs where the interrupt does. Holds before the fix too."""
    item = _rt_plan(effective, threads)
    assert item.applicable, item.reason
    assert [c.target for c in item.changes] == ["/proc/irq/104/smp_affinity"]
