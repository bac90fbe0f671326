"""A measurement started while a tuning session is armed extends the guard on the Pi for the
planned time plus a margin (not only re-arms it now and then), extra trials extend it again,
and a killed app still reverts by the deadline it showed. Real SSH, sudo, guard and iperf3 in
the namespace lab; the CLI runs as a user runs it and is killed (SIGKILL) mid-run."""

from __future__ import annotations

import asyncio
import os
import re
import sys
import time
from pathlib import Path

import pytest

from sbctune import tuning
from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from sbctune.workflow.guard_hold import MARGIN_SECONDS, holding_guard
from sbctune.workflow.tuning_read import read_tuning
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

ROOT = Path(__file__).resolve().parents[2]
GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
TWEAK = "cpu-governor-performance"
GUARD = 6  # far shorter than what the measurement asks the Pi to hold it for
SLACK = 3.0  # the Pi's and this computer's whole seconds, a listing's round trip


async def _apply(lab: LabInfo, where: Path) -> str:
    async with await connect_to_lab(lab, where) as session:
        inventory, _ = await inspect_host(session)
        planned = await tuning.plan(session, inventory, lab.test_nic.name, [TWEAK])
        return (await tuning.apply(session, planned, guard_seconds=GUARD)).id


async def _pi_deadline(lab: LabInfo, where: Path) -> float | None:
    """When the Pi's guard reverts, as the Pi's own listing says (this computer's clock)."""
    async with await connect_to_lab(lab, where) as session:
        left = await tuning.find_leftover(session)
    return left.guard_deadline if left is not None and left.state == "armed" else None


async def test_the_hold_extends_the_guard_for_the_plan_and_again_for_extra_trials(
    lab: LabInfo, tmp_path: Path
) -> None:
    applied = await _apply(lab, tmp_path)
    async with await connect_to_lab(lab, tmp_path) as session:
        reading = await read_tuning(session)
        assert reading.session == applied and reading.state == "armed"
        async with holding_guard(session, reading, planned=60) as hold:
            assert hold is not None and hold.pi_deadline is not None
            # Extended for the plan and its margin at once: the Pi says so too.
            assert hold.pi_deadline - time.time() > 60 + MARGIN_SECONDS - SLACK
            on_pi = await _pi_deadline(lab, tmp_path)
            assert on_pi is not None and abs(on_pi - hold.pi_deadline) <= SLACK, (on_pi, hold)
            # Extra trials: the next beat comes at once, for that much longer.
            beats, before = hold.beats, hold.pi_deadline
            hold.extend(45)
            for _ in range(100):
                if hold.beats > beats:
                    break
                await asyncio.sleep(0.1)
            assert hold.beats > beats, "the extension did not beat at once"
            assert hold.pi_deadline - before >= 45 - SLACK
            on_pi = await _pi_deadline(lab, tmp_path)
            assert on_pi is not None and abs(on_pi - hold.pi_deadline) <= SLACK
        # After the run: the session's own guard time again, from now.
        assert hold.deadline is not None and hold.deadline - time.time() <= GUARD
        on_pi = await _pi_deadline(lab, tmp_path)
        assert on_pi is not None and on_pi - time.time() <= GUARD + SLACK
        await tuning.revert(session, applied)


async def test_a_killed_cli_mid_measure_still_reverts_by_the_deadline_it_showed(
    lab: LabInfo, tmp_path: Path
) -> None:
    before = await _governor(lab, tmp_path)
    applied = await _apply(lab, tmp_path)
    env = {**os.environ, "SBCTUNE_DATA_DIR": str(tmp_path / "data"),
           "SBCTUNE_PASSWORD": lab.password}  # fmt: skip
    env.pop("SBCTUNE_DEBUG", None)
    argv = [sys.executable, "-m", "sbctune", "measure", f"{lab.user}@{lab.host}",
            "--accept-new-host-key", "--nic", lab.test_nic.name,
            "--duration", "4", "--omit", "1", "--trials", "1", "--no-latency"]  # fmt: skip
    proc = await asyncio.create_subprocess_exec(
        *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE, env=env, cwd=ROOT,
    )  # fmt: skip
    assert proc.stderr is not None
    seen: list[str] = []

    async def deadline_shown() -> float | None:
        assert proc.stderr is not None
        while True:
            line = (await proc.stderr.readline()).decode("utf-8", "replace")
            if not line:
                return None
            seen.append(line)
            found = re.search(r"the Pi reverts it by itself within (\d+) s", line)
            if found:
                return float(found.group(1))

    try:
        # wait_for, not asyncio.timeout: the project supports Python 3.10
        shown = await asyncio.wait_for(deadline_shown(), 90)
        killed_at = time.time()
    finally:
        proc.kill()  # SIGKILL: no goodbye, no last beat
        await proc.wait()
    assert shown is not None, "".join(seen)
    # The CLI measures two tests of 5 s: the guard is held for them, their switches and the
    # margin, well past the session's own 6 s.
    assert shown > GUARD + 10, shown
    await asyncio.sleep(GUARD + SLACK)
    assert await _pi_deadline(lab, tmp_path) is not None, "the hold lasted past the guard"
    async with await connect_to_lab(lab, tmp_path) as session:
        while (left := await tuning.find_leftover(session)) is not None:
            assert left.id == applied
            assert time.time() - killed_at <= shown + SLACK, "not reverted by the deadline shown"
            await asyncio.sleep(0.5)
    assert time.time() - killed_at >= GUARD + SLACK
    assert await _governor(lab, tmp_path) == before


async def _governor(lab: LabInfo, where: Path) -> str:
    async with await connect_to_lab(lab, where) as session:
        return (await session.run(["cat", GOVERNOR])).stdout.strip()
