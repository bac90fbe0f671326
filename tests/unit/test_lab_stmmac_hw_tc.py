"""stmmac's ``hw-tc-offload`` on a GMAC4 core (issue 21, driver_caps_audit7b.md row 7).

stmmac_dvr_probe (6.1 and 6.12): ``ret = stmmac_tc_init(priv, priv); if (!ret)
ndev->hw_features |= NETIF_F_HW_TC;``. tc_init (stmmac_tc.c) returns 0 on every core whose hwif
entry has tc ops (dwmac4 4.00/4.10/5.10: dwmac510_tc_ops), so the feature is off but
changeable; the 3.x GMAC entry has ``.tc = NULL`` and it stays "off [fixed]". Rockchip's
RK3568/RK3566 (rk356x.dtsi, both series) and RK3588 (rk3588-base.dtsi, 6.12) declare
"snps,dwmac-4.20a" (stmmac_probe_config_dt: has_gmac4); the RK3328 and Amlogic's 3.70a do not.
"""

from __future__ import annotations

import pytest

from sbctune.lab import load_profile
from sbctune.lab.ethtool_state import interface_state

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing


def _tc(chip: str) -> tuple[bool | None, bool]:
    state = interface_state("stmmac", EMPTY, "eth0", chip, "")
    features = state["features"]
    fixed = features["fixed"].get("hw-tc-offload")
    wanted = bool(features.get("wanted", {}).get("hw-tc-offload", False))
    return fixed, wanted


@pytest.mark.parametrize("chip", ["RK3588", "RK3568", "RK3566"])
def test_a_gmac4_core_can_turn_hw_tc_offload_on(chip: str) -> None:
    fixed, wanted = _tc(chip)
    assert fixed is None and wanted is False  # "hw-tc-offload: off", not "[fixed]"


@pytest.mark.parametrize("chip", ["RK3328", "meson-g12a", ""])
def test_a_3x_gmac_or_an_unknown_core_keeps_it_fixed(chip: str) -> None:
    fixed, wanted = _tc(chip)
    assert fixed is False and wanted is False
