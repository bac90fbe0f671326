"""Issue 21, the table's mechanisms audit 34b lacked (resources/tuning/driver_caps_audit34b.md rows
6-10). Each test below failed before its change.

Row 8: a list fact read in a later tree ("extends") adds to the earlier series' list instead of
being ignored: 7.2's rtl_is_8125 also covers the RTL9151A and the 10 GbE RTL8127A, whose
coalescing get/set are EOPNOTSUPP as the RTL8125's.
Row 9: a fact held by patch level where a stable fix's first point release is known in one series
and only bounded in others ("first": {"above", "by"}): r8169 keeps EEE off on the RTL8168h/8111h
(phy_disable_eee) from 7.2.10 and 7.3, not on Debian's 6.12.117 / 6.1.192, unknown between; a
per-chip EEE default (eee_by_chip "enabled": false) that the lab and the plan's words read.
Row 10: a chip's EEE mode kept out of its advertisement for good (eee_by_chip "disabled_modes":
the RTL8125A's 2500baseT/Full from 6.13), now and after any `--set-eee`.
Row 6: the same patch-level dating for stmmac's S-VLAN stripping, set for XGMAC cores only from
the stable fix c63ce7b9c7e7 (7.2.11, 7.3 on): "off [fixed]" on the SBCs' GMAC/GMAC4 glues.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, root, with_link

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
CAPTURES = Path(__file__).resolve().parents[1] / "captures"


def _coalescing_plan(chip: str, kernel: str) -> PlannedTweak:
    """irq-coalescing planned over a real `ethtool -c` of an r8169 chip that has coalescing
    (the Pi's own answer is not what is tested here: the table's refusal is)."""
    found = Facts("eth0")
    coalesce = (CAPTURES / "ethtool_c/tuned_726_enp1s0.txt").read_bytes()
    found.steps["ethtool -c"] = StepResult(batch.Step(("true",), "ethtool -c"), 0, coalesce, b"")
    tweak = catalog.tweak("irq-coalescing")
    nic = Nic("eth0", driver="r8169", chip=chip)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("irq-coalescing",)))


# --- row 8: a 7.2 list fact extends 6.12's ----------------------------------------------------


@POSIX
@pytest.mark.parametrize("chip", ["RTL8127A", "RTL9151A"])
def test_the_72_chips_refuse_coalescing_in_the_lab(tmp_path: Path, chip: str) -> None:
    """rtl_get_coalesce / rtl_set_coalesce (7.2): EOPNOTSUPP where rtl_is_8125; the lab answered
    `-c` and took `-C` on these chips."""
    path = lab_state(tmp_path, "r8169", chip, "7.2.0-1-arm64")
    out, err, code = ethtool(path, "-c", "eth0")
    assert (out, code, err) == ("", 1, ["netlink error: Operation not supported"])
    _, err, code = ethtool(path, "-C", "eth0", "rx-usecs", "50")
    assert (code, err) == (1, ["netlink error: Operation not supported"])


@pytest.mark.parametrize("chip", ["RTL8127A", "RTL9151A"])
def test_the_plan_says_the_72_chips_refuse_coalescing(chip: str) -> None:
    item = _coalescing_plan(chip, "7.2.0-1-arm64")
    assert not item.applicable
    assert f"r8169 refuses coalescing on the {chip[:7]} (EOPNOTSUPP;" in item.reason, item.reason
    assert "r8169_main.c: rtl_set_coalesce" in item.reason


@pytest.mark.parametrize("chip", ["RTL8125B", "RTL8126A"])
def test_the_612_list_still_holds_beside_the_extension(chip: str) -> None:
    """The control: the 6.1/6.12 chips keep their refusal on 7.2 (extended, not replaced)."""
    item = _coalescing_plan(chip, "7.2.0-1-arm64")
    assert not item.applicable and f"on the {chip[:7]} (EOPNOTSUPP" in item.reason


def test_a_gigabit_chip_still_takes_coalescing_on_72() -> None:
    item = _coalescing_plan("RTL8168h/8111h", "7.2.0-1-arm64")
    assert "refuses coalescing" not in item.reason


# --- row 9: a stable fix's patch levels, and a per-chip EEE default ----------------------------

RTL8168H = "RTL8168h/8111h"


def _eee(path: str) -> dict[str, str]:
    out, err, code = ethtool(path, "--show-eee", "eth0")
    assert code == 0, err
    lines = [line.strip() for line in out.splitlines()]
    shown = dict(line.split(": ", 1) for line in lines if ": " in line and "modes" not in line)
    adv = next(line for line in lines if line.startswith("Advertised EEE link modes:"))
    return {**shown, "advertised": adv.split(":", 1)[1].strip(), "text": out}


def _eee_plan(path: str, chip: str, kernel: str) -> PlannedTweak:
    found = Facts("eth0")
    text = ethtool(path, "--show-eee", "eth0")[0].encode()
    found.steps["ethtool --show-eee"] = StepResult(
        batch.Step(("true",), "ethtool --show-eee"), 0, text, b""
    )
    tweak = catalog.tweak("eee-off")
    nic = Nic("eth0", driver="r8169", chip=chip)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, ("eee-off",)))


@POSIX
@pytest.mark.parametrize("kernel", ["7.2.10", "7.2.12+bpo-arm64", "7.3.1"])
def test_the_rtl8168h_keeps_eee_off_from_7210(tmp_path: Path, kernel: str) -> None:
    """r8169_mdio_register's phy_disable_eee (7.2.10, Debian's changelog; every 7.3+): EEE
    disabled, Tx LPI disabled, nothing advertised. The lab showed "enabled - active" there."""
    path = with_link(lab_state(tmp_path, "r8169", RTL8168H, kernel), **LINK_UP)
    shown = _eee(path)
    assert (shown["EEE status"], shown["Tx LPI"], shown["advertised"]) == (
        "disabled", "disabled", "Not reported"
    ), shown["text"]  # fmt: skip


@POSIX
@root
def test_eee_on_advertises_nothing_on_the_rtl8168h(tmp_path: Path) -> None:
    """phy_disable_eee fills eee_disabled_modes: an `eee on` is taken but advertises nothing
    (phy_advertise_eee_all, genphy_c45_ethtool_set_eee), so EEE stays inactive."""
    path = with_link(lab_state(tmp_path, "r8169", RTL8168H, "7.2.12"), **LINK_UP)
    assert ethtool(path, "--set-eee", "eth0", "eee", "on")[2] == 0
    shown = _eee(path)
    assert shown["advertised"] == "Not reported" and "active" not in shown["EEE status"].split(
        " - "
    )[-1:], shown["text"]  # fmt: skip


@POSIX
def test_the_plan_says_why_eee_is_off_on_the_rtl8168h(tmp_path: Path) -> None:
    path = with_link(lab_state(tmp_path, "r8169", RTL8168H, "7.2.12"), **LINK_UP)
    item = _eee_plan(path, RTL8168H, "7.2.12")
    assert item.reason.startswith("EEE is off already: r8169 keeps it off on the RTL8168h ("), (
        item.reason
    )
    assert "r8169_main.c: r8169_mdio_register" in item.reason
    assert not item.restarts_link


@pytest.mark.parametrize(
    ("kernel", "holds"),
    [("7.2.9", False), ("7.2.10", True), ("7.3.0", True), ("6.12.117", False),
     ("6.12.38+deb13-arm64", False), ("6.1.0-27-arm64", False), ("6.12.140", None),
     ("6.1.200", None), ("6.6.80", None), ("7.1.3", None), (None, None)],
)  # fmt: skip
def test_the_rtl8168h_fix_is_held_by_its_patch_levels(kernel: str | None, holds: object) -> None:
    """Known where the sources say: 7.2.10 on, 7.3 on; not in Debian's 6.12.117 and 6.1.192
    (and the ABI names built before them, debian_abi); neither claimed nor denied between."""
    caps = driver_caps.caps("r8169", kernel, RTL8168H)
    assert caps is not None
    rule = driver_caps.by_chip(caps.facts.get("eee_by_chip"), RTL8168H)
    if holds:
        assert rule == {"enabled": False, "tx_lpi": False, "disabled_modes": "all"}
    else:
        assert rule is None
    fact = next(f for f in driver_caps.table()["hand"]["r8169"]
                if f["fact"] == "eee_by_chip" and "RTL8168h" in f["value"])  # fmt: skip
    from sbctune.tuning.driver_caps_series import patch_holds

    assert patch_holds(fact, kernel) is holds


@POSIX
def test_the_rtl8168h_advertises_eee_before_the_fix(tmp_path: Path) -> None:
    """The control: 7.2.9 (and 6.1/6.12) keep phy_support_eee's advertisement."""
    path = with_link(lab_state(tmp_path, "r8169", RTL8168H, "7.2.9"), **LINK_UP)
    assert _eee(path)["advertised"] == "100baseT/Full"


