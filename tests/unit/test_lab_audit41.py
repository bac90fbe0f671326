"""Audit 41 (resources/tuning/driver_caps_audit41.md): the tweaks that write kernel knobs
outside ethtool (RPS/RFS, XPS, IRQ affinity, sysctls, the governor), read against Debian's 6.1,
6.12 and 7.2 source.

Row 1: a queue's RPS map holds only the kernel's housekeeping CPUs. store_rps_map (6.1) and
rps_cpumask_housekeeping (6.12; 7.2 alike) cut a written mask to housekeeping_cpumask
(HK_TYPE_DOMAIN), which isolcpus= shrinks, and (HK_TYPE_WQ), which nohz_full= shrinks, and
refuse with EINVAL a mask that is then empty; show_rps_map reads back only the CPUs kept. The
planner wrote every online CPU ('f' on a 4-core Pi booted with isolcpus=3), the kernel kept
'7' and the change never verified; with the other CPUs isolated it planned an RPS the kernel
refuses. The lab took every CPU and had no `isolated` list."""

from __future__ import annotations

import errno

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab.errors import ProfileError
from sbctune.lab.knobs_fs import build_tree
from sbctune.lab.profile_cpu import parse_cpu
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read, knob_patterns

RPS = "/sys/class/net/eth0/queues/rx-0/rps_cpus"
CPU = "/sys/devices/system/cpu"
KERNELS = ["6.1.0-31-arm64", "6.12.47+rpt-rpi-v8", "5.15.84-v8+", "7.2.12-arm64", ""]


def _rps_plan(
    kernel: str, lists: dict[str, str], options: dict[str, object] | None = None
) -> PlannedTweak:
    """rps-rfs for bcmgenet's eth0 on a 4-core Pi 4 whose isolated / nohz_full lists read
    `lists` (file name -> text, as the kernel prints them)."""
    found = Facts("eth0")
    found.knobs[f"{CPU}/online"] = Read(True, "0-3")
    for name, text in lists.items():
        found.knobs[f"{CPU}/{name}"] = Read(True, text)
    found.knobs[RPS] = Read(True, "0")
    found.knobs["/proc/sys/net/core/rps_sock_flow_entries"] = Read(True, "0")
    tweak = catalog.tweak("rps-rfs")
    nic = Nic("eth0", driver="bcmgenet", irqs=[38, 39])
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options or {}, {},
                                        ("rps-rfs",)))  # fmt: skip


def _rps_after(item: PlannedTweak) -> str | None:
    return next((c.after for c in item.changes if c.target == RPS), None)


@pytest.mark.parametrize("kernel", KERNELS)
def test_rps_leaves_out_the_cpus_isolcpus_took(kernel: str) -> None:
    """isolcpus=3: the kernel keeps '7' of an 'f'; the plan writes '7' and says why."""
    item = _rps_plan(kernel, {"isolated": "3"})
    assert item.applicable, item.reason
    assert _rps_after(item) == "7"
    assert ("on CPUs 0, 1, 2 (leaving out 1 CPU (3), taken from the kernel's housekeeping "
            "by the Pi's isolcpus= boot option: the kernel steers received packets only to "
            "housekeeping CPUs (net/core/net-sysfs.c: ") in item.reason  # fmt: skip
    assert "(net/core/net-sysfs.c: " in item.reason


def test_rps_leaves_out_the_cpus_nohz_full_took() -> None:
    """nohz_full=2-3 takes them from HK_TYPE_WQ's housekeeping (housekeeping_nohz_full_setup)."""
    item = _rps_plan("6.12.47+rpt-rpi-v8", {"isolated": "", "nohz_full": "2-3"})
    assert _rps_after(item) == "3"
    assert (
        "leaving out 2 CPUs (2, 3), taken from the kernel's housekeeping by the Pi's "
        "nohz_full= boot option" in item.reason
    )
    assert "rps_cpumask_housekeeping" in item.reason  # 6.12's function


def test_rps_is_not_planned_where_one_housekeeping_cpu_is_left() -> None:
    """isolcpus=1-3: a mask of CPU 0 alone spreads nothing, one without it is refused
    (EINVAL); the plan says so instead of writing 'f'."""
    item = _rps_plan("6.1.0-31-arm64", {"isolated": "1-3"})
    assert not item.applicable
    assert item.reason.startswith("only CPU 0 is left to receive steering (leaving out 3 CPUs "
                                  "(1, 2, 3), taken from the kernel's housekeeping by the Pi's "
                                  "isolcpus= boot option")  # fmt: skip
    assert "store_rps_map" in item.reason
    assert not item.changes


