"""Audit 11b (resources/tuning/driver_caps_audit11b.md): the rows fixed in the shared data and the
lab, each checked as the user would see it: the tweak's plan and the lab's answer to its
command."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.remote.batch import Step, StepResult
from sbctune.tuning import catalog, reopen_order
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.probe import Facts, Read
from tests.fake_ethtool_support import ethtool, lab_state

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _mtu_plan(driver: str, chip: str, kernel: str, mtu: int) -> tuple[bool, str]:
    """(planned, reason) of the mtu-jumbo tweak for `mtu` on a NIC of `driver`/`chip`: planned
    is applicable, or held back only for the user's consent to a link restart."""
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver=driver, chip=chip)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": mtu}
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))
    return item.applicable or item.needs_link_consent, item.reason


def _lab_mtu_answer(driver: str, chip: str, kernel: str, mtu: int) -> str | None:
    """What the lab's `ip link set dev eth0 mtu MTU` says (None: taken)."""
    base = load_profile("pi4-ax88179")
    spec = next(s for s in base.interfaces if s.driver)
    profile = dataclasses.replace(
        base, kernel=kernel, interfaces=(dataclasses.replace(spec, driver=driver, chip=chip),)
    )
    limit = ip_front.limits(profile).get(spec.name, {})
    return ip_model.refusal({"eth0": limit}, "eth0", mtu)


@pytest.mark.parametrize(
    ("mtu", "refused"), [(9000, True), (2049, True), (2048, False), (1984, False)]
)
def test_jh7110_refuses_an_mtu_above_its_2k_tx_fifo(mtu: int, refused: bool) -> None:
    """Row 1: jh7110.dtsi (6.12) gives both GMACs tx-fifo-depth = <2048> and one TX queue, so
    stmmac_change_mtu's FIFO check refuses (EINVAL) any MTU whose ALIGN(ALIGN(mtu, 64), 16) is
    above 2048, while ip -d link shows maxmtu 9000. The planner planned MTU 9000 on a VisionFive
    2 and the lab took it."""
    chip, kernel = "starfive,jh7110-dwmac", "6.12.57+deb13-riscv64"
    planned, reason = _mtu_plan("stmmac", chip, kernel, mtu)
    assert planned is not refused, reason
    assert ("transmit FIFO holds 2048 bytes" in reason) is refused, reason
    said = _lab_mtu_answer("stmmac", chip, kernel, mtu)
    assert said == ("RTNETLINK answers: Invalid argument\n" if refused else None)


def _rfs_plan(queues: int, kernel: str) -> dict[str, str]:
    """The rps_flow_cnt writes (path -> value) the rps-rfs tweak plans for an igb NIC with
    `queues` receive queues on a 6-core board."""
    found = Facts("eth1")
    found.knobs["/sys/devices/system/cpu/online"] = Read(True, "0-5")
    found.knobs["/proc/sys/net/core/rps_sock_flow_entries"] = Read(True, "0")
    for q in range(queues):
        found.knobs[f"/sys/class/net/eth1/queues/rx-{q}/rps_cpus"] = Read(True, "00")
        found.knobs[f"/sys/class/net/eth1/queues/rx-{q}/rps_flow_cnt"] = Read(True, "0")
    tweak = catalog.tweak("rps-rfs")
    nic = Nic("eth1", driver="igb", chip="I350")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("rps-rfs",)))
    assert item.applicable, item.reason
    return {c.target: c.after for c in item.changes if c.target.endswith("rps_flow_cnt")}


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.47+rpt-rpi-v8", ""])
@pytest.mark.parametrize(("queues", "size"), [(6, "8192"), (5, "8192"), (3, "16384"), (4, "8192")])
def test_rfs_writes_the_flow_table_size_the_kernel_keeps(
    kernel: str, queues: int, size: str
) -> None:
    """Row 2: store_rps_dev_flow_table_cnt (net/core/net-sysfs.c, 6.1 and 6.12) rounds a queue's
    rps_flow_cnt up to a power of two and reads that back. An igb I350 on a 6-core board (RK3399)
    has 6 RX queues (igb_init_queue_num: one per CPU up to 8): the planner wrote 32768 / 6 = 5461,
    the kernel read back 8192 and the verify failed the tweak, so the guard put everything back
    (seen over SSH on a 6-CPU igb lab, whose veth queue files are the host kernel's)."""
    writes = _rfs_plan(queues, kernel)
    assert len(writes) == queues
    assert set(writes.values()) == {size}


def _affinity(irq: int, before: str, after: str) -> Change:
    path = f"/proc/irq/{irq}/smp_affinity"
    return Change("irq_affinity", path, before, after, path)


