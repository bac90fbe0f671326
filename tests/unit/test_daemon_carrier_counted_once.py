"""A link drop that the kernel's driver and a network daemon both report is one drop (walk 24).

systemd-networkd's "eth0: Lost carrier" / "Gained carrier" and NetworkManager's "device (eth0):
carrier: link ..." are the daemons' words for the change the driver reported ("Link is Down").
A dmesg pasted above a networkd journal (the two ways a user shows a flapping Pi 4) counted
each flap twice: "eth0's link went down 4 times" where the kernel said 2. The kernel's lines
count; a daemon's only where the log has no kernel line for the NIC (a journal of the daemon
alone). Real lines: raspberrypi/linux #4560 (dmesg) and #3195 (journal)."""

from __future__ import annotations

import json
from pathlib import Path

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.model import Inventory

DMESG = Path(__file__).resolve().parents[1] / "captures" / "dmesg"
FLAPS = DMESG / "pi4_linux_4560_bcmgenet_flapping.txt"  # bcmgenet's own lines, with clocks
JOURNAL = DMESG / "pi4_linux_3195_journal_carrier.txt"  # networkd's and the kernel's, interleaved


def _inspect(tmp_path: Path, text: str) -> Inventory:
    bundle = tmp_path / "bundle"
    bundle.mkdir()
    (bundle / "dmesg.txt").write_text(text, encoding="utf-8")
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "2026-11-30T00:00:00Z",
                "host": "pi4", "commands": {"dmesg": "dmesg.txt"}, "files": {},
                "exit_codes": {"dmesg": 0}}  # fmt: skip
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return inspect_bundle(bundle)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def _drops(inventory: Inventory) -> tuple[int, list[str]]:
    (nic,) = [n for n in inventory.nics if n.name == "eth0"]
    said = [f.summary for f in inventory.findings if f.nic == "eth0" and "went down" in f.summary]
    return nic.link_downs, said


def test_a_dmesg_and_a_networkd_journal_count_each_drop_once(tmp_path: Path) -> None:
    kernel = _lines(FLAPS)[:4]  # two drops, each back up
    networkd = [line for line in _lines(JOURNAL) if "carrier" in line]  # Lost, Gained
    assert len(networkd) == 2 and "Lost carrier" in networkd[0]
    inventory = _inspect(tmp_path, "\n".join(kernel + networkd + networkd) + "\n")
    downs, said = _drops(inventory)
    assert downs == 2, said
    assert said == ["eth0's link went down 2 times within 85 s: a cable, switch port, power "
                    "(EEE) or PHY problem."]  # fmt: skip


def test_the_journal_of_the_daemon_alone_still_counts(tmp_path: Path) -> None:
    networkd = [line for line in _lines(JOURNAL) if "systemd-networkd" in line]
    inventory = _inspect(tmp_path, "\n".join(networkd + networkd) + "\n")
    assert _drops(inventory)[0] == 2  # no kernel line: the daemon's are the only record


def test_one_interleaved_journal_is_one_drop(tmp_path: Path) -> None:
    inventory = _inspect(tmp_path, JOURNAL.read_text(encoding="utf-8"))
    assert _drops(inventory) == (1, [])