def test_rps_with_the_irq_cpu_excluded_keeps_to_housekeeping_cpus() -> None:
    """--rps-exclude-irq-cpu on top: the interrupt's CPU 0 and the isolated CPU 3 left out."""
    item = _rps_plan("6.1.0-31-arm64", {"isolated": "3"}, {"rps_exclude_irq_cpu": True})
    # the IRQs' smp_affinity is not read here: the interrupt's CPU is not known, none left out
    assert _rps_after(item) == "7"


@pytest.mark.parametrize("text", ["", "(null)", "garbage", "0-9999"])
def test_a_list_that_names_no_cpu_leaves_none_out(text: str) -> None:
    """An empty list (no isolcpus=), or anything that is not a CPU list, leaves every CPU in.
    (Passes before the fix too: it guards the fix against taking CPUs out on a misread.)"""
    assert _rps_after(_rps_plan("6.1.0-31-arm64", {"isolated": text, "nohz_full": text})) == "f"


def test_the_probe_reads_the_isolated_and_nohz_full_lists() -> None:
    patterns = knob_patterns("eth0", [], [])
    assert f"{CPU}/isolated" in patterns and f"{CPU}/nohz_full" in patterns


# ------------------------------------------------------------------------------ the lab


def _tree(isolated: list[int]):  # type: ignore[no-untyped-def]
    config = {"cpus": 4, "governors": ["ondemand", "performance"], "governor": "ondemand",
              "min_khz": 600000, "max_khz": 1500000, "isolated": isolated,
              "queues": [{"path": "net/eth0/rx-0/rps_cpus"},
                         {"path": "net/eth0/tx-0/xps_cpus"}]}  # fmt: skip
    return build_tree(config)


def _file(tree, path: str):  # type: ignore[no-untyped-def]
    node = tree.lookup(path)
    assert node.read is not None
    return node


def test_the_lab_cuts_an_rps_mask_to_housekeeping_cpus_as_the_kernel() -> None:
    tree = _tree([3])
    assert _file(tree, "cpu/isolated").read() == "3\n"
    rps = _file(tree, "net/eth0/rx-0/rps_cpus")
    assert rps.write is not None
    rps.write("f\n")
    assert rps.read() == "7\n"  # show_rps_map: the CPUs kept
    with pytest.raises(OSError) as refused:
        rps.write("8\n")  # only the isolated CPU: the cut leaves nothing
    assert refused.value.errno == errno.EINVAL
    assert rps.read() == "7\n"
    rps.write("0\n")  # an empty mask is not cut: RPS off
    assert rps.read() == "0\n"


def test_the_lab_leaves_xps_and_a_lab_without_isolcpus_alone() -> None:
    """XPS has no housekeeping cut (xps_cpus_store); without isolcpus= the list is empty."""
    tree = _tree([3])
    xps = _file(tree, "net/eth0/tx-0/xps_cpus")
    assert xps.write is not None
    xps.write("8\n")
    assert xps.read() == "8\n"
    plain = _tree([])
    assert _file(plain, "cpu/isolated").read() == "\n"
    rps = _file(plain, "net/eth0/rx-0/rps_cpus")
    assert rps.write is not None
    rps.write("f\n")
    assert rps.read() == "f\n"


def test_a_profile_names_its_isolated_cpus() -> None:
    assert parse_cpu({"cpu": {"count": 4, "isolated": [3, 2]}}, None, "p").isolated == (2, 3)
    for wrong in ([0], [4], ["3"], 3, [True]):
        with pytest.raises(ProfileError):
            parse_cpu({"cpu": {"count": 4, "isolated": wrong}}, None, "p")


