"""The daemons' journal formats (resources/catalog/daemon_lines.json) against the source they
were generated from: every cited C text is verbatim in the cited file of the pinned Debian
version, inside the cited function and the cited logging call; the row's format is that text
(or its start); the table is what scripts/regen_daemon_lines.py makes of the source; and the
reader reads a line rendered from every cited format as the row says.

Fetches Debian's systemd and network-manager upstream tarballs once (~42 MB, 15 to 50 s) into
~/.cache/sbctune/daemon-src (scripts/daemon_source.py), as the kernel's source tests fetch
theirs; later runs read the cache. Skipped, saying why, only when the sources are not cached
and cannot be fetched (no network); under CI (the CI variable set) that fails instead.
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
import regen_daemon_lines  # noqa: E402

from app.inventory.parsers.daemon_lines import daemon_line  # noqa: E402

POSIX = pytest.mark.posix_only("the source cache is locked with fcntl, extracted with tar")

TABLE: dict[str, Any] = json.loads(
    (ROOT / "resources/catalog/daemon_lines.json").read_text(encoding="utf-8")
)
# a logging call -> its level, written here apart from the generator's own mapping
LEVELS = {
    "log_link_debug": "debug", "log_link_info": "info", "log_link_notice": "notice",
    "log_link_warning": "warning", "log_link_error": "error",
    "_LOGT": "trace", "_LOGD": "debug", "_LOGI": "info", "_LOGW": "warn", "_LOGE": "error",
    "log_struct(LOG_INFO, LOG_LINK_MESSAGE)": "info",
    "logdebugx": "debug", "loginfox": "info", "logwarnx": "warning", "logerrx": "error",
}  # fmt: skip
# the wrapper each daemon's line stands in, in a journal (the reader cuts nothing before it)
WRAPPERS = {
    "systemd-networkd": "Nov 29 10:00:01 pi systemd-networkd[412]: eth0: ",
    "NetworkManager-device": "Nov 29 10:00:01 pi NetworkManager[600]: <info>  [1701252001.1234] "
    "device (eth0): ",
    "NetworkManager-dhcp": "Nov 29 10:00:01 pi NetworkManager[600]: <info>  [1701252001.1234] "
    "dhcp4 (eth0): ",
    "dhcpcd": "Nov 29 10:00:01 pi dhcpcd[620]: ",  # the format itself holds "%s: "
    "ifplugd": "Nov 29 10:00:01 pi ifplugd(eth0)[1395]: ",
}


@pytest.fixture(scope="module")
def sources() -> dict[str, daemon_source.DaemonSource]:
    got = {}
    for pin in daemon_source.pins(TABLE):
        try:
            got[pin.key] = daemon_source.obtain(pin)
        except daemon_source.DaemonSourceError as exc:
            if os.environ.get("CI"):
                pytest.fail(f"the daemons' source is needed under CI: {exc}")
            pytest.skip(f"the daemons' source is not cached and could not be fetched: {exc}")
    return got


def _sites() -> list[tuple[dict[str, Any], str, dict[str, str]]]:
    return [
        (row, key, site)
        for row in TABLE["formats"]
        for key, where in row.get("sources", {}).items()
        for site in where
    ]


def test_every_row_is_cited_in_a_pinned_source() -> None:
    pinned = {pin.key for pin in daemon_source.pins(TABLE)}
    for row in TABLE["formats"]:
        assert row.get("sources"), f"{row['format']!r} cites no source"
        assert set(row["sources"]) <= pinned, row["format"]
        assert row["checked"].startswith("generated from the Debian source"), row["format"]


@POSIX
def test_every_cited_text_is_verbatim_in_its_function(
    sources: dict[str, daemon_source.DaemonSource],
) -> None:
    problems = []
    for row, key, site in _sites():
        if "binary" in site:  # a binary package's executable: the format and argument as strings
            data = sources[key].path(site["file"]).read_bytes()
            for said in (site["text"], row.get("argument")):
                if said and b"\0" + said.encode() + b"\0" not in data:
                    problems.append(f"{key} {site['file']}: no string {said!r}")
            if site["text"] != row["format"]:
                problems.append(f"{key} {site['file']}: {site['text']!r} is not the row's format")
            continue
        text = sources[key].path(site["file"]).read_text(encoding="utf-8", errors="replace")
        where = f"{key} {site['file']}: {site['text']!r}"
        at = text.find(site["text"])
        if at < 0:
            problems.append(f"{where} is not in the file")
            continue
        before = text[:at]
        # the function's definition is the last one at a line's start before the text, and no
        # function ends (a "}" at a line's start) between the two
        head = rf"(?m)^(?:[A-Za-z_][\w \t*]*[ \t*])?\**{site['function']}\("
        defined = list(re.finditer(head, before))
        if not defined or re.search(r"(?m)^}", before[defined[-1].end() :]):
            problems.append(f"{where} is not inside {site['function']}()")
        call = site["call"].split("(")[0] if site["call"].startswith("log_struct") else site["call"]
        if call not in before[-400:]:
            problems.append(f"{where} is not an argument of {site['call']}")
        if LEVELS.get(site["call"]) != site["level"]:
            problems.append(f"{where}: {site['call']} is not level {site['level']}")
        if site["level"] not in row["level"].split("/"):
            problems.append(f"{where}: the row's level {row['level']} misses {site['level']}")
        said = regen_daemon_lines.c_value(site["text"])
        want = regen_daemon_lines.LEAD_OF.get(row["daemon"], "") + row["format"]
        fits = said.startswith(want) if row.get("prefix") else said == want
        if argument := row.get("argument"):
            end = text.find(";", at)
            fits = fits and f'"{argument}"' in text[at:end]
        if not fits:
            problems.append(f"{where} says {said!r}, not the row's {row['format']!r}")
    assert problems == []


@POSIX
def test_the_table_is_what_the_source_generates(
    sources: dict[str, daemon_source.DaemonSource],
) -> None:
    again = copy.deepcopy(TABLE)
    assert regen_daemon_lines.regenerate(again, sources) == []
    for mine, fresh in zip(TABLE["formats"], again["formats"], strict=True):
        assert mine == fresh, f"{mine['format']!r}: run scripts/regen_daemon_lines.py"


def _rendered(c_said: str, daemon: str, argument: str = "") -> str:
    """A line the daemon could print from the format: a value in every conversion (the row's
    argument in the first, where it names one; dhcpcd's own "%s: " the interface)."""
    if lead := regen_daemon_lines.LEAD_OF.get(daemon):
        c_said = "eth0: " + c_said.removeprefix(lead)
    line = c_said.replace("%s", argument, 1) if argument else c_said
    line = re.sub(r"\{[A-Z_][A-Z0-9_]*\}", "192.0.2.7", line)
    line = re.sub(r"%[-+ #0]*\d*(?:\.\d+)?(?:ll|l|z)?[diu]", "7", line)
    return re.sub(r"%[-+ #0]*\d*(?:\.\d+)?s", "activated", line)


def test_the_reader_reads_every_cited_line_as_its_row_says() -> None:
    problems = []
    for row, key, site in _sites():
        said = regen_daemon_lines.c_value(site["text"]) if "binary" not in site else site["text"]
        line = WRAPPERS[row["daemon"]] + _rendered(said, row["daemon"], row.get("argument", ""))
        got = daemon_line(line)
        if row["says"] in ("carrier_up", "carrier_down"):
            want: tuple[str, dict[str, str]] | None = (
                "carrier",
                {"iface": "eth0", "state": row["state"], "daemon": row["daemon"]},
            )
        else:
            fields = {"iface": "eth0", "daemon": row["daemon"], "format": row["format"]}
            want = ("daemon_iface", fields)
            if row["says"] == "driver":
                want[1]["driver"] = "activated"
        if got != want:
            problems.append(f"{key} {line!r}: {got} (the row says {row['says']})")
    assert problems == []
