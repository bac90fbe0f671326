"""Pi samples made from THIS machine's real /proc/stat and /proc/softirqs, read now (Linux),
with or without the lab's marker line (`@@sbctune-labcpu`): for the tests of what the CPU chart
and the command line call the cores. No figure is made up."""

from __future__ import annotations

import time
from pathlib import Path

from sbctune.measure.sampler import PiSample, delta, parse_block


def _block(seq: int, marker: str | None) -> list[str]:
    stat = [ln for ln in Path("/proc/stat").read_text(encoding="utf-8").splitlines()
            if ln.startswith("cpu")]  # fmt: skip
    softirqs = [
        ln
        for ln in Path("/proc/softirqs").read_text(encoding="utf-8").splitlines()
        if ln.strip().startswith(("CPU", "NET_RX:", "NET_TX:"))
    ]
    uptime = Path("/proc/uptime").read_text(encoding="utf-8").split()[0]
    lines = [f"@@sbctune-sample {seq} {uptime}", "@@sbctune-stat", *stat, "@@sbctune-softirqs",
             *softirqs, "@@sbctune-interrupts", "@@sbctune-net 0 0"]  # fmt: skip
    if marker is not None:
        lines.append(f"@@sbctune-labcpu {marker}")
    return lines


def real_sample(marker: str | None) -> PiSample:
    """Two blocks 0.3 s apart of this machine's counters -> one PiSample."""
    first, _ = parse_block(_block(0, marker), "lo")
    time.sleep(0.3)
    second, _ = parse_block(_block(1, marker), "lo")
    assert first is not None and second is not None
    sample, _ = delta(first, second, time.monotonic())
    assert sample is not None
    return sample


def host_cores() -> int:
    text = Path("/proc/stat").read_text(encoding="utf-8")
    return sum(1 for ln in text.splitlines() if ln.startswith("cpu") and ln[3].isdigit())