def test_the_planner_over_the_labs_own_files_writes_what_reads_back() -> None:
    """The plan made from what the lab serves, written to the lab: it reads back as planned."""
    tree = _tree([2, 3])
    found = Facts("eth0")
    for name in ("online", "isolated"):
        found.knobs[f"{CPU}/{name}"] = Read(True, _file(tree, f"cpu/{name}").read().strip())
    rps = _file(tree, "net/eth0/rx-0/rps_cpus")
    found.knobs[RPS] = Read(True, rps.read().strip())
    tweak = catalog.tweak("rps-rfs")
    nic = Nic("eth0", driver="bcmgenet")
    inventory = Inventory(board=Board(kernel="6.12.47+rpt-rpi-v8"), nics=[nic])
    context = Context(tweak, found, inventory, nic, {"rfs": False}, {}, ())
    item = PLANNERS[tweak.kind](context)
    after = _rps_after(item)
    assert after == "3"
    assert rps.write is not None
    rps.write(after + "\n")
    assert rps.read().strip() == after


# ------------------------------------------------------------------------------ row 2
# From 6.17 (PCI: brcmstb: Switch to msi_create_parent_irq_domain(), in the 6.17 PCI pull)
# the Pi 4's PCIe MSI chip is named per device, "$(PREFIX)$(CHIPNAME)-$(DEVNAME)"
# (kernel/irq/msi.c msi_create_device_irq_domain; brcm_msi_parent_ops .prefix "BRCM-", the
# PCI MSI template's "PCI-MSI", drivers/pci/msi/irqdomain.c; hwirq the MSI index), and still has
# no irq_set_affinity (BRCM_MSI_FLAGS_REQUIRED has MSI_FLAG_NO_AFFINITY): the table knew it only
# by 6.1/6.12's name "BRCM STB PCIe MSI", so on 7.2 Inspect called the xhci_hcd line (every USB
# NIC of a Pi 4) movable and irq-affinity was planned, to be refused with EPERM at apply. The
# line is built from the kernel's format, not pasted: no capture of a Pi 4 on 6.17+ was found.

PI4_XHCI_617 = "BRCM-PCI-MSI-0000:01:00.0"  # the VL805 at 01:00.0 as the format names it


def _xhci_interrupts(chip: str):  # type: ignore[no-untyped-def]
    from sbctune.inventory.parsers.procfs import Interrupts, Irq

    line = Irq("46", [0, 0, 0, 0], chip, "0", "edge", ["xhci_hcd"])
    return Interrupts(cpus=4, irqs=[line])


@pytest.mark.parametrize("kernel", ["7.2.12+bpo-arm64", "6.18.3+rpt-rpi-v8", ""])
def test_inspect_calls_the_pi4s_per_device_pcie_msi_line_fixed(kernel: str) -> None:
    from sbctune.inventory.irq_chips import fixed_irqs

    fixed, why = fixed_irqs(_xhci_interrupts(PI4_XHCI_617), [46], kernel)
    assert fixed == [46]
    assert why is not None
    assert "PCIe controller of the Pi 4's chip" in why
    assert "(drivers/pci/controller/pcie-brcmstb.c: BRCM_MSI_FLAGS_REQUIRED)" in why


@pytest.mark.parametrize(
    "chip", ["BRCM-PCI-MSI-not-a-device", "MIP-PCI-MSIX-0000:01:00.0", "BRCM-PCI-MSI"]
)
def test_only_the_per_device_name_of_the_brcmstb_chip_is_fixed(chip: str) -> None:
    """The Pi 5's external PCIe goes through the MIP (bcm2712.dtsi msi-parent = <&mip1>),
    whose chip forwards the affinity to the GIC (irq-bcm2712-mip.c mip_middle_irq_chip
    .irq_set_affinity = irq_chip_set_affinity_parent): movable. (Passes before too.)"""
    from sbctune.inventory.irq_chips import fixed_irqs

    assert fixed_irqs(_xhci_interrupts(chip), [46], "7.2.12+bpo-arm64") == ([], None)


def test_irq_affinity_is_not_planned_for_the_per_device_pcie_msi_line() -> None:
    """What the user gets: irq-affinity not possible, with the chip and its source, for an
    r8152 adapter behind the Pi 4's xhci_hcd on 7.2 (no smp_affinity write planned)."""
    from sbctune.inventory.irq_chips import fixed_irqs

    found = Facts("eth1")
    found.knobs[f"{CPU}/online"] = Read(True, "0-3")
    found.knobs["/proc/irq/46/smp_affinity"] = Read(True, "f")
    nic = Nic("eth1", driver="r8152", bus="usb", irqs=[46])
    kernel = "7.2.12+bpo-arm64"
    nic.fixed_irqs, nic.fixed_irqs_why = fixed_irqs(_xhci_interrupts(PI4_XHCI_617), [46], kernel)
    tweak = catalog.tweak("irq-affinity")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak.id,)))
    assert not item.applicable
    assert not item.changes
    assert "cannot be moved off CPU 0" in item.reason
    assert "pcie-brcmstb.c: BRCM_MSI_FLAGS_REQUIRED" in item.reason


