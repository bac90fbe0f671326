"""Audit 14 (driver_caps_audit14.md): what the kernel's ethtool core checks before a driver is
called, and what Debian's ethtool 1:6.1-1 then prints and exits with (the real binary, measured
on a veth and lo in a scratch namespace; net/ethtool/*.c of Debian's 6.1 and 6.12)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.lab.fake_ethtool_base import Failure
from tests.fake_ethtool_support import ethtool, lab_state, root

# every test drives the lab's fake ethtool, which locks its state with fcntl
pytestmark = pytest.mark.posix_only(
    "the lab's fake ethtool (Linux-only lab) locks its state with fcntl"
)
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


def _advertised(path: str) -> list[str]:
    """The modes `ethtool --show-eee eth0` lists as advertised."""
    out = ethtool(path, "--show-eee", "eth0")[0]
    block = out.split("Advertised EEE link modes:")[1].split("Link partner")[0]
    return [word for word in block.split() if word != "Not" and word != "reported"]


PHYLIB_EEE = [("bcmgenet", ""), ("r8169", "RTL8168H"), ("r8169", "RTL8125B")]


@root
@pytest.mark.parametrize(("driver", "chip"), PHYLIB_EEE)
@pytest.mark.parametrize("series", ["6.1", "6.12"])
def test_an_eee_advertisement_is_what_phylib_writes(
    tmp_path: Path, driver: str, chip: str, series: str
) -> None:
    """Row 5: the driver hands --set-eee to phy_ethtool_set_eee, which writes the asked modes
    (0x8: 100baseT/Full) to the PHY's EEE advertisement; --show-eee reads that register back.
    The lab ignored `advertise` and kept showing every supported mode. EEE off and on again
    without `advertise` advertises every supported mode (the register read back is empty)."""
    path = lab_state(tmp_path, driver, chip, series)
    assert ethtool(path, "--set-eee", "eth0", "eee", "on")[2] == 0  # 6.1's bcmgenet starts off
    everything = _advertised(path)
    assert everything[:2] == ["100baseT/Full", "1000baseT/Full"]  # 6.12's RTL8125: 2500 too
    assert ethtool(path, "--set-eee", "eth0", "eee", "on", "advertise", "0x8") == ("", [], 0)
    assert _advertised(path) == ["100baseT/Full"]
    assert ethtool(path, "--set-eee", "eth0", "eee", "off")[2] == 0
    assert ethtool(path, "--set-eee", "eth0", "eee", "on")[2] == 0
    assert _advertised(path) == everything


@root
@pytest.mark.parametrize(("driver", "chip"), PHYLIB_EEE)
def test_6_12s_phylib_refuses_an_eee_mode_the_phy_cannot_do(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """genphy_c45_ethtool_set_eee (6.12): a mode outside supported_eee (bit 24, 40000baseCR4) is
    EINVAL, with no extack (the words go to the kernel log); nothing changes."""
    path = lab_state(tmp_path, driver, chip, "6.12.117")  # bcmgenet: phylib EEE from 6.12.78
    before = ethtool(path, "--show-eee", "eth0")[0]
    refused = ethtool(path, "--set-eee", "eth0", "advertise", "0x1000008")
    assert refused == ("", ["netlink error: Invalid argument"], 76)
    assert ethtool(path, "--show-eee", "eth0")[0] == before


@root
@pytest.mark.parametrize(("driver", "chip"), PHYLIB_EEE)
def test_6_1s_phylib_drops_the_modes_the_phy_cannot_do(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """phy_ethtool_set_eee (6.1) ANDs the request with the PHY's EEE ability: 0x1000020 keeps
    1000baseT/Full; a request of nothing it can do writes an empty advertisement, which
    phy_ethtool_get_eee shows as EEE disabled."""
    path = lab_state(tmp_path, driver, chip, "6.1")
    assert ethtool(path, "--set-eee", "eth0", "eee", "on", "advertise", "0x1000020")[2] == 0
    assert _advertised(path) == ["1000baseT/Full"]
    assert ethtool(path, "--set-eee", "eth0", "advertise", "0x1000000")[2] == 0
    out = ethtool(path, "--show-eee", "eth0")[0]
    assert "EEE status: disabled" in out and _advertised(path) == []


@root
def test_an_unknown_kernel_claims_neither_series_answer(tmp_path: Path) -> None:
    """With no kernel named, 6.1 would mask and 6.12 refuse: the lab claims neither (accepts,
    keeps its modes), as before this read."""
    path = lab_state(tmp_path, "bcmgenet", "", "")
    assert ethtool(path, "--set-eee", "eth0", "eee", "on", "advertise", "0x1000008")[2] == 0


@root
@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([["-G", "eth0"], ["-C", "eth0"], ["--set-eee", "eth0", "advertise"]]),
    st.lists(st.text(max_size=16), max_size=4),
)
def test_the_new_parsing_takes_garbage_without_crashing(head: list[str], rest: list[str]) -> None:
    """The -G/-C parameters and the advertisement phylib now reads, fed garbage: an ethtool
    failure (its words and exit code) or an answer, never a crash."""
    with tempfile.TemporaryDirectory() as tmp:
        for series in ("6.1", "6.12"):
            path = lab_state(Path(tmp), "bcmgenet", "", series)
            try:
                out, err, code = ethtool(path, *head, *rest)
            except Failure as failure:  # raised past run() by no path today; a failure is fine
                assert failure.code and failure.lines
                continue
            assert isinstance(out, str) and all(isinstance(line, str) for line in err)
            assert code in (0, 1, 76, 81)


@root
@pytest.mark.parametrize("series", ["6.1", "6.12"])
def test_a_pause_set_that_changes_nothing_is_not_the_drivers_to_refuse(
    tmp_path: Path, series: str
) -> None:
    """Row 6: ethnl_set_pause starts from get_pauseparam (lan78xx: fc_autoneg and the request,
    on from lan78xx_phy_init, also over a forced link) and returns before the driver when
    nothing changes. So over a forced link `-A autoneg on` and `-A rx on` exit 0 with nothing
    changed; only a real change reaches lan78xx_set_pause's EINVAL. The lab refused all three."""
    path = lab_state(tmp_path, "lan78xx", "LAN7800", series)
    assert ethtool(path, "-s", "eth0", "autoneg", "off", "speed", "100", "duplex", "full")[2] == 0
    shown = ethtool(path, "-a", "eth0")[0]
    assert "Autonegotiate:\ton\nRX:\t\ton\nTX:\t\ton\n" in shown
    assert ethtool(path, "-A", "eth0", "autoneg", "on") == ("", [], 0)
    assert ethtool(path, "-A", "eth0", "rx", "on", "tx", "on") == ("", [], 0)
    assert ethtool(path, "-a", "eth0")[0] == shown
    assert ethtool(path, "-A", "eth0", "rx", "off") == ("", [EINVAL], 76)


