"""The lab is namespaces on this machine, yet `inspect` of it shows only its profile's hardware:
pi5-macb (no capture then) once showed a card "(no interface) · PCIe Red Hat Virtio" (this
VM's own NIC, from the host's kernel log) and the host's 2 CPUs. Hardware the profile did not
capture is not available in the lab, and nothing is invented in its place (sbctune.lab.overlay)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab import load_profile
from sbctune.lab.model import LabInfo
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]
PROFILES = Path(__file__).resolve().parents[2] / "resources" / "lab" / "profiles"


async def test_pi5_lab_shows_no_nic_and_no_cpus_of_this_machine(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory("pi5-macb")
    named = {nic.name for nic in lab.nics}  # the profile's interfaces: eth0
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, collection = await inspect_host(session)
        log = await session.run(["dmesg"], sudo=True)
        cpuinfo = await session.run(["cat", "/proc/cpuinfo"])
        pci = await session.run(["ls", "-A", "/sys/bus/pci/devices"])
    shown = [(nic.name, nic.chip, nic.bus) for nic in inventory.nics]
    assert [nic for nic in shown if nic[0] not in named] == [], shown
    eth0 = inventory.nic("eth0")
    assert eth0 is not None and eth0.driver == "macb", shown
    # The cores shown are the profile's Pi 5's four, never this host's: /proc/cpuinfo is the
    # real Pi 5's capture the profile holds (walk 24; before it, an empty file), served as is.
    assert inventory.board.cpu_cores == load_profile("pi5-macb").cpu.count == 4, inventory.board
    captured = PROFILES / "pi5-macb" / "files" / "000-proc_cpuinfo.txt"
    assert cpuinfo.stdout == captured.read_text(encoding="utf-8")
    assert "/proc/cpuinfo" in collection.files
    assert inventory.board.model == "Raspberry Pi 5 Model B Rev 1.0"
    # The kernel log was not captured: the lab says so instead of showing this host's.
    assert log.exit_code == 1 and log.stdout == "", log
    assert "not available in this lab" in log.stderr
    assert pci.stdout == "", pci.stdout
