"""A chip variant comes from a model the lines show (networkctl's Model:, lshw's product:),
never from a firmware file's name: r8152's "load rtl8153a-4 v2 ..." names the firmware
rtl8153a-4 (its -4 is the file's version), and the chip stayed "(RTL8153A-4)" in the lab's
pi4-rtl8153 (seed 000's real dmesg) until this rule was kept to models."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle

ROOT = Path(__file__).resolve().parents[2]


def test_a_firmware_name_is_not_a_chip_variant() -> None:
    profile = ROOT / "resources/lab/profiles/pi4-rtl8153"
    assert "load rtl8153a-4" in (profile / "commands/001-dmesg.txt").read_text(encoding="utf-8")
    inventory = inspect_bundle(profile)
    nic = inventory.nic("eth1")
    assert nic is not None and nic.chip == "Realtek RTL8153/RTL8153B"


def test_a_shown_model_still_names_its_variant() -> None:
    """corpus9's networkctl paste: Model "Ethernet Controller I226-LM" keeps I226-LM."""
    bundles = sorted((ROOT / "tests/captures/corpus").glob("*networkctl*"))
    chips = [n.chip or "" for b in bundles for n in inspect_bundle(b).nics]
    assert any("(I226-LM)" in c for c in chips), chips
