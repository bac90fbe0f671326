"""Issue 21, audit19 (resources/tuning/driver_caps_audit19.md): changes that drop the link without
closing the interface, and how long it is gone.

Row 3 (lab kinder): r8152 (rtl_ethtool_set_eee) and ax88179 (ax88179_set_eee) restart
autonegotiation (mii_nway_restart) after EVERY set_eee the driver takes, not only when EEE is
turned on or off; net/ethtool/eee.c ethnl_set_eee calls set_eee whenever a field asked for
differs from get_eee's answer. Their get_eee never reports Tx LPI, so `--set-eee tx-lpi on`
reaches them every time and drops the link; the lab kept it up.

Rows 1 and 2 (medium): nothing waited for the link after a write that drops it, nor after a
revert that does: the value was read back, the next SSH connection and the "after" measurement
(or Find what helps' next one) started while the PHY renegotiated. link_wait: the read-back and
the next restore wait for the link, bounded.

Row 4: each restart fact of the table says which kind of link drop it is (renegotiation, reset,
reopen), tied to the kernel call its `contains` quotes.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sbctune.remote.batch import Step, StepResult
from sbctune.resources import resource_root
from sbctune.tuning import link_wait
from sbctune.tuning.changes import run_changes
from sbctune.tuning.model import Change
from sbctune.tuning.scripts import revert_script
from tests.fake_ethtool_support import ethtool, lab_state, root

TABLE = json.loads((resource_root() / "tuning" / "driver_caps.json").read_text(encoding="utf-8"))


def dev_of(state: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    return dict(data["interfaces"]["eth0"])


def bounces(state: str) -> int:
    return int((dev_of(state).get("eee") or {}).get("bounces", 0))


# ------------------------------------------- row 3: r8152 / ax88179 renegotiate at every set


@root
@pytest.mark.parametrize(("driver", "chip"), [("r8152", "RTL8156B"), ("ax88179_178a", "")])
def test_a_tx_lpi_set_on_a_driver_that_restarts_at_every_set_bounces_the_link(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """`--set-eee tx-lpi on` leaves EEE as it is, but reaches the driver (its get_eee shows Tx
    LPI disabled), which restarts autonegotiation: the lab's link goes down and up."""
    state = lab_state(tmp_path, driver, chip)
    assert ethtool(state, "--set-eee", "eth0", "tx-lpi", "on")[2] == 0
    assert bounces(state) == 1


@root
def test_a_set_that_asks_for_what_is_shown_reaches_no_driver(tmp_path: Path) -> None:
    """ethnl_set_eee: nothing differs from get_eee's answer, set_eee is never called."""
    state = lab_state(tmp_path, "r8152", "RTL8156B")
    assert ethtool(state, "--set-eee", "eth0", "tx-lpi", "off")[2] == 0
    assert bounces(state) == 0


@root
def test_a_phylib_driver_still_renegotiates_only_for_a_changed_advertisement(
    tmp_path: Path,
) -> None:
    """bcmgenet: phy_ethtool_set_eee restarts autonegotiation only when the advertisement
    changes; Tx LPI alone is the MAC's."""
    state = lab_state(tmp_path, "bcmgenet", kernel="6.12.25+rpt-rpi-v8")
    assert ethtool(state, "--set-eee", "eth0", "tx-lpi", "off")[2] == 0
    assert bounces(state) == 0


# ------------------------------------------------- row 4: the kind of each restart fact

# The kernel calls that make each kind of link drop (the `contains` of a restart fact quotes one)
CALLS = {
    "renegotiation": ("phy_ethtool_set_eee", "phy_start_aneg", "phy_set_asym_pause",
                      "phylink_ethtool_set_eee", "phylink_ethtool_set_pauseparam",
                      "phy_ethtool_ksettings_set", "mii_nway_restart",
                      # audit 50: a PHY reset or reprogramming, a link reset
                      "tg3_phy_reset", "bnx2x_force_link_reset", "sky2_phy_reinit",
                      "alx_setup_speed_duplex"),
    "reset": ("igb_down", "igc_down", "igb_reinit_locked", "igc_reinit_locked",
              "NETIF_F_RXALL",
              # audit 50: the driver's own down/up or halt/restart of the chip
              "e1000e_down", "e1000e_reinit_locked", "e1000_down", "ixgbe_down",
              "ixgbe_reinit_locked", "i40e_down", "i40e_vsi_reinit_locked", "ice_down",
              "tg3_halt", "alx_reinit", "atl1c_down", "atl1e_down"),
    "reopen": ("macb_close", "aq_ndev_close", "stmmac_release", "_reinit_queues",
               "need_ndev_restart",
               # audit 50: the driver's close/open (unload/load)
               "bnx2x_reload_if_running", "bnxt_close_nic", "sky2_detach", "tg3_stop"),
}  # fmt: skip


