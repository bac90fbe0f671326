"""An interrupt the kernel cannot move (issue 21: "no tweak is planned for a driver that cannot do
it"): the inventory's one fact (`Nic.fixed_irqs`, from the interrupt chip /proc/interrupts names
and the kernel source cited in resources/tuning/driver_caps.json) is what Inspect shows and what
the planner reads. Real captures: seed 000's Pi 4 (the pi4-ax88179 profile and
tests/captures/proc_interrupts/seed000_pi4_alpine.txt), a Pi 3 B+ posted to netdev, an x86 PC
and an RK3588 board (each with its source beside it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.bundle import read_bundle
from sbctune.inventory.irq_chips import fixed_chip, fixed_irqs
from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.lab import load_profile, shipped_profiles
from sbctune.resources import resource_root
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read

PROFILES = Path(str(resource_root())) / "lab" / "profiles"
CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
PCIE = "drivers/pci/controller/pcie-brcmstb.c"


def interrupts(name: str) -> str:
    return (CAPTURES / f"{name}.txt").read_text(encoding="utf-8")


def plan_irq_affinity(inventory: Inventory, nic: Nic, cpus: int) -> PlannedTweak:
    """Plan the tweak the way `probe` records a Pi: every CPU online, every IRQ on all CPUs."""
    found = Facts(nic.name)
    found.knobs["/sys/devices/system/cpu/online"] = Read(True, f"0-{cpus - 1}")
    for irq in nic.irqs:
        found.knobs[f"/proc/irq/{irq}/smp_affinity"] = Read(True, format((1 << cpus) - 1, "x"))
    tweak = catalog.tweak("irq-affinity")
    ctx = Context(tweak, found, inventory, nic, {}, {}, (tweak.id,))
    return PLANNERS[tweak.kind](ctx)


def test_pi4_usb_adapter_interrupt_is_shown_fixed_and_not_planned() -> None:
    """pi4-ax88179 (seed 000): the adapter's interrupt is the VL805's xhci_hcd behind the PCIe
    controller's MSI chip: Inspect says it cannot move, the Tune page does not offer it (not
    applicable, nothing to write, the reason in words), while the built-in port's GIC
    interrupts on the same Pi are still planned."""
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    usb, builtin = inventory.nic("eth1"), inventory.nic("eth0")
    assert usb is not None and builtin is not None
    assert (usb.irqs, usb.fixed_irqs) == ([46], [46])
    assert usb.fixed_irqs_why is not None and PCIE in usb.fixed_irqs_why
    assert "PCIe controller of the Pi 4" in usb.fixed_irqs_why
    (finding,) = [f for f in inventory.findings if f.id == "irq-on-cpu0" and f.nic == "eth1"]
    assert "cannot move this interrupt" in finding.summary
    assert any(usb.fixed_irqs_why in line for line in finding.evidence)

    item = plan_irq_affinity(inventory, usb, 4)
    assert not item.applicable and item.changes == []
    assert item.reason.startswith("interrupt 46 cannot be moved off CPU 0: it comes through")
    assert usb.fixed_irqs_why in item.reason  # the very words Inspect shows

    assert (builtin.irqs, builtin.fixed_irqs) == ([38, 39], [])
    moved = plan_irq_affinity(inventory, builtin, 4)
    assert moved.applicable, moved.reason
    assert [c.target for c in moved.changes if c.kind == "irq_affinity"] == [
        "/proc/irq/38/smp_affinity", "/proc/irq/39/smp_affinity",
    ]  # fmt: skip


def test_only_the_irqs_that_can_move_are_planned_when_a_nic_has_both() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    nic = inventory.nic("eth1")
    assert nic is not None
    nic.irqs = [38, 46]  # a NIC with one GIC and one PCIe MSI interrupt (made up from the two)
    item = plan_irq_affinity(inventory, nic, 4)
    assert item.applicable and item.reason.startswith("interrupt 38 moved off CPU 0")
    assert [c.target for c in item.changes if c.kind == "irq_affinity"] == [
        "/proc/irq/38/smp_affinity"
    ]
    assert [t for t, _ in item.impossible] == ["interrupt 46"]


@pytest.mark.parametrize(
    ("kernel", "cited"),
    [
        ("6.1.0-rpi7-rpi-v8", ["brcm_msi_set_affinity"]),  # returns -EINVAL (seed 000's answer)
        ("6.12.25+rpt-rpi-v8", ["brcm_msi_domain_info"]),  # MSI_FLAG_NO_AFFINITY: EPERM
        ("5.15.4", ["brcm_msi_set_affinity", "brcm_msi_domain_info"]),  # seed 000: both agree
        (None, ["brcm_msi_set_affinity", "brcm_msi_domain_info"]),
    ],
)
def test_the_pi4_pcie_msi_chip_is_fixed_in_every_kernel_series(
    kernel: str | None, cited: list[str]
) -> None:
    parsed = parse_interrupts(interrupts("seed000_pi4_alpine"))[0]
    fixed, why = fixed_irqs(parsed, [38, 39, 46], kernel)
    assert fixed == [46]
    assert why is not None and [c for c in cited if c in why] == cited
    others = {"brcm_msi_set_affinity", "brcm_msi_domain_info"} - set(cited)
    assert not [c for c in others if c in why]  # only the running series' source is cited


def test_the_pi1_to_3_arm_controller_is_fixed() -> None:
    """Pi 3 B+ (netdev, 2019): the USB controller (so lan78xx's traffic) on ARMCTRL-level,
    drivers/irqchip/irq-bcm2835.c armctrl_chip without irq_set_affinity."""
    parsed = parse_interrupts(interrupts("pi3bplus_netdev_lan78xx_2019"))[0]
    fixed, why = fixed_irqs(parsed, [41], "6.1.0-rpi7-rpi-v7")
    assert fixed == [41]
    assert why is not None and "drivers/irqchip/irq-bcm2835.c: armctrl_chip" in why
    assert "interrupt controller of the Pi 1, 2 and 3" in why
    # its arch_timer (147) is per-core on bcm2836's local controller: fixed too (audit 36a)
    assert fixed_irqs(parsed, [41, 147], "6.1.0-rpi7-rpi-v7")[0] == [41, 147]


@pytest.mark.parametrize(
    ("capture", "irq"),
    [
        ("x86_linuxcnc_pr4199_interrupts_msi_pci_address", None),  # IR-PCI-MSI: x86 moves them
        ("beelink_ipcr_rk3588_415_interrupts_only", None),  # ITS-MSI: GICv3 moves them
        ("seed000_pi4_alpine", 38),  # GICv2: the Pi 4's own Ethernet moves
        ("../dev_vm/proc_interrupts", None),  # PCI-MSIX (a VM's virtio): MSI-X vectors move
    ],
)
def test_interrupts_other_chips_can_move_are_not_called_fixed(
    capture: str, irq: int | None
) -> None:
    parsed = parse_interrupts(interrupts(capture))[0]
    assert parsed is not None
    numbers = [irq] if irq is not None else [i.number for i in parsed.irqs if i.number is not None]
    assert fixed_irqs(parsed, numbers, None) == ([], None)
    assert fixed_chip("GICv2") is None and fixed_chip("") is None and fixed_chip(None) is None


@pytest.mark.parametrize("name", shipped_profiles())
def test_each_lab_profile_refuses_exactly_the_irqs_inspect_calls_fixed(name: str) -> None:
    """The lab's `irq_refuse` (its kernel refusing the write) and the inventory's fact agree,
    so the lab cannot offer a move the planner says is impossible, nor the reverse: every line
    of the /proc/interrupts it serves, a NIC's or not (a real Pi 3 B+'s ARMCTRL lines, the
    mailbox and the SD card's among them, all refuse)."""
    profile = load_profile(name)
    modelled = profile.modelled_files.get("/proc/interrupts")
    captured = read_bundle(PROFILES / name).file("/proc/interrupts")
    if modelled is None and captured is None:
        inventory = inspect_bundle(PROFILES / name)
        fixed = {irq for nic in inventory.nics for irq in nic.fixed_irqs}
    elif modelled is None:
        parsed = parse_interrupts(captured or "")[0]
        assert parsed is not None
        numbers = [i.number for i in parsed.irqs if i.number is not None]
        fixed = set(fixed_irqs(parsed, numbers, profile.kernel or None)[0])
        inventory = inspect_bundle(PROFILES / name)
        assert {irq for nic in inventory.nics for irq in nic.fixed_irqs} <= fixed
    else:  # the lab's /proc/interrupts is modelled (sbctune.lab.irq_model), not in the folder
        parsed = parse_interrupts(modelled)[0]
        assert parsed is not None
        numbers = [i.number for i in parsed.irqs if i.number is not None]
        fixed = set(fixed_irqs(parsed, numbers, profile.kernel or None)[0])
        # the CM4's PCIe MSI chip: every NIC vector fixed; the Pi 5's RP1 line moves
        assert bool(fixed) == bool(profile.pcie_host)
    assert fixed == set(profile.irq_refuse)


@pytest.mark.parametrize(
    ("name", "nic", "expected"),
    [
        ("pi4-ax88179", "eth1", "interrupt 46 cannot be moved off CPU 0"),
        ("pi4-rtl8153", "eth1", "interrupt 46 cannot be moved off CPU 0"),
        ("pi4-ax88179", "eth0", None),  # bcmgenet on the GIC: planned
        # one CPU: nowhere to move an interrupt to, said before the missing /proc/interrupts
        # (walk 18: "no interrupt found" on a one-core Pi 1)
        ("pi1b-smsc95xx", "eth0", "the Pi has one CPU core"),
    ],
)
def test_the_profiles_plan_what_their_interrupts_allow(
    name: str, nic: str, expected: str | None
) -> None:
    inventory = inspect_bundle(PROFILES / name)
    found = inventory.nic(nic)
    assert found is not None, [n.name for n in inventory.nics]
    item = plan_irq_affinity(inventory, found, load_profile(name).cpu.count)
    if expected is None:
        assert item.applicable and item.changes, item.reason
    else:
        assert not item.applicable and item.reason.startswith(expected), item.reason


def _usb_nic_irqs(capture: str, bus_path: str | None, driver: str) -> list[int]:
    from sbctune.inventory.build import _irqs_for
    from sbctune.inventory.raw import Parsed

    parsed = Parsed(interrupts=parse_interrupts(interrupts(capture))[0])
    return _irqs_for(parsed, Nic(name="eth0", bus="usb", bus_path=bus_path, driver=driver))


def test_a_usb_nic_takes_its_host_controllers_interrupt_as_usb_add_hcd_names_it() -> None:
    """A USB NIC has no interrupt of its own: its host controller's, which usb_add_hcd names
    "<hc_driver description>:usb<bus>" (drivers/usb/core/hcd.c usb_hcd_request_irqs, 6.1 and
    6.12). The Pi 3 B+ on a mainline kernel (netdev 2019, real capture): dwc2's
    "dwc2_hsotg:usb1" on ARMCTRL-level, so its LAN7515 (bus 1) gets IRQ 41, shown fixed.
    Before: only the exact names xhci_hcd/dwc_otg/dwc2 counted, so the planner said "no
    interrupt of this NIC was found" where the kernel refuses the move."""
    assert _usb_nic_irqs("pi3bplus_netdev_lan78xx_2019", "1-1.1.1", "lan78xx") == [41]
    parsed = parse_interrupts(interrupts("pi3bplus_netdev_lan78xx_2019"))[0]
    fixed, why = fixed_irqs(parsed, [41], "6.12.25+rpt-rpi-v8")
    assert fixed == [41] and why is not None and "irq-bcm2835.c" in why


@pytest.mark.parametrize(
    ("capture", "bus_path", "expected"),
    [
        # NanoPi R2S on OpenWrt (PR 14205): xhci-hcd:usb1, ohci_hcd:usb2, ehci_hcd:usb3
        ("nanopi_r2s_openwrt_14205_excerpt", "1-1", [25]),
        ("nanopi_r2s_openwrt_14205_excerpt", "2-1", [27]),  # bus 2 is the OHCI's own
        ("nanopi_r2s_openwrt_14205_excerpt", "3-1", [26]),
        ("nanopi_r2s_openwrt_14205_excerpt", "4-1", []),  # bus 3 is EHCI: it has no shared hub
        ("nanopi_r2s_openwrt_14205_excerpt", None, [25, 26, 27]),  # bus unknown: every one
        # ZyXEL NBG6817 (PR 3954): two xHCIs, xhci-hcd:usb1 and xhci-hcd:usb3; buses 2 and 4
        # are their USB 3 root hubs (the shared HCDs, which request no interrupt)
        ("nbg6817_openwrt_pr3954_interrupts_eth0_eth1", "2-1", [44]),
        ("nbg6817_openwrt_pr3954_interrupts_eth0_eth1", "4-1.2", [45]),
        ("nbg6817_openwrt_pr3954_interrupts_eth0_eth1", "3-1", [45]),
    ],
)
def test_a_usb_nic_gets_the_host_controller_of_its_own_bus(
    capture: str, bus_path: str | None, expected: list[int]
) -> None:
    """Real captures (sources beside them); the NIC's port path is the test's input."""
    assert _usb_nic_irqs(capture, bus_path, "r8152") == expected


def test_cm4_pcie_card_interrupts_are_not_said_to_carry_usb_ports() -> None:
    """The s12 walk on cm4-i340-igb: the I340's nine MSI-X interrupts "cannot be moved off CPU 0:
    it comes through the PCIe controller of the Pi 4 that its USB ports sit behind": a CM4 has
    no USB ports behind its PCIe controller (the Pi 4 B's VL805 is the card there), and nine
    interrupts are "they"."""
    profile = load_profile("cm4-i340-igb")
    parsed = parse_interrupts(profile.modelled_files["/proc/interrupts"])[0]
    assert parsed is not None
    nic = Nic("eth1", driver="igb")
    inventory = Inventory(nics=[nic])
    nic.irqs = [i.number for i in parsed.irqs if i.number is not None and i.controller
                and "MSI" in i.controller and "eth1" in " ".join(i.names)]  # fmt: skip
    nic.fixed_irqs, why = fixed_irqs(parsed, nic.irqs, profile.kernel or None)
    assert why is not None and len(nic.fixed_irqs) > 1
    nic.fixed_irqs_why = why
    assert "CM4" in why and "that its USB ports sit behind" not in why
    item = plan_irq_affinity(inventory, nic, 4)
    assert not item.applicable
    assert ": they come through the PCIe controller" in item.reason
    assert "no way to move them to another CPU" in item.reason
