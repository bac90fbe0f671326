"""The sampler reads a tuning session's state and knobs with each sample, on its own channel
(issue 25: each trial reads the tuning with no extra round trip). The loop runs for real under
this machine's sh on local files standing in for the Pi's; its output is parsed as the app
parses the Pi's; which test first saw a change is what the run says."""

from __future__ import annotations

import subprocess
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.history.records import RunRecord
from sbctune.history.run_tuning import CHANGED, change_text
from sbctune.measure.sampler import SCRIPT, PiSampler, SampleFramer, parse_block
from sbctune.workflow.tuning_read import TuningReading, changed_at_test, run_tuning

pytestmark = pytest.mark.posix_only("runs the sampler's sh loop on this machine")

GOVERNOR = "/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
STATE = "/var/lib/sbctune/tuning/20261128T140000Z-abcdef/state"


def _blocks(output: str) -> list[list[str]]:
    framer, blocks = SampleFramer(), []
    for line in output.splitlines():
        block, _warnings = framer.feed(line)
        if block is not None:
            blocks.append(block)
    return blocks


def test_the_loop_prints_the_watched_files_first_and_again_when_one_changes(
    tmp_path: Path,
) -> None:
    state, knob = tmp_path / "state", tmp_path / "scaling_governor"
    state.write_text("armed\n", encoding="utf-8")
    knob.write_text("performance\n", encoding="utf-8")
    missing = tmp_path / "gone"
    argv = ["sh", "-c", SCRIPT, "sh", "lo", "0.2", "40", "20", "^ *0:",
            str(state), str(knob), str(missing)]  # fmt: skip
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, encoding="utf-8") as loop:
        assert loop.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 20
        while len(_blocks("\n".join(lines))) < 3 and time.monotonic() < deadline:
            lines.append(loop.stdout.readline().rstrip("\n"))
        state.write_text("reverted\n", encoding="utf-8")  # the guard fired
        knob.write_text("ondemand\n", encoding="utf-8")
        while len(_blocks("\n".join(lines))) < 8 and time.monotonic() < deadline:
            lines.append(loop.stdout.readline().rstrip("\n"))
        loop.kill()
    parsed = [parse_block(b, "lo")[0] for b in _blocks("\n".join(lines))]
    readings = [s.tuning for s in parsed if s is not None and s.tuning is not None]
    assert readings[0] == ("armed", "performance", "-")
    assert readings[1:] == [("reverted", "ondemand", "-")], "printed again only on a change"
    assert parsed[1] is not None and parsed[1].tuning is None, "unchanged: not printed"


def test_only_kernel_and_session_files_are_watched_and_the_argv_carries_them() -> None:
    sampler = PiSampler(object(), "eth0", watch=[STATE, GOVERNOR, "/etc/shadow", "/sys/../etc/x",
                                                 "/sys/a b", "/proc/sys/net/core/rmem_max"])  # type: ignore[arg-type]  # fmt: skip
    assert sampler.watch == [STATE, GOVERNOR, "/proc/sys/net/core/rmem_max"]
    assert sampler.argv()[-3:] == sampler.watch


def test_the_test_where_a_change_was_first_seen() -> None:
    first = {STATE: "armed", GOVERNOR: "performance"}
    gone = {STATE: "reverted", GOVERNOR: "ondemand"}
    tests = {"0": first, "1": first, "2": gone, "3": gone, "10": gone}
    assert changed_at_test({"first": first, "tests": tests}) == 3
    assert changed_at_test({"first": first, "tests": {"0": first, "1": first}}) is None
    assert changed_at_test({}) is None
    assert changed_at_test({"first": "x", "tests": []}) is None


def _run_with(state: dict[str, Any] | None) -> RunRecord:
    return RunRecord(1, datetime(2026, 11, 28, tzinfo=timezone.utc), "quick", tuning_state=state)


def test_a_change_seen_mid_run_marks_the_run_even_when_start_and_end_agree() -> None:
    reading = TuningReading("20261128T140000Z-abcdef", "armed", ("cpu-governor-performance",),
                            values={"cpu0": "performance"})  # fmt: skip
    assert run_tuning(reading, reading)["changed_during_run"] is False  # type: ignore[index]
    state = run_tuning(reading, reading, changed_at=2)
    assert state is not None and state["changed_during_run"] and state["changed_at_test"] == 2
    assert change_text(_run_with(state)) == (
        f"{CHANGED} (at start: 1 tweak in force (on trial under the guard); at end: 1 tweak "
        "in force (on trial under the guard); first seen at the end of test 2)"
    )


@given(st.lists(st.text(max_size=300), max_size=80))
def test_a_garbled_tuning_section_is_bounded_and_never_crashes(lines: list[str]) -> None:
    block = ["@@sbctune-sample 1 100.5", "@@sbctune-stat", "cpu0 1 2 3 4 5 6 7 8",
             "@@sbctune-tuning", *lines, "@@sbctune-end 1"]  # fmt: skip
    sample, _warnings = parse_block(block, "eth0")
    if sample is not None and sample.tuning is not None:
        assert len(sample.tuning) <= 64 and all(len(v) <= 200 for v in sample.tuning)
