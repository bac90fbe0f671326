"""Audit 4b (driver_caps_audit4b.md). The lab's PCIe NICs have the interrupt vectors their
driver requests: a CM4 profile with no captured /proc/interrupts shows igb's MSI-X vectors
(igb_request_msix) and r8169's one vector (rtl_alloc_irq) behind the Pi 4's PCIe MSI chip, so
Inspect finds the NIC's IRQs and irq-affinity says the chip cannot move them
(brcm_msi_set_affinity), as on a real Pi 4 (tests/unit/test_irq_chips.py: seed 000's capture).
Also: stmmac's per-queue vector names, and r8169's EEE modes per kernel."""

from __future__ import annotations

import errno
from pathlib import Path
from types import SimpleNamespace

import pytest

from sbctune.inventory.interrupt_sightings import from_interrupts
from sbctune.inventory.irq_chips import fixed_irqs
from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.inventory.sightings import iface_key
from sbctune.lab import irq_model
from sbctune.lab.knobs_model import Irq
from sbctune.lab.profile import load_profile

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"


def _names(text: str) -> dict[int, str]:
    parsed = parse_interrupts(text)[0]
    assert parsed is not None
    return {i.number: " ".join(i.names) for i in parsed.irqs if i.number is not None}


def test_cm4_i340_shows_igbs_msix_vectors_unpaired_on_four_cpus() -> None:
    """82580: 8 RSS queues, 4 CPUs -> 4 queues, not more than half the maximum -> not paired
    (igb_set_flag_queue_pairs): a link vector, four RX and four TX vectors per port."""
    profile = load_profile("cm4-i340-igb")
    text = profile.modelled_files["/proc/interrupts"]
    names = _names(text)
    eth1 = [n for n in names.values() if n == "eth1" or n.startswith("eth1-")]
    assert eth1 == [
        "eth1",
        *(f"eth1-rx-{k}" for k in range(4)),
        *(f"eth1-tx-{k}" for k in range(4)),
    ]
    assert len(names) == 27  # three ports, nine vectors each
    assert set(profile.irqs) == set(names)
    assert set(profile.irq_refuse) == set(names)  # brcm_msi_set_affinity: EINVAL
    assert "BRCM STB PCIe MSI 524288 Edge      eth1\n" in text  # 01:00.0, vector 0


def test_the_user_sees_the_igb_ports_irqs_and_why_they_stay_on_cpu0() -> None:
    profile = load_profile("cm4-i340-igb")
    parsed = parse_interrupts(profile.modelled_files["/proc/interrupts"])[0]
    assert parsed is not None
    sightings = list(from_interrupts(SimpleNamespace(interrupts=parsed)))  # type: ignore[arg-type]
    key = iface_key("eth2")
    eth2 = sorted(f.value for s in sightings if key in s.keys for f in s.facts if f.field == "irqs")
    assert len(eth2) == 9
    fixed, why = fixed_irqs(parsed, eth2, None)
    assert fixed == eth2 and why is not None and "brcm_msi_set_affinity" in why
    with pytest.raises(OSError) as refused:
        Irq(eth2[1], profile.cpu.count, eth2[1] in profile.irq_refuse).write_mask("2")
    assert refused.value.errno == errno.EINVAL


@pytest.mark.parametrize(
    ("chip", "cpus", "expected"),
    [
        ("I210", 4, ["eth1", "eth1-TxRx-0", "eth1-TxRx-1", "eth1-TxRx-2", "eth1-TxRx-3"]),
        ("I211", 4, ["eth1", "eth1-rx-0", "eth1-rx-1", "eth1-tx-0", "eth1-tx-1"]),  # never paired
        ("I350", 2, ["eth1", "eth1-rx-0", "eth1-rx-1", "eth1-tx-0", "eth1-tx-1"]),
        ("I350", 8, ["eth1", *(f"eth1-TxRx-{k}" for k in range(8))]),
    ],
)
def test_igb_vector_names_follow_queue_pairing(chip: str, cpus: int, expected: list[str]) -> None:
    assert irq_model.vector_names(irq_model.Nic("eth1", "igb", chip), cpus) == expected