# --- row 10: one mode out of a chip's default EEE advertisement ---------------------------------


@POSIX
@pytest.mark.parametrize("kernel", ["6.13.5", "7.2.12"])
def test_the_rtl8125a_never_advertises_25g_eee_from_613(tmp_path: Path, kernel: str) -> None:
    """phy_disable_eee_mode(2500baseT_Full) on RTL_GIGA_MAC_VER_61 (e340bff27e63, 6.13)."""
    path = with_link(lab_state(tmp_path, "r8169", "RTL8125A", kernel), **LINK_UP)
    shown = _eee(path)
    assert "2500baseT/Full" not in shown["text"].split("Advertised EEE link modes:")[1].split(
        "Link partner"
    )[0], shown["text"]  # fmt: skip
    assert shown["advertised"] == "100baseT/Full"


@POSIX
@root
def test_the_rtl8125a_keeps_25g_out_after_eee_off_and_on(tmp_path: Path) -> None:
    """Off then on (phy_advertise_eee_all) and an explicit advertise with 2500baseT/Full
    (genphy_c45_ethtool_set_eee: taken, written without it) never advertise it."""
    path = with_link(lab_state(tmp_path, "r8169", "RTL8125A", "7.2.12"), **LINK_UP)
    for args in (("eee", "off"), ("eee", "on"), ("advertise", "0x800000000028")):
        _, err, code = ethtool(path, "--set-eee", "eth0", *args)
        assert code == 0, (args, err)
        advertised = _eee(path)["text"].split("Advertised EEE link modes:")[1]
        assert "2500baseT/Full" not in advertised.split("Link partner")[0], args


