"""The PC endpoints clean up after themselves: no lost result, no iperf3 left running.

Loopback only; the system-iperf3 cases use a stand-in script for iperf3 (what it does is the
point: exit at start, or never say it listens), so they need no iperf3 on this computer.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
from pathlib import Path

import pytest

from sbctune.errors import UserError
from sbctune.measure.endpoint import IperfEndpoint
from sbctune.measure.pc_endpoint import SystemIperf3

HOST = "127.0.0.1"
IPERF3 = shutil.which("iperf3")

pytestmark = pytest.mark.timeout(60)


def _stand_in(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "iperf3"
    script.write_text(
        "#!/bin/sh\n"
        'case "$1" in --version) echo "iperf 3.99 (stand-in)"; exit 0;; esac\n'
        f'echo $$ >"{tmp_path}/pid"\n' + body + "\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def _gone(pid: int) -> bool:
    """Not running and reaped (a zombie still answers kill 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.skipif(IPERF3 is None, reason="needs the iperf3 client")
async def test_a_timed_out_wait_does_not_swallow_the_next_result() -> None:
    assert IPERF3 is not None
    async with IperfEndpoint(HOST, 0) as endpoint:
        with pytest.raises(asyncio.TimeoutError):
            await endpoint.wait_test(0.2)
        client = await asyncio.create_subprocess_exec(
            IPERF3, "-c", HOST, "-p", str(endpoint.port), "-t", "1",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        assert await asyncio.wait_for(client.wait(), 30) == 0
        result = await endpoint.wait_test(10)
    assert result.completed


async def test_system_iperf3_that_exits_at_start_is_reaped(tmp_path: Path) -> None:
    binary = _stand_in(tmp_path, 'echo "iperf3: error - unable to start listener"; exit 1')
    endpoint = SystemIperf3(HOST, binary)
    with pytest.raises(UserError, match="unable to start listener"):
        await endpoint.start()
    assert endpoint.version == "iperf 3.99 (stand-in)"
    assert _gone(int((tmp_path / "pid").read_text()))


async def test_cancelling_a_system_iperf3_start_stops_it(tmp_path: Path) -> None:
    binary = _stand_in(tmp_path, "exec sleep 30")  # never says it listens
    endpoint = SystemIperf3(HOST, binary)
    starting = asyncio.ensure_future(endpoint.start())
    pid_file = tmp_path / "pid"
    for _ in range(100):
        if pid_file.exists() and pid_file.read_text().strip():
            break
        await asyncio.sleep(0.05)
    starting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await starting
    assert _gone(int(pid_file.read_text()))