# what irq-affinity and nic-rings plan, in the catalog's order (irq-affinity comes first)
AFFINITY_THEN_RINGS = [
    _affinity(60, "1", "2"),
    _affinity(61, "2", "4"),
    Change("ethtool", "eth1 -G rx", "2048", "8184"),
    Change("ethtool", "eth1 -G tx", "4096", "8184"),
]


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.47+rpt-rpi-v8"])
def test_atlantic_ring_restart_goes_before_the_irq_masks_its_open_resets(kernel: str) -> None:
    """Row 3: atlantic's open (aq_nic_start, after aq_set_ringparam's close) requests each
    vector again and calls irq_set_affinity_hint with the vector's own CPU, which sets the
    affinity too (include/linux/interrupt.h, 6.1 and 6.12). Applied in the catalog's order each
    mask was read back as written, then the ring change replaced it: "applied", not in force.
    Now the restart is written first and the masks are read back after every write."""
    facts = reopen_order.open_facts("atlantic", "eth1", kernel, "AQC107")
    assert facts is not None and "aq_pci_func_alloc_irq" in facts.affinity_where
    changes = AFFINITY_THEN_RINGS
    order = [changes[i].target for i in reopen_order.apply_order(changes, facts)]
    assert order == ["eth1 -G rx", "eth1 -G tx", *(c.target for c in changes[:2])]
    undo = [changes[i].target for i in reopen_order.revert_order(changes, facts)]
    assert undo[:2] == ["eth1 -G tx", "eth1 -G rx"]  # the restart undone before the masks
    assert reopen_order.read_last(changes, facts) == {0, 1}
    words = reopen_order.set_back_words(facts, "1", changes[0])
    assert "aq_pci_func_alloc_irq" in words and "atlantic" in words


def test_a_driver_that_keeps_irq_affinity_keeps_the_catalogs_order() -> None:
    """Row 3's guard: igb's open (igb_request_msix) sets no affinity hint: no reordering."""
    facts = reopen_order.open_facts("igb", "eth1", "6.12.47+rpt-rpi-v8", "I350")
    changes = AFFINITY_THEN_RINGS
    assert reopen_order.apply_order(changes, facts) == [0, 1, 2, 3]


def _offloads_with(
    tmp_path: Path, selected: tuple[str, ...], options: dict[str, Any]
) -> PlannedTweak:
    """offloads-on planned for the cm4-rtl8125b-r8169 lab's eth1 (r8169, RTL8125B, MTU 1500,
    SG and TSO off as rtl_init_one leaves them), its `-k` from the lab's fake ethtool."""
    state = lab_state(tmp_path, "r8169", "RTL8125B", "6.12.47+rpt-rpi-v8")
    text = ethtool(state, "-k", "eth0")[0]
    found = Facts("eth0")
    found.steps["ethtool -k"] = StepResult(Step(("true",), "ethtool -k"), 0, text.encode(), b"")
    nic = Nic("eth0", driver="r8169", chip="RTL8125B", mtu=1500)
    tweak = catalog.tweak("offloads-on")
    inventory = Inventory(board=Board(kernel="6.12.47+rpt-rpi-v8"), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, selected))


@POSIX
def test_offloads_on_leaves_tso_to_the_jumbo_mtu_planned_with_it(tmp_path: Path) -> None:
    """Row 4: rtl8169_fix_features (both series) drops TSO and the TX checksums above an MTU of
    1500 on every chip after RTL_GIGA_MAC_VER_06. With offloads-on and mtu-jumbo in one session
    offloads-on wrote `-K tso on`, read it back on, then the MTU change dropped it: the session
    said "applied — GRO/GSO/TSO on" and `tune status` "1 of 2 values in force" (seen over SSH on
    the cm4-rtl8125b-r8169 lab). Planned with the jumbo tweak, TSO is now "not possible"."""
    alone = _offloads_with(tmp_path, ("offloads-on",), {})
    assert "eth0 -K tso" in [c.target for c in alone.changes]  # the guard: MTU 1500 stays
    # with the user's consent: on this NIC (the SSH session's) the jumbo MTU is otherwise held
    # back and the MTU stays 1500 (audit 35 row 4)
    agreed = {"path_supports_jumbo": True, "allow_link_restart": True}
    jumbo = _offloads_with(tmp_path, ("offloads-on", "mtu-jumbo"), agreed)
    assert "eth0 -K tso" not in [c.target for c in jumbo.changes]
    why = dict(jumbo.impossible)["eth0 -K tso"]
    assert "above an MTU of 1500" in why and "sets 9000" in why, why
    unconfirmed = _offloads_with(tmp_path, ("offloads-on", "mtu-jumbo"), {})  # jumbo not applied
    assert "eth0 -K tso" in [c.target for c in unconfirmed.changes]
