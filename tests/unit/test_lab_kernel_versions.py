"""The lab answers as the profile's kernel series does where the drivers differ by version
(issue 21): lan78xx's EEE is off on 6.1 (only lan78xx_set_eee sets the MAC's EEE bit) and on by
default on 6.12 (lan78xx_phy_init: phy_support_eee; lan78xx_link_status_change turns the MAC's
EEE on after a link that negotiated it). A profile says its kernel in ``[lab] kernel``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from sbctune.lab import ProfileError, fake_ethtool, load_profile
from sbctune.lab.ethtool_state import build_state
from sbctune.lab.profile import find_profile

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")


def pi3bplus(tmp_path: Path, kernel: str | None) -> Path:
    """The shipped Pi 3 B+ profile, saying the kernel it runs where given."""
    folder = tmp_path / f"pi3bplus-{kernel or 'any'}"
    shutil.copytree(find_profile("pi3bplus-lan78xx"), folder)
    toml = folder / "lab.toml"
    text = toml.read_text(encoding="utf-8")
    if kernel is not None:
        text = text.replace("[lab]\n", f'[lab]\nkernel = "{kernel}"\n', 1)
    toml.write_text(text, encoding="utf-8")
    return folder


def show_eee(tmp_path: Path, kernel: str | None) -> str:
    state = build_state(load_profile(pi3bplus(tmp_path, kernel)))
    path = tmp_path / f"state-{kernel}.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    result = fake_ethtool.run(["--show-eee", "eth0"], str(path))
    assert result is not None and result[2] == 0, result
    return result[0]


def test_lan78xx_eee_is_on_by_default_on_612_and_off_on_61(tmp_path: Path) -> None:
    on_612 = show_eee(tmp_path, "6.12.47+rpt-rpi-v8")
    # enabled by phylib, inactive: the lab's link partner claims no EEE mode, so the MAC's
    # EEE stays off and lan78xx_get_eee reads its LPI timer as 0
    assert "\tEEE status: enabled - inactive\n" in on_612
    assert "\tTx LPI: 0 (us)\n" in on_612
    on_61 = show_eee(tmp_path, "6.1.0-rpi7-rpi-v8")
    assert "\tEEE status: disabled\n" in on_61 and "\tTx LPI: disabled\n" in on_61
    assert show_eee(tmp_path, None) == on_61  # no kernel said: the lab stays as before


def test_a_profiles_kernel_must_look_like_a_release(tmp_path: Path) -> None:
    assert load_profile(pi3bplus(tmp_path, "6.12.47+rpt-rpi-v8")).kernel == "6.12.47+rpt-rpi-v8"
    with pytest.raises(ProfileError, match="kernel must be a release"):
        load_profile(pi3bplus(tmp_path / "bad", "$(reboot)"))
