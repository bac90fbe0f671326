"""A long log repeats its traces (a driver's failed allocation at every refill, each under a
new clock): a trace frame's reading is made once per distinct frame, not once per line
(issue 24). The trace is a real capture's (tests/captures/dmesg/
trace58_pi_rpilinux_3488_r8152_alloc_rx_agg_order3_backtrace.txt, its .source.md), repeated
with new clocks as bench_inventory.py's --distinct bundle repeats real lines."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory import trace_watch
from sbctune.inventory.log_sightings import from_dmesg
from sbctune.inventory.parsers.dmesg import parse_dmesg

_CAPTURE = (
    Path(__file__).resolve().parents[1]
    / "captures"
    / "dmesg"
    / "trace58_pi_rpilinux_3488_r8152_alloc_rx_agg_order3_backtrace.txt"
)
_CLOCK = re.compile(r"^\[\s*\d+\.\d+\]\s?")
_TIMES = 30


class _Counted:
    """A compiled pattern whose findall calls are counted."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern, self.calls = pattern, 0

    def findall(self, text: str) -> list[Any]:
        self.calls += 1
        return self.pattern.findall(text)


def _repeated(times: int) -> str:
    """The capture's trace `times` times, every line under its own clock (1 s apart a trace)."""
    body = [_CLOCK.sub("", line) for line in _CAPTURE.read_text(encoding="utf-8").splitlines()]
    lines = [
        f"[{1000.0 + n + i / 1000:12.6f}] {line}"
        for n in range(times)
        for i, line in enumerate(body)
    ]
    return "\n".join(lines) + "\n"


def _traces(text: str) -> list[tuple[tuple[str, str], ...]]:
    """The kernel_trace sightings from_dmesg gives: their keys."""
    return sorted(
        tuple(s.keys)
        for s in from_dmesg(parse_dmesg(text)[0])
        if any(f.field == "kernel_trace" for f in s.facts)
    )


@pytest.fixture()
def counted(monkeypatch: pytest.MonkeyPatch) -> tuple[_Counted, _Counted]:
    funcs, modules = _Counted(trace_watch._FUNC_RE), _Counted(trace_watch._MODULE_RE)
    monkeypatch.setattr(trace_watch, "_FUNC_RE", funcs)
    monkeypatch.setattr(trace_watch, "_MODULE_RE", modules)
    kept = getattr(trace_watch, "_frames_kept", None)
    if kept is not None:
        kept.cache_clear()
    return funcs, modules


def test_a_repeated_traces_frames_are_read_once_each(counted: tuple[_Counted, _Counted]) -> None:
    """30 copies of one trace: the frames' regexes run for its distinct frames only (on the
    code before, once per frame line of every copy: 30 times as often)."""
    funcs, modules = counted
    once = _traces(_repeated(1))
    read_once = funcs.calls + modules.calls
    assert read_once > 0 and once == [(("trace", "drivers/net/usb"),)]
    again = _traces(_repeated(_TIMES))
    # each copy's trace is still found (the r8152 NIC's), and no frame was read a second time
    assert again == once * _TIMES
    assert funcs.calls + modules.calls == read_once


def test_a_frames_reading_is_what_the_line_by_line_reading_gives() -> None:
    """frame_named gives the directory the first module, else the first function, names."""
    trace_watch._frames_kept.cache_clear()
    frame = "(__alloc_pages_nodemask) from [<7f2c7a4c>] (alloc_rx_agg+0x60/0x138 [r8152])"
    assert trace_watch.frame_named(frame) == ("drivers/net/usb", "r8152")
    assert trace_watch.frame_named("(show_stack) from [<8088b4c8>] (dump_stack+0xd4/0x118)") is None
    # a frame longer than a real one is read the same, and not kept
    long = frame + " " * 500 + "x"
    assert trace_watch.frame_named(long) == ("drivers/net/usb", "r8152")
    assert trace_watch._frames_kept.cache_info().currsize == 2
