"""Audit 6a (resources/tuning/driver_caps_audit6a.md): what a sixth read of bcmgenet, macb,
lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm found where the lab answered otherwise than
the kernel's change paths: pause autonegotiation over a forced link (lan78xx_set_pause,
rtl8152_set_pauseparam), a pause set that keeps the advertisement (no renegotiation), and the
interrupt lines bcmgenet and macb request (their names, for finding IRQs after a reboot)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.parsers.procfs import parse_interrupts
from sbctune.lab import irq_model
from sbctune.lab.profile import load_profile
from tests.fake_ethtool_support import ethtool as _ethtool
from tests.fake_ethtool_support import lab_state, root

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
INVALID = "netlink error: Invalid argument"


def lab(tmp_path: Path, driver: str, chip: str = "") -> str:
    return lab_state(tmp_path, driver, chip)


def ethtool(state: str, *argv: str) -> tuple[str, list[str], int]:
    return _ethtool(state, *argv)


@root
@pytest.mark.parametrize(("driver", "chip"), [("lan78xx", "LAN7515"), ("r8152", "RTL8153")])
def test_pause_autonegotiation_needs_the_links(tmp_path: Path, driver: str, chip: str) -> None:
    """lan78xx_set_pause and rtl8152_set_pauseparam: `-A autoneg on` while the link is forced
    (`-s autoneg off`) is EINVAL (fact pause_autoneg_needs_link_autoneg, audit 6a row 1);
    r8152 then shows pause autoneg, RX and TX off (rtl8152_get_pauseparam returns early).
    Before, the lab took it and showed pause autonegotiation on over a forced link."""
    state = lab(tmp_path, driver, chip)
    if driver == "lan78xx":  # -a shows fc_autoneg, on from lan78xx_phy_init: `-A autoneg on`
        # would change nothing, and ethnl_set_pause does not call the driver then (audit 14)
        assert ethtool(state, "-A", "eth0", "autoneg", "off")[2] == 0
    assert ethtool(state, "-s", "eth0", "autoneg", "off", "speed", "100", "duplex", "full")[2] == 0
    assert ethtool(state, "-A", "eth0", "autoneg", "on")[1] == [INVALID]
    shown = ethtool(state, "-a", "eth0")[0]
    if driver == "r8152":
        assert "Autonegotiate:\toff\nRX:\t\toff\nTX:\t\toff\n" in shown
    assert ethtool(state, "-s", "eth0", "autoneg", "on")[2] == 0
    assert ethtool(state, "-A", "eth0", "autoneg", "on")[2] == 0
    assert "Autonegotiate:\ton\n" in ethtool(state, "-a", "eth0")[0]


@root
@pytest.mark.parametrize(("driver", "chip"), [("lan78xx", "LAN7515"), ("bcmgenet", "")])
def test_a_pause_set_that_keeps_the_advertisement_keeps_the_link(tmp_path: Path, driver: str,
                                                                  chip: str) -> None:  # fmt: skip
    """lan78xx_set_pause / bcmgenet_phy_pause_set renegotiate through phylib only when the
    pause advertisement changes (fact pause_advertisement, audit 6a row 2): pause autoneg
    alone does not; on bcmgenet neither does TX with RX on (Pause = RX, Asym = RX | TX).
    Before, the lab bounced the link for any change of autoneg, RX or TX."""
    state = lab(tmp_path, driver, chip)
    assert ethtool(state, "-A", "eth0", "autoneg", "off")[2] == 0
    if driver == "bcmgenet":
        assert ethtool(state, "-A", "eth0", "tx", "off")[2] == 0  # RX on: Pause+Asym either way
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    assert "bounces" not in data["interfaces"]["eth0"]["pause"]
    assert ethtool(state, "-A", "eth0", "rx", "off")[2] == 0
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    assert data["interfaces"]["eth0"]["pause"]["bounces"] == 1


@pytest.mark.parametrize(("driver", "chip", "expected"), [
    ("bcmgenet", "", ["eth0", "eth0"]),  # bcmgenet_open: irq0 and irq1
    ("macb", "RP1", ["eth0"]),  # macb_init: one per queue, RP1 has one
])  # fmt: skip
def test_platform_nics_name_their_interrupts_as_the_driver_does(
    driver: str, chip: str, expected: list[str]
) -> None:
    """The table's irq_vectors (audit 6a row 4): bcmgenet requests two lines named after the
    interface, macb one per queue; before, neither driver had the fact (no names to find)."""
    assert irq_model.vector_names(irq_model.Nic("eth0", driver, chip), 4) == expected


def test_bcmgenets_two_lines_are_in_a_real_pi_4_capture() -> None:
    """pi4-ax88179's /proc/interrupts (seed 000, a real Pi 4): 'GICv2 189 Level eth0' and
    'GICv2 190 Level eth0', the two bcmgenet_open requests."""
    text = load_profile("pi4-ax88179").bundle.file("/proc/interrupts")
    assert text is not None
    parsed = parse_interrupts(text)[0]
    assert parsed is not None
    named = [" ".join(i.names) for i in parsed.irqs if " ".join(i.names) == "eth0"]
    assert named == irq_model.vector_names(irq_model.Nic("eth0", "bcmgenet"), 4)


def test_a_cm4_profile_models_no_pcie_lines_for_its_built_in_port() -> None:
    """bcmgenet's lines are the SoC's (GICv2), not PCIe MSI: the CM4 + I340 profile's modelled
    /proc/interrupts has igb's vectors only."""
    profile = load_profile("cm4-i340-igb")
    nics = [irq_model.Nic(i.name, i.driver, i.chip) for i in profile.interfaces]
    assert any(n.driver == "bcmgenet" for n in nics)
    built_in = {n.name for n in nics if n.driver == "bcmgenet"}
    modelled = irq_model.lines(nics, profile.cpu.count, profile.pcie_host, profile.kernel)
    assert modelled and not [m for m in modelled if m.name in built_in]


