"""Audit 30 (driver_caps_audit30.md): rows earlier reads left.

Row 1 (audit 25 row 4): stmmac on 6.12 calls phy_support_eee in stmmac_init_phy, run by every
__stmmac_open, where it finds the PHY by address (no phy-handle: mdiobus_get_phy), so EEE
turned off is on again after any release/open (a ring change, the MTU, channels, a network
restart). A PHY from a phy-handle (phylink_fwnode_phy_connect) keeps it, and nothing sets
eee_cfg there, so --show-eee reports "disabled" from the start. The inventory does not show
which: the plan writes EEE off after its restarts, reads it back last and says it may last
only until the next open; the lab claims either branch only where its model says which."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Nic
from sbctune.lab.ethtool_table_eee import hold_eee
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import debian_abi, driver_caps, persist_gaps, reopen_order
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state, root, shown
from tests.plan_one import plan_one

# ethtool's --show-eee of a real Pi with EEE enabled (systemd issue 32032): ethtool's own
# format, the same for every driver; the stmmac NIC's answer is what the driver reads back
EEE_ON = (
    Path(__file__).resolve().parents[1] / "captures" / "ethtool_eee"
    / "pi_end0_enabled_inactive_systemd_32032.txt"
).read_text(encoding="utf-8")  # fmt: skip

ROOT = Path(__file__).resolve().parents[2]
K612 = "6.12.20-arm64"  # after 59c5e1411a0a's stable backport (6.12.4)
EEE_OFF = Change("ethtool", "eth0 --set-eee eee", "on", "off")
RINGS = Change("ethtool", "eth0 -G rx", "512", "1024")
JUMBO = Change("mtu", "eth0", "1500", "9000")


@pytest.mark.parametrize("restart", [RINGS, JUMBO], ids=["rings", "mtu"])
def test_eee_off_on_stmmac_612_is_written_after_the_restart_and_read_back_last(
    restart: Change,
) -> None:
    """The ring change / MTU releases and opens (stmmac_reinit_ringparam, stmmac_change_mtu):
    where the PHY is found by address the open turns EEE on again, so the restart goes first
    and EEE's value is read after every write; harmless where a phy-handle keeps it."""
    facts = reopen_order.open_facts("stmmac", "eth0", K612, "RK3588")
    assert facts is not None
    assert reopen_order.apply_order([EEE_OFF, restart], facts) == [1, 0]
    assert reopen_order.read_last([EEE_OFF, restart], facts) == {0}
    # undoing: the restart is undone first, EEE put back after it
    assert reopen_order.revert_order([EEE_OFF, restart], facts) == [1, 0]


@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.3-arm64"])
def test_eee_keeps_its_order_where_stmmac_does_not_turn_it_on_at_open(kernel: str) -> None:
    """6.1's stmmac_init_phy has no phy_support_eee; 6.12 before .4 neither (59c5e1411a0a)."""
    facts = reopen_order.open_facts("stmmac", "eth0", kernel, "RK3588")
    assert reopen_order.apply_order([EEE_OFF, RINGS], facts) == [0, 1]


def _planned_eee_off(kernel: str) -> PlannedTweak:
    found = Facts("eth0")
    found.steps["ethtool --show-eee"] = StepResult(
        batch.Step(("true",), "ethtool --show-eee"), 0, EEE_ON.encode(), b""
    )
    nic = Nic("eth0", driver="stmmac", chip="RK3588")
    return plan_one("eee-off", found, nic, kernel, {"allow_link_restart": True})


def test_the_eee_off_plan_on_stmmac_612_does_not_claim_it_survives_a_restart() -> None:
    item = _planned_eee_off(K612)
    assert item.applicable and [c.after for c in item.changes] == ["off"], item.reason
    assert "finds its PHY by address" in item.reason, item.reason
    assert "only sure to stay off until the next restart" in item.reason
    assert "stmmac_main.c: stmmac_init_phy" in item.reason
    assert "on again" not in _planned_eee_off("6.1.0-31-arm64").reason


def test_at_boot_says_when_stmmac_sets_eee_back() -> None:
    facts = reopen_order.open_facts("stmmac", "eth0", K612, "RK3588")
    caps = driver_caps.caps("stmmac", K612, "RK3588")
    assert persist_gaps.why_lost(EEE_OFF, caps, facts, "eth0") == (
        "the stmmac driver sets it back each time eth0 is opened where its PHY is found by "
        "address (no phy-handle) (drivers/net/ethernet/stmicro/stmmac/stmmac_main.c: "
        "stmmac_init_phy)"
    )


def _lab_eee(by_address: bool | None) -> dict[str, Any]:
    eee: dict[str, Any] = {"supported": ["1000baseT/Full"], "enabled": False,
                           "link_partner": [], "tx_lpi": False}  # fmt: skip
    if by_address is not None:
        eee["phy_by_address"] = by_address
    state: dict[str, Any] = {"eee": eee}
    caps = driver_caps.caps("stmmac", K612, "RK3588")
    assert caps is not None
    hold_eee(state, caps, "RK3588", 1000.0)
    return dict(state["eee"])


def test_the_lab_turns_eee_on_at_open_only_where_its_model_finds_the_phy_by_address() -> None:
    """A lab whose model says the PHY is found by address turns EEE on at start and at every
    open, as the kernel; a model that does not say (a phy-handle board reports "disabled" and
    keeps it) is claimed neither way: the model's own values stay."""
    by_address = _lab_eee(True)
    assert by_address["enabled"] is True
    assert by_address.get("reset_on_open") == {"enabled": True, "tx_lpi": True}
    for unsaid in (None, False):
        eee = _lab_eee(unsaid)
        assert eee["enabled"] is False and "reset_on_open" not in eee


