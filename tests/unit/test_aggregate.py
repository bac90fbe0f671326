"""NICs measured together (seed 004): the lab's shared limit, the history's aggregate id, the
aggregate table and the advice's "the bus caps the NICs together". No lab needed."""

from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path

import pytest

from sbctune.advice import Advice, advise
from sbctune.advice.aggregate import advice_runs
from sbctune.catalog import load_catalog
from sbctune.history import History
from sbctune.history.records import Direction, Mode, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic
from sbctune.lab import ProfileError, load_profile
from sbctune.measure.aggregate import AggregateRun, aggregate_text
from sbctune.measure.outcome import DirectionOutcome, MeasureRun

NICS = ["eth0", "eth1", "eth2", "eth3"]
T0 = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)


# --------------------------------------------------------------------------- the lab's model


def test_igb_profile_caps_four_ports_at_the_seed_total() -> None:
    profile = load_profile("cm4-i340-igb")
    assert [i.name for i in profile.interfaces] == NICS
    assert all(i.link.pi_to_pc_mbps == 940 == i.link.pc_to_pi_mbps for i in profile.interfaces)
    (limit,) = profile.shared_limits
    assert limit.interfaces == tuple(NICS)
    assert limit.pc_to_pi_mbps == 3060 == limit.pi_to_pc_mbps
    assert profile.bundle.commands == {}  # no capture fits this state (SOURCE.md says why)
    assert "3.06 Gbps" in (profile.path / "SOURCE.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ('interfaces = ["eth0"]\npc_to_pi_mbps = 1', "two or more"),
        ('interfaces = ["eth0", "eth9"]\npc_to_pi_mbps = 1', "eth9"),
        ('interfaces = ["eth0", "eth1"]', "give pi_to_pc_mbps"),
        ('interfaces = ["eth0", "eth1"]\npc_to_pi_mbps = -1', "positive"),
        ('interfaces = ["eth0", "eth1"]\ncap = 1', "unknown key"),
    ],
)
def test_shared_limit_errors_say_what_is_wrong(tmp_path: Path, table: str, expected: str) -> None:
    from sbctune.inventory.bundle import write_bundle

    folder = tmp_path / "p"
    write_bundle(folder, "h", {}, {})
    iface = '[[interface]]\nname = "{}"\n[interface.link]\nlink_speed_mbps = 1000\n'
    (folder / "lab.toml").write_text(
        "[cpu]\ncount = 4\n" + iface.format("eth0") + iface.format("eth1")
        + "[[shared_limit]]\n" + table + "\n"
    , encoding="utf-8")  # fmt: skip
    with pytest.raises(ProfileError) as caught:
        load_profile(folder)
    assert expected in caught.value.message


# --------------------------------------------------------------------------- measurement side


def _measure_run(nic: str, mbps: dict[str, float]) -> MeasureRun:
    run = MeasureRun(nic, nic, "quick", "builtin", "pc", "pi", "2024-01-01T00:00:00+00:00")
    for index, (direction, value) in enumerate(mbps.items()):
        run.tests.append(
            DirectionOutcome(direction, "half", mean_mbps=value, complete=True, test_index=index)  # type: ignore[arg-type]
        )
    run.complete = True
    return run


def test_aggregate_table_has_a_line_per_nic_and_the_total() -> None:
    runs = [_measure_run(n, {"pi_to_pc": 765 + i, "pc_to_pi": 764}) for i, n in enumerate(NICS)]
    agg = AggregateRun("abc", "pi", "quick", list(NICS), runs, "t0", complete=True)
    text = aggregate_text(agg)
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["NIC", "Pi", "→"]
    assert [line.split()[0] for line in lines[2:6]] == NICS
    assert lines[-1].split()[:5] == ["Total", "3066", "Mbit/s", "3056", "Mbit/s"]
    data = agg.to_json()
    assert data["aggregate"][0]["total_mbps"] == 3066
    assert data["aggregate"][0]["per_nic"]["eth1"] == 766
    assert [r["nic"] for r in data["runs"]] == NICS


# --------------------------------------------------------------------------- history


def _record(nic: str, figures: dict[tuple[Direction, Mode], float], **kw: object) -> RunRecord:
    tests = [TestRecord(direction=d, mode=m, mean_mbps=v) for (d, m), v in figures.items()]
    return RunRecord(device_id=1, started_at=T0, plan_name="quick", nic=nic, complete=True,
                     tests=tests, **kw)  # type: ignore[arg-type]  # fmt: skip


def test_runs_of_an_aggregate_share_an_id_in_the_history(tmp_path: Path) -> None:
    with History.open(tmp_path / "h.sqlite3") as history:
        device = history.add_device("pi", 22, "pi")
        assert device.id is not None
        ids = []
        for nic in NICS:
            run = _record(nic, {("pc_to_pi", "half"): 765}, aggregate_id="g1")
            run.device_id = device.id
            ids.append(history.save_run(run))
        alone = _record("eth0", {("pc_to_pi", "half"): 940})
        alone.device_id = device.id
        history.save_run(alone)
        together = history.runs_in_aggregate("g1")
        assert [r.id for r in together] == ids and [r.nic for r in together] == NICS
        assert history.run(alone.id or 0).aggregate_id is None


