"""Every export of runs taken on a hostile Pi: every field the Pi controls is poisoned (uname,
os-release, the device-tree model, dmesg, `lsusb -t`, `ethtool -i`, the interface's name, the
settings it reports, a tuning session's details, the device's name) with terminal escapes,
C1 CSI, bidi and invisible characters, HTML, a Markdown javascript: link and a formula. No
raw control, bidi or invisible character and no markup may survive in any file.

The bundle is the pi4-ax88179 lab profile (real captures, seed 000; its SOURCE.md) plus real
captures from tests/captures (uname, os-release, ethtool -i; each with its .source.md), with
the poison written where the Pi controls the text.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import unicodedata
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.export import export, gather, registry
from sbctune.history import History
from sbctune.history.records import TuningSessionRecord
from sbctune.inventory.bundle import read_bundle, write_bundle
from sbctune.resources import resource_root
from tests.unit.export.seed_runs import START, seed_run, tuning_data

PROFILE = Path(str(resource_root())) / "lab" / "profiles" / "pi4-ax88179"
CAPTURES = Path(__file__).parents[1] / "captures"

MARKUP = "<img src=x onerror=alert(1)><script>alert(2)</script> [pwn](javascript:alert(1))"
INVISIBLE = "\u202e\u200b\u00ad\u180e\u2066\U000e0041\U000e0042\U00013430\u2028\ufff9"
POISON = f"\x1b]0;pwned\x07\x1b[2J\x9b31m{INVISIBLE}{MARKUP} =HYPERLINK(1)"
# Categories no file may carry raw (tab and newline aside): controls, formatting (bidi,
# zero-width, tags), separators, surrogates, private use, unassigned.
HIDDEN = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}
# The files the report writes itself; "bundle" is the Pi's raw outputs by contract 1 (read
# back through the same boundary) and "png" needs the GUI layer.
TEXT_FORMATS = [f for f in registry.BUILTIN if f != "bundle"]


def capture(kind: str, name: str) -> str:
    return (CAPTURES / kind / f"{name}.txt").read_text(encoding="utf-8")


def hostile_bundle(tmp_path: Path) -> Path:
    profile = read_bundle(PROFILE)
    commands = dict(profile.commands)
    commands["uname -a"] = capture("uname", "pi4_buster_3022").replace(
        "4.19.50-v7l+", f"6.1{POISON}"
    )
    commands["lsusb -t"] = commands["lsusb -t"].replace("ax88179_178a", f"ax88179{POISON}")
    commands["dmesg"] += f"[   12.000000] ax88179_178a 2-2:1.0 eth1: {POISON}\n"
    commands["ethtool -i eth1"] = (
        capture("ethtool_i", "bnx2_ethq_14")
        .replace("bnx2", f"ax88179_178a{POISON}")
        .replace("2.2.6", f"2.2.6{POISON}")
        .replace("bc 5.2.3", f"fw{POISON}")
    )
    files = dict(profile.files)
    files["/proc/device-tree/model"] = f"Raspberry Pi 4 Model B Rev 1.4{POISON}"
    files["/etc/os-release"] = capture("os_release", "pi4_bullseye_64bit_214").replace(
        "Debian GNU/Linux 11 (bullseye)", f"Debian{POISON}"
    )
    return write_bundle(tmp_path / "hostile", f"pi{POISON}", commands, files)


@pytest.fixture(scope="module")
def exports(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    tmp_path = tmp_path_factory.mktemp("hostile-exports")
    inventory = inspect_bundle(hostile_bundle(tmp_path)).to_json()
    history = History.open(tmp_path / "history.sqlite3")
    try:
        device = history.add_device(f"pi{POISON}", 22, "root", name=POISON, seen_at=START)
        assert device.id is not None
        inventory_id = history.save_inventory(device.id, inventory, taken_at=START)
        session = tuning_data()
        session["nic"] = f"eth1{POISON}"
        session["tweaks"][0]["detail"] = POISON
        history.save_tuning_session(
            TuningSessionRecord(device.id, START + dt.timedelta(minutes=5), "confirmed", session)
        )
        ids = []
        for minutes, (mhz, governor) in enumerate([(1500, "ondemand"), (2000, "performance")]):
            run = seed_run("ax88179", mhz, device.id, minutes=10 * minutes)
            run.inventory_id = inventory_id
            run.nic = f"eth1{POISON}"
            run.pi_state = {f"governor/{POISON}": f"{governor}{POISON}", "mtu/eth1": "1500"}
            if minutes:
                run.tuning_state = {"session": session["id"], "tweaks": [f"rps-rfs{POISON}"]}
            ids.append(history.save_run(run))
        data = gather(history, ids)
        written = {fmt: export(fmt, data, tmp_path / f"report.{fmt}") for fmt in TEXT_FORMATS}
    finally:
        history.close()
    return {fmt: path.read_text(encoding="utf-8") for fmt, path in written.items()}


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_no_raw_control_bidi_or_invisible_character_in_any_export(
    exports: dict[str, str], fmt: str
) -> None:
    text = exports[fmt].replace("\r\n", "\n")  # CSV's own line ends
    raw = {f"U+{ord(c):04X}" for c in text if c not in "\t\n" and unicodedata.category(c) in HIDDEN}
    assert not raw, f"{fmt}: {sorted(raw)}"
    assert "pwned" in text or fmt == "svg", "the poisoned fields must be in the file, shown"


@pytest.mark.parametrize("fmt", ["md", "html", "svg"])
def test_no_markup_from_the_pi_survives(exports: dict[str, str], fmt: str) -> None:
    text = exports[fmt]
    assert "<img" not in text and "<script" not in text
    if fmt == "md":  # a Markdown link needs an unescaped "](": the Pi's is shown as text
        assert not re.search(r"(?<!\\)\]\(javascript:", text)
    assert 'href="javascript' not in text.lower()
    assert "src=x" not in text.replace("&lt;img src=x", "")


def test_markdown_shows_the_changed_settings_literally(exports: dict[str, str]) -> None:
    text = exports["md"]
    section = text.split("What changed on the Pi", 1)[1]
    # Shown as written: the escape's backslash and the bracket are themselves escaped.
    assert "governor/\\\\u001b\\]0;pwned\\\\u0007" in section
    assert "&lt;img src=x onerror=alert(1)&gt;" in section and "\\[pwn\\]" in section


def test_html_shows_the_pi_text_visibly(exports: dict[str, str]) -> None:
    text = exports["html"]
    assert "Debian\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m\\u202e\\u200b\\u00ad" in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text
    assert "\\udb40\\udc41" in text  # a tag character, as the JSON-style pair of escapes


def test_json_keeps_the_values_and_csv_never_starts_a_formula(exports: dict[str, str]) -> None:
    document = json.loads(exports["json"])
    assert document["runs"][0]["nic"] == f"eth1{POISON}"  # escaped in the file, same value
    for row in csv.reader(io.StringIO(exports["csv"])):
        assert all(cell[:1] not in ("=", "+", "@") for cell in row)
