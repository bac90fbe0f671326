"""The s17 walk on the pi5-macb lab: Inspect showed Chip "unknown" for the Pi 5's own port. The
device graph names it: the platform device its device tree makes of RP1's GEM,
"1f00100000.ethernet" (the kernel's log prefix, and ethtool -i's bus-info: macb has no
get_drvinfo, so net/ethtool/ioctl.c ethtool_get_drvinfo copies the parent's dev_name();
nextbsd-98). macb alone names no chip: it drives the GEMs of Zynq, SAMA5, PolarFire too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.inventory.bundle import write_bundle
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import build_state

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"
RP1 = "Cadence GEM in RP1"


def _bundle(tmp_path: Path, commands: dict[str, str]) -> Path:
    return write_bundle(tmp_path, "", commands, {}, created="2026-12-01T00:00:00Z")


def test_a_real_pi5_log_names_rp1s_gem_and_a_zynq_gem_stays_unnamed() -> None:
    for name, iface in (("pi5_haos_4861_macb_end0", "end0"),
                        ("pi5_omr_3732_macb_down_undervoltage", "eth0")):  # fmt: skip
        nic = inspect_bundle(CORPUS / name).nic(iface)
        assert nic is not None and (nic.chip or "").startswith(RP1), (name, nic)
    zynq = inspect_bundle(CORPUS / "zynq_mars_zx3_enclustra_37_macb_link_down_prompt_glued")
    assert [n.chip for n in zynq.nics if n.driver == "macb"] == [None]


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_the_pi5_lab_answers_ethtool_i_as_the_kernel_and_inspect_names_the_chip(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state.json"
    state.write_text(json.dumps(build_state(load_profile("pi5-macb"))), encoding="utf-8")
    result = fake_ethtool.run(["-i", "eth0"], str(state))
    assert result is not None
    out = result[0]
    assert "driver: macb\n" in out and "bus-info: 1f00100000.ethernet\n" in out, out
    nic = inspect_bundle(_bundle(tmp_path, {"ethtool -i eth0": out})).nic("eth0")
    assert nic is not None and (nic.chip or "").startswith(RP1), nic
    assert nic.bus == "platform" and nic.bus_path == "1f00100000.ethernet"


def test_the_name_counts_only_for_a_driver_of_that_chip() -> None:
    catalog = load_catalog()
    rp1 = catalog.chip_on_platform("macb", "1f00100000.ethernet")
    assert rp1 is not None and rp1.id == "rp1-gem"
    assert catalog.chip_on_platform("macb", "e000b000.ethernet") is None  # a Zynq's GEM
    assert catalog.chip_on_platform("bcmgenet", "1f00100000.ethernet") is None
    assert catalog.chip_on_platform(None, "1f00100000.ethernet") is None
