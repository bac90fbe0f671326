"""Every file name sbctune makes is valid on Windows (and so on macOS and Linux).

The rules are checked by a validator written here from Microsoft's "Naming Files, Paths, and
Namespaces", independent of sbctune.filenames; Wine accepts some invalid names, so the
Windows lane cannot catch this class and this test must.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.cli.inspect_cmd import default_bundle_name
from sbctune.filenames import DEFAULT_MAX_LENGTH, safe_file_name
from sbctune.inventory.bundle import write_bundle
from sbctune.ui.controllers.exporting import file_name as export_file_name

DEVICES = {"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"} | {
    f"{d}{n}" for d in ("COM", "LPT") for n in ("1", "2", "3", "4", "5", "6", "7", "8", "9",
                                                 "\u00b9", "\u00b2", "\u00b3")
}  # fmt: skip


def windows_refuses(name: str, limit: int = 255) -> str | None:
    """Why Windows would refuse (or silently change) ``name``, or None."""
    if not name:
        return "empty"
    if bad := [c for c in name if c in '<>:"/\\|?*' or ord(c) < 32 or ord(c) == 127]:
        return f"reserved characters {bad!r}"
    if any(0xD800 <= ord(c) <= 0xDFFF for c in name):
        return "a lone surrogate"
    if name[-1] in ". ":
        return "a trailing dot or space"
    if name.split(".")[0].rstrip(" ").upper() in DEVICES:
        return "a device name"
    if len(name.encode("utf-16-le", "surrogatepass")) // 2 > limit:
        return "too long"
    return None


@pytest.mark.parametrize(
    ("given_name", "expected"),
    [
        ("sbctune-fe80::1%eth0-20260101-120000.zip", "sbctune-fe80__1%eth0-20260101-120000.zip"),
        ('a<b>c:d"e/f\\g|h?i*j.txt', "a_b_c_d_e_f_g_h_i_j.txt"),
        ("tab\there\x7f.md", "tab_here_.md"),
        ("CON", "_CON"), ("nul.tar.gz", "_nul.tar.gz"), ("Lpt9.html", "_Lpt9.html"),
        ("COM\u00b9.txt", "_COM\u00b9.txt"), ("con .txt", "_con .txt"), ("CONOUT$", "_CONOUT$"),
        ("COM10.txt", "COM10.txt"), ("CONSOLE.txt", "CONSOLE.txt"),
        ("nul-report.md", "nul-report.md"), ("host-\udc9b.zip", "host-_.zip"),
        ("report. . ", "report"), ("...", "_"), ("", "_"),
        ("sbctune-runs-1-2.html", "sbctune-runs-1-2.html"),
    ],
)  # fmt: skip
def test_names_windows_refuses_are_made_valid(given_name: str, expected: str) -> None:
    assert safe_file_name(given_name) == expected
    assert windows_refuses(expected) is None


def test_a_long_name_is_cut_in_its_stem_and_keeps_its_extension() -> None:
    name = safe_file_name("sbctune-runs-" + "-".join(map(str, range(1, 400))) + ".html")
    assert name.startswith("sbctune-runs-1-2-3-") and name.endswith(".html")
    assert len(name) == DEFAULT_MAX_LENGTH
    wide = safe_file_name("\U0001f600" * 200 + ".zip", max_length=255)  # 2 UTF-16 units each
    assert wide.endswith(".zip") and len(wide.encode("utf-16-le")) // 2 <= 255


# Any code point, lone surrogates too (a Pi's undecodable bytes).
@given(st.text(st.characters(exclude_categories=()), max_size=400), st.integers(1, 300))
def test_any_text_gives_a_valid_name_and_a_valid_name_stays(text: str, limit: int) -> None:
    name = safe_file_name(text, max_length=limit)
    assert windows_refuses(name, limit=max(limit, 8)) is None, (text, name)
    assert safe_file_name(name, max_length=limit) == name  # already valid: left as it is


def test_collect_names_a_bundle_of_an_ipv6_pi_validly() -> None:
    when = time.mktime((2026, 11, 26, 14, 5, 9, 0, 0, -1))
    name = default_bundle_name("fe80::dea6:32ff:fe01:2345%eth0", when).name
    assert name == "sbctune-fe80__dea6_32ff_fe01_2345%eth0-20261126-140509.zip"
    assert default_bundle_name("192.0.2.7", when).name == "sbctune-192.0.2.7-20261126-140509.zip"


def test_export_names_of_many_runs_stay_valid() -> None:
    name = export_file_name("html", list(range(1, 1000)))
    assert windows_refuses(name) is None and name.endswith(".html")
    assert export_file_name("ansible", [3, 4]) == "sbctune-runs-3-4.yml"


def test_a_bundle_folder_has_only_valid_names(tmp_path: Path) -> None:
    commands = {"con": "x", 'ethtool -S "eth0" | grep ?': "y", "." * 80: "z", "nul .": "w"}
    files = {"/proc/net/dev": "a", "/sys/class/net/eth0/speed.": "b"}
    folder = write_bundle(tmp_path / "bundle", "fe80::1", commands, files)
    names = [p.name for p in folder.rglob("*")]
    assert len(names) == 2 + len(commands) + len(files) + 1  # two folders and the manifest
    assert [n for n in names if windows_refuses(n)] == []


def test_a_default_bundle_name_taken_in_the_same_second_gets_a_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    when = time.mktime((2026, 11, 26, 14, 5, 9, 0, 0, -1))
    first = default_bundle_name("192.0.2.7", when)
    first.write_bytes(b"an earlier bundle")
    assert default_bundle_name("192.0.2.7", when).name == "sbctune-192.0.2.7-20261126-140509-2.zip"
