"""The tables in resources/kernel_source/ are checked against the kernel source they were
generated from (Debian's linux-source-6.1 and 6.12 at the versions VERSION.json names,
obtained by scripts/kernel_source.py; ~25 s the first time on a machine, then cached)."""

from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

from sbctune.resources import resource_root
from tests.kernel_trees import kernel_trees

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from regen_kernel_source import GLOBS  # noqa: E402

_SPEC_RE = re.compile(r"%[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|t|j|L)?[a-zA-Z%]")


def _table(name: str) -> dict:  # type: ignore[type-arg]
    return json.loads(resource_root().joinpath("kernel_source", name).read_text(encoding="utf-8"))


def _messages() -> list[tuple[str, str, list[str], list[str]]]:
    """(format, level, files, series) of each line of messages.tsv."""
    text = resource_root().joinpath("kernel_source", "messages.tsv").read_text(encoding="utf-8")
    rows = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            _key, level, series, files, fmt = line.split("\t", 4)
            rows.append((fmt, level, files.split(","), series.split(",")))
    return rows


@pytest.fixture(scope="module")
def trees() -> dict[str, Path]:
    return kernel_trees(GLOBS)


def _c_text(path: Path) -> str:
    """The file with adjacent string literals joined and "\\n" dropped, as the table has them."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return re.sub(r'"\s*"', "", text).replace("\\n", "")


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_messages_are_in_the_files_they_cite(trees: dict[str, Path]) -> None:
    rows = _messages()
    assert len(rows) > 15000
    for fmt, level, files, series in random.Random(24).sample(rows, 150):
        assert level in {"emerg", "alert", "crit", "err", "warn", "info"}  # info: with an errno
        needle = max(_SPEC_RE.split(fmt), key=len).replace('"', '\\"')
        found = [
            f
            for s in series
            for f in files
            if (trees[s] / f).is_file() and needle in _c_text(trees[s] / f)
        ]
        assert found, (fmt, files, series)


def test_known_messages_have_the_level_and_file_of_their_call() -> None:
    rows = {r[0]: r for r in _messages()}
    watchdog = rows["NETDEV WATCHDOG: CPU: %d: transmit queue %u timed out %u ms"]
    assert watchdog[1:3] == ("crit", ["net/sched/sch_generic.c"])
    assert rows["probe with driver %s failed with error %d"][1:] == (
        "err",
        ["drivers/base/dd.c"],
        ["6.12"],
    )
    assert rows["%s: probe of %s failed with error %d"][3] == ["6.1"]  # pr_warn, before 6.12


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_errno_values_are_the_kernels(trees: dict[str, Path]) -> None:
    errno = _table("errno.json")
    assert errno["110"]["name"] == "ETIMEDOUT" and errno["71"]["name"] == "EPROTO"
    assert errno["517"]["name"] == "EPROBE_DEFER"
    tree = trees["6.12"]
    for value, item in errno.items():
        header = (tree / item["source"]).read_text(encoding="utf-8")
        assert re.search(rf"#define\s+{item['name']}\s+{value}\b", header), item


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_drivers_are_registered_in_the_files_they_cite(trees: dict[str, Path]) -> None:
    data = _table("drivers.json")
    drivers = data["drivers"]
    assert drivers["rtw_8822bu"]["series"] == ["6.12"]  # rtw88's USB parts came after 6.1
    assert drivers["r8152"]["buses"] == ["usb"] and not drivers["r8152"]["wireless"]
    assert drivers["r8169"]["file"] == "drivers/net/ethernet/realtek/r8169_main.c"
    assert "rt2800usb" in data["ids"]["usb:148f:3070"]
    assert "rt2800usb" in data["firmware"]["rt2870.bin"]
    for name, info in random.Random(24).sample(sorted(drivers.items()), 60):
        texts = [
            (trees[s] / info["file"]).read_text(encoding="utf-8", errors="replace")
            for s in info["series"]
            if (trees[s] / info["file"]).is_file()
        ]
        assert texts, (name, info)
        struct = re.compile(rf"struct\s+{info['buses'][0]}(?:_device)?_driver\b")
        assert any(struct.search(t) for t in texts), (name, info)
        # the name is the struct's literal .name, a macro defined as it, or the module name
        assert any(f'"{name}"' in t or "KBUILD_MODNAME" in t or "_NAME" in t for t in texts), name
