"""The lab's pause (``ethtool -a/-A``) held to the driver capability table
(resources/tuning/driver_caps.json): whether the driver has it, its defaults, what it refuses,
when a change restarts the link, and what ``-a`` shows (split from ethtool_table.py)."""

from __future__ import annotations

from typing import Any

from sbctune.tuning.driver_caps import DriverCaps


def hold_pause(state: dict[str, Any], caps: DriverCaps, chip: str) -> None:
    """`state["pause"]`: None where the driver has no get_pauseparam (or not for this chip),
    else the model's (or the lab's choice: autoneg, no pause) with the driver's rules."""
    only = caps.facts.get("pause_chips_only")  # asix: only the AX88772 family's ops have it
    if not caps.has("get_pauseparam") or (
        only and chip and not caps.refuses_on("pause_chips_only", chip)
    ):
        state["pause"] = None
    elif state.get("pause") is None:  # the lab's choice where no model says: autoneg, no pause
        state["pause"] = {"autoneg": True, "rx": False, "tx": False}
    if state["pause"] is not None:
        _pause_rules(state["pause"], caps)


def _pause_rules(pause: dict[str, Any], caps: DriverCaps) -> None:
    """The driver's pause rules, in the order the lab's state has always held them."""
    for key, on in caps.facts.get("pause_default", {}).items():
        pause[key] = bool(on)
    pause["restarts"] = caps.restarts("pause")
    if caps.facts.get("pause_autoneg_is_link"):  # r8152: the link's autoneg, kept
        pause["autoneg_is_link"] = True
    if caps.facts.get("pause_autoneg_refused"):  # atlantic: -A autoneg on is EOPNOTSUPP
        pause["autoneg_refused"] = True
    if caps.facts.get("pause_refused_above_mtu"):  # r8169: not with jumbo frames
        pause["refused_above_mtu"] = int(caps.facts["pause_refused_above_mtu"])
    jumbo = caps.facts.get("mtu_renegotiates_above") or {}
    if "pause" in jumbo.get("clears", []):
        pause["jumbo_clears"] = True  # r8169: rtl_jumbo_config, never put back at 1500
        if caps.facts.get("mtu_renegotiates_only_if_advertised"):  # a changed advertisement
            pause["only_if_advertised"] = True  # only (genphy_check_and_restart_aneg)
    if caps.facts.get("pause_restart_needs_autoneg"):  # igb/igc: down/up only with autoneg
        pause["restart_needs_autoneg"] = True
    if caps.facts.get("pause_autoneg_ignores_rx_tx"):  # igb/igc: the default comes back
        pause["autoneg_default"] = {k: pause[k] for k in ("rx", "tx")}
    for key, on in caps.facts.get("pause_request_default", {}).items():
        pause[key] = bool(on)  # r8169: phy_support_asym_pause's Pause + Asym
    if caps.facts.get("pause_autoneg_needs_link_autoneg"):  # lan78xx, r8152: EINVAL
        pause["autoneg_needs_link"] = True
    if caps.facts.get("pause_advertisement"):  # lan78xx, bcmgenet: renegotiate on change
        pause["advertisement"] = str(caps.facts["pause_advertisement"])
    if caps.facts.get("pause_restart_needs_link_autoneg"):  # not over a forced link
        pause["restart_needs_link_autoneg"] = True
    if caps.facts.get("pause_manual_change_bounces"):  # phylink: down/up on a manual change
        pause["manual_change_bounces"] = True
    if caps.facts.get("pause_advertisement_needs_link_autoneg"):  # lan78xx: nor advertised
        pause["advertisement_needs_link"] = True
    at_start = caps.facts.get("pause_advertised_at_start")  # phylink: Pause + Asym_Pause
    if at_start:  # kept until the first -A that reaches the driver
        pause["advertised"] = [bool(at_start["Pause"]), bool(at_start["Asym_Pause"])]
    if caps.facts.get("link_partner_modes_unreported"):  # igb, igc: no lp_advertising
        pause["peer_unreported"] = True
    shown = _pause_shown(caps)
    if shown:  # -a shows the resolution with the partner, not the request
        pause["shown"] = shown


def _pause_shown(caps: DriverCaps) -> str:
    """What `-a` shows for RX/TX, one model for every driver (fake_ethtool_pause.shown_pause):
    "phy" where get_pauseparam asks phy_get_pause (r8169, fact `pause_resolved`: the
    resolution, none without a full-duplex link), "mac" where it reads the MAC's state while
    the carrier is up (bcmgenet, `pause_shown_resolved`: the request without carrier or with
    pause autoneg off), "mii" where it resolves the MII registers whatever the duplex (r8152,
    `pause_resolved` "mii"), "" where it shows the request."""
    if caps.facts.get("pause_resolved") == "mii":  # r8152: mii_resolve_flowctrl_fdx
        return "mii"
    if caps.facts.get("pause_resolved"):
        return "phy"
    if caps.facts.get("pause_shown_resolved"):
        return "mac"
    return ""
