"""The lab's `uname` (sbctune.lab.uname): the profile's Pi's kernel, field by field, as GNU
uname prints it; "unknown" where the profile has no capture or seed words; never this host's.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.bundle import Bundle, read_bundle
from sbctune.inventory.parsers.system import parse_uname
from sbctune.lab import load_profile, uname
from sbctune.lab.overlay import build as build_overlay
from sbctune.lab.profile import find_profile

pytestmark = pytest.mark.posix_only("runs the lab's uname, a POSIX shell script")

HOST = platform.uname()  # platform, not os.uname: the module is imported on Windows too
# A real `uname -a` of a Raspberry Pi 3 B+ (a fresh trixie), verbatim from the code block of
# https://github.com/raspberrypi/linux/issues/7436 (comment by nbuchwitz, 2026-06-15).
PASTED = (
    "Linux rpi3bp 6.12.47+rpt-rpi-v8 #1 SMP PREEMPT Debian 1:6.12.47-1+rpt1 (2025-09-16) "
    "aarch64 GNU/Linux\n"
)


def run(bin_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "uname"), *args], capture_output=True, text=True, timeout=10, check=False
    )


def lab_bin(tmp_path: Path, profile: str) -> Path:
    prof = load_profile(find_profile(profile))
    plan = build_overlay(prof.bundle, tmp_path / "lab", prof.uname)
    return Path(plan.bin_dir)


def test_pi4_profiles_answer_with_the_seeds_kernel(tmp_path: Path) -> None:
    for name in ("pi4-ax88179", "pi4-rtl8153"):
        bin_dir = lab_bin(tmp_path / name, name)
        assert run(bin_dir, "-r").stdout == "5.15.4-0-rpi4\n"
        assert run(bin_dir, "-m").stdout == "aarch64\n"
        assert run(bin_dir, "--kernel-release", "--machine").stdout == "5.15.4-0-rpi4 aarch64\n"
        everything = run(bin_dir, "-a").stdout
        assert everything == f"Linux {HOST.node} 5.15.4-0-rpi4 unknown aarch64 GNU/Linux\n"
        parsed, warnings = parse_uname(everything)
        assert (parsed.kernel_release, parsed.machine, parsed.kernel_version) == (
            "5.15.4-0-rpi4", "aarch64", None,
        )  # fmt: skip
        assert not warnings


@pytest.mark.parametrize(
    "name",
    ["pi5-macb", "pi3bplus-lan78xx", "pi1b-smsc95xx", "cm4-i340-igb", "cm4-rtl8125b-r8169"],
)
def test_a_profile_without_a_kernel_shows_none_not_this_hosts(tmp_path: Path, name: str) -> None:
    bin_dir = lab_bin(tmp_path, name)
    for flags in (["-a"], ["-r"], ["-v"], ["-m"], ["-srm"]):
        out = run(bin_dir, *flags).stdout
        assert HOST.release not in out and HOST.version not in out and HOST.machine not in out
    assert run(bin_dir, "-r").stdout == "unknown\n"
    assert run(bin_dir).stdout == "Linux\n"
    parsed, _ = parse_uname(run(bin_dir, "-a").stdout)
    assert (
        parsed.kernel_release is None and parsed.machine is None and parsed.kernel_version is None
    )
    assert "unknown" in (find_profile(name) / "SOURCE.md").read_text(encoding="utf-8")


def test_a_captured_uname_is_served_as_is_and_field_by_field(tmp_path: Path) -> None:
    folder = tmp_path / "pi3bplus-pasted"
    shutil.copytree(find_profile("pi3bplus-lan78xx"), folder)
    (folder / "commands").mkdir()
    (folder / "commands" / "000-uname_-a.txt").write_text(PASTED, encoding="utf-8")
    manifest = (folder / "manifest.json").read_text(encoding="utf-8")
    manifest = manifest.replace(
        '"commands": {}', '"commands": {"uname -a": "commands/000-uname_-a.txt"}'
    )
    (folder / "manifest.json").write_text(manifest, encoding="utf-8")
    prof = load_profile(folder)
    assert prof.kernel == "6.12.47+rpt-rpi-v8"  # the driver models answer as the capture
    bin_dir = Path(build_overlay(prof.bundle, tmp_path / "lab", prof.uname).bin_dir)
    assert run(bin_dir, "-a").stdout == PASTED
    assert run(bin_dir, "-r").stdout == "6.12.47+rpt-rpi-v8\n"
    assert run(bin_dir, "-m").stdout == "aarch64\n"
    assert run(bin_dir, "-v").stdout == "#1 SMP PREEMPT Debian 1:6.12.47-1+rpt1 (2025-09-16)\n"


@pytest.mark.parametrize(
    ("flags", "message"),
    [(["-x"], "invalid option -- 'x'"), (["--bogus"], "unrecognized option '--bogus'"),
     (["extra"], "extra operand 'extra'")],
)  # fmt: skip
def test_bad_flags_fail_as_uname_does(tmp_path: Path, flags: list[str], message: str) -> None:
    result = run(lab_bin(tmp_path, "pi5-macb"), *flags)
    assert result.returncode == 1 and message in result.stderr and result.stdout == ""


def test_hostile_capture_text_is_never_served(tmp_path: Path) -> None:
    """A bundle's uname is untrusted text: what is not a plain release is not printed (and
    never run by the script's shell)."""
    folder = tmp_path / "hostile"
    folder.mkdir()
    (folder / "commands").mkdir()
    (folder / "commands" / "000.txt").write_text(
        "6.1'; touch /tmp/pwned; '$(id)\n", encoding="utf-8"
    )
    (folder / "manifest.json").write_text(
        '{"format": "sbctune-bundle", "version": 1, "commands": {"uname -r": "commands/000.txt"},'
        ' "files": {}, "exit_codes": {}}',
        encoding="utf-8",
    )
    found = uname.facts(read_bundle(folder))
    assert found.release == uname.UNKNOWN
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "uname").write_text(uname.script(found, []), encoding="utf-8")
    (bin_dir / "uname").chmod(0o755)
    assert run(bin_dir, "-r").stdout == "unknown\n"


@settings(max_examples=200, deadline=None)
@given(a=st.text(max_size=300), r=st.text(max_size=80), m=st.text(max_size=40))
def test_any_captured_text_gives_plain_fields_or_unknown(a: str, r: str, m: str) -> None:
    """Garbage in a bundle's uname captures never reaches the script unchecked: each field is
    a plain release, build string or machine name, or "unknown"."""
    found = uname.facts(
        Bundle(Path("."), "", "", commands={"uname -a": a, "uname -r": r, "uname -m": m})
    )
    for value in (found.release, found.version, found.machine):
        assert value == uname.UNKNOWN or (
            "'" not in value and "\n" not in value and "$" not in value and "`" not in value
        )
    assert found.release == uname.UNKNOWN or " " not in found.release
