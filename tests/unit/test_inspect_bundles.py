"""Inspecting bundles: the shipped lab profiles, and bundles made by hand from real captures
(tests/captures/, each with its source) the way a user builds one from a forum post."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.cli.main import main as cli_main
from sbctune.inventory.bundle import write_bundle
from sbctune.inventory.model import Inventory, Nic
from sbctune.resources import resource_root
from tests.lab_profiles import served_bundle

PROFILES = Path(str(resource_root())) / "lab" / "profiles"
CAPTURES = Path(__file__).resolve().parents[1] / "captures"


def capture(rel: str) -> str:
    return (CAPTURES / rel).read_text(encoding="utf-8")


def make_bundle(
    tmp_path: Path,
    commands: dict[str, str],
    files: dict[str, str] | None = None,
    zipped: bool = False,
) -> Path:
    dest = tmp_path / ("bundle.zip" if zipped else "bundle")
    return write_bundle(dest, "forum-post", commands, files or {})


def only_nic(inventory: Inventory, **match: Any) -> Nic:
    found = [n for n in inventory.nics if all(getattr(n, k) == v for k, v in match.items())]
    assert len(found) == 1, [vars(n) for n in inventory.nics]
    return found[0]


def finding_ids(inventory: Inventory) -> set[str]:
    return {f.id for f in inventory.findings}


def test_pi4_ax88179_profile() -> None:
    inv = inspect_bundle(PROFILES / "pi4-ax88179")
    nic = only_nic(inv, name="eth1")
    assert (nic.chip, nic.driver, nic.bus, nic.usb_speed_mbps) == (
        "ASIX AX88179/AX88179A",
        "ax88179_178a",
        "usb",
        5000,
    )
    assert nic.irqs == [46]
    assert {"chip-slow-transmit", "irq-on-cpu0"} <= finding_ids(inv)
    top = inv.recommendations[0]
    assert top.kind == "adapter" and "RTL8153" in top.title
    # The seed write-up is cited in words (a public post), never by its internal file name.
    assert any("AX88179 vs Realtek RTL8153" in s for s in top.sources)
    assert not any(".txt" in s for r in inv.recommendations for s in r.sources)


def test_pi1b_smsc95xx_profile() -> None:
    inv = inspect_bundle(PROFILES / "pi1b-smsc95xx")
    nic = only_nic(inv, name="eth0")
    assert (nic.driver, nic.bus, nic.usb_speed_mbps, nic.link_speed_mbps, nic.duplex) == (
        "smsc95xx",
        "usb",
        480,
        100,
        "full",
    )
    assert nic.builtin
    assert "builtin-nic-on-usb2" in finding_ids(inv)
    assert any(r.kind == "board" for r in inv.recommendations)


def test_cm4_i340_profile_has_four_unbound_82580s(tmp_path: Path) -> None:
    # seed 004: the lab serves the four functions without a sysfs driver link (SOURCE.md)
    inv = inspect_bundle(served_bundle(tmp_path, "cm4-i340-nodriver"))
    unbound = [n for n in inv.nics if n.bus == "pci" and n.driver is None]
    assert len(unbound) == 4
    assert all(n.chip and "82580" in n.chip for n in unbound)
    assert [f.id for f in inv.findings].count("no-driver") == 4
    finding = next(f for f in inv.findings if f.id == "no-driver")
    # the user sees the listing and the missing link that proves it
    assert finding.evidence[0].startswith("lspci: 01:00.0 Ethernet controller: Intel")
    link = "/sys/bus/pci/devices/0000:01:00.0/driver"
    assert finding.evidence[-1].startswith(f"sysfs pci: {link}: no ")
    (driver_rec,) = [r for r in inv.recommendations if r.kind == "driver"]
    assert "igb" in driver_rec.title


def test_cm4_i340_captures_alone_do_not_show_the_driver() -> None:
    # plain lspci and ten BAR lines picked from 0.98 s: an excerpt says nothing of drivers
    inv = inspect_bundle(PROFILES / "cm4-i340-nodriver")
    assert [n.driver_state for n in inv.nics if n.bus == "pci"] == ["unknown"] * 4
    assert [f.id for f in inv.findings].count("driver-unknown") == 4
    assert "no-driver" not in [f.id for f in inv.findings]


def test_every_shipped_profile_inspects_without_warnings_or_crash() -> None:
    for profile in sorted(PROFILES.iterdir()):
        inv = inspect_bundle(profile)
        assert inv.warnings == [], (profile.name, inv.warnings)


def test_forum_bundle_pi5_with_two_rtl8125_and_rp1(tmp_path: Path) -> None:
    # Plain `lspci` from a Pi 5 with a dual 2.5G HAT: RP1 is the built-in NIC's path, not a
    # NIC; without -k the outputs cannot say whether r8169 is bound.
    bundle = make_bundle(
        tmp_path,
        {
            "lspci": capture("lspci/pi5_radxa_dual_25g_hat_647.txt"),
            "lsusb -t": capture("lsusb_t/pi5_sbc_reviews_21.txt"),
        },
    )
    inv = inspect_bundle(bundle)
    rtl = [n for n in inv.nics if n.chip and "RTL8125" in n.chip]
    assert [n.bus_path for n in rtl] == ["0000:05:00.0", "0000:06:00.0"]
    assert not any(n.bus_path == "0001:01:00.0" for n in inv.nics), "RP1 is not an add-in NIC"
    assert "no-driver" not in finding_ids(inv)
    assert "driver-unknown" in finding_ids(inv)


def test_forum_bundle_pi1_from_seed_pastes_zip(tmp_path: Path) -> None:
    bundle = make_bundle(
        tmp_path,
        {
            "lsusb -t": capture("lsusb_t/seed001_pi1_smsc95xx.txt"),
            "sudo ethtool eth0": capture("ethtool/seed001_pi1_smsc95xx.txt"),
            "ifconfig eth0": capture("ifconfig/seed001_pi1_old_format.txt"),
        },
        zipped=True,
    )
    nic = only_nic(inspect_bundle(bundle), name="eth0")
    assert (nic.driver, nic.usb_speed_mbps, nic.link_speed_mbps) == ("smsc95xx", 480, 100)


def test_under_voltage_is_a_problem_with_a_power_recommendation(tmp_path: Path) -> None:
    bundle = make_bundle(
        tmp_path,
        {
            "vcgencmd get_throttled": capture("vcgencmd/get_throttled_0x50005_firmware_615.txt"),
            "lsusb -t": capture("lsusb_t/seed000_pi4_ax88179.txt"),
        },
    )
    inv = inspect_bundle(bundle)
    assert inv.board.throttled is not None and inv.board.throttled.under_voltage
    power = [f for f in inv.findings if f.id in ("under-voltage", "power-or-thermal")]
    assert power and power[0].severity == "problem" and "throttled=0x50005" in power[0].evidence
    assert any(r.kind == "power" for r in inv.recommendations)


def test_json_has_contract_2_keys(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["inspect", str(PROFILES / "pi4-ax88179"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"model", "soc", "kernel", "os", "cpu_cores", "throttled"} <= set(data["board"])
    nic_keys = {
        "name",
        "driver",
        "driver_version",
        "bus",
        "chip",
        "ids",
        "usb_speed_mbps",
        "pcie",
        "link_speed_mbps",
        "duplex",
        "builtin",
        "irqs",
    }
    assert data["nics"] and all(nic_keys <= set(n) for n in data["nics"])
    assert all({"id", "severity", "nic", "summary", "evidence"} <= set(f) for f in data["findings"])
    assert all(f["severity"] in ("info", "warning", "problem") for f in data["findings"])
    assert all(
        {"kind", "nic", "title", "detail", "expected_gain", "sources"} <= set(r)
        for r in data["recommendations"]
    )


def test_readable_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["inspect", str(PROFILES / "pi4-ax88179")]) == 0
    out = capsys.readouterr().out
    assert "ASIX AX88179" in out and "USB 3.0 (5000 Mbit/s)" in out and "Recommendations" in out


_COMMANDS = [
    "lsusb",
    "lsusb -t",
    "lspci -nnk",
    "lspci -vv",
    "ethtool eth0",
    "ethtool -i eth0",
    "dmesg",
    "ip -j addr",
    "ifconfig",
    "vcgencmd get_throttled",
]
_FILES = ["/proc/interrupts", "/proc/cpuinfo", "/proc/device-tree/model", "/etc/os-release"]


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    commands=st.dictionaries(st.sampled_from(_COMMANDS), st.text(max_size=400), max_size=6),
    files=st.dictionaries(st.sampled_from(_FILES), st.text(max_size=400), max_size=3),
)
def test_garbage_bundles_never_crash(
    tmp_path_factory: pytest.TempPathFactory, commands: dict[str, str], files: dict[str, str]
) -> None:
    bundle = write_bundle(tmp_path_factory.mktemp("g") / "b", "junk", commands, files)
    inv = inspect_bundle(bundle)
    json.dumps(inv.to_json())
