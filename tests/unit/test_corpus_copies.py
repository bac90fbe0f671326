"""Every corpus bundle's outputs are also in the per-command folders of tests/captures, byte for
byte, each with its .source.md (tests/captures/README.md), so the tests that read a whole folder
(the message table's pre-test over every dmesg line, the linear-time check per parser) read them
too. scripts/copy_corpus_outputs.py makes the copies; these tests fail when one is missing or
differs from its bundle's file."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

import copy_corpus_outputs as copies  # noqa: E402

pytestmark = pytest.mark.same_on_every_os(
    "the repository's own files compared byte for byte; the Linux run reads the same bytes"
)


def test_every_bundle_output_has_an_equal_copy() -> None:
    todo = copies.plan()
    missing = [p.relative_to(copies.CAPTURES).as_posix() for p, _data, _note in todo.writes]
    assert (missing, todo.problems) == ([], []), (
        "run `python scripts/copy_corpus_outputs.py`; missing copies / problems:"
    )


def _tiny_tree(tmp_path: Path) -> Path:
    """A captures tree with one real bundle (a dmesg and an lsusb output) and no copies."""
    name = "ds1815_bbqq_43_rtl8156_get_registers"
    shutil.copytree(copies.CAPTURES / "corpus" / name, tmp_path / "corpus" / name)
    return tmp_path


def test_the_script_copies_what_is_missing_once_and_then_checks_clean(tmp_path: Path) -> None:
    tree = _tiny_tree(tmp_path)
    name = "ds1815_bbqq_43_rtl8156_get_registers"
    todo = copies.plan(tree)
    assert sorted(p.relative_to(tree).as_posix() for p, _d, _n in todo.writes) == [
        f"dmesg/{name}.txt",
        f"lsusb/{name}.txt",
    ]
    for path, data, note in todo.writes:
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        path.with_suffix(".source.md").write_text(note, encoding="utf-8")
        assert "https://" in note and f"corpus/{name}/" in note
    again = copies.plan(tree)
    assert (again.writes, again.problems) == ([], [])  # idempotent


def test_an_edited_copy_or_one_without_its_source_is_reported(tmp_path: Path) -> None:
    tree = _tiny_tree(tmp_path)
    name = "ds1815_bbqq_43_rtl8156_get_registers"
    lsusb = (tree / "corpus" / name / "commands").glob("*lsusb*")
    (tree / "lsusb").mkdir()
    (tree / "lsusb" / f"{name}.txt").write_bytes(next(lsusb).read_bytes() + b"edited\n")
    todo = copies.plan(tree)
    assert todo.problems == [
        f"lsusb/{name}.txt: not the text of any output of corpus/{name}",
        f"lsusb/{name}.txt: no .source.md",
        f"lsusb/{name}.txt: holds another text than `lsusb` of corpus/{name}",
    ]


@pytest.mark.parametrize(
    ("command", "folder"),
    [
        ("dmesg | grep -i rtw", "dmesg"),
        ("journalctl -k", "dmesg"),
        ("cat /var/log/syslog", "dmesg"),
        ("logread", "logread"),
        ("lsusb -tv", "lsusb_t"),
        ("lsusb -d 2357:0601 -v", "lsusb_v"),
        ("lspci -vvvv", "lspci_vvv"),
        ("lspci -vk", "lspci_v"),
        ("ethtool -S eth0", "ethtool_s"),
        ("ethtool enp14s0", "ethtool"),
        ("ip -s link show eth0", "ip_link"),
        ("ip addr show wlan0", "ip_addr"),
        ("iw dev wlan0 link", "iw_link"),
        ("sudo lshw", "lshw"),
        ("cat /sys/kernel/debug/usb/devices", "usb_devices"),
        ("/proc/device-tree/model", "device_tree_model"),
        ("sudo lsusb; rfkill list all; dkms status; iw dev; iw reg get", "reports"),
        ("networkctl status 3", "reports"),
    ],
)
def test_a_commands_folder_is_the_one_hand_made_copies_used(command: str, folder: str) -> None:
    assert copies.folder_for(command) == folder