def test_a_v2_history_gains_the_aggregate_column(tmp_path: Path) -> None:
    from sbctune.history.schema import MIGRATIONS

    path = tmp_path / "v2.sqlite3"
    with sqlite3.connect(path) as raw:
        for steps in MIGRATIONS[:2]:
            for statement in steps:
                raw.execute(statement)
        raw.execute("INSERT INTO devices VALUES (1, 'pi', 22, 'pi', NULL, 'x', 'x', NULL)")
        raw.execute(
            "INSERT INTO runs (id, device_id, started_at, plan_name, nic) "
            "VALUES (3, 1, '2024-01-01T00:00:00+00:00', 'quick', 'eth0')"
        )
        raw.execute("PRAGMA user_version = 2")
    raw.close()
    with History.open(path) as history:
        assert history.run(3).aggregate_id is None
        assert history.runs_in_aggregate("g") == []


# --------------------------------------------------------------------------- advice


def _cm4_inventory() -> Inventory:
    inventory = Inventory()
    inventory.board.catalog_id = "cm4"
    inventory.nics.append(Nic(name="eth0", bus="platform", link_speed_mbps=1000))
    for nic in NICS[1:]:
        inventory.nics.append(
            Nic(name=nic, bus="pci", driver="igb", catalog_id="intel-82580", link_speed_mbps=1000)
        )
    return inventory


def _seed_004_runs(together: float = 765.0) -> list[RunRecord]:
    # Seed 004: each port alone "around 940 Mbps"; together (three I340 ports and the onboard
    # port) "about 3 Gbps" (3.06 with all five, peers sending to the CM4: PC -> Pi).
    runs = []
    for i, nic in enumerate(NICS):
        runs.append(_record(nic, {("pc_to_pi", "half"): 940}, id=i + 1))
    for i, nic in enumerate(NICS):
        runs.append(_record(nic, {("pc_to_pi", "half"): together}, id=10 + i, aggregate_id="g"))
    return runs


def _advise(inventory: Inventory, runs: list[RunRecord]) -> Advice:
    return advise(inventory, runs, load_catalog())


def test_seed_004_bus_caps_the_nics_together_with_the_figures() -> None:
    advice = _advise(_cm4_inventory(), _seed_004_runs())
    finding = next(f for f in advice.findings if f.id == "aggregate-bus-bound")
    assert finding.summary.startswith("The bus caps the NICs together")
    assert "3060 Mbit/s PC → Pi at once" in finding.summary
    assert "each reaches its link rate alone" in finding.summary
    assert finding.nic == "eth0+eth1+eth2+eth3"
    evidence = "\n".join(finding.evidence)
    assert (
        "eth0 765 + eth1 765 + eth2 765 + eth3 765 = 3060 Mbit/s (runs 10, 11, 12, 13)" in evidence
    )
    assert "eth0 940 + eth1 940 + eth2 940 + eth3 940 = 3760 Mbit/s" in evidence
    assert "~3060 Mbit/s in total" in evidence and "4000" in evidence
    clock = next(r for r in advice.recommendations if "boot-arm-freq" in r.tweak_ids)
    assert "3200-3400" in clock.expected_gain and clock.sources
    # The together figures are not mistaken for each port's own (765 is not "below the link").
    assert {f.nic for f in advice.findings if f.id == "at-physical-limit"} == set(NICS)
    assert not any(f.id == "below-link-limit" for f in advice.findings)


def test_no_bus_finding_when_together_they_do_what_they_do_alone() -> None:
    runs = [r for r in _seed_004_runs(together=940.0) if r.nic != "eth3"]  # 3 x 940 = 2820
    advice = _advise(_cm4_inventory(), runs)
    assert "aggregate-bus-bound" not in [f.id for f in advice.findings]


def test_no_bus_finding_without_each_nic_measured_alone() -> None:
    runs = [r for r in _seed_004_runs() if r.aggregate_id or r.nic != "eth2"]
    advice = _advise(_cm4_inventory(), runs)
    assert "aggregate-bus-bound" not in [f.id for f in advice.findings]


def test_no_pcie_finding_for_nics_all_on_usb() -> None:
    inventory = Inventory()
    inventory.nics += [Nic(name=n, bus="usb", link_speed_mbps=1000) for n in NICS]
    advice = _advise(inventory, _seed_004_runs())
    assert "aggregate-bus-bound" not in [f.id for f in advice.findings]


def test_advice_runs_adds_the_aggregate_and_each_nic_alone() -> None:
    runs = _seed_004_runs()
    later = _record("eth1", {("pi_to_pc", "half"): 900}, id=20)
    later.started_at = T0 + dt.timedelta(hours=1)
    picked = advice_runs([*runs, later])
    assert [r.id for r in picked] == [20, 10, 11, 12, 13, 1, 3, 4]  # eth1 alone: run 20
    assert [r.id for r in advice_runs(runs, runs[5])] == [10, 11, 12, 13, 1, 2, 3, 4]
