"""Audit 20 (resources/tuning/driver_caps_audit20.md): queues, RSS and interrupt vectors.

Row 1: behind the BCM2711's PCIe controller Debian's 6.1 kernel gives a card one interrupt
vector (pcie-brcmstb.c brcm_msi_domain_info: no MSI_FLAG_PCI_MSIX, no MSI_FLAG_MULTI_PCI_MSI),
and atlantic keeps a ring vector per CPU with one vector (aq_nic_cfg_update_num_vecs caps them
only when it got more than one), so its open asks for vector 1 and fails: the NIC never comes
up. Inspect now says so; before, it said nothing. The inventories are built in the test (no
capture of this board exists: the rule reads the model, not an output).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.static import add_static_advice
from sbctune.catalog import load_catalog
from sbctune.inventory.model import Board, Finding, Inventory, Nic
from sbctune.inventory.raw import Parsed
from sbctune.lab import load_profile, shipped_profiles
from sbctune.lab.errors import ProfileError
from sbctune.tuning import driver_caps
from tests.lab_profiles import profile_copy

DEBIAN_61 = "6.1.0-27-arm64"  # Debian 12's ABI name of its 6.1 kernel
FINDING = "nic-open-fails-one-vector"


def _inspected(
    kernel: str, driver: str = "atlantic", cpus: int = 4, soc: str = "BCM2711"
) -> list[Finding]:
    board = Board(model="Raspberry Pi Compute Module 4 Rev 1.0", soc=soc, kernel=kernel,
                  cpu_cores=cpus)  # fmt: skip
    nic = Nic("eth1", driver=driver, bus="pci", chip="Aquantia AQC107", bus_path="0000:01:00.0")
    inventory = Inventory(board=board, nics=[nic])
    add_static_advice(inventory, Parsed(), load_catalog())
    return [f for f in inventory.findings if f.id == FINDING]


def test_atlantic_behind_debian_61s_brcmstb_is_said_to_stay_down() -> None:
    (found,) = _inspected(DEBIAN_61)
    assert found.severity == "problem" and found.nic == "eth1"
    assert "cannot bring this NIC up" in found.summary
    assert "one interrupt vector" in found.summary and "4 CPUs" in found.summary
    assert "Raspberry Pi OS kernel" in found.summary  # what to do
    cited = "\n".join(found.evidence)
    assert "drivers/pci/controller/pcie-brcmstb.c: brcm_msi_domain_info (6.1)" in cited
    assert "aq_nic.c: aq_nic_cfg_update_num_vecs" in cited


@pytest.mark.parametrize(
    ("kernel", "driver", "cpus", "soc", "why"),
    [
        ("6.1.21-v8+", "atlantic", 4, "BCM2711", "Raspberry Pi OS: its brcmstb gives MSI-X"),
        ("6.12.57+deb13-arm64", "atlantic", 4, "BCM2711", "6.12: multi-MSI, the card decides"),
        ("6.6.51", "atlantic", 4, "BCM2711", "a series the table does not hold"),
        (DEBIAN_61, "atlantic", 1, "BCM2711", "one CPU: one ring vector, it opens"),
        (DEBIAN_61, "igb", 4, "BCM2711", "igb falls back to one queue pair"),
        (DEBIAN_61, "atlantic", 4, "RK3588", "another PCIe controller: not in the table"),
    ],
)
def test_no_such_finding_where_the_source_does_not_say_it(
    kernel: str, driver: str, cpus: int, soc: str, why: str
) -> None:
    assert _inspected(kernel, driver, cpus, soc) == [], why


def test_a_nic_the_pi_shows_open_is_not_said_to_stay_down() -> None:
    """Its interrupts in /proc/interrupts (atlantic requests them at open) or a link speed:
    the outputs win over the rule."""
    opened = Nic("eth1", driver="atlantic", bus="pci", irqs=[46])
    linked = Nic("eth1", driver="atlantic", bus="pci", link_speed_mbps=10000)
    for nic in (opened, linked):
        board = Board(soc="BCM2711", kernel=DEBIAN_61, cpu_cores=4)
        inventory = Inventory(board=board, nics=[nic])
        add_static_advice(inventory, Parsed(), load_catalog())
        assert [f for f in inventory.findings if f.id == FINDING] == [], nic


def test_the_facts_hold_in_the_series_the_source_says() -> None:
    """The driver's fact in both series (aq_nic_cfg_update_num_vecs is the same text); the
    host's one-vector count only in 6.1 (6.12's brcm_msi_domain_info has MULTI_PCI_MSI)."""
    for kernel in (DEBIAN_61, "6.12.57+deb13-arm64"):
        caps = driver_caps.caps("atlantic", kernel)
        assert caps is not None and caps.facts.get("open_fails_with_one_vector") is True
    counted = [f["kernels"] for f in driver_caps.table()["hand"]["_kernel"]
               if f["fact"] == "pcie_msi_vectors"]  # fmt: skip
    assert counted == [["6.1"]]


def _cm4_profile(tmp_path: Path, kernel: str | None, driver: str = "atlantic") -> Path:
    """cm4-i340-igb's lab.toml (configuration, not a capture: the profile has no command
    captures) with its PCIe ports' driver and the lab's kernel changed."""
    port = [('driver = "igb"\nchip = "82580"', f'driver = "{driver}"\nchip = "AQC107"')]
    return profile_copy(tmp_path, "cm4-i340-igb", "cm4", kernel=kernel, replace=port)


def test_the_lab_will_not_bring_up_an_atlantic_nic_the_kernel_never_opens(tmp_path: Path) -> None:
    """Before, the lab gave such a NIC four queues and five vectors named eth1 and brought it
    up: kinder than the kernel, whose open fails."""
    with pytest.raises(ProfileError) as refused:
        load_profile(str(_cm4_profile(tmp_path, DEBIAN_61)))
    words = str(refused.value)
    assert "eth1 (atlantic) could never be brought up" in words
    assert "one interrupt vector" in words and "one per CPU (4)" in words
    assert "aq_nic.c: aq_nic_cfg_update_num_vecs" in words


@pytest.mark.parametrize(
    ("kernel", "driver"),
    [
        (None, "atlantic"),  # no kernel named: the Raspberry Pi kernel a CM4 ships (MSI-X)
        ("6.12.57+deb13-arm64", "atlantic"),  # multi-MSI: the card's count decides
        (DEBIAN_61, "igb"),  # igb falls back to one queue pair and opens
    ],
)
def test_the_lab_still_builds_where_the_nic_opens(
    tmp_path: Path, kernel: str | None, driver: str
) -> None:
    profile = load_profile(str(_cm4_profile(tmp_path, kernel, driver)))
    assert [i.driver for i in profile.interfaces][1] == driver


def test_every_shipped_profile_still_loads() -> None:
    for name in shipped_profiles():
        assert load_profile(name).interfaces
