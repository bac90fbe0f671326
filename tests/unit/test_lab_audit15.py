"""Issue 21, audit15 (resources/tuning/driver_caps_audit15.md).

Row W: when /sys/devices/system/cpu/online could not be read, plan_rps, plan_xps and
plan_irq_affinity said "the Pi has one CPU core" as if it had been read (Context.cpus() gives []
for an unread list, and an empty list is "fewer than two"). They now say what was read: one CPU
online (which one, from where), or that the list was not read / could not be read / was not a
CPU list, and what to do. The source rule's "one CPU core" names what gave the inventory's
count (/proc/cpuinfo, /sys/devices/system/cpu/present, /proc/interrupts, or the board's
specification when nothing on the Pi said it).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.raw import RawOutputs
from sbctune.tuning import catalog, source_rule
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.knobs import parse_cpu_list
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read

ONLINE = "/sys/devices/system/cpu/online"
KERNEL_TWEAKS = ("rps-rfs", "xps", "irq-affinity")
# The shape of a Pi 1's /proc/cpuinfo (one processor block; the kernel's cpuinfo format)
PI1_CPUINFO = "processor\t: 0\nmodel name\t: ARMv6-compatible processor rev 7\nRevision\t: 000e\n"


def _facts(online: Read | None) -> Facts:
    """A Pi with two queues each way and bcmgenet's two movable lines; `online` as given
    (None: not read at all)."""
    found = Facts("eth0")
    knobs = {"/proc/irq/38/smp_affinity": "f", "/proc/irq/39/smp_affinity": "f"}
    for queue in range(2):
        for name in (f"rx-{queue}/rps_cpus", f"rx-{queue}/rps_flow_cnt", f"tx-{queue}/xps_cpus"):
            knobs[f"/sys/class/net/eth0/queues/{name}"] = "0"
    found.knobs = {path: Read(True, value) for path, value in knobs.items()}
    if online is not None:
        found.knobs[ONLINE] = online
    return found


def _plan(tweak_id: str, online: Read | None) -> PlannedTweak:
    # The inventory does not count the cores (a bundle without cpuinfo), so the source rule
    # leaves the answer to the planner, which reads the Pi's online list
    nic = Nic(name="eth0", driver="bcmgenet", bus="platform", irqs=[38, 39])
    inventory = Inventory(board=Board(model="Raspberry Pi 4 Model B Rev 1.5"), nics=[nic])
    tweak = catalog.tweak(tweak_id)
    ctx = Context(tweak, _facts(online), inventory, nic, {}, {}, (tweak_id,))
    return PLANNERS[tweak.kind](ctx)


UNREAD = [
    (Read(False, f"cat: {ONLINE}: Permission denied"), "could not be read (Permission denied)"),
    (Read(False, f"cat: {ONLINE}: No such file or directory"), "could not be read (No such"),
    (None, "was not read"),
    (Read(True, "banana"), "is not a CPU list"),
    (Read(True, ""), "is not a CPU list"),
]


@pytest.mark.parametrize("tweak_id", KERNEL_TWEAKS)
@pytest.mark.parametrize(("online", "words"), UNREAD)
def test_an_unread_cpu_list_is_not_called_one_core(
    tweak_id: str, online: Read | None, words: str
) -> None:
    item = _plan(tweak_id, online)
    assert not item.applicable, item
    assert "one CPU core" not in item.reason, item.reason
    assert words in item.reason and ONLINE in item.reason, item.reason
    assert "is not known" in item.reason and "plan again" in item.reason, item.reason


@pytest.mark.parametrize("tweak_id", KERNEL_TWEAKS)
def test_one_cpu_online_says_which_and_where_from(tweak_id: str) -> None:
    item = _plan(tweak_id, Read(True, "0"))
    assert not item.applicable
    assert item.reason.startswith(f"the Pi has one CPU core online (CPU 0, from {ONLINE})")


@pytest.mark.parametrize("tweak_id", KERNEL_TWEAKS)
def test_four_cpus_online_still_plan(tweak_id: str) -> None:
    item = _plan(tweak_id, Read(True, "0-3"))
    assert item.applicable and item.changes, item.reason


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_online_text_is_one_core_only_when_it_lists_one(text: str) -> None:
    item = _plan("rps-rfs", Read(True, text))
    cpus = parse_cpu_list(text)
    assert ("one CPU core online" in item.reason) == (len(cpus) == 1), (text, item.reason)
    if not cpus:
        assert "is not a CPU list" in item.reason and not item.applicable


@pytest.mark.parametrize(
    ("files", "source"),
    [
        ({"/proc/cpuinfo": PI1_CPUINFO}, "processors in /proc/cpuinfo"),
        ({ONLINE.replace("online", "present"): "0\n"}, "/sys/devices/system/cpu/present"),
        ({"/proc/device-tree/model": "Raspberry Pi Model B Rev 2\x00"}, "CPU list was not read"),
    ],
)
def test_the_source_rules_one_core_names_what_gave_the_count(
    files: dict[str, str], source: str
) -> None:
    inventory = inventory_from_raw(RawOutputs(files=files))
    assert inventory.board.cpu_cores == 1, inventory.board
    nic = Nic(name="eth0", driver="bcmgenet", bus="platform", irqs=[38, 39])  # five TX queues
    for tweak_id in KERNEL_TWEAKS:
        why = source_rule.out_of_reach(tweak_id, inventory, nic) or ""
        assert why.startswith("the Pi has one CPU core (") and source in why, (tweak_id, why)
