"""Audit 24 (resources/tuning/driver_caps_audit24.md): the Raspberry Pi's own kernel tree.

Row 1: a kernel built from raspberrypi/linux keeps its defconfig's CONFIG_LOCALVERSION as a
word of its release (bcm2711_defconfig "-v8", bcm2712_defconfig "-v8-16k"), with "+" only when
the tree is not at a tag, with a builder's own words after it and the RT patch's "-rtN" before
it. sbctune knew only "-v8+", "-v7l+", "+rpt" and "rpi", so the real releases below (each from a
capture in tests/captures) read as Debian's tree: the Raspberry Pi tree's facts (lan78xx's TSO
off [fixed], the Pi 3 B+'s EEE on, brcmstb's MSI-X) were denied on them, and Inspect told a CM4
with an Aquantia card that its Pi kernel would never bring the NIC up.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.advice.static import add_static_advice
from sbctune.catalog import load_catalog
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.raw import Parsed
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import driver_caps
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state, shown
from tests.plan_one import plan_one

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")

# Releases of the Raspberry Pi tree, each as a real capture shows it (the file that holds it).
PI_TREE_RELEASES = {
    "6.1.77-rt24-v8-16k+": "uname/pi5_delock_pcie_606_i225v_lspci_nnk_modules_only_rt_16k_uname"
    ".txt",
    "6.14.11-v8-16k+": "dmesg/pi5_linux_7046_mt7925e_probe_ok_uname_r_ip_a_one_paste.txt",
    "5.4.69-v8": "reports/pi4_rpilinux_3884_uname_grep_failed_clock_ifconfig_prompts.txt",
    "6.12.25-v8-morse+": "dmesg/halow_pi4_wm6108_9_morse_spi_bare_function_lines_cmd53_71"
    ".source.md",
    "5.10.92-v8": "dmesg/halow_cm4_nrc7292_s1g_6_cspi_read_regs_warning_trace.source.md",
    "4.9.59-v7": "dmesg/pi3_sixfab_7_ec25e_qmi_wwan_buildroot.source.md",
}
# Releases of other trees, as real captures and packages name them: never the Pi's.
OTHER_RELEASES = ["6.1.0-27-arm64", "6.12.57+deb13-arm64", "5.15.0-1033-raspi", "6.1.11-meson64"]


@pytest.mark.parametrize("release", sorted(PI_TREE_RELEASES))
def test_the_captured_release_is_real(release: str) -> None:
    text = (CAPTURES / PI_TREE_RELEASES[release]).read_text(encoding="utf-8", errors="replace")
    assert release in text


@pytest.mark.parametrize("release", sorted(PI_TREE_RELEASES))
def test_a_pi_tree_build_is_told_apart_by_its_defconfigs_localversion(release: str) -> None:
    assert driver_caps.tree_of(release) == driver_caps.RPI_TREE


@pytest.mark.parametrize("release", OTHER_RELEASES)
def test_other_trees_stay_debians(release: str) -> None:
    assert driver_caps.tree_of(release) == "debian"


@pytest.mark.parametrize("kernel", ["6.1.77-v8", "6.1.77-rt24-v8", "6.1.21-v8-rt+"])
def test_a_cm4_on_a_pi_tree_61_is_not_told_its_aquantia_card_stays_down(kernel: str) -> None:
    """The Pi tree's brcmstb gives MSI-X (driver_caps.json _kernel pcie_msix, raspberrypi/linux
    pcie-brcmstb.c brcm_msi_domain_info); Debian 6.1's one vector is not this kernel's. The
    releases are 6.1 builds in the forms the captures show (Yocto's tagged "-v8", the RT patch's
    "-rtN" before it, a builder's "-rt" after it)."""
    board = Board(model="Raspberry Pi Compute Module 4 Rev 1.0", soc="BCM2711", kernel=kernel,
                  cpu_cores=4)  # fmt: skip
    nic = Nic("eth1", driver="atlantic", bus="pci", chip="Aquantia AQC107", bus_path="0000:01:00.0")
    inventory = Inventory(board=board, nics=[nic])
    add_static_advice(inventory, Parsed(), load_catalog())
    assert [f.summary for f in inventory.findings if f.id == "nic-open-fails-one-vector"] == []


def test_debians_61_still_gets_the_finding() -> None:
    board = Board(model="Raspberry Pi Compute Module 4 Rev 1.0", soc="BCM2711",
                  kernel="6.1.0-27-arm64", cpu_cores=4)  # fmt: skip
    nic = Nic("eth1", driver="atlantic", bus="pci", chip="Aquantia AQC107", bus_path="0000:01:00.0")
    inventory = Inventory(board=board, nics=[nic])
    add_static_advice(inventory, Parsed(), load_catalog())
    assert [f.id for f in inventory.findings if f.id == "nic-open-fails-one-vector"]


@POSIX
@pytest.mark.parametrize(
    "kernel", ["6.1.77-rt24-v8-16k+", "6.12.25-v8-morse+", "6.6.31+rpt-rpi-v8"]
)
def test_the_labs_lan78xx_on_a_pi_tree_kernel_shows_tso_fixed_off(
    tmp_path: Path, kernel: str
) -> None:
    """raspberrypi/linux lan78xx_bind adds TSO only with enable_tso (off): "off [fixed]"."""
    state = lab_state(tmp_path, "lan78xx", "LAN7515", kernel)
    assert shown(state, "-k", "tcp-segmentation-offload") == "off [fixed]"


@POSIX
def test_the_labs_lan78xx_on_debian_can_still_turn_tso_on(tmp_path: Path) -> None:
    state = lab_state(tmp_path, "lan78xx", "LAN7515", "6.1.0-27-arm64")
    assert "[fixed]" not in shown(state, "-k", "tcp-segmentation-offload")


# Row 2: macb on RP1 answers ethtool -c/-C on rpi-6.1.y (a Pi 5's paste, its project's kernel
# 6.1.72-v8-16k+): carried there, no longer "unknown".
PI5_61_COALESCE = CAPTURES / "ethtool_c" / "pi5_stratum1_macb_rp1_61_72_eth0.txt"
RP1 = "Cadence GEM in RP1"


def _pi5_coalescing(kernel: str) -> PlannedTweak:
    paste = PI5_61_COALESCE.read_text(encoding="utf-8")
    found = Facts("eth0")
    found.steps["ethtool -c"] = StepResult(
        batch.Step(("true",), "ethtool -c"), 0, paste.encode(), b""
    )
    return plan_one("irq-coalescing", found, Nic("eth0", driver="macb", chip=RP1), kernel)


@pytest.mark.parametrize("kernel", ["6.1.72-v8-16k+", "6.1.0-rpi7-rpi-2712"])
def test_a_pi5_on_rpi_61_is_known_to_coalesce(kernel: str) -> None:
    caps = driver_caps.caps("macb", kernel, RP1)
    assert caps is not None
    assert caps.has("set_coalesce") and "set_coalesce" not in caps.unsure
    assert {"ETHTOOL_COALESCE_RX_USECS", "ETHTOOL_COALESCE_TX_USECS"} <= caps.coalesce_params
    item = _pi5_coalescing(kernel)
    assert item.applicable
    assert "may not support interrupt coalescing" not in (item.reason or "")


def test_rpi_66_and_612_stay_unknown_not_denied() -> None:
    for kernel in ("6.6.31+rpt-rpi-2712", "6.12.25+rpt-rpi-2712"):
        caps = driver_caps.caps("macb", kernel, RP1)
        assert caps is not None and "set_coalesce" in caps.unsure, kernel
        item = _pi5_coalescing(kernel)
        assert item.applicable and "may not support interrupt coalescing" in item.reason


@POSIX
def test_the_labs_pi5_on_rpi_61_answers_ethtool_c_as_the_paste(tmp_path: Path) -> None:
    """The lab's macb on a 6.1 Raspberry Pi kernel: rx-usecs/tx-usecs 49 (gem_init_intmod's 62
    ticks), frame counts n/a, as the Pi 5's own paste."""
    state = lab_state(tmp_path, "macb", RP1, "6.1.72-v8-16k+")
    text, _errors, code = ethtool(state, "-c", "eth0")
    assert code == 0
    paste = PI5_61_COALESCE.read_text(encoding="utf-8")
    for key in ("rx-usecs", "tx-usecs", "rx-frames", "tx-frames"):
        assert shown(state, "-c", key) == paste.split(f"{key}: ")[1].split("\n")[0].strip(), key
    assert "Adaptive RX: n/a  TX: n/a" in text
