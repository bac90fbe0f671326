"""RPS, XPS and IRQ affinity for each of the 13 drivers met in real pastes (issue 21): the
planner reads what the lab's knob models answer for an interface of that driver, and both
agree with the driver capability table (resources/tuning/driver_caps.json, from the kernel's
source): XPS only where the driver allocates more than one transmit queue (net-sysfs.c
xps_cpus_show/xps_cpus_store answer ENOENT otherwise), RPS everywhere (rps_cpus is the core's,
not the driver's), IRQ affinity wherever the NIC's interrupt can be steered.

The CPU list and the IRQ's affinity are the dev VM's real captures (tests/captures/dev_vm).
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab.ethtool_table import driver_queues, driver_queues_allocated, single_queue
from sbctune.lab.knobs_model import Irq, QueueMap
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.knobs import parse_cpu_list
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "dev_vm"
ONLINE = (CAPTURES / "sys_cpu_online.txt").read_text(encoding="utf-8").strip()  # "0-1"
AFFINITY = (CAPTURES / "proc_irq_25_smp_affinity.txt").read_text(encoding="utf-8").strip()
CPUS = len(parse_cpu_list(ONLINE))
PASTED = driver_caps.table()["pasted"]
QUEUES = "/sys/class/net/eth0/queues"


def lab_read(model: QueueMap, path: str) -> Read:
    """What `cat` prints of the lab's file: its value, or the kernel's error as cat words it."""
    try:
        return Read(True, model.read().strip())
    except OSError as exc:
        return Read(False, f"cat: {path}: {exc.strerror}")


def lab_queues(driver: str) -> dict[str, QueueMap]:
    """The lab's rps_cpus/xps_cpus models for an interface of `driver`, as the lab builds them
    (queue counts from driver_queues, ENOENT xps where the profile loader says single queue)."""
    counts = driver_queues(driver, "", CPUS) or (1, 1)
    models = {}
    for kind, knob, count in (("tx", "xps_cpus", counts[0]), ("rx", "rps_cpus", counts[1])):
        for index in range(count):
            enoent = knob == "xps_cpus" and single_queue(driver)
            models[f"{QUEUES}/{kind}-{index}/{knob}"] = QueueMap(CPUS, CPUS, None, enoent)
    return models


def plan(tweak_id: str, driver: str, knobs: dict[str, Read], irqs: list[int]) -> PlannedTweak:
    found = Facts("eth0")
    found.knobs = {"/sys/devices/system/cpu/online": Read(True, ONLINE), **knobs}
    nic = Nic("eth0", driver=driver, irqs=irqs)
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel="6.1.0-27-arm64"), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak_id,)))


@pytest.mark.parametrize("driver", PASTED)
def test_xps_is_planned_exactly_where_the_driver_has_transmit_queues(driver: str) -> None:
    caps = driver_caps.caps(driver, "6.1.0-27-arm64")
    assert caps is not None
    single = caps.single_tx_queue()  # macb: the hardware's count, 1 unless a board says more
    models = lab_queues(driver)
    xps = {p: m for p, m in models.items() if p.endswith("xps_cpus")}
    # the lab: ENOENT on read and write exactly for the single-queue drivers
    for path, model in xps.items():
        assert lab_read(model, path).ok == (not single), (driver, path)
    item = plan("xps", driver, {p: lab_read(m, p) for p, m in xps.items()}, [])
    assert item.applicable == (not single), (driver, item.reason)
    if single:
        assert "one transmit queue" in item.reason and "ENOENT" in item.reason
        assert (
            caps.cite("netdev" if caps.multiqueue is False else "queues_allocated") in item.reason
        )
        with pytest.raises(OSError) as refused:
            next(iter(xps.values())).write("1")
        assert refused.value.errno == errno.ENOENT
        return
    for change in item.changes:  # what the apply step writes, the lab (as the kernel) keeps
        xps[change.target].write(change.after)
        assert lab_read(xps[change.target], change.target).text == change.after


@pytest.mark.parametrize("driver", PASTED)
def test_rps_is_planned_for_every_driver_and_the_lab_keeps_it(driver: str) -> None:
    models = {p: m for p, m in lab_queues(driver).items() if p.endswith("rps_cpus")}
    assert models, driver
    reads = {p: lab_read(m, p) for p, m in models.items()}
    assert all(r.ok for r in reads.values())
    item = plan("rps-rfs", driver, reads, [])
    assert item.applicable, (driver, item.reason)
    for change in item.changes:
        if change.target in models:
            models[change.target].write(change.after)
            assert lab_read(models[change.target], change.target).text == change.after


@pytest.mark.parametrize("driver", PASTED)
def test_irq_affinity_is_planned_for_every_driver_and_the_lab_takes_it(driver: str) -> None:
    """The driver does not decide whether its interrupt can be steered (the interrupt chip
    does: kernel/irq/proc.c write_irq_affinity); the plan is the same for all 13 drivers."""
    irq = Irq(25, CPUS, refuse=False, mask=int(AFFINITY, 16))
    path = "/proc/irq/25/smp_affinity"
    item = plan("irq-affinity", driver, {path: Read(True, AFFINITY)}, [25])
    assert item.applicable, (driver, item.reason)
    (change,) = [c for c in item.changes if c.target == path]
    irq.write_mask(change.after)
    assert irq.mask == int(change.after, 16) and not irq.mask & 1  # off CPU 0


def test_the_lab_gives_each_driver_its_kernels_queue_counts() -> None:
    """bcmgenet: 5 TX, 1 RX (GENET v5); igb: one pair per CPU up to the MAC's maximum
    (igb_get_max_rss_queues: I211 2, I210 4, else 8); igc: up to 4; single-queue drivers 1."""
    assert driver_queues("bcmgenet", "", 4) == (5, 1)
    assert driver_queues("igb", "82580", 4) == (4, 4)
    assert driver_queues("igb", "I211 Gigabit Network Connection", 4) == (2, 2)
    assert driver_queues("igb", "82580", 16) == (8, 8)
    assert driver_queues("igb", "I210", 16) == (4, 4)
    assert driver_queues("igc", "I225-V", 8) == (4, 4)
    assert driver_queues("igc", "I225-V", 2) == (2, 2)
    assert driver_queues("atlantic", "AQC107", 4) == (4, 4)
    assert driver_queues("atlantic", "AQC107", 3) == (2, 2)  # rounddown_pow_of_two
    for driver in ("r8169", "r8152", "smsc95xx", "lan78xx", "ax88179_178a", "asix", "cdc_ncm"):
        assert driver_queues(driver, "", 4) == (1, 1), driver


def test_the_board_decides_stmmac_and_macb_queues_and_xps_follows() -> None:
    """stmmac: 8 allocated (MTL_MAX_TX_QUEUES), the device tree's count in use (1 without
    snps,tx-queues-to-use), so XPS works on one queue; macb: the hardware's queues allocated,
    one on the Pi 5's RP1 (its device tree gives one interrupt), so XPS is ENOENT there and
    works on a GEM a profile says has 4."""
    assert driver_queues("stmmac", "", 4) == (1, 1)
    assert driver_queues_allocated("stmmac", "", 4) == (8, 8)
    assert driver_queues("stmmac", "", 4, queues=4) == (4, 4)
    assert not single_queue("stmmac") and not single_queue("stmmac", "", 1)
    assert driver_queues("macb", "Cadence GEM in RP1", 4) == (1, 1)
    assert driver_queues_allocated("macb", "Cadence GEM in RP1", 4) == (1, 1)
    assert single_queue("macb", "Cadence GEM in RP1")
    assert driver_queues("macb", "", 4, queues=4) == (4, 4)
    assert not single_queue("macb", "", 4)


def test_xps_on_the_pi5_is_not_planned_with_the_kernels_words() -> None:
    """A Pi 5 (RP1 macb, Raspberry Pi kernel): one transmit queue, so the kernel answers ENOENT
    to xps_cpus; the planner says why from the source instead of planning a write that fails."""
    found = Facts("eth0")
    path = f"{QUEUES}/tx-0/xps_cpus"
    found.knobs = {
        "/sys/devices/system/cpu/online": Read(True, "0-3"),
        path: Read(False, f"cat: {path}: No such file or directory"),
    }
    nic = Nic("eth0", driver="macb", chip="Cadence GEM in RP1")
    tweak = catalog.tweak("xps")
    inventory = Inventory(board=Board(kernel="6.12.25+rpt-rpi-2712"), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("xps",)))
    assert not item.applicable
    assert "one transmit queue" in item.reason and "ENOENT" in item.reason
    assert "macb_probe" in item.reason
    # a GEM with four queues (a profile's or a board's count): XPS is planned on each
    found.knobs = {
        "/sys/devices/system/cpu/online": Read(True, "0-3"),
        **{f"{QUEUES}/tx-{i}/xps_cpus": Read(True, "0") for i in range(4)},
    }
    nic = Nic("eth0", driver="macb")
    inventory = Inventory(board=Board(kernel="6.12.0-1-arm64"), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("xps",)))
    assert item.applicable and len(item.changes) == 4
