"""The SSH connection lost part-way, for real: the lab's sshd processes of this one
connection are killed (found by its port with `ss` in the lab's network namespace), as a Pi
that crashed or a router that reset the connection would end it.

A command cut off is a lost connection (never "unexpected error ... ConnectionLost"); inspect
shows what it read before; measure keeps the finished trials and the run is stored, marked
incomplete."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle, inspect_host
from sbctune.history import History
from sbctune.lab.model import LabInfo
from sbctune.measure.plans import plan_named
from sbctune.measure.runner import Event, LiveInterval
from sbctune.remote import Disconnected, KnownHosts, Secret, Session, Target, batch
from sbctune.workflow.measuring import MeasureRequest, measure_and_keep
from tests.lab_support import connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]


def cut(lab: LabInfo, session: Session) -> list[int]:
    """Kill the lab's sshd processes serving `session` (and only those)."""
    port = int(session._conn.get_extra_info("sockname")[1])
    listing = in_lab(lab, f"ss -Htnp state established '( dport = :{port} )'")
    pids = sorted({int(p) for p in re.findall(r"pid=(\d+)", listing)})
    assert pids, listing
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    return pids


async def test_a_command_cut_off_is_a_lost_connection(module_lab: LabInfo, tmp_path: Path) -> None:
    session = await connect_to_lab(module_lab, tmp_path)
    try:
        running = asyncio.create_task(session.run(["sleep", "30"], timeout=60))
        await asyncio.sleep(0.5)
        cut(module_lab, session)
        with pytest.raises(Disconnected) as lost:
            await asyncio.wait_for(running, 20)
        assert lost.value.message.startswith(f"The connection to {module_lab.host} was lost")
    finally:
        await session.close()


class _CutBeforeSecondRead(Session):
    """The same real connection; the Pi goes away just before inspect's second read (the
    round with `dmesg`), once the first round's reads have all answered (they run in two
    channels, the second round starting beside the slower one)."""

    lab: LabInfo
    running = 0

    async def run_script(
        self, steps: list[batch.Step], **options: object
    ) -> list[batch.StepResult]:  # type: ignore[override]
        if any(step.key == "dmesg" for step in steps):
            for _ in range(2000):  # at most 20 s
                if not self.running:
                    break
                await asyncio.sleep(0.01)
            cut(self.lab, self)
            await asyncio.sleep(0.2)
            return await super().run_script(steps, **options)  # type: ignore[arg-type]
        self.running += 1
        try:
            return await super().run_script(steps, **options)  # type: ignore[arg-type]
        finally:
            self.running -= 1


async def test_inspect_shows_what_it_read_before_the_connection_was_lost(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    real = await connect_to_lab(module_lab, tmp_path)
    session = _CutBeforeSecondRead(real.target, real._conn)
    session.lab = module_lab
    try:
        inventory, collection = await inspect_host(session)
    finally:
        await real.close()
    assert collection.lost.startswith(f"The connection to {module_lab.host} was lost")
    assert any("Only the first part of the inspection was read" in w for w in inventory.warnings)
    assert inventory.board is not None and inventory.nics, "the first read's findings are kept"


async def test_measure_keeps_the_finished_trial_when_the_connection_is_lost(
    module_lab: LabInfo, tmp_path: Path
) -> None:
    lab = module_lab
    plan = plan_named("quick").with_overrides(duration=2, omit=0, streams=1, trials=2)
    session = await connect_to_lab(lab, tmp_path)
    cuts: list[int] = []

    def watch(event: Event) -> None:
        if isinstance(event, LiveInterval) and event.test_index == 1 and not cuts:
            cuts.extend(cut(lab, session))  # a second into the second test

    try:
        with History.open(tmp_path / "history.sqlite3") as history:
            request = MeasureRequest(plan, nic=lab.test_nic.name, options={"latency": False})
            measured = await measure_and_keep(session, history, request, on_event=watch)
            stored = history.run(measured.record.id or 0)
    finally:
        await session.close()
    run = measured.run
    assert cuts, "the second test never started"
    assert run.error is not None and "was lost" in run.error
    assert not run.complete and not stored.complete
    finished = [t for t in stored.tests if t.complete]
    assert finished and all(t.mean_mbps for t in finished), stored.tests


def drop_silently(lab: LabInfo) -> None:
    """The Pi's NIC goes down inside the lab: no RST, no FIN, packets just stop (as a pulled
    cable or a dead switch port behind a router would)."""
    in_lab(lab, f"ip link set dev {lab.test_nic.name} down")


async def test_a_silently_dead_link_is_noticed_by_keepalive_and_the_trial_kept(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory()  # its own lab: the link stays down
    plan = plan_named("quick").with_overrides(duration=2, omit=0, streams=1, trials=2)
    target = Target(lab.host, lab.port, lab.user, password=Secret(lab.password),
                    keepalive_interval=1.0)  # fmt: skip
    known = KnownHosts(read_from=[], write_to=tmp_path / "known_hosts")
    session = await Session.connect(target, known_hosts=known, accept_new_host_key=True)
    dropped: list[float] = []

    def watch(event: Event) -> None:
        if isinstance(event, LiveInterval) and event.test_index == 1 and not dropped:
            drop_silently(lab)
            dropped.append(time.monotonic())

    try:
        with History.open(tmp_path / "history.sqlite3") as history:
            request = MeasureRequest(plan, nic=lab.test_nic.name, options={"latency": False})
            measured = await asyncio.wait_for(
                measure_and_keep(session, history, request, on_event=watch), 90
            )
            noticed = time.monotonic()
            stored = history.run(measured.record.id or 0)
    finally:
        await session.close()
    assert dropped, "the second test never started"
    # 3 keepalives a second apart, plus the time the runner takes to stop its parts.
    assert noticed - dropped[0] < 30, noticed - dropped[0]
    run = measured.run
    assert run.error is not None and "connection" in run.error and "was lost" in run.error
    assert not run.complete and not stored.complete
    finished = [t for t in stored.tests if t.complete]
    assert finished and all(t.mean_mbps for t in finished), stored.tests


def test_collect_writes_the_part_read_before_the_connection_was_lost(
    module_lab: LabInfo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:  # fmt: skip
    """`sbctune collect` on a connection cut after its first read: a bundle of what was read,
    readable by `inspect`, and a message saying the rest was lost."""
    from sbctune.cli import inspect_cmd
    from sbctune.cli.main import main

    async def cutting_session(args: object, target: object = None) -> Session:
        real = await connect_to_lab(module_lab, tmp_path)
        session = _CutBeforeSecondRead(real.target, real._conn)
        session.lab = module_lab
        return session

    # The connection is real and really cut; only who opens it changes.
    monkeypatch.setattr(inspect_cmd, "open_session", cutting_session)
    out = tmp_path / "pi.zip"
    code = main(["collect", f"{module_lab.user}@{module_lab.host}", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"The connection to {module_lab.host} was lost" in err
    assert "The bundle holds only what was read before that." in err
    inventory = inspect_bundle(out)
    assert inventory.board is not None and inventory.nics
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != "known_hosts") == ["pi.zip"]
