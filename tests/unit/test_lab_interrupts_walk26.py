"""The Pi 1 Model B lab serves the /proc/interrupts a Model B really prints (walk 26).

Walk 25 left pi1b-smsc95xx serving an empty /proc/interrupts: `sbctune inspect` of the lab
warned "the interrupt counts (/proc/interrupts): the Pi gave nothing" and showed no interrupt
for eth0, which no real Pi prints. It now serves a real Model B's (the Analog Devices ADXL345
wiki page of August 2012, when the Model B was the only Pi on sale; tests/captures/
proc_interrupts/pi1b_2012_analog_adxl345_wiki.source.md): its smsc95xx NIC has no line of its
own and rides on the USB controller's (75, dwc_otg_hcd:usb1), as on every Pi 1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.report import render
from sbctune.lab import overlay
from sbctune.lab.profile import find_profile, load_profile

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
CAPTURED = ["pi1b-smsc95xx", "pi3bplus-lan78xx", "pi4-ax88179", "pi4-rtl8153", "pi5-macb"]


@pytest.mark.posix_only("builds the lab's overlay (pwd)")
@pytest.mark.parametrize("name", CAPTURED)
def test_lab_serves_a_real_capture_of_its_board(tmp_path: Path, name: str) -> None:
    folder = find_profile(name)
    plan = overlay.build(read_bundle(folder), tmp_path / "lab")
    served = {target: Path(source) for source, target in plan.file_binds}
    text = served["/proc/interrupts"].read_text(encoding="utf-8")
    assert text.strip(), f"{name}: an empty /proc/interrupts, which no real Pi prints"
    same = [c for c in CAPTURES.glob("*.txt") if c.read_text(encoding="utf-8") == text]
    assert same, f"{name}: its /proc/interrupts is none of tests/captures/proc_interrupts"
    assert all(c.with_suffix(".source.md").is_file() for c in same)


def test_pi1b_lab_names_the_usb_controller_line_of_its_nic() -> None:
    inventory = inspect_bundle(find_profile("pi1b-smsc95xx"))
    (nic,) = inventory.nics
    assert nic.irqs == [75]  # dwc_otg_hcd:usb1: the smsc95xx rides on it
    assert not [w for w in inventory.warnings if "interrupts" in w], inventory.warnings
    shown = render(inventory).splitlines()
    assert "  IRQs:    75" in shown
    assert load_profile("pi1b-smsc95xx").irqs == (3, 52, 65, 66, 75, 77, 79, 83, 84, 187)
