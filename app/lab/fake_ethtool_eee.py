"""``--set-eee advertise`` where the driver hands EEE to phylib (driver_caps.json
eee_set_via_phylib: bcmgenet, r8169, stmmac, lan78xx on 6.12): which advertisement phylib
writes, or its refusal (_kernel eee_advertise_outside_supported), and what ``--show-eee`` then
shows; and where the driver checks it itself (igb_set_eee: 100/1000 only while EEE is on,
kept with no new autonegotiation; driver_caps.json eee_advertise_rule, audit 33b row 5). Other
drivers keep the lab's modes (their own set_eee is not modelled for it).

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start: sbctune's own imports; script_text drops them (the standalone script holds
# every fake_ethtool module's text in one file).
from sbctune.lab.fake_ethtool_base import EINVAL, apply_bitset, nl_error
from sbctune.lab.fake_ethtool_driver import eee_advertised
from sbctune.lab.fake_ethtool_link import MODE_BITS

# @tables-end


def asked_advertisement(
    eee: dict[str, Any], asked: dict[str, Any] | None, pairs: list[tuple[str, str]], code: int
) -> list[str] | None:
    """The advertisement after the set (None: no `advertise`, or not phylib's to decide).
    ethnl_set_eee starts from the advertisement read back (none while EEE is off) and applies
    the bitset; EINVAL where 6.12's phylib refuses it."""
    if asked is None or not eee.get("adv_rule"):
        return None
    if eee["adv_rule"] == "EINVAL_if_on" and not eee["enabled"]:
        return None  # igb_set_eee: turning EEE on skips the check and advertises both modes
    now = eee.get("advertised", eee["supported"]) if eee["enabled"] else []
    start = sum(1 << MODE_BITS[m] for m in now if m in MODE_BITS)
    bits = apply_bitset(start, asked, MODE_BITS, code)
    on = dict(pairs).get("eee", "on" if eee["enabled"] else "off") == "on"
    advertised = eee_advertised(eee, bits, on, MODE_BITS)
    if advertised is None:
        raise nl_error(EINVAL, code)  # genphy_c45_ethtool_set_eee: no extack, a kernel log line
    return advertised


def keep_advertisement(
    dev: dict[str, Any], eee: dict[str, Any], advertised: list[str] | None, was_on: bool
) -> None:
    """Hold the new advertisement: a changed one renegotiates (phy_restart_aneg); asking for
    nothing the PHY can do leaves EEE off (6.1: phy_ethtool_get_eee's eee_enabled is
    !!advertised); EEE turned on again without `advertise` advertises every supported mode."""
    if advertised is not None:
        if (
            eee["enabled"]
            and eee.get("restarts")
            and not eee.get("adv_own")
            and advertised != eee.get("advertised")
        ):
            eee["bounces"] = int(eee.get("bounces", 0)) + 1
            dev["bounce_pending"] = True
        eee["advertised"] = advertised
        if eee["enabled"] and not advertised:
            eee["enabled"] = eee["active"] = False
    elif eee["enabled"] and not was_on and eee.get("disabled_modes"):
        # phy_advertise_eee_all / genphy_c45_ethtool_set_eee: never the disabled modes
        eee["advertised"] = [m for m in eee["supported"] if m not in eee["disabled_modes"]]
        eee["active"] = eee["active"] and bool(eee["advertised"])
    elif eee["enabled"] and not was_on:
        eee.pop("advertised", None)