# --- row 2: Debian's ABI names say their patch level through Debian's changelog ------------


@pytest.mark.parametrize(
    ("kernel", "span"),
    [("6.1.0-13-arm64", ((6, 1, 55), (6, 1, 55))),  # bookworm 12.2
     ("6.1.0-18-amd64", ((6, 1, 76), (6, 1, 76))),  # bookworm 12.5
     ("6.1.0-10-rt-arm64", ((6, 1, 37), (6, 1, 38))),  # 6.1.37-1 and 6.1.38-1/-2
     ("5.10.0-23-arm64", ((5, 10, 179), (5, 10, 179))),
     ("6.1.0-41-arm64", ((6, 1, 148), None)),  # past "Bump ABI to 38": generated suffix
     ("6.1.0-1036-oem", None), ("5.15.0-91-generic", None),  # Ubuntu's own numbers
     ("6.1.0-rpi7-rpi-v8", None), ("6.12.38+deb13-arm64", None), ("", None)],
)  # fmt: skip
def test_a_debian_abi_name_maps_to_the_patch_levels_its_changelog_names(
    kernel: str, span: object
) -> None:
    assert debian_abi.patch_span(kernel) == span


def test_the_abi_table_is_read_from_changelog_lines() -> None:
    """Lines as Debian's linux changelog has them (linux-source-6.1 6.1.192-3): the bump is in
    the body of the upload that made it, newest upload first; one with no bump keeps the ABI."""
    text = "\n".join([
        "linux (6.1.148-1) bookworm; urgency=medium", "",
        "  * Generate kernel ABI name suffix automatically if not configured", "",
        "linux (6.1.147-1) bookworm-security; urgency=high", "", "  * Bump ABI to 38", "",
        "linux (6.1.64-1) bookworm; urgency=medium", "", "  * Bump ABI to 14", "",
        "linux (6.1.55-1) bookworm; urgency=medium", "", "  * Bump ABI to 13", "",
        "linux (6.1.52-1) bookworm-security; urgency=high", "", "  * Bump ABI to 12", "",
        "linux (6.1.38-4) bookworm-security; urgency=high", "",
        "linux (6.1.38-3) bookworm-security; urgency=high", "", "  * Bump ABI to 11", "",
        "linux (6.1.38-2) bookworm-security; urgency=high", "",
        "linux (6.0.12-1) unstable; urgency=medium", "", "  * Bump ABI to 6",
    ])  # fmt: skip
    sys.path.insert(0, str(ROOT / "scripts"))
    from regen_debian_abi import abi_table

    table = abi_table(text, "6.1")
    assert table["abi"]["13"] == ["6.1.55", "6.1.55"]
    assert table["abi"]["11"] == ["6.1.38", "6.1.38"]  # -3 and -4
    assert table["abi"]["1"] == ["6.1.38", "6.1.38"]  # -2: the series' first ABI here
    assert table["above"] == {"abi": 38, "first": "6.1.148"}


@pytest.mark.parametrize(
    ("kernel", "top"),
    [("6.1.0-13-arm64", 4088), ("6.1.0-38-arm64", 4088), ("6.1.0-41-arm64", None)],
)
def test_ax88179s_maximum_is_known_on_a_debian_abi_name(kernel: str, top: int | None) -> None:
    """usbnet_probe caps max_mtu from c7159e960f14's backport (6.1.162): 6.1.0-13 (6.1.55) and
    6.1.0-38 (6.1.147) are before it, 6.1.0-41 (6.1.148 or later) may be either side."""
    caps = driver_caps.caps("ax88179_178a", kernel, "ASIX AX88179")
    assert caps is not None and caps.mtu_max("ASIX AX88179") == top


@root
@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@pytest.mark.parametrize(
    ("kernel", "hidden"),
    [("6.1.0-13-arm64", True), ("5.10.0-23-arm64", True), ("6.1.52", True),
     ("6.1.0-14-arm64", False), ("6.1.56", False), ("6.12.20", False)],
)  # fmt: skip
def test_igcs_queue_pair_rule_follows_the_release_its_kernel_was_built_from(
    tmp_path: Path, kernel: str, hidden: bool
) -> None:
    """igc_ethtool_set_coalesce before 1703b2e0de65 (6.6; 6.1.56 by backport; 5.10.262 never):
    with queue pairs any non-zero tx-usecs is EINVAL and -c shows 0; from it tx-usecs follows
    rx-usecs. Debian's 6.1.0-13 is 6.1.55 and 6.1.0-14 is 6.1.64 (its changelog)."""
    state = lab_state(tmp_path, "igc", "I225-V", kernel, queues=(4, 4))
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert shown(state, "-c", "tx-usecs") == ("0" if hidden else "50")
    same = ethtool(state, "-C", "eth0", "tx-usecs", "50")
    assert (same[2] != 0) is hidden, same


@pytest.mark.posix_only("obtains Debian's kernel source packages with apt-get and dpkg")
def test_the_abi_table_is_what_debians_changelog_says() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from regen_debian_abi import OUT, _changelog, abi_table, pins

    stored = json.loads(OUT.read_text(encoding="utf-8"))["series"]
    for series, version in pins().items():
        table = abi_table(_changelog(series, version), series)
        assert {k: stored[series][k] for k in ("abi", "above")} == table, series
