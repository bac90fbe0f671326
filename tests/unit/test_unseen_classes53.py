"""The fifty-third unseen set's classes (precise time and real-time networks): what the user sees
of a NIC that only `ethtool -T`, linuxptp's own lines or a Pi kernel's release name show. Each
test uses the real paste's lines (tests/captures/corpus/ptp53_*, their SOURCE.md)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.dispatch import parse_command, resolve_command
from sbctune.inventory.parsers.ethtool_tsinfo import parse_ethtool_tsinfo, parse_tsinfo
from sbctune.inventory.report import timestamping_words

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def _bundle(tmp_path: Path, commands: dict[str, str]) -> Path:
    files = {}
    for i, (cmd, text) in enumerate(commands.items()):
        (tmp_path / f"{i}.txt").write_text(text, encoding="utf-8")
        files[cmd] = f"{i}.txt"
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "2026-12-01T00:00:00Z",
                "host": "", "commands": files, "files": {}, "exit_codes": {}}  # fmt: skip
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp_path


# raspberrypi/linux#5947 (a CM4): ethtool's ioctl form, a prompt line kept
CM4_T = (
    "# ethtool -T eth0\n"
    "Time stamping parameters for eth0:\n"
    "Capabilities:\n"
    "\thardware-transmit     (SOF_TIMESTAMPING_TX_HARDWARE)\n"
    "\thardware-receive      (SOF_TIMESTAMPING_RX_HARDWARE)\n"
    "\thardware-raw-clock    (SOF_TIMESTAMPING_RAW_HARDWARE)\n"
    "PTP Hardware Clock: 0\n"
    "Hardware Transmit Timestamp Modes:\n"
    "\toff                   (HWTSTAMP_TX_OFF)\n"
    "\ton                    (HWTSTAMP_TX_ON)\n"
    "\tone-step-sync         (HWTSTAMP_TX_ONESTEP_SYNC)\n"
    "Hardware Receive Filter Modes:\n"
    "\tnone                  (HWTSTAMP_FILTER_NONE)\n"
    "\tptpv2-event           (HWTSTAMP_FILTER_PTP_V2_EVENT)\n"
)
# nxp-archive/openil_linuxptp#46: the forum lost the indentation, "none" on the heading lines
PC_T = (
    "Time stamping parameters for enp3s0:\n"
    "Capabilities:\n"
    "software-transmit     (SOF_TIMESTAMPING_TX_SOFTWARE)\n"
    "software-receive      (SOF_TIMESTAMPING_RX_SOFTWARE)\n"
    "software-system-clock (SOF_TIMESTAMPING_SOFTWARE)\n"
    "PTP Hardware Clock: none\n"
    "Hardware Transmit Timestamp Modes: none\n"
    "Hardware Receive Filter Modes: none\n"
)


def test_ethtool_T_alone_shows_the_nic_and_what_it_can_timestamp(tmp_path: Path) -> None:
    """A CM4's `ethtool -T eth0` is the paste's only output: the NIC is there, with its PHC."""
    inv = inspect_bundle(_bundle(tmp_path, {"ethtool -T eth0": CM4_T}))
    [nic] = inv.nics
    assert nic.name == "eth0"
    assert nic.timestamping is not None
    assert nic.timestamping["phc"] == 0
    assert nic.timestamping["hardware_transmit"] is True
    assert nic.timestamping["tx_modes"] == ["off", "on", "one-step-sync"]
    assert timestamping_words(nic.timestamping) == "hardware timestamps, PHC /dev/ptp0"
    assert not any(f.id == "no-driver" for f in inv.findings)  # -T says nothing of a driver


def test_ethtool_T_unindented_software_only(tmp_path: Path) -> None:
    inv = inspect_bundle(_bundle(tmp_path, {"sudo ethtool --show-time-stamping enp3s0": PC_T}))
    [nic] = inv.nics
    assert nic.name == "enp3s0"
    assert nic.timestamping is not None and nic.timestamping["phc"] is None
    assert timestamping_words(nic.timestamping) == "software timestamps only, no PHC"


def test_ethtool_T_is_its_own_parser() -> None:
    assert resolve_command("ethtool -T eth0") == ("ethtool -T", "eth0")
    assert resolve_command("ethtool --show-time-stamping end0") == ("ethtool -T", "end0")
    parsed = parse_command("ethtool -T eth0", CM4_T)
    assert parsed.parser == "ethtool -T" and parsed.interface == "eth0"
    info = parse_tsinfo(PC_T)
    assert info.interface == "enp3s0" and info.phc_shown and info.tx_modes == ()
    assert info.capabilities == ("software-transmit", "software-receive", "software-system-clock")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=400))
def test_ethtool_T_parser_never_raises(text: str) -> None:
    info, _ = parse_ethtool_tsinfo(text)
    assert info.interface is None or len(info.interface) <= 15


def test_pi5_kernel_flavour_names_its_soc(tmp_path: Path) -> None:
    """raspberrypi/linux#5904: "6.6.13-v8-16k+" is bcm2712_defconfig's build (the Pi 5's)."""
    uname = (
        "Linux helios 6.6.13-v8-16k+ #1724 SMP PREEMPT Mon Jan 22 13:14:14 GMT 2024 aarch64 "
        "GNU/Linux\n"
    )
    inv = inspect_bundle(_bundle(tmp_path, {"uname -a": uname}))
    assert inv.board.soc == "BCM2712"
