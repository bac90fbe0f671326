"""The pi3bplus-lan78xx lab showed no /proc/interrupts, so irq-affinity said "no interrupt of
this NIC was found" where a real Pi 3 B+ says its line cannot be moved (audit 11a row L3). The
profile now serves a real Pi 3 B+'s /proc/interrupts (netdev 2019, SOURCE.md) and refuses its
ARMCTRL-level lines as the kernel does: armctrl_chip has no irq_set_affinity, so
write_irq_affinity answers EIO (6.1) / EPERM (6.12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.irq_chips import fixed_irqs
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.lab import configs, find_profile, load_profile
from tests.lab_profiles import profile_copy

CAPTURE = (Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
           / "pi3bplus_netdev_lan78xx_2019.txt")  # fmt: skip


def test_the_profile_serves_the_real_capture_and_refuses_every_armctrl_line() -> None:
    shown = read_bundle(find_profile("pi3bplus-lan78xx")).file("/proc/interrupts")
    assert shown == CAPTURE.read_text(encoding="utf-8")
    parsed = parse_interrupts(shown or "")[0]
    armctrl = sorted(int(i.irq) for i in parsed.irqs if i.controller == "ARMCTRL-level")
    profile = load_profile("pi3bplus-lan78xx")
    assert armctrl == [2, 41, 61, 65, 71]
    # and the per-core timers (bcm2836-timer) and lan78xx's PHY line (lan78xx-irqs): audit 36a
    assert list(profile.irq_refuse) == [*armctrl, 147, 148, 150]
    # the planner's verdict for the USB controller lan78xx rides on, on either series
    for kernel in ("6.1.0-rpi7-rpi-v8", "6.12.25+rpt-rpi-v8"):
        fixed, why = fixed_irqs(parsed, [41], kernel)
        assert fixed == [41] and why is not None and "irq-bcm2835.c" in why


@pytest.mark.parametrize(
    ("kernel", "answer"), [("6.1.0-rpi7-rpi-v8", "EIO"), ("6.12.25+rpt-rpi-v8", "EPERM")]
)
def test_the_lab_refuses_the_usb_controllers_line_with_the_kernels_errno(
    tmp_path: Path, kernel: str, answer: str
) -> None:
    copy = profile_copy(tmp_path, "pi3bplus-lan78xx", "pi3", kernel=kernel)
    config = configs.knobs_config(load_profile(str(copy)))
    assert config["irq_errno"]["41"] == answer
    assert 41 in config["irq_refuse"]
