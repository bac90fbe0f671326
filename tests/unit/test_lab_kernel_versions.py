"""The lab answers as the profile's kernel series does where the drivers differ by version
(issue 21): lan78xx's EEE is off on 6.1 (only lan78xx_set_eee sets the MAC's EEE bit) and on by
default on 6.12 (lan78xx_phy_init: phy_support_eee; lan78xx_link_status_change turns the MAC's
EEE on after a link that negotiated it). A profile says its kernel in ``[lab] kernel``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab import ProfileError, fake_ethtool, load_profile
from sbctune.lab.ethtool_state import build_state, interface_state
from tests.lab_profiles import profile_copy

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")


def pi3bplus(tmp_path: Path, kernel: str | None) -> Path:
    """The shipped Pi 3 B+ profile, saying the kernel it runs where given."""
    return profile_copy(tmp_path, "pi3bplus-lan78xx", f"pi3bplus-{kernel or 'any'}", kernel=kernel)


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
    on_61 = show_eee(tmp_path, "6.1.0-13-arm64")  # Debian's 6.1: off until --set-eee
    assert "\tEEE status: disabled\n" in on_61 and "\tTx LPI: disabled\n" in on_61


def test_a_pi3bplus_on_the_raspberry_pi_tree_starts_with_eee_on(tmp_path: Path) -> None:
    """Audit 7a row 7: the Raspberry Pi tree's lan78xx_phy_init turns EEE on at probe (Tx LPI,
    600 us, 100/1000 advertised) where the Pi 3 B+'s device tree says microchip,eee-enabled.
    Before, a Raspberry Pi OS 6.1 kernel (and a profile naming none) showed Debian's "disabled"."""
    rpi_61 = show_eee(tmp_path, "6.1.0-rpi7-rpi-v8")
    assert "\tEEE status: enabled - inactive\n" in rpi_61 and "\tTx LPI: 600 (us)\n" in rpi_61
    assert "\tAdvertised EEE link modes:  100baseT/Full\n" in rpi_61  # netlink: no space (audit 42)
    assert show_eee(tmp_path, None) == rpi_61  # no kernel said: the tree a Pi 3 B+ runs may hold


def test_a_profiles_kernel_must_look_like_a_release(tmp_path: Path) -> None:
    assert load_profile(pi3bplus(tmp_path, "6.12.47+rpt-rpi-v8")).kernel == "6.12.47+rpt-rpi-v8"
    with pytest.raises(ProfileError, match="kernel must be a release"):
        load_profile(pi3bplus(tmp_path / "bad", "$(reboot)"))


def show_eee_of(tmp_path: Path, driver: str, kernel: str) -> str:
    """``ethtool --show-eee`` of a lab NIC of `driver` on a kernel of that release."""
    empty = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
    state = {
        "schema": 1,
        "interfaces": {"eth0": interface_state(driver, empty, "eth0", "", kernel)},
    }
    path = tmp_path / f"{driver}-{kernel or 'any'}.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    result = fake_ethtool.run(["--show-eee", "eth0"], str(path))
    assert result is not None and result[2] == 0, result
    return result[0]


# stmmac_init_phy calls it only for a PHY found by address (no phy-handle), which a lab model
# must say (audit 30 row 1: tests/unit/test_lab_audit30.py)
@pytest.mark.parametrize("driver", ["bcmgenet", "r8169"])
def test_phylib_turns_eee_on_by_default_on_612(tmp_path: Path, driver: str) -> None:
    """6.12: bcmgenet_mii_probe and r8169_mdio_register call phy_support_eee (eee_enabled and
    tx_lpi_enabled set), read back by phy_ethtool_get_eee."""
    shown = show_eee_of(tmp_path, driver, "6.12.78+rpt-rpi-v8")  # bcmgenet: from 6.12.78 (audit 26)
    assert "\tEEE status: enabled" in shown and "\tTx LPI: disabled\n" not in shown


def test_r8169_on_61_advertises_eee_without_tx_lpi(tmp_path: Path) -> None:
    """6.1: rtl8169_init_phy -> rtl_enable_eee writes the advertisement (enabled); nothing sets
    tx_lpi_enabled, and phy_ethtool_get_eee does not read it: Tx LPI disabled."""
    shown = show_eee_of(tmp_path, "r8169", "6.1.0-rpi7-rpi-v8")
    assert "\tEEE status: enabled" in shown and "\tTx LPI: disabled\n" in shown


def test_a_default_of_one_series_is_not_claimed_for_an_unknown_kernel(tmp_path: Path) -> None:
    """bcmgenet on 6.1 reads 'enabled' from the PHY's register (not in the source): with no
    kernel said, the lab keeps its model's EEE (off) rather than 6.12's default."""
    assert "\tEEE status: disabled\n" in show_eee_of(tmp_path, "bcmgenet", "")


def test_an_interfaces_mac_clock_must_be_megahertz(tmp_path: Path) -> None:
    """[[interface]] mac_clock_mhz: the board's MAC clock (stmmac counts rx-usecs in its
    cycles); a clock that is not a number of MHz is refused with the profile's words."""
    folder = pi3bplus(tmp_path, None)
    toml = folder / "lab.toml"
    text = toml.read_text(encoding="utf-8")
    good = text.replace("[[interface]]\n", "[[interface]]\nmac_clock_mhz = 250\n", 1)
    toml.write_text(good, encoding="utf-8")
    assert load_profile(folder).interfaces[0].mac_clock_mhz == 250
    toml.write_text(good.replace("mac_clock_mhz = 250", 'mac_clock_mhz = "fast"'), encoding="utf-8")
    with pytest.raises(ProfileError, match="mac_clock_mhz must be"):
        load_profile(folder)