@POSIX
@pytest.mark.parametrize(("chip", "kernel"), [("RTL8125A", "6.12.117"), ("RTL8125B", "7.2.12")])
def test_25g_eee_stays_advertised_before_613_and_on_other_chips(
    tmp_path: Path, chip: str, kernel: str
) -> None:
    path = with_link(lab_state(tmp_path, "r8169", chip, kernel), **LINK_UP)
    advertised = _eee(path)["text"].split("Advertised EEE link modes:")[1].split("Link partner")[0]
    assert "2500baseT/Full" in advertised


# --- row 6: stmmac's S-VLAN stripping, XGMAC only from 7.2.11 ---------------------------------


def _feature(path: str, name: str) -> str:
    out, err, code = ethtool(path, "-k", "eth0")
    assert code == 0, err
    return next(line.split(": ", 1)[1] for line in out.splitlines() if line.startswith(name + ":"))


@POSIX
@pytest.mark.parametrize("kernel", ["7.2.11", "7.2.12+bpo-arm64", "7.3.2"])
@pytest.mark.parametrize("chip", ["RK3588", "allwinner,sun50i-h6-emac"])
def test_a_gmac_shows_no_svlan_stripping_from_7211(tmp_path: Path, chip: str, kernel: str) -> None:
    """__stmmac_dvr_probe: HW_VLAN_STAG_RX only where core_type == DWMAC_CORE_XGMAC; the lab
    showed "on [fixed]" on every core and kernel."""
    path = lab_state(tmp_path, "stmmac", chip, kernel)
    assert _feature(path, "rx-vlan-stag-hw-parse") == "off [fixed]"
    assert _feature(path, "rx-vlan-offload").startswith("on")  # CTAG_RX stays


@POSIX
@pytest.mark.parametrize(
    ("chip", "kernel"),
    [("RK3588", "7.2.10"), ("RK3588", "6.12.117"), ("RK3588", "6.1.0-27-arm64"),
     ("nvidia,tegra234-mgbe", "7.2.12"), ("altr,socfpga-stmmac-agilex5", "7.3.0")],
)  # fmt: skip
def test_svlan_stripping_stays_before_the_fix_and_on_xgmac(
    tmp_path: Path, chip: str, kernel: str
) -> None:
    path = lab_state(tmp_path, "stmmac", chip, kernel)
    assert _feature(path, "rx-vlan-stag-hw-parse") == "on [fixed]"