@root
@pytest.mark.parametrize(
    ("argv", "answer"),
    [
        # ethnl_set_coalesce checks the parameters before ethnl_ops_begin (stmmac's .begin)
        (["-C", "eth0", "adaptive-rx", "on"],
         (["netlink error: cannot modify an unsupported parameter (offset 36)", EINVAL], 1)),
        (["-G", "eth0", "tx-push", "on"],
         (["netlink error: setting tx push not supported (offset 36)", EOPNOTSUPP], 81)),
        # ethtool's own parser: nothing is sent
        (["-G", "eth0", "foo", "1"], (["ethtool (-G): unknown parameter 'foo'"], 1)),
        (["-A", "eth0", "rx", "maybe"],
         (["ethtool (-A): invalid value 'maybe' for parameter 'rx'"], 1)),
        # a request the core passes on meets stmmac_check_if_running: EBUSY, -L's exit 1
        (["-L", "eth0", "rx", "1"], (["netlink error: Device or resource busy"], 1)),
        (["-C", "eth0", "tx-frames", "16"], (["netlink error: Device or resource busy"], 1)),
    ],
)  # fmt: skip
def test_a_down_stmmac_on_6_1_answers_after_the_parser_and_the_core(
    tmp_path: Path, argv: list[str], answer: tuple[list[str], int]
) -> None:
    """Left row L1 of this read, closed: stmmac's .begin (6.1: EBUSY while down) runs in
    ethnl_ops_begin, after ethtool's parser and the core's parameter checks; the lab answered
    EBUSY first for every set (and -L's EBUSY exited 76)."""
    down = lab_state(tmp_path, "stmmac", "RK3568", "6.1.0-31-arm64", up=False)
    assert ethtool(down, *argv) == ("", *answer)
