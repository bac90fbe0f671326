"""Issue 21, audit19 (resources/tuning/driver_caps_audit19.md): changes that drop the link without
closing the interface, and how long it is gone.

Row 3 (lab kinder): r8152 (rtl_ethtool_set_eee) and ax88179 (ax88179_set_eee) restart
autonegotiation (mii_nway_restart) after EVERY set_eee the driver takes, not only when EEE is
turned on or off; net/ethtool/eee.c ethnl_set_eee calls set_eee whenever a field asked for
differs from get_eee's answer. Their get_eee never reports Tx LPI, so `--set-eee tx-lpi on`
reaches them every time and drops the link; the lab kept it up.

Row 4: each restart fact of the table says which kind of link drop it is (renegotiation, reset,
reopen), tied to the kernel call its `contains` quotes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sbctune.resources import resource_root
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
                      "phy_ethtool_ksettings_set", "mii_nway_restart"),
    "reset": ("igb_down", "igc_down", "igb_reinit_locked", "igc_reinit_locked",
              "NETIF_F_RXALL"),
    "reopen": ("macb_close", "aq_ndev_close", "stmmac_release", "_reinit_queues",
               "need_ndev_restart"),
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
