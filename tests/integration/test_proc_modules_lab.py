"""`inspect` over SSH reads the modules loaded (/proc/modules), so "the driver is not loaded"
works on a live Pi as it does on a bundle's `lsmod` (tests/unit/test_known_gaps19.py). The lab
Pi here is pi5-macb with a real OnePlus 3T's `lsusb` (a TL-WN722N's AR9271) and `lsmod` (ath9k
and its libraries, not ath9k_htc) from kali-nethunter issue 1017 (the corpus bundle's
SOURCE.md); the lab serves that `lsmod` as its /proc/modules (sbctune.lab.proc_modules)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.lab.model import LabInfo
from tests.lab_support import connect_to_lab

pytestmark = [pytest.mark.lab]

CORPUS = Path(__file__).parents[1] / "captures" / "corpus"
ONEPLUS = (
    CORPUS / "oneplus3t_nethunter_1017_uname_proc_version_lsusb_ar9271_lsmod_ath9k_without_htc"
)


def _pi5_with_the_dongle(tmp_path: Path) -> Path:
    from sbctune.lab.profile import find_profile

    copy = tmp_path / "pi5-ar9271"
    shutil.copytree(find_profile("pi5-macb"), copy)
    (copy / "commands").mkdir(exist_ok=True)
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    for name, line in (("002-lsusb.txt", "lsusb"), ("003-lsmod.txt", "lsmod")):
        shutil.copyfile(ONEPLUS / "commands" / name, copy / "commands" / name)
        manifest["commands"][line] = f"commands/{name}"
        manifest["exit_codes"][line] = 0
    (copy / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    return copy


async def test_a_live_inspect_says_the_dongles_driver_is_not_loaded(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    lab = lab_factory(str(_pi5_with_the_dongle(tmp_path)))
    async with await connect_to_lab(lab, tmp_path) as session:
        inventory, collection = await inspect_host(session)
    # The lab shows the profile's list, never this host's: as /proc/modules where this host's
    # kernel has one to mount over (a kernel without module support, as this VM's, has none),
    # and as `lsmod` (the capture), which inspect reads beside it.
    lists = [collection.commands.get("lsmod", ""), collection.files.get("/proc/modules", "")]
    assert "ath9k_hw              437928  2 ath9k_common,ath9k" in lists[0]
    if Path("/proc/modules").is_file():
        assert "ath9k_hw 437928 2 ath9k_common,ath9k, Live" in lists[1]
    assert "lsmod" not in inventory.missing_tools
    (dongle,) = [nic for nic in inventory.nics if nic.ids == "0cf3:9271"]
    assert (dongle.driver, dongle.driver_state) == (None, "none"), dongle.evidence
    assert any(": the driver whose ID table lists 0cf3:9271 is not loaded" in e
               and "ath9k_htc" in e for e in dongle.evidence), dongle.evidence  # fmt: skip
