"""Audit 36a (resources/tuning/driver_caps_audit36a.md): what the lab's Pi answers, command by
command, against the kernel, for bcmgenet, macb, lan78xx, smsc95xx, ax88179_178a, r8152 and
cdc_ncm.

Row 1: a write to /proc/irq/N/smp_affinity of a line the kernel cannot move was taken by the lab
wherever the profile's own `irq_refuse` did not list it. write_irq_affinity (kernel/irq/proc.c)
refuses it when irq_can_set_affinity_usr is false (__irq_can_set_affinity, kernel/irq/manage.c:
no chip->irq_set_affinity, or !irqd_can_balance): EIO on 6.1, EPERM on 6.12. That holds for
lan78xx's own PHY line (`lan78xx_irqchip`, "lan78xx-irqs": no irq_set_affinity), the Pi 2/3's
per-core timers (`bcm2836_arm_irqchip_timer`, per-CPU by bcm2836_map) and the GIC's per-CPU lines
(`gic_irq_domain_map`: hwirq 0-31 irq_set_percpu_devid), on the Pi 3 B+, Pi 4 and Pi 5 profiles'
real /proc/interrupts captures, and for the lines their requester pins to one core: the PMU's
four "arm-pmu" SPIs on the Pi 4 and Pi 5 (armpmu_request_irq: irq_force_affinity and
IRQF_NOBALANCING, so IRQD_NO_BALANCING: __setup_irq, kernel/irq/manage.c).
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from sbctune.inventory.irq_chips import fixed_irqs
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.lab import configs, load_profile
from tests.knob_tree import irq_mask_write
from tests.lab_profiles import profile_copy

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
KERNELS = [("6.1.0-rpi7-rpi-v8", errno.EIO), ("6.12.25+rpt-rpi-v8", errno.EPERM)]


@pytest.mark.parametrize(("kernel", "code"), KERNELS)
@pytest.mark.parametrize("irq", [150, 147, 148])  # lan78xx-irqs; bcm2836-timer (arch_timer, kvm)
def test_a_pi3bplus_refuses_to_move_lan78xxs_phy_line_and_its_per_core_timers(
    tmp_path: Path, kernel: str, code: int, irq: int
) -> None:
    copy = profile_copy(tmp_path, "pi3bplus-lan78xx", "pi3", kernel=kernel)
    config = configs.knobs_config(load_profile(str(copy)))
    assert irq_mask_write(config, irq, "2\n") == (code, "f\n")


@pytest.mark.parametrize(("kernel", "code"), KERNELS)
def test_a_pi4s_per_cpu_gic_lines_refuse_and_its_genet_lines_move(
    tmp_path: Path, kernel: str, code: int
) -> None:
    copy = profile_copy(tmp_path, "pi4-rtl8153", "pi4",
                        replace=[('kernel = "5.15.4-0-rpi4"', f'kernel = "{kernel}"')])  # fmt: skip
    config = configs.knobs_config(load_profile(str(copy)))
    for per_cpu in (9, 11, 12):  # vgic (GICv2 25), arch_timer (30), kvm guest vtimer (27)
        assert irq_mask_write(config, per_cpu, "2\n") == (code, "f\n")
    for pinned in (33, 34, 35, 36):  # arm-pmu, GICv2 48-51: SPIs the PMU pins to each core
        assert irq_mask_write(config, pinned, "2\n")[0] == code
    assert irq_mask_write(config, 38, "2\n") == (None, "2\n")  # bcmgenet's eth0 (GICv2 189)


@pytest.mark.parametrize(
    ("kernel", "code"),
    [("6.6.51+rpt-rpi-v8", errno.EIO), ("6.8.0-1013-raspi", errno.EIO),
     ("6.18.3+rpt-rpi-v8", errno.EPERM)],
)  # fmt: skip
def test_between_the_series_a_per_cpu_line_answers_as_a_pinned_one(
    tmp_path: Path, kernel: str, code: int
) -> None:
    """Kernels between the series (audit 37): the GIC's per-CPU lines and the arm-pmu lines are
    both refused by write_irq_affinity itself, so both get its errno dated for that kernel
    (EIO until 6.12, eb29369fa543); the lead's merge of 36a and 37 gave the per-CPU ones EINVAL."""
    copy = profile_copy(tmp_path, "pi4-rtl8153", "pi4",
                        replace=[('kernel = "5.15.4-0-rpi4"', f'kernel = "{kernel}"')])  # fmt: skip
    config = configs.knobs_config(load_profile(str(copy)))
    for line in (9, 11, 12, 33, 34):  # per-CPU GIC lines; arm-pmu SPIs
        assert irq_mask_write(config, line, "2\n") == (code, "f\n"), line
    assert irq_mask_write(config, 38, "2\n") == (None, "2\n")  # bcmgenet's eth0 still moves


def test_the_shipped_pi4_on_515_answers_as_61() -> None:
    """5.15 (seed 000's kernel) predates every series of the table: it answers as 6.1 (EIO)."""
    config = configs.knobs_config(load_profile("pi4-ax88179"))
    assert irq_mask_write(config, 11, "2\n") == (errno.EIO, "f\n")
    assert irq_mask_write(config, 46, "2\n")[0] == errno.EINVAL  # xhci_hcd: brcm_msi_set_affinity


def test_a_pi5s_arch_timer_refuses_and_its_eth0_moves() -> None:
    config = configs.knobs_config(load_profile("pi5-macb"))
    code, _ = irq_mask_write(config, 13, "2\n")  # arch_timer, GICv2 26
    assert code is not None
    assert irq_mask_write(config, 112, "2\n") == (None, "2\n")  # eth0 on rp1_irq_chip (PR #6090)


@pytest.mark.parametrize("kernel", [k for k, _ in KERNELS])
def test_inspect_calls_the_lan78xx_phy_line_fixed_with_the_drivers_source(kernel: str) -> None:
    """The same fact the lab reads, as Inspect and the planner would say it."""
    text = (CAPTURES / "pi3bplus_netdev_lan78xx_2019.txt").read_text(encoding="utf-8")
    parsed = parse_interrupts(text)[0]
    fixed, why = fixed_irqs(parsed, [150], kernel)
    assert fixed == [150]
    assert why is not None and "drivers/net/usb/lan78xx.c: lan78xx_irqchip" in why


def test_inspect_calls_the_pi4s_pmu_lines_fixed_by_their_requester() -> None:
    """The arm-pmu lines are GIC SPIs (a chip that moves the rest): fixed by how they were
    requested, armpmu_request_irq's IRQF_NOBALANCING, not by the chip."""
    text = (CAPTURES / "seed000_pi4_alpine.txt").read_text(encoding="utf-8")
    parsed = parse_interrupts(text)[0]
    fixed, why = fixed_irqs(parsed, [33, 38, 39], "6.12.25+rpt-rpi-v8")
    assert fixed == [33]  # bcmgenet's 38 and 39 still move
    assert why is not None and "drivers/perf/arm_pmu.c: armpmu_request_irq" in why
