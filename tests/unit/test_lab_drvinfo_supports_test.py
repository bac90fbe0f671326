"""``ethtool -i``'s supports-test line for asix follows the chip's ops table (issue 21,
driver_caps_audit7b.md row 1).

net/ethtool/ioctl.c ethtool_get_drvinfo sets testinfo_len from the driver's
get_sset_count(ETH_SS_TEST), and ethtool prints "supports-test: yes" only where that count is
above 0. asix has four ethtool_ops tables (asix_devices.c, ax88172a.c): only
ax88772_ethtool_ops has get_sset_count (ax88772_ethtool_get_sset_count: net_selftest_get_count),
so an AX88772/AX88772B says yes and an AX88172, AX88172A or AX88178 says no. The lab answered
yes for every chip (the table's ops are the union of the four tables).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@pytest.mark.parametrize(
    ("chip", "shown"),
    [("AX88178", "no"), ("AX88172", "no"), ("AX88172A", "no"), ("AX88772B", "yes"),
     ("AX88772", "yes")],
)  # fmt: skip
def test_asix_supports_test_is_the_bound_chips(tmp_path: Path, chip: str, shown: str) -> None:
    iface = interface_state("asix", EMPTY, "eth0", chip, "")
    path = tmp_path / "asix.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    result = fake_ethtool.run(["-i", "eth0"], str(path))
    assert result is not None and result[2] == 0
    assert f"supports-test: {shown}" in result[0].splitlines()


def test_stmmac_supports_no_test_without_its_selftests_config() -> None:
    """stmmac_get_sset_count(ETH_SS_TEST) is stmmac_selftest_get_count, the stmmac.h stub
    (-EOPNOTSUPP) unless CONFIG_STMMAC_SELFTESTS (Kconfig: default n); Debian's configs
    (linux-config-6.1 6.1.192-3, linux-config-6.12 6.12.117-1~deb12u1) leave it unset, and a
    real `ethtool -i` of an st_gmac says "supports-test: no"
    (tests/captures/ethtool_i/k1max_creality_k1debian_1_st_gmac_ethtool_i_no_bus_info.txt)."""
    from sbctune.lab.ethtool_table import driver_info

    assert driver_info("stmmac", "", "RK3588")["test"] is False
    assert driver_info("igb", "", "82580")["test"] is True  # igb_diag_test: a count of its own
