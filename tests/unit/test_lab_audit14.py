"""Audit 14 (driver_caps_audit14.md): what the kernel's ethtool core checks before a driver is
called, and what Debian's ethtool 1:6.1-1 then prints and exits with (the real binary, measured
on a veth and lo in a scratch namespace; net/ethtool/*.c of Debian's 6.1 and 6.12)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fake_ethtool_support import ethtool, lab_state, root

EOPNOTSUPP, EINVAL = "netlink error: Operation not supported", "netlink error: Invalid argument"
WITH_RINGS = [("macb", "RP1"), ("igb", "I350"), ("r8152", "RTL8153"), ("stmmac", "RK3568")]


@root
@pytest.mark.parametrize(("driver", "chip"), [("igb", "I350"), ("stmmac", "RK3568")])
def test_a_refused_channel_change_exits_1_as_ethtool_6_1_does(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """Row 1: ethtool 6.1's nl_schannels returns `exit_code ?: 1`; the lab exited 76."""
    out, err, code = ethtool(lab_state(tmp_path, driver, chip), "-L", "eth0", "combined", "99")
    assert (out, err[-1], code) == ("", EINVAL, 1)
    assert err[0] == "netlink error: requested channel count exceeds maximum (offset 36)"


@root
def test_a_channel_change_on_a_driver_without_the_ops_exits_1(tmp_path: Path) -> None:
    result = ethtool(lab_state(tmp_path, "bcmgenet"), "-L", "eth0", "rx", "2")
    assert result == ("", [EOPNOTSUPP], 1)


@root
@pytest.mark.parametrize(("driver", "chip"), WITH_RINGS)
@pytest.mark.parametrize(
    ("args", "extack"),
    [
        (["rx-buf-len", "2048"], "setting rx buf len not supported (offset 36)"),
        (["cqe-size", "128"], "setting cqe size not supported (offset 36)"),
        (["rx", "256", "tx-push", "on"], "setting tx push not supported (offset 44)"),
        # the kernel checks rx-buf-len first, wherever it stands on the line
        (["cqe-size", "128", "rx-buf-len", "5"], "setting rx buf len not supported (offset 44)"),
    ],
)
def test_ring_parameters_no_driver_supports_are_the_cores_refusal(
    tmp_path: Path, driver: str, chip: str, args: list[str], extack: str
) -> None:
    """Row 2: ethtool 6.1 knows rx-buf-len, cqe-size and tx-push; ethnl_set_rings refuses each
    where supported_ring_params lacks it (none of the 13 sets any). The lab said "unknown
    parameter" (exit 1) and never reached the kernel's answer."""
    before = ethtool(lab_state(tmp_path, driver, chip), "-g", "eth0")[0]
    path = lab_state(tmp_path, driver, chip)
    assert ethtool(path, "-G", "eth0", *args) == ("", [f"netlink error: {extack}", EOPNOTSUPP], 81)
    assert ethtool(path, "-g", "eth0")[0] == before  # nothing reached the driver


@root
@pytest.mark.parametrize(("series", "extack"), [("6.1", None), ("6.12", "setting tx push")])
def test_without_ring_ops_6_12_checks_the_parameters_first(
    tmp_path: Path, series: str, extack: str | None
) -> None:
    """6.1's ethnl_set_rings asks for the ring ops first; 6.12's ethnl_set_rings_validate checks
    the parameters before them (as Linux 6.18 answered on a veth: the extack, no ring ops)."""
    path = lab_state(tmp_path, "bcmgenet", "", series)
    out, err, code = ethtool(path, "-G", "eth0", "tx-push", "on")
    assert (out, err[-1], code) == ("", EOPNOTSUPP, 81)
    assert (extack in err[0]) if extack else err == [EOPNOTSUPP]


@root
@pytest.mark.parametrize(
    ("driver", "chip"), [("bcmgenet", ""), ("r8152", "RTL8153"), ("igb", "I350"), ("r8169", "")]
)
def test_cqe_mode_is_a_coalescing_parameter_no_driver_supports(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """Row 2's -C side: ethtool 6.1 sends cqe-mode-rx/tx; no driver of the table has
    ETHTOOL_COALESCE_USE_CQE_*, so ethnl_set_coalesce refuses them (EINVAL, extack)."""
    result = ethtool(lab_state(tmp_path, driver, chip), "-C", "eth0", "cqe-mode-rx", "on")
    extack = "netlink error: cannot modify an unsupported parameter (offset 36)"
    assert result == ("", [extack, EINVAL], 1)


@root
@pytest.mark.parametrize("series", ["6.1", "6.12"])
def test_the_rtl8125s_coalescing_refusal_comes_after_the_cores_check(
    tmp_path: Path, series: str
) -> None:
    """Row 3: r8169 has get/set_coalesce for every chip; only rtl_get_coalesce refuses the
    RTL8125 (EOPNOTSUPP). ethnl_set_coalesce checks supported_coalesce_params (USECS |
    MAX_FRAMES) before asking the driver, so an unsupported parameter is EINVAL with the
    extack. The lab answered EOPNOTSUPP for everything."""
    path = lab_state(tmp_path, "r8169", "RTL8125B", series)
    extack = "netlink error: cannot modify an unsupported parameter (offset 36)"
    assert ethtool(path, "-C", "eth0", "adaptive-rx", "on") == ("", [extack, EINVAL], 1)
    assert ethtool(path, "-C", "eth0", "rx-usecs", "50") == ("", [EOPNOTSUPP], 1)
    assert ethtool(path, "-c", "eth0") == ("", [EOPNOTSUPP], 1)


@root
@pytest.mark.parametrize(
    ("args", "offset"),
    [
        (["foo", "on"], 56),  # "v0" measured 52: the name is 4 bytes longer padded
        (["rx-gro-hw", "on", "foo", "on"], 80),  # measured 76 on "v0"
        (["rx-gro-hw", "off", "foo", "on"], 76),  # measured 72 on "v0": no VALUE flag
        (["ntuple", "on", "foo", "on"], 88),  # legacy name sent as rx-ntuple-filter (84)
    ],
)
def test_an_unknown_feature_name_says_where_it_stands(
    tmp_path: Path, args: list[str], offset: int
) -> None:
    """Row 4: ethnl_parse_bit's "bit name not found" points at the name (NL_SET_ERR_MSG_ATTR);
    ethtool 6.1 prints the offset, the lab printed none."""
    result = ethtool(lab_state(tmp_path, "bcmgenet"), "-K", "eth0", *args)
    assert result == ("", [f"netlink error: bit name not found (offset {offset})", EOPNOTSUPP], 92)
