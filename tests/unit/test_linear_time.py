"""Time grows at most about linearly with the input, and memory stays bounded, for every kind of
input a Pi or a bundle controls: an input 10 times and 100 times a base size, the time of each
(CPU time per call, best of a few samples of >= 50 ms each), and t(100x) / t(10x) must stay
under 30 (linear: about 10; a rescan per item: about 100). Each case was quadratic once or is
a place where it could be.

The inputs are made here, shaped like the real outputs next to them (tests/captures and the
lab profiles hold the real ones); they are sizes, not captures.
"""

from __future__ import annotations

import gc
import json
import os
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.bundle import BundleError, read_bundle
from sbctune.inventory.parsers import dispatch
from sbctune.inventory.parsers.netif import parse_ip_json
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.inventory.raw import RawOutputs, parse_all
from sbctune.limits import MAX_INTERFACES, MAX_IRQ_LINES
from sbctune.textsafe import markdown_text, visible
from sbctune.wording import grouped
from tests.peak_memory import peak_growth

pytestmark = pytest.mark.same_on_every_os(
    "how parsers' time grows with their input: pure computation over text, the same "
    "interpreter code on every OS"
)

MAX_RATIO = 30
ATTEMPTS = 3
MAX_PEAK_MB = 500


# CPU time per sample: many ticks of Windows' coarse clock (15.6 ms); Linux's counts in ns.
MIN_SAMPLE_S = 0.05 if os.name == "nt" else 0.01
MAX_CALLS = 2000  # bounds a sample of a very quick call


def cpu_seconds(run: Callable[[Any], object], arg: Any, repeats: int = 3) -> float:
    """CPU seconds per call, best of ``repeats`` samples; each sample calls ``run`` until it
    has spent MIN_SAMPLE_S, so the clock's granularity cannot decide the ratio."""
    best = float("inf")
    gc.collect()
    gc.disable()  # the collector's passes over the whole test run's heap are not the input's
    try:
        for _ in range(repeats):
            best = min(best, _sample(run, arg))
    finally:
        gc.enable()
    return max(best, 1e-7)  # a call below the clock's resolution even MAX_CALLS times


def _sample(run: Callable[[Any], object], arg: Any) -> float:
    calls, started = 0, time.process_time()
    while True:
        run(arg)
        calls += 1
        spent = time.process_time() - started
        if spent >= MIN_SAMPLE_S or calls >= MAX_CALLS:
            return spent / calls


def assert_linear(make: Callable[[int], Any], run: Callable[[Any], object], base: int) -> None:
    small, large = make(10 * base), make(100 * base)
    run(small)  # warm caches (regex compilation, the catalog) out of the timing
    with peak_growth() as grown:
        run(large)
    assert grown.mb < MAX_PEAK_MB, grown.mb
    # A busy machine (the other xdist worker, a VM's stolen time) can slow one sample 3x, a
    # quadratic pattern is slow every time: the best of ATTEMPTS fresh pairs decides.
    ratios = []
    for _ in range(ATTEMPTS):
        t10 = cpu_seconds(run, small)
        t100 = cpu_seconds(run, large, repeats=2)
        ratios.append((t100 / t10, t10, t100))
        if ratios[-1][0] < MAX_RATIO:
            return
    shown = "; ".join(f"10x: {t10:.4f} s, 100x: {t100:.4f} s" for _, t10, t100 in ratios)
    raise AssertionError(f"t(100x) / t(10x) >= {MAX_RATIO} in every attempt: {shown}")


# --- a bundle's manifest: a JSON string of escaped quotes, never closed --------------------


def manifest_zip(tmp_path: Path, size: int) -> Path:
    path = tmp_path / f"manifest-{size}.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("manifest.json", '{"format": "' + '\\"' * (size // 2))
    return path


def refused(path: Path) -> None:
    with pytest.raises(BundleError, match="not valid JSON"):
        read_bundle(path)


def test_a_manifest_of_escaped_quotes(tmp_path: Path) -> None:
    assert_linear(lambda n: manifest_zip(tmp_path, n), refused, base=400)


# --- /proc/interrupts ---------------------------------------------------------------------


def interrupts(lines: int) -> str:
    head = "           CPU0       CPU1       CPU2       CPU3\n"
    return head + "".join(
        f" {200 + i}:  {i} 1 1 1  GICv2 {300 + i} Level  eth{i}\n" for i in range(lines)
    )


def look_up_every_irq(text: str) -> None:
    parsed, _warnings = parse_interrupts(text)
    for irq in parsed.irqs:
        assert parsed.get(irq.irq) is irq
        assert parsed.numbers_named(irq.names[0]) == [irq.number]