@root
@pytest.mark.parametrize(("driver", "chip"), [("lan78xx", "LAN7515"), ("bcmgenet", "")])
def test_a_pause_set_over_a_forced_link_does_not_renegotiate(tmp_path: Path, driver: str,
                                                             chip: str) -> None:  # fmt: skip
    """lan78xx_set_pause calls phy_ethtool_ksettings_set only `if (ecmd.base.autoneg)`;
    bcmgenet's phy_start_aneg rewrites the forced BMCR (genphy_setup_forced): over a forced
    link a pause change bounces nothing (fact pause_restart_needs_link_autoneg, audit 6a
    row 5). Before, the lab bounced the link."""
    state = lab(tmp_path, driver, chip)
    assert ethtool(state, "-s", "eth0", "autoneg", "off", "speed", "100", "duplex", "full")[2] == 0
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "off", "tx", "off")[2] == 0
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    assert "bounces" not in data["interfaces"]["eth0"]["pause"]
    assert "Autonegotiate:\toff\nRX:\t\toff\nTX:\t\toff\n" in ethtool(state, "-a", "eth0")[0]


@root
def test_bcmgenet_shows_the_pause_the_mac_runs_with_while_the_link_is_up(tmp_path: Path) -> None:
    """bcmgenet_get_pauseparam reads UMAC_CMD's PAUSE_IGNORE bits while the carrier is up
    (fact pause_shown_resolved, audit 6a row 6): `rx on tx off` is advertised as Pause +
    Asym_Pause, which against a partner that advertises pause resolves to both; over a forced
    link pause autoneg resolves to none. Before, the lab read back the request."""
    state = lab(tmp_path, "bcmgenet")
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update(carrier=True, speed="1000", duplex="full")
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    assert ethtool(state, "-A", "eth0", "tx", "off")[2] == 0
    assert "RX:\t\ton\nTX:\t\ton\n" in ethtool(state, "-a", "eth0")[0]
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "on")[2] == 0
    assert "RX:\t\toff\nTX:\t\ton\n" in ethtool(state, "-a", "eth0")[0]
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "on", "tx", "off")[2] == 0
    assert "RX:\t\ton\nTX:\t\toff\n" in ethtool(state, "-a", "eth0")[0]  # manual: as asked


def test_the_installed_script_answers_bcmgenets_pause(tmp_path: Path) -> None:
    """The lab installs fake_ethtool as one standalone script (no sbctune on its path): the
    pause read that now asks the link model (row 6) must work there too, as `-a` in the module."""
    import subprocess
    import sys

    from sbctune.lab.ethtool_state import script_text

    state = lab(tmp_path, "bcmgenet")
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update(carrier=True, speed="1000", duplex="full")
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    fallback = tmp_path / "captured"
    fallback.write_text("#!/bin/sh\necho captured\n", encoding="utf-8")
    fallback.chmod(0o755)
    script = tmp_path / "ethtool"
    script.write_text(script_text(sys.executable, Path(state), fallback), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-S", str(script), "-a", "eth0"], capture_output=True,
                          text=True, timeout=30, env={"PATH": "/usr/bin:/bin"})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ethtool(state, "-a", "eth0")[0]