def _restart_facts() -> list[tuple[str, dict[str, Any]]]:
    names = ("restarts_on", "restarts_on_features", "eee_restart_on_any_set")
    return [(d, f) for d, facts in TABLE["hand"].items() for f in facts if f["fact"] in names]


def test_every_restart_fact_says_its_kind_of_link_drop_from_the_call_it_cites() -> None:
    facts = [(d, f) for d, f in _restart_facts() if f["fact"] != "eee_restart_on_any_set"]
    assert len(facts) >= 30
    for driver, fact in facts:
        kinds = [k for k, calls in CALLS.items() if any(c in fact["contains"] for c in calls)]
        assert kinds == [fact.get("link")], (driver, fact["value"], fact["contains"])


@pytest.mark.parametrize("driver", ["r8152", "ax88179_178a"])
def test_the_drivers_that_restart_at_every_set_say_so(driver: str) -> None:
    found = [f for d, f in _restart_facts() if (d, f["fact"]) == (driver, "eee_restart_on_any_set")]
    assert found and found[0]["kernels"] == ["6.1", "6.12"]


# ------------------------------------- rows 1 and 2: the read-back and the revert wait for the link

SESSION = "20250101T120000Z-abcdef"
DIRECTORY = f"/var/lib/sbctune/tuning/{SESSION}"
EEE_OFF = Change("ethtool", "eth0 --set-eee eee", "on", "off")
COALESCE = Change("ethtool", "eth0 -C rx-usecs", "3", "50")


class _Pi:
    """Stands for the SSH session: records the steps; the link wait answers `waited`."""

    def __init__(self, waited: bytes) -> None:
        self.waited, self.steps = waited, list[Step]()

    async def run_script(self, steps: Sequence[Step], **_: Any) -> list[StepResult]:
        self.steps = list(steps)
        out = []
        for step in steps:
            if step.key.startswith("l"):
                out.append(StepResult(step, 0, self.waited, b""))
            elif step.key.startswith("r") and "--show-eee" in step.argv:
                shown = b"EEE Settings for eth0:\n\tEEE status: disabled\n"
                out.append(StepResult(step, 0, shown, b""))
            else:
                out.append(StepResult(step, 0, b"", b""))
        return out


def _kinds(steps: Sequence[Step]) -> list[str]:
    """Each step as what it is: m(ark), w(rite), l(ink wait), r(ead back)."""
    return [s.key[0] for s in steps]


@pytest.mark.parametrize(
    ("driver", "kernel", "waits"),
    [("bcmgenet", "6.12.25+rpt-rpi-v8", True), ("r8152", "6.1.0-rpi7-rpi-v8", True),
     ("ax88179_178a", "", True), ("smsc95xx", "", False),
     # lan78xx on 6.1: EEE off clears MAC_CR_EEE_EN_ only (eee_off_keeps_link)
     ("lan78xx", "6.1.0-rpi7-rpi-v8", False)],
)  # fmt: skip
async def test_eee_off_is_read_back_after_the_link_is_back_where_the_driver_drops_it(
    driver: str, kernel: str, waits: bool
) -> None:
    link = link_wait.link_facts(driver, "eth0", kernel or None)
    pi = _Pi(b"sbctune-link back 2 25 271\n")
    written = await run_changes(pi, [EEE_OFF, COALESCE], DIRECTORY, link=link)  # type: ignore[arg-type]
    if waits:
        assert _kinds(pi.steps) == ["m", "w", "l", "r", "w", "r"]
        assert pi.steps[0].argv[-1] == f"{DIRECTORY}/link.before"
        assert written[0].link_waited and written[0].link is not None
        assert link_wait.words(written[0].link, "eth0") == (
            "the link of eth0 dropped and came back within 2.7 s"
        )
    else:
        assert _kinds(pi.steps) == ["w", "r", "w", "r"]
        assert not written[0].link_waited
    assert not written[1].link_waited  # coalescing keeps the link