def test_igc_pairs_on_a_four_core_pi_and_r8169_has_one_vector() -> None:
    igc = irq_model.vector_names(irq_model.Nic("eth1", "igc", "I225-V"), 4)
    assert igc == ["eth1", *(f"eth1-TxRx-{k}" for k in range(4))]
    assert irq_model.vector_names(irq_model.Nic("eth1", "r8169", "RTL8125B"), 4) == ["eth1"]
    # atlantic (aq_nic_start): ring vectors (a power of two up to the CPUs) and the link's
    assert irq_model.vector_names(irq_model.Nic("eth1", "atlantic", "AQC107"), 3) == ["eth1"] * 3
    profile = load_profile("cm4-rtl8125b-r8169")
    assert list(_names(profile.modelled_files["/proc/interrupts"]).values()) == ["eth1"]


def test_a_captured_proc_interrupts_is_never_replaced() -> None:
    profile = load_profile("pi4-ax88179")
    assert profile.modelled_files == {}
    assert 46 in profile.irqs


def test_a_profile_without_a_test_nic_keeps_the_first_nics_queues(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "lab.toml").write_text(
        '[lab]\ndescription = "x"\n[cpu]\ncount = 4\n'
        '[[interface]]\nname = "eth0"\ndriver = "stmmac"\nqueues = 4\n'
        "[interface.link]\nlink_speed_mbps = 1000\n",
        encoding="utf-8",
    )
    (tmp_path / "manifest.json").write_text(
        '{"format": "sbctune-bundle", "version": 1, "commands": {}, "files": {}, "exit_codes": {}}',
        encoding="utf-8",
    )
    profile = load_profile(tmp_path)
    assert profile.interfaces[0].test and profile.interfaces[0].queues == 4


def test_stmmac_per_queue_msi_vectors_are_the_nics() -> None:
    """Intel mGbE (stmmac_request_irq_multi_msi): "eth0:rx-0" ... "eth0:safety-ue" are eth0's
    17 interrupts (a real capture from Intel's netdev patch, see its source.md); before, the
    ':' kept every one of them from the NIC, so Inspect said "IRQs unknown"."""
    path = CAPTURES / "intel_stmmac_netdev_2021_multi_msi_eth0.txt"
    parsed = parse_interrupts(path.read_text(encoding="utf-8"))[0]
    assert parsed is not None
    sightings = list(from_interrupts(SimpleNamespace(interrupts=parsed)))  # type: ignore[arg-type]
    key = iface_key("eth0")
    irqs = sorted(f.value for s in sightings if key in s.keys for f in s.facts if f.field == "irqs")
    assert irqs == [*range(131, 147), 157]
    assert all(key in s.keys for s in sightings)  # nothing else claimed (no "eth0:rx" NIC)


@pytest.mark.parametrize(
    ("kernel", "modes"),
    [
        ("6.1.0-rpi7-rpi-v8", ["100baseT/Full", "1000baseT/Full"]),  # MDIO_PCS_EEE_ABLE only
        ("6.12.25+rpt-rpi-v8", ["100baseT/Full", "1000baseT/Full", "2500baseT/Full"]),
    ],
)
def test_rtl8125_eee_modes_follow_the_kernel(kernel: str, modes: list[str]) -> None:
    """driver_caps_audit4b.md: 6.1's phy_ethtool_get_eee reads no 2.5G EEE ability, so the lab's
    RTL8125B showed 2500baseT/Full on every kernel; 6.12 reads EEE_ABLE2 (rtl822x_read_mmd)."""
    from sbctune.lab.ethtool_state import interface_state

    bundle = load_profile("cm4-rtl8125b-r8169").bundle
    state = interface_state("r8169", bundle, "eth1", "RTL8125B", kernel)
    assert state["eee"]["supported"] == modes


def test_ethtool_i_names_the_pci_address_the_interrupts_use() -> None:
    """igb_get_drvinfo copies pci_name() into bus-info: the lab's igb ports show the addresses
    their modelled MSI vectors were numbered from (01:00.0 -> hwirq 524288, 01:00.1 -> 526336);
    a profile without a modelled PCIe host leaves it empty, as before."""
    from sbctune.lab.ethtool_state import build_state
    from sbctune.lab.fake_ethtool_driver import show_info

    state = build_state(load_profile("cm4-i340-igb"))["interfaces"]
    assert "bus-info: 0000:01:00.0\n" in show_info("eth1", state["eth1"])
    assert "bus-info: 0000:01:00.1\n" in show_info("eth2", state["eth2"])
    assert "bus-info: \n" in show_info("eth0", state["eth0"])  # bcmgenet: not modelled here
    other = build_state(load_profile("pi4-ax88179"))["interfaces"]
    assert all("bus-info: \n" in show_info(n, s) for n, s in other.items() if s.get("info"))
