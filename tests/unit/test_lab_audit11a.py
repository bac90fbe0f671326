"""Audit 11a (driver_caps_audit11a.md): the tweaks' own paths through bcmgenet, macb (RP1),
lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm.

Row 1: a Pi 5's eth0 interrupt is RP1's (rp1_probe puts every RP1 interrupt on rp1_irq_chip;
rp1.dtsi gives the GEM RP1_INT_ETH, 6, level-high), and a real Pi 5 prints it as
"rp1_irq_chip 6 Level eth0" (raspberrypi/linux issue 6898). The pi5-macb lab, which captured no
/proc/interrupts, showed none, so irq-affinity said "no interrupt of this NIC was found" where a
real Pi 5 moves it (rp1_irq_set_affinity, PR #6090).

Row 2: bcmgenet on 6.12 turns EEE on again at every open (bcmgenet_open -> bcmgenet_mii_probe ->
phy_support_eee), so eee-off lasts until the next `ip link set down` and `up`; the lab kept it
off and the planner did not say so."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from sbctune.inventory.interrupt_sightings import from_interrupts
from sbctune.inventory.irq_chips import fixed_irqs
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.parsers.procfs import Irq as ParsedIrq
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.inventory.sightings import iface_key
from sbctune.lab import fake_ethtool, irq_model
from sbctune.lab.knobs_model import Irq
from sbctune.lab.profile import load_profile
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.unit.test_lab_driver_table import ethtool, lab, root

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
PI5 = CAPTURES / "pi5_linux_6898_ip_s_rx_drops_interrupts_cpu0_ethtool_s_grep.txt"
PI5_WHOLE = CAPTURES / "pi5_ubuntu_6_5_raspi_tannal_notes.txt"  # a whole one (walk 26)
# a real Raspberry Pi's end0 (bcmgenet's predictable name) with EEE enabled (systemd issue 32032)
EEE_ON = (CAPTURES.parent / "ethtool_eee" / "pi_end0_enabled_inactive_systemd_32032.txt").read_text(
    encoding="utf-8"
)


def _eth0_lines(text: str) -> list[ParsedIrq]:
    parsed = parse_interrupts(text)[0]
    assert parsed is not None
    return [i for i in parsed.irqs if i.names == ["eth0"]]


def test_the_pi5_lab_shows_eth0s_interrupt_as_a_real_pi5_prints_it() -> None:
    """Walk 26: the profile now serves a real Pi 5's whole /proc/interrupts (PI5_WHOLE); a
    profile without one gets the modelled line, as a real Pi 5 prints it too (104 in #6898)."""
    profile = load_profile("pi5-macb")
    served = profile.bundle.file("/proc/interrupts")
    assert served == PI5_WHOLE.read_text(encoding="utf-8")
    assert "/proc/interrupts" not in profile.modelled_files  # a capture is never replaced
    rp1 = [irq_model.Nic("eth0", "macb", "Cadence GEM in RP1")]
    modelled = irq_model.render(irq_model.platform_lines(rp1, 4), 4)
    lab, whole = _eth0_lines(modelled), _eth0_lines(served)
    real = _eth0_lines(PI5.read_text(encoding="utf-8"))
    assert len(lab) == len(whole) == len(real) == 1
    seen = [(i.controller, i.hwirq, i.trigger) for i in (lab[0], whole[0], real[0])]
    assert seen[0] == seen[1] == seen[2] == ("rp1_irq_chip", "6", "level")
    assert (lab[0].irq, whole[0].irq) == ("104", "112")
    # only the GIC's per-CPU lines and the pinned arm-pmu ones refuse (audit 36a); eth0's RP1
    # line moves
    assert 112 in profile.irqs and profile.irq_refuse == (9, 11, 12, 13, 33, 34, 35, 36)


def test_irq_affinity_finds_the_pi5s_eth0_interrupt_and_may_move_it() -> None:
    profile = load_profile("pi5-macb")
    parsed = parse_interrupts(profile.bundle.file("/proc/interrupts") or "")[0]
    assert parsed is not None
    sightings = list(from_interrupts(SimpleNamespace(interrupts=parsed)))  # type: ignore[arg-type]
    key = iface_key("eth0")
    irqs = sorted(f.value for s in sightings if key in s.keys for f in s.facts if f.field == "irqs")
    assert irqs == [112]
    assert fixed_irqs(parsed, irqs, None) == ([], None)  # rp1_irq_set_affinity: movable
    irq = Irq(112, profile.cpu.count, 112 in profile.irq_refuse)
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


def _eee_status(state: str) -> str:
    out, _, code = ethtool(state, "--show-eee", "eth0")
    assert code == 0, out
    return out.split("EEE status: ")[1].split("\n")[0].strip()


@root
@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
# bcmgenet calls phy_support_eee from 6.12.78 on (908c344d5cfa backported; audit 26 row 8)
@pytest.mark.parametrize(
    ("kernel", "after_open"), [("6.12.78", "enabled"), ("6.12.47", "disabled"), ("6.1", "disabled")]
)
def test_bcmgenet_turns_eee_on_again_when_opened_on_6_12(
    tmp_path: Path, kernel: str, after_open: str
) -> None:
    """6.12's bcmgenet_mii_probe (run by every bcmgenet_open) calls phy_support_eee; 6.1's
    keeps priv->eee. The lab's `ip link set up` runs the model's reopen (refresh_shown)."""
    state = lab(tmp_path, "bcmgenet", "", kernel)
    assert ethtool(state, "--set-eee", "eth0", "eee", "off")[2] == 0
    assert _eee_status(state) == "disabled"
    assert fake_ethtool.refresh_shown(state, ["eth0"]) == 0
    assert _eee_status(state).startswith(after_open)


def _planned_eee_off(kernel: str) -> PlannedTweak:
    found = Facts("end0")
    found.steps["ethtool --show-eee"] = StepResult(
        batch.Step(("true",), "ethtool --show-eee"), 0, EEE_ON.encode(), b""
    )
    nic = Nic("end0", driver="bcmgenet")
    tweak = catalog.tweak("eee-off")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    options = {"allow_link_restart": True}  # end0 carries no SSH route here: agreed anyway
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("eee-off",)))


@pytest.mark.parametrize(
    ("kernel", "words"),
    [
        ("6.12.78+rpt-rpi-2712", "bcmgenet turns EEE on again each time the interface is opened"),
        ("6.12.47+rpt-rpi-2712", None),  # before the stable backport of 908c344d5cfa (audit 26)
        ("", None),  # a patch-level fact: with no kernel said, neither claimed nor denied
        ("6.1.0-31-arm64", None),
    ],
)
def test_eee_off_on_bcmgenet_says_how_long_it_lasts(kernel: str, words: str | None) -> None:
    item = _planned_eee_off(kernel)
    assert item.applicable and [c.after for c in item.changes] == ["off"], item.reason
    if words is None:
        assert "on again" not in item.reason
    else:
        assert words in item.reason and "bcmmii.c: bcmgenet_mii_probe" in item.reason
