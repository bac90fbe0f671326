"""Hostile and oversized bundles: what the user sees, and that memory stays bounded.

Each case runs `sbctune inspect` as the user would, in a child process whose own peak RSS
is measured (tests/peak_memory.py); the bar is 500 MB whatever the input. Large inputs are
made on the fly (sparse files or streamed into a zip), never stored. The bundles start from
the pi4-ax88179 lab profile (real captures, seed 000; sources in its SOURCE.md).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
import zipfile
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import MANIFEST, BundleError, read_bundle, write_bundle
from sbctune.limits import MAX_OUTPUT_BYTES
from sbctune.resources import resource_root
from tests.peak_memory import Measured, run_measured

PROFILE = Path(str(resource_root())) / "lab" / "profiles" / "pi4-ax88179"
GiB = 1024**3
RSS_BAR_MB = 500


def run_cli(tmp_path: Path, *args: str, timeout: float = 120) -> Measured:
    ran = run_measured([sys.executable, "-m", "sbctune", *args], tmp_path, timeout=timeout)
    print(f"sbctune {args[0]} {Path(args[1]).name}: exit {ran.code},"
          f" peak RSS {ran.peak_mb} MB, {ran.seconds:.1f} s")  # fmt: skip
    return ran


def folder_bundle(tmp_path: Path) -> Path:
    dest = tmp_path / "bundle"
    shutil.copytree(PROFILE, dest)
    return dest


def zip_of(folder: Path, dest: Path, big: dict[str, tuple[int, bytes]] | None = None) -> Path:
    """A zip of ``folder``; ``big`` members (rel -> (size, repeated unit)) are streamed."""
    with zipfile.ZipFile(dest, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder).as_posix()
            if path.is_file() and rel not in (big or {}):
                zf.write(path, rel)
        for rel, (size, unit) in (big or {}).items():
            block = unit * (1024 * 1024 // len(unit))
            with zf.open(rel, "w", force_zip64=True) as fh:
                written = 0
                while written < size:
                    fh.write(block[: size - written])
                    written += len(block)
    return dest


def test_a_1_gib_dmesg_in_a_folder_keeps_its_last_part(tmp_path: Path) -> None:
    bundle = folder_bundle(tmp_path)
    dmesg = bundle / "commands" / "001-dmesg.txt"
    real = dmesg.read_bytes()
    with open(dmesg, "r+b") as fh:  # sparse: 1 GiB of NULs, then the real log at its end
        fh.truncate(GiB)
        fh.seek(GiB)
        fh.write(b"\n" + real)
    ran = run_cli(tmp_path, "inspect", str(bundle))
    assert ran.code == 0, ran.err
    assert "dmesg: the output of 1.0 GiB is larger than the 16.0 MiB sbctune reads" in ran.out
    assert "only its last 16.0 MiB were used" in ran.out
    assert "eth1: register 'ax88179_178a'" in ran.out  # the log's end is still evidence
    assert ran.peak_within(RSS_BAR_MB), ran.peak_mb


def test_16_mib_of_short_lines_stays_bounded(tmp_path: Path) -> None:
    bundle = folder_bundle(tmp_path)
    line = b"[    1.000000] x\n"
    (bundle / "commands" / "001-dmesg.txt").write_bytes(line * (MAX_OUTPUT_BYTES // len(line)))
    ran = run_cli(tmp_path, "inspect", str(bundle), "--json")
    assert ran.code == 0, ran.err
    assert json.loads(ran.out)["nics"]
    assert ran.peak_within(RSS_BAR_MB), ran.peak_mb


@pytest.mark.parametrize("unit", [b"\0", b"a\n"], ids=["nuls", "short-lines"])
def test_a_zip_bomb_is_refused_before_it_unpacks(tmp_path: Path, unit: bytes) -> None:
    folder = folder_bundle(tmp_path)
    bomb = zip_of(folder, tmp_path / "bomb.zip", {"commands/001-dmesg.txt": (GiB, unit)})
    assert bomb.stat().st_size < 8 * 1024 * 1024
    ran = run_cli(tmp_path, "inspect", str(bomb))
    assert ran.code == 1
    assert "unpacks to 1.0 GiB, more than the 256.0 MiB sbctune reads" in ran.err
    assert ran.peak_within(RSS_BAR_MB) and ran.seconds < 30, (ran.peak_mb, ran.seconds)


def test_a_bomb_member_under_the_total_is_refused_by_its_ratio(tmp_path: Path) -> None:
    folder = folder_bundle(tmp_path)
    bomb = zip_of(folder, tmp_path / "b.zip", {"commands/001-dmesg.txt": (200 * 2**20, b"\0")})
    ran = run_cli(tmp_path, "inspect", str(bomb))
    assert ran.code == 1
    assert "commands/001-dmesg.txt unpacks from" in ran.err and "zip bomb" in ran.err
    assert ran.peak_within(RSS_BAR_MB), ran.peak_mb


def test_a_zip_of_too_many_members_is_refused(tmp_path: Path) -> None:
    dest = zip_of(folder_bundle(tmp_path), tmp_path / "many.zip")
    with zipfile.ZipFile(dest, "a") as zf:
        for index in range(2100):
            zf.writestr(f"junk/{index}.txt", "")
    ran = run_cli(tmp_path, "inspect", str(dest))
    assert ran.code == 1
    with zipfile.ZipFile(dest) as zf:
        members = len(zf.infolist())  # the profile's own files and the 2100 added
    assert f"many.zip holds {members} files, more than the 2000 sbctune reads" in ran.err


def test_a_huge_manifest_is_refused(tmp_path: Path) -> None:
    bundle = folder_bundle(tmp_path)
    with open(bundle / MANIFEST, "r+b") as fh:  # sparse 512 MiB
        fh.truncate(512 * 2**20)
    ran = run_cli(tmp_path, "inspect", str(bundle))
    assert ran.code == 1
    assert "manifest.json is 512.0 MiB, more than the 1.0 MiB sbctune reads" in ran.err
    assert ran.peak_within(RSS_BAR_MB), ran.peak_mb


def test_a_deeply_nested_manifest_is_an_error_not_a_crash(tmp_path: Path) -> None:
    bundle = folder_bundle(tmp_path)
    depth = 200_000
    (bundle / MANIFEST).write_text("[" * depth + "]" * depth, encoding="utf-8")
    ran = run_cli(tmp_path, "inspect", str(bundle))
    assert ran.code == 1, ran.err
    assert "manifest.json nests 200000 levels deep, more than the 32" in ran.err
    assert "unexpected error" not in ran.err


@pytest.mark.posix_only("makes symlinks (Windows needs a privilege for them)")
@pytest.mark.parametrize("as_json", [False, True])
def test_a_symlinked_member_is_refused_and_never_read(tmp_path: Path, as_json: bool) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:$6$TOPSECRET:19000:0:99999:7:::\n", encoding="utf-8")
    bundle = folder_bundle(tmp_path)
    dmesg = bundle / "commands" / "001-dmesg.txt"
    dmesg.unlink()
    dmesg.symlink_to(secret)
    ran = run_cli(tmp_path, "inspect", str(bundle), *(["--json"] if as_json else []))
    assert ran.code == 1
    assert f"{dmesg} is a symbolic link; sbctune reads only regular files" in ran.err
    assert "TOPSECRET" not in ran.out + ran.err


@pytest.mark.posix_only("makes symlinks (Windows needs a privilege for them)")
def test_a_symlinked_folder_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "001-dmesg.txt").write_text("SECRET\n", encoding="utf-8")
    bundle = folder_bundle(tmp_path)
    shutil.copy(bundle / "commands" / "000-lsusb_-t.txt", outside)
    shutil.rmtree(bundle / "commands")
    (bundle / "commands").symlink_to(outside)
    with pytest.raises(BundleError, match=r"commands is a symbolic link"):
        read_bundle(bundle)


@pytest.mark.posix_only("makes a FIFO (os.mkfifo)")
def test_a_fifo_member_is_refused_without_hanging(tmp_path: Path) -> None:
    bundle = folder_bundle(tmp_path)
    dmesg = bundle / "commands" / "001-dmesg.txt"
    dmesg.unlink()
    os.mkfifo(dmesg)
    with pytest.raises(BundleError, match="is not a regular file"):
        read_bundle(bundle)


def test_a_symlink_stored_in_a_zip_is_refused(tmp_path: Path) -> None:
    dest = zip_of(
        folder_bundle(tmp_path),
        tmp_path / "link.zip",
    )
    with zipfile.ZipFile(dest) as zf:
        members = {i.filename: zf.read(i) for i in zf.infolist()}
    with zipfile.ZipFile(dest, "w") as zf:
        for name, data in members.items():
            info = zipfile.ZipInfo(name)
            if name.endswith("dmesg.txt"):
                info.create_system = 3
                info.external_attr = 0o120777 << 16
                data = b"/etc/shadow"
            zf.writestr(info, data)
    with pytest.raises(BundleError, match=r"dmesg.txt in .* is a symbolic link"):
        read_bundle(dest)


# Every output a bundle may hold, each given 200 KB of one repeated unit: a long run without
# spaces once took 31 s in a backtracking pattern; a 200 000-digit sysfs speed crashed int().
_EVERY_COMMAND = [
    "lsusb", "lsusb -t", "lsusb -v", "lspci", "lspci -nnk", "lspci -vv", "ethtool eth0",
    "ethtool -i eth0", "ethtool -k eth0", "ethtool -g eth0", "ethtool -l eth0",
    "ethtool -c eth0", "ethtool -S eth0", "ip -j addr", "ip -j link", "ip addr", "ip -s link",
    "ifconfig",
    "uname -a", "dmesg", "vcgencmd get_throttled", "vcgencmd measure_temp", "usb-devices",
]  # fmt: skip
_EVERY_FILE = ["/proc/device-tree/model", "/proc/interrupts", "/proc/cpuinfo",
               "/etc/os-release", "/sys/class/net/eth0/speed",
               "/sys/class/net/eth0/statistics/rx_packets"]  # fmt: skip


@pytest.mark.parametrize("unit", ["A", "a ", "a:", "1", "\0", "[", "x="])
def test_long_garbage_in_any_output_is_quick_and_no_crash(tmp_path: Path, unit: str) -> None:
    text = unit * (200_000 // len(unit))
    for index, name in enumerate(_EVERY_COMMAND + _EVERY_FILE):
        is_file = name.startswith("/")
        bundle = write_bundle(tmp_path / f"b{index}", "garbage",
                              {} if is_file else {name: text},
                              {name: text} if is_file else {})  # fmt: skip
        started = time.monotonic()
        inspect_bundle(bundle)  # no exception: garbage is a warning, never a crash
        assert time.monotonic() - started < 5, name