def test_proc_interrupts_parsed_and_looked_up_per_irq() -> None:
    assert_linear(interrupts, look_up_every_irq, base=50)


def test_proc_interrupts_through_the_whole_inventory() -> None:
    def inventory(text: str) -> None:
        found = inventory_from_raw(RawOutputs(files={"/proc/interrupts": text}))
        assert len(found.nics) >= 10

    assert_linear(interrupts, inventory, base=10)


# --- interfaces: ip -j addr and ip -j link, merged ----------------------------------------


def ip_outputs(count: int) -> RawOutputs:
    entries = [
        {"ifindex": i + 2, "ifname": f"en{i:05d}", "flags": ["BROADCAST", "UP"], "mtu": 1500,
         "operstate": "UP", "link_type": "ether", "address": f"02:00:00:00:{i >> 8 & 255:02x}:"
         f"{i & 255:02x}", "addr_info": []}
        for i in range(count)
    ]  # fmt: skip
    text = json.dumps(entries)
    return RawOutputs(commands={"ip -j addr": text, "ip -j link": text})


def test_thousands_of_interfaces_merged() -> None:
    assert_linear(ip_outputs, parse_all, base=50)


# --- text shown on a terminal or written into a report ------------------------------------

HOSTILE = "\x1b]0;pwned\x07\u202e\u200b\U000e0041 naïve 日本 <b>[x](y)</b> & |\n"


def test_text_made_visible_and_escaped() -> None:
    def shown(text: str) -> None:
        markdown_text(visible(text))

    assert_linear(lambda n: HOSTILE * n, shown, base=100)


def test_proc_interrupts_is_read_up_to_a_count_and_says_so() -> None:
    parsed, warnings = parse_interrupts(interrupts(MAX_IRQ_LINES + 100))
    assert len(parsed.irqs) == MAX_IRQ_LINES
    assert [str(w) for w in warnings] == [
        f"“/proc/interrupts”: more than {grouped(MAX_IRQ_LINES)} interrupt lines; only the first"
        f" {grouped(MAX_IRQ_LINES)} were read (a real system has a few hundred)"
    ]
    assert parse_interrupts(interrupts(MAX_IRQ_LINES))[1] == []


def test_an_ip_listing_is_read_up_to_a_count_and_says_so() -> None:
    raw = ip_outputs(MAX_INTERFACES + 10)
    found, warnings = parse_ip_json(raw.commands["ip -j link"])
    assert len(found.interfaces) == MAX_INTERFACES
    assert [w.message for w in warnings] == [
        f"lists {grouped(MAX_INTERFACES + 10)} interfaces; only the first {grouped(MAX_INTERFACES)}"
        " were read"
    ]


def test_a_broken_ip_listing_is_searched_in_linear_time() -> None:
    # Not JSON as a whole, so each '{"ifindex"' is tried on its own: a try reads on to where
    # the text breaks, through every try nested in it (here 20 deep, under the depth limit).
    def broken(n: int) -> str:
        return '{"ifindex":[' + ("0," * n + '{"ifindex":[') * 20

    assert_linear(broken, parse_ip_json, base=200)
    _found, warnings = parse_ip_json(broken(10) + '{"ifindex":[' * 40)
    assert "nested deeper than the 32 levels sbctune reads" in warnings[0].message


# --- every parser, on long lines made of its real outputs ---------------------------------

CAPTURES = Path(__file__).parents[1] / "captures"


def capture_lines(key: str) -> list[str]:
    """Real lines for the parser ``key`` (tests/captures/<key as a folder name>; all kinds
    when there is no such folder), at most 20 distinct non-blank ones."""
    folder = CAPTURES / key.replace(" -", "_").replace(" ", "_").replace("-", "_")
    paths = sorted(folder.glob("*.txt")) if folder.is_dir() else sorted(CAPTURES.glob("*/*.txt"))
    lines: dict[str, None] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.strip() and len(lines) < 20:
                lines.setdefault(line)
    return list(lines)


@pytest.mark.parametrize("key", sorted(dispatch.PARSERS))
def test_every_parser_on_long_lines(key: str) -> None:
    # Each real line keeps its start (what anchored patterns look for) and repeats its end up
    # to the size, then ends in junk, so nothing matches: a pattern that retries from every
    # separator (nested or lazy gaps) shows as t^2.
    lines = capture_lines(key)

    def long_lines(size: int) -> str:
        return "".join(
            line + line[len(line) // 3 :] * (size // max(len(line), 1) + 1) + " \x01junk\n"
            for line in lines
        )

    assert_linear(long_lines, dispatch.PARSERS[key].parse, base=100)