def test_every_restart_the_table_names_is_a_wait() -> None:
    """Rings on igb (igb_down), a feature on atlantic (aq_ndev_close), the MTU on stmmac, pause
    on bcmgenet (phy_start_aneg): each is a link drop of its kind, from the table."""
    igb = link_wait.link_facts("igb", "eth1", None, "I210")
    assert link_wait.drops(Change("ethtool", "eth1 -G rx", "256", "4096"), igb) == "reset"
    assert link_wait.drops(Change("ethtool", "eth1 -L combined", "4", "2"), igb) == "reopen"
    assert link_wait.drops(Change("ethtool", "eth1 -C rx-usecs", "3", "50"), igb) is None
    assert link_wait.drops(Change("ethtool", "eth0 -G rx", "256", "4096"), igb) is None
    assert link_wait.drops(Change("ethtool", "eth1 -K rx-all", "off", "on"), igb) == "reset"
    assert link_wait.drops(Change("ethtool", "eth1 -K tso", "on", "off"), igb) is None
    aq = link_wait.link_facts("atlantic", "eth1")
    assert link_wait.drops(Change("ethtool", "eth1 -G rx", "2048", "4096"), aq) == "reopen"
    st = link_wait.link_facts("stmmac", "eth0")
    assert link_wait.drops(Change("mtu", "eth0", "1500", "4000"), st) == "reopen"
    genet = link_wait.link_facts("bcmgenet", "eth0")
    assert link_wait.drops(Change("ethtool", "eth0 -A rx", "off", "on"), genet) == "renegotiation"
    assert link_wait.link_facts("smsc95xx", "eth0") is None


def test_revert_sh_waits_for_the_link_after_a_restore_that_drops_it() -> None:
    link = link_wait.link_facts("bcmgenet", "eth0", "6.12.25+rpt-rpi-v8")
    script = revert_script(SESSION, [COALESCE, EEE_OFF], link=link)
    mark = script.index(f"sh eth0 {DIRECTORY}/link.before\n")
    eee = script.index("step ethtool --set-eee eth0 eee on\n")
    wait = script.index(f' sh eth0 {DIRECTORY}/link.before 30 150 | tee -a "$dir/revert.log"\n')
    coalesce = script.index("step ethtool -C eth0 rx-usecs 3\n")
    # newest first, each restore that drops the link between its mark and its wait, and the
    # next restore after the link is back
    assert mark < eee < wait < coalesce
    assert "link.before" not in revert_script(SESSION, [COALESCE], link=link)


@pytest.mark.parametrize(
    "text",
    ["", "sbctune-link back 2 25\n", "sbctune-link back 2 25 271\nmore\n",
     "sbctune-link up 2 25 271", "sbctune-link back -2 25 271", "sbctune-link back 2 999 271",
     "sbctune-link back 2 25 ٣",
     "other back 2 25 271", "sbctune-link back 2 25 999999", "sbctune-link  back 2 25 271"],
)  # fmt: skip
def test_what_the_pi_says_of_the_wait_is_parsed_strictly(text: str) -> None:
    assert link_wait.parse(text, "eth0") is None
    assert "did not say" in link_wait.words(None, "eth0")


def test_the_waits_words_say_what_the_pi_saw() -> None:
    back = link_wait.parse("sbctune-link back 0 14 228\n", "eth0")
    assert back is not None and back.seconds == 2.3
    nodrop = link_wait.parse("sbctune-link nodrop 30 0 301\n", "eth0")
    assert (
        link_wait.words(nodrop, "eth0") == "the link of eth0 did not drop within 3 s of this change"
    )
    gone = link_wait.parse("sbctune-link notback 3 150 1800\n", "eth0")
    assert "was not back with its addresses 18 s later" in link_wait.words(gone, "eth0")


@pytest.mark.parametrize(
    ("text", "said"),
    [("eth1", "eth1"), ("enx00e04c680001", "enx00e04c680001"), ("", "the NIC"), (None, "the NIC"),
     ("eth0\nrm -rf", "the NIC"), ("a" * 16, "the NIC"), ("eth0 x", "the NIC")],
)  # fmt: skip
def test_the_nic_named_after_a_revert_is_an_interface_name_or_none(
    text: str | None, said: str
) -> None:
    """The NIC's name comes back from the Pi's session.json: said only if it is one."""
    assert link_wait.nic_name(text) == said
