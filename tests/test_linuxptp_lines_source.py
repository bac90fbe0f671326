"""linuxptp's formats (resources/catalog/linuxptp_lines.json) against the source they were
generated from: the table is what scripts/regen_linuxptp_lines.py makes of Debian's pinned
linuxptp, every row's format is printed by a pr_*() call there, and the reader reads a line
rendered from every port format behind 4.x's "port N (IFACE): " prefix as that interface's.

Fetches Debian's linuxptp upstream tarball once (~0.3 MB) into ~/.cache/sbctune/daemon-src
(scripts/daemon_source.py); later runs read the cache. Skipped, saying why, only when it is not
cached and cannot be fetched (no network); under CI (the CI variable set) that fails instead.
"""

from __future__ import annotations

import copy
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

import daemon_source  # noqa: E402
import regen_linuxptp_lines  # noqa: E402

from app.inventory.parsers.linuxptp_lines import linuxptp_line  # noqa: E402

POSIX = pytest.mark.posix_only("the source cache is locked with fcntl, extracted with tar")
TABLE: dict[str, Any] = json.loads(
    (ROOT / "resources/catalog/linuxptp_lines.json").read_text(encoding="utf-8")
)


def _source() -> daemon_source.DaemonSource:
    [pin] = daemon_source.pins(TABLE)
    try:
        return daemon_source.obtain(pin)
    except daemon_source.DaemonSourceError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"linuxptp's source is needed under CI: {exc}")
        pytest.skip(f"linuxptp's source is not cached and could not be fetched: {exc}")


@POSIX
def test_the_table_is_what_the_source_generates() -> None:
    table = copy.deepcopy(TABLE)
    assert regen_linuxptp_lines.regenerate(table, _source()) == []
    assert table == TABLE


@POSIX
def test_every_row_is_printed_by_a_pr_call() -> None:
    printed = {value for value, *_ in regen_linuxptp_lines.calls(_source().root)}
    rows = [TABLE["tx_timeout"], *TABLE["iface_formats"]]
    assert all(row["format"] in printed for row in rows)
    assert all("port %hu: " + row["format"] in printed for row in TABLE["port_formats"])


def _rendered(fmt: str) -> str:
    return re.sub(
        r"%[-+ #0]*\d*(?:h|l)?([a-z])", lambda m: "7" if m.group(1) in "dui" else "x", fmt
    )


def test_the_reader_reads_every_port_format_behind_the_4x_prefix() -> None:
    for row in TABLE["port_formats"]:
        line = f"ptp4l[930.927]: port 1 (end0): {_rendered(row['format'])}"
        found = linuxptp_line(line)
        assert found is not None and found[0] == "ptp_port", line
        assert found[1]["iface"] == "end0"