@pytest.mark.parametrize("kernel", ["7.2.12+bpo-arm64", "6.18.3+rpt-rpi-v8", ""])
def test_the_lab_refuses_the_per_device_line_with_eperm(kernel: str) -> None:
    """write_irq_affinity refuses a chip without irq_set_affinity: EPERM from 6.12 (eb29369fa543),
    so on every kernel that names the chip per device (6.17 on)."""
    from sbctune.lab.irq_refusal import refusal

    assert refusal(PI4_XHCI_617, kernel, "0") == "EPERM"
    assert refusal("BRCM STB PCIe MSI", "6.1.0-31-arm64") == "EINVAL"  # 6.1's, unchanged
    assert refusal("BRCM STB PCIe MSI", "6.12.47+rpt-rpi-v8") == "EPERM"


# ------------------------------------------------------------------------------ row 3
# The lab's modelled PCIe lines for a profile whose kernel names the chip per device.


def _cm4_on(kernel: str, tmp_path):  # type: ignore[no-untyped-def]
    import shutil
    from pathlib import Path

    from sbctune.lab.profile import load_profile
    from sbctune.resources import resource_root

    copy = tmp_path / "cm4"
    shutil.copytree(Path(str(resource_root())) / "lab" / "profiles" / "cm4-i340-igb", copy)
    toml = copy / "lab.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('pcie_host = "brcmstb"',
                                 f'pcie_host = "brcmstb"\nkernel = "{kernel}"', 1),
                    encoding="utf-8")  # fmt: skip
    return load_profile(str(copy))


def test_the_lab_names_the_cm4s_pcie_msi_chip_per_device_on_7_2(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sbctune.inventory.irq_chips import fixed_irqs
    from sbctune.inventory.parsers.procfs import parse_interrupts
    from sbctune.lab import configs

    profile = _cm4_on("7.2.12+bpo-arm64", tmp_path)
    parsed = parse_interrupts(profile.modelled_files["/proc/interrupts"])[0]
    assert parsed is not None
    chips = {(i.controller, i.hwirq) for i in parsed.irqs}
    # Debian's brcmstb gives no MSI-X: one MSI vector per igb port (the profile's three), the
    # MSI index 0 (7.2 BRCM_MSI_FLAGS_SUPPORTED has no MSI_FLAG_PCI_MSIX)
    assert chips == {(f"BRCM-PCI-MSI-0000:01:00.{f}", "0") for f in range(3)}
    numbers = [i.number for i in parsed.irqs if i.number is not None]
    assert fixed_irqs(parsed, numbers, profile.kernel)[0] == numbers  # Inspect: all fixed
    config = configs.knobs_config(profile, str(tmp_path / "interrupts"))
    assert config["irq_chip_errno"] == {"BRCM-PCI-MSI": "EPERM"}
    assert set(config["irq_errno"].values()) == {"EPERM"}
    tree = build_tree({**config, "irqs": numbers, "irq_refuse": numbers})
    node = tree.lookup(f"irq/{numbers[0]}/smp_affinity")
    assert node.write is not None
    with pytest.raises(OSError) as refused:
        node.write("2\n")
    assert refused.value.errno == errno.EPERM


@pytest.mark.parametrize("kernel", ["6.12.25+rpt-rpi-v8", "6.1.0-31-arm64"])
def test_before_6_17_the_lab_keeps_one_chip_for_every_device(kernel: str, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """(Passes before the fix too: the older kernels keep their line.)"""
    from sbctune.inventory.parsers.procfs import parse_interrupts

    profile = _cm4_on(kernel, tmp_path)
    parsed = parse_interrupts(profile.modelled_files["/proc/interrupts"])[0]
    assert parsed is not None
    assert {i.controller for i in parsed.irqs} == {"BRCM STB PCIe MSI"}
