"""The Pi 3 B+ lab answers irq-affinity as a real Pi 3 B+ does (audit 11a row L3): its lan78xx
rides on the USB controller's interrupt (41, `dwc2_hsotg:usb1` on ARMCTRL-level in the real
capture the profile serves), which the kernel cannot move; before, the lab had no
/proc/interrupts and the plan said no interrupt of the NIC was found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.tuning import plan
from tests.lab_support import connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]


async def test_the_usb_controllers_armctrl_line_cannot_be_moved(
    lab_factory: Any, tmp_path: Path
) -> None:
    lab = lab_factory("pi3bplus-lan78xx")
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, _ = await inspect_host(session)
        nic = inventory.nic("eth0")
        assert nic is not None and nic.irqs == [41] and nic.fixed_irqs == [41]
        item = (await plan(session, inventory, "eth0", ["irq-affinity"])).item("irq-affinity")
    assert item is not None and not item.applicable
    assert "interrupt 41 cannot be moved" in item.reason, item.reason
    assert "irq-bcm2835.c" in item.reason and "no interrupt" not in item.reason
    # and the lab's kernel refuses the write the plan leaves out
    answer = in_lab(lab, "/bin/echo 2 >/proc/irq/41/smp_affinity; cat /proc/irq/41/smp_affinity")
    assert "write error" in answer and answer.startswith("f\n"), answer  # mask kept: all CPUs
