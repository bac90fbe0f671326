"""A hostile Pi (the lab, with its captured dmesg replaced after it came up): 1 GiB, ending
with terminal escapes in the adapter's name. `inspect` must finish in bounded memory, say
what it cut, and print nothing raw. The 1 GiB is a sparse file made here, never stored."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.remote import batch
from sbctune.remote.errors import OutputTooLarge
from tests.lab_support import connect_to_lab
from tests.peak_memory import peak_growth, run_measured

pytest_plugins = ["tests.lab_support"]

GiB = 1024**3
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def capture_of(lab: Any, program: str, line: str) -> Path:
    """The capture file the lab's fake `program` prints for the invocation `line`."""
    script = (Path(lab.state_dir) / "bin" / program).read_text()
    for case in script.splitlines():
        found = re.match(r"\s*'([^']*)'\) cat '([^']*)'", case)
        if found and found.group(1) == line:
            return Path(found.group(2))
    raise AssertionError(f"no capture for {line!r} in {script}")


def run_inspect(lab: Any, tmp_path: Path, *extra: str) -> tuple[int, str, str, float, float]:
    env = dict(os.environ, SBCTUNE_PASSWORD=lab.password, SBCTUNE_DATA_DIR=str(tmp_path))
    argv = [sys.executable, "-m", "sbctune", "inspect", f"{lab.user}@{lab.host}",
            "--accept-new-host-key", *extra]  # fmt: skip
    ran = run_measured(argv, tmp_path, env=env, timeout=240)
    assert ran.peak_mb is not None  # the lab runs on Linux, where the peak is measured
    return ran.code, ran.out, ran.err, ran.peak_mb, ran.seconds


def test_a_1_gib_dmesg_and_escapes_from_a_live_pi(lab_factory: Any, tmp_path: Path) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    dmesg = capture_of(lab, "dmesg", "dmesg")
    # The log's end, with escapes where the Pi controls the text (the adapter's name).
    real = dmesg.read_bytes().replace(b"ASIX AX88179 USB", b"ASIX \x1b]0;pwned\x07\x1b[2JUSB")
    with open(dmesg, "r+b") as fh:  # 1 GiB of NULs, then the real log: sparse, instant
        fh.truncate(GiB)
        fh.seek(GiB)
        fh.write(b"\n" + real)

    code, out, err, peak_mb, seconds = run_inspect(lab, tmp_path)
    assert code == 0, err
    assert "dmesg: the output is larger than the 16.0 MiB sbctune reads" in out
    assert "only its last 16.0 MiB were used" in out
    assert "eth1: register 'ax88179_178a'" in out  # the log's end still gives evidence
    assert "ASIX \\u001b]0;pwned\\u0007\\u001b[2JUSB" in out and not RAW_CONTROL.search(out + err)
    assert peak_mb < 500, peak_mb
    print(f"live inspect, 1 GiB dmesg: {seconds:.1f} s, peak RSS {peak_mb:.0f} MB")

    code, out, err, peak_mb, _ = run_inspect(lab, tmp_path, "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert any("dmesg" in w and "16.0 MiB" in w for w in doc.get("warnings", [])), doc.keys()
    assert peak_mb < 500, peak_mb


async def test_the_pc_stops_reading_a_pi_that_sends_too_much(lab_factory: Any,
                                                              tmp_path: Path) -> None:  # fmt: skip
    """A Pi that ignores the limits (here: a command asked for 200 MiB) is cut off by the PC
    at 16 MiB, in bounded memory, with a message naming the command."""
    lab = lab_factory(profile="pi4-ax88179")
    async with await connect_to_lab(lab, tmp_path) as session:
        with peak_growth() as grown, pytest.raises(OutputTooLarge) as cut:
            await session.run(["head", "-c", "200M", "/dev/zero"], timeout=60)
        # The session is still usable afterwards.
        assert (await session.run(["echo", "still here"])).stdout == "still here\n"
        # A batch step is cut on the Pi itself: the end of a log, the start of anything else.
        seq = await session.run_script([
            batch.Step(("seq", "1", "2000000"), key="dmesg", max_bytes=1000),
            batch.Step(("seq", "1", "2000000"), key="lsusb", max_bytes=1000),
        ])  # fmt: skip
    assert "The Pi sent more than 16.0 MiB for `head -c 200M /dev/zero`" in str(cut.value)
    assert grown.mb < 200, grown.mb
    tail, head = seq
    assert tail.truncated and tail.exit_code == 0 and tail.text.endswith("\n1999999\n2000000\n")
    assert len(tail.stdout) == 1000
    assert head.truncated and head.exit_code == 0 and head.text.startswith("1\n2\n3\n")
    assert len(head.stdout) == 1000
