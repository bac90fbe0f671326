"""Text from a hostile Pi or bundle: it never acts on a terminal, never becomes Markdown or
HTML markup, never a formula in a spreadsheet, never a regular expression.

The hostile bundles are the pi4-ax88179 lab profile (real captures, seed 000; sources in its
SOURCE.md) with attacker-chosen values put where a Pi controls the text: the driver name in
`lsusb -t`, a dmesg line, the device-tree model.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.cli.main import main as cli_main
from sbctune.export import ReportData, export, gather
from sbctune.inventory.bundle import read_bundle, write_bundle
from sbctune.resources import resource_root
from sbctune.textsafe import csv_cell, guard_terminal, markdown_text, visible
from tests.child_pipes import child_pipe_encoding
from tests.unit.export.seed_runs import seed_history

PROFILE = Path(str(resource_root())) / "lab" / "profiles" / "pi4-ax88179"

# What a compromised Pi would print: retitle the window, clear the screen, a disguised
# hyperlink, an 8-bit CSI, a right-to-left override, a lone carriage return that overwrites.
TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
LINK = "\x1b]8;;http://198.18.0.1/x\x1b\\click here\x1b]8;;\x1b\\"
HOSTILE = f"{TITLE}{CLEAR}{LINK}\x9b31m\u202eexe.txt\rX"
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e]")


def hostile_bundle(tmp_path: Path, driver: str = "ax88179_178a", extra_usb: str = "") -> Path:
    profile = read_bundle(PROFILE)
    commands = dict(profile.commands)
    commands["lsusb -t"] = commands["lsusb -t"].replace("ax88179_178a", driver) + extra_usb
    commands["dmesg"] = commands["dmesg"].replace("ax88179_178a", driver) + (
        # the same (hostile) driver as the register line: the NIC's driver is the one that
        # registered its interface, so a line naming another would change the driver shown
        f"[   12.000000] {driver} 2-2:1.0 eth1: {HOSTILE}\n"
    )
    files = dict(profile.files)
    files["/proc/device-tree/model"] = f"Raspberry Pi 4 Model B Rev 1.4{HOSTILE}<script>x</script>"
    return write_bundle(tmp_path / "hostile", "pi", commands, files)


def test_visible_shows_every_control_character_but_tab_and_newline() -> None:
    shown = visible(f"a\tb\n{HOSTILE}\r\n")
    assert not RAW_CONTROL.search(shown)
    assert "\\u001b]0;pwned\\u0007" in shown and "\\u009b31m" in shown and "\\u202e" in shown
    assert shown.startswith("a\tb\n") and shown.endswith("X\n")  # CRLF is a line end


@given(st.text())
def test_visible_never_leaves_a_control_character(text: str) -> None:
    assert not RAW_CONTROL.search(visible(text))


@given(st.text())
def test_visible_text_stays_valid_inside_json(text: str) -> None:
    # The guard may rewrite what json.dumps(ensure_ascii=False) printed: still valid JSON.
    dumped = visible(json.dumps({"k": text}, ensure_ascii=False))
    assert set(json.loads(dumped)) == {"k"}


@pytest.mark.parametrize("as_json", [False, True])
def test_inspect_prints_nothing_raw(tmp_path: Path, capfd: pytest.CaptureFixture[str],
                                    as_json: bool) -> None:  # fmt: skip
    bundle = hostile_bundle(tmp_path, driver=f"ax{TITLE}88179")
    code = cli_main(["inspect", str(bundle), *(["--json"] if as_json else [])])
    out, err = capfd.readouterr()
    assert code == 0, err
    assert not RAW_CONTROL.search(out + err)
    if as_json:
        nics = {n["name"]: n for n in json.loads(out)["nics"]}
        assert nics["eth1"]["driver"] == f"ax{TITLE}88179"  # JSON keeps the value, escaped
    else:
        assert "driver:  ax\\u001b]0;pwned\\u0007" in out  # shown, not obeyed


def test_the_guard_covers_stdout_and_stderr(capfd: pytest.CaptureFixture[str]) -> None:
    with guard_terminal():
        print(f"out {HOSTILE}")
        print(f"err {HOSTILE}", file=sys.stderr)
    print("after\x07")  # the guard is only where the command line installs it
    out, err = capfd.readouterr()
    assert out.startswith("out \\u001b]0;pwned\\u0007") and out.endswith("after\x07\n")
    assert err.startswith("err \\u001b]0;pwned") and not RAW_CONTROL.search(err)


def test_a_driver_name_with_regex_syntax_is_literal(tmp_path: Path) -> None:
    inv = inspect_bundle(hostile_bundle(tmp_path, driver="ax88179_178a("))
    nic = next(n for n in inv.nics if n.name == "eth1")
    assert nic.driver == "ax88179_178a("
    evidence = [e for f in inv.findings for e in f.evidence]
    assert any("Driver=ax88179_178a(," in e for e in evidence)


def test_a_catastrophic_pattern_as_driver_is_instant(tmp_path: Path) -> None:
    # As a regex, (x+x+)+y against Driver=xxx…x backtracks exponentially (13.7 s at 28 x's).
    long_line = "    |__ Port 3: Dev 3, If 0, Class=, Driver=" + "x" * 40 + ", 480M\n"
    bundle = hostile_bundle(tmp_path, driver="(x+x+)+y", extra_usb=long_line)
    started = time.monotonic()
    inv = inspect_bundle(bundle)
    assert time.monotonic() - started < 5
    assert any(n.driver == "(x+x+)+y" for n in inv.nics)


def test_markdown_export_is_literal_text(tmp_path: Path) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    try:
        data: ReportData = gather(history, ids[:1])
        inventory = data.inventory_for(data.runs[0])
        assert inventory is not None
        inventory["board"]["model"] = "<img src=x onerror=alert(1)><script>alert(2)</script>"
        for nic in inventory["nics"]:
            nic["chip"] = f"[click](http://198.18.0.1) *bold* |cell| {TITLE}"
        text = export("md", data, tmp_path / "post.md").read_text(encoding="utf-8")
    finally:
        history.close()
    assert "<img" not in text and "<script" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;&lt;script&gt;" in text
    assert "](" not in text.replace("\\](", "") and "\\*bold\\*" in text
    assert "\x1b" not in text and "\\\\u001b" in text  # the escape, itself escaped


def test_csv_cells_never_start_a_formula() -> None:
    assert csv_cell('=HYPERLINK("http://198.18.0.1")').startswith("'=")
    assert csv_cell("@SUM(A1)") == "'@SUM(A1)" and csv_cell("+1+2") == "'+1+2"
    assert csv_cell("-12.5") == "-12.5" and csv_cell("eth1") == "eth1"


def test_markdown_text_block_markers_only_at_line_start() -> None:
    assert markdown_text("# x", line_start=True) == "\\# x"
    assert markdown_text("1. x", line_start=True) == "1\\. x"
    assert markdown_text("940.5") == "940.5"


def test_cli_subprocess_output_is_guarded(tmp_path: Path) -> None:
    """The installed entry point, as a user runs it: the bytes on the terminal are clean."""
    bundle = hostile_bundle(tmp_path, driver=f"ax{TITLE}88179")
    proc = subprocess.run([sys.executable, "-m", "sbctune", "inspect", str(bundle)],
                          capture_output=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    encoding = child_pipe_encoding()  # cp1252 on Windows
    # Windows' text mode ends each line with \r\n: a line break there, not a control let through.
    shown = (proc.stdout + proc.stderr).replace(os.linesep.encode(), b"\n").decode(encoding)
    assert not RAW_CONTROL.search(shown)
    assert b"\\u001b]0;pwned" in proc.stdout
