"""Audit 11a (driver_caps_audit11a.md): the tweaks' own paths through bcmgenet, macb (RP1),
lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm.

Row 1: a Pi 5's eth0 interrupt is RP1's (rp1_probe puts every RP1 interrupt on rp1_irq_chip;
rp1.dtsi gives the GEM RP1_INT_ETH, 6, level-high), and a real Pi 5 prints it as
"rp1_irq_chip 6 Level eth0" (raspberrypi/linux issue 6898). The pi5-macb lab, which captured no
/proc/interrupts, showed none, so irq-affinity said "no interrupt of this NIC was found" where a
real Pi 5 moves it (rp1_irq_set_affinity, PR #6090)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from sbctune.inventory.irq_chips import fixed_irqs
from sbctune.inventory.listing_sightings import from_interrupts
from sbctune.inventory.parsers.procfs import Irq as ParsedIrq
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.inventory.sightings import iface_key
from sbctune.lab import irq_model
from sbctune.lab.knobs_model import Irq
from sbctune.lab.profile import load_profile

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
PI5 = CAPTURES / "pi5_linux_6898_ip_s_rx_drops_interrupts_cpu0_ethtool_s_grep.txt"


def _eth0_lines(text: str) -> list[ParsedIrq]:
    parsed = parse_interrupts(text)[0]
    assert parsed is not None
    return [i for i in parsed.irqs if i.names == ["eth0"]]


def test_the_pi5_lab_shows_eth0s_interrupt_as_a_real_pi5_prints_it() -> None:
    profile = load_profile("pi5-macb")
    text = profile.modelled_files.get("/proc/interrupts", "")
    lab = _eth0_lines(text)
    real = _eth0_lines(PI5.read_text(encoding="utf-8"))
    assert len(lab) == 1 and len(real) == 1
    seen = [(i.irq, i.controller, i.hwirq, i.trigger) for i in (lab[0], real[0])]
    assert seen[0] == seen[1] == ("104", "rp1_irq_chip", "6", "level")
    assert profile.irqs == (104,) and profile.irq_refuse == ()


def test_irq_affinity_finds_the_pi5s_eth0_interrupt_and_may_move_it() -> None:
    profile = load_profile("pi5-macb")
    parsed = parse_interrupts(profile.modelled_files["/proc/interrupts"])[0]
    assert parsed is not None
    sightings = list(from_interrupts(SimpleNamespace(interrupts=parsed)))  # type: ignore[arg-type]
    key = iface_key("eth0")
    irqs = sorted(f.value for s in sightings if key in s.keys for f in s.facts if f.field == "irqs")
    assert irqs == [104]
    assert fixed_irqs(parsed, irqs, None) == ([], None)  # rp1_irq_set_affinity: movable
    irq = Irq(104, profile.cpu.count, 104 in profile.irq_refuse)
    irq.write_mask("2")
    assert irq.mask == 2


def test_only_a_one_vector_platform_nic_on_a_named_chip_gets_a_line() -> None:
    """bcmgenet's two lines sit on the GIC at numbers the table does not hold, and a NIC not on
    RP1 names no chip: neither is invented (a Pi 4 profile's lines come from its capture)."""
    nics = [irq_model.Nic("eth0", "bcmgenet", "BCM2711"), irq_model.Nic("eth1", "macb", "GEM")]
    assert irq_model.platform_lines(nics, 4) == []
    rp1 = [irq_model.Nic("eth0", "macb", "Cadence GEM in RP1")]
    assert [(m.number, m.name) for m in irq_model.platform_lines(rp1, 4, after=200)] == [
        (201, "eth0")
    ]
