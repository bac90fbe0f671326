"""The lab's power knobs: lab.toml [power], and the files the knobs tree serves."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

from sbctune.lab import ProfileError, load_profile
from sbctune.lab.knobs_fs import build_tree
from sbctune.lab.power import PowerValueError, parse_throttled, set_power
from tests.unit.test_advice_seeds import PROFILES


def test_throttled_values_are_the_firmwares_bits_only() -> None:
    assert parse_throttled("0x50005") == 0x50005
    assert parse_throttled("80008") == 0x80008
    assert parse_throttled(0) == 0
    for bad in ("0x100", True, "zz", -1, 1.5):
        with pytest.raises(PowerValueError):
            parse_throttled(bad)


def _profile(tmp_path: Path, power: str) -> Path:
    copy = tmp_path / "pi4-power"
    shutil.copytree(PROFILES / "pi4-ax88179", copy)
    with open(copy / "lab.toml", "a", encoding="utf-8") as fh:
        fh.write("\n[power]\n" + power)
    return copy


def test_profile_power_table(tmp_path: Path) -> None:
    profile = load_profile(_profile(tmp_path, 'throttled = "0x50005"\ntemp_c = 83.5\n'))
    assert profile.power.get_throttled_text() == "50005\n"
    assert profile.power.temp_text() == "83500\n"
    assert load_profile(PROFILES / "pi4-ax88179").power.get_throttled_text() == "0\n"


def test_profile_power_table_refuses_unreal_values(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="bits the firmware does not define"):
        load_profile(_profile(tmp_path, 'throttled = "0x100"\n'))


def _tree(tmp_path: Path) -> object:
    return build_tree(
        {
            "cpus": 4,
            "governors": ["ondemand"],
            "governor": "ondemand",
            "min_khz": 600000,
            "max_khz": 1500000,
            "power_state": str(tmp_path / "power.json"),
        }
    )


def test_knob_files_follow_the_state_file_live(tmp_path: Path) -> None:
    tree = _tree(tmp_path)
    throttled = tree.lookup("power/firmware/get_throttled")  # type: ignore[attr-defined]
    temp = tree.lookup("power/thermal_zone0/temp")  # type: ignore[attr-defined]
    assert throttled.read() == "0\n" and throttled.write is None  # read-only, as on a Pi
    with pytest.raises(OSError) as no_sensor:
        temp.read()
    assert no_sensor.value.errno == errno.ENODATA
    set_power(tmp_path, throttled="0x50005", temp_c=82.25)
    assert throttled.read() == "50005\n" and temp.read() == "82250\n"
    set_power(tmp_path, throttled=0)
    assert throttled.read() == "0\n" and temp.read() == "82250\n"
