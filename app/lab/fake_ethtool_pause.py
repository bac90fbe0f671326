"""The lab's ``ethtool -a/-A`` (pause frames), as ethtool 6.1 prints them over netlink: one
model for every driver, what the driver's set_pauseparam accepts (``driver_caps`` facts), what
autonegotiation resolves with the lab's link partner, and when a change renegotiates.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start: sbctune's own imports; script_text drops them (the standalone script holds
# every fake_ethtool module's text in one file).
from sbctune.lab.fake_ethtool_base import (
    BOOL,
    EINVAL,
    EOPNOTSUPP,
    FAIL_CODE,
    SET_FAIL_CODE,
    iface_mtu,
    nl_error,
    parse_pairs,
    require_root,
)
from sbctune.lab.fake_ethtool_link import advertised_pause, live

# @tables-end


# --------------------------------------------------------------------------- pause


def show_pause(ifname: str, dev: dict[str, Any]) -> str:
    pause = dev.get("pause")
    if pause is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-a"])

    def onoff(flag: bool) -> str:
        return "on" if flag else "off"

    state = pause
    if pause.get("autoneg_is_link") and not _link_autoneg(dev):
        # rtl8152_get_pauseparam: without BMCR_ANENABLE autoneg, RX and TX all read 0
        pause = {"autoneg": False, "rx": False, "tx": False}
    elif pause.get("shown"):  # r8169: phy_get_pause; bcmgenet: the MAC's, with carrier
        pause = {**pause, **shown_pause(ifname, dev, pause)}
    lines = [
        f"Pause parameters for {ifname}:",
        f"Autonegotiate:\t{onoff(pause['autoneg'])}",
        f"RX:\t\t{onoff(pause['rx'])}",
        f"TX:\t\t{onoff(pause['tx'])}",
    ]
    # ethtool 6.1 netlink/pause.c pause_reply_cb: with pause autoneg on it asks LINKMODES_GET,
    # and pause_autoneg_cb prints the negotiated lines only when the reply has both our
    # advertisement and the partner's (net/ethtool/linkmodes.c: no PEER when lp_advertising is
    # empty), resolved from their Pause/Asym_Pause bits, never from the driver's pause settings
    peer = partner_pause(ifname, dev, state)
    if pause["autoneg"] and peer is not None:
        rx, tx = resolve_pause(advertised_bits(state), peer)
        lines += [f"RX negotiated: {onoff(rx)}", f"TX negotiated: {onoff(tx)}"]
    return "\n".join(lines) + "\n"


def set_pause(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["-A"]
    pairs = parse_pairs("-A", args, dict.fromkeys(("autoneg", "rx", "tx"), BOOL))
    pause = dev.get("pause")
    if pause is None:
        raise nl_error(EOPNOTSUPP, code)
    require_root(code)
    new = dict(pause)
    if pause.get("shown"):  # ethnl_set_pause starts from what -a shows (r8169, bcmgenet)
        new.update(shown_pause(ifname, dev, pause))
    if pause.get("autoneg_is_link"):  # r8152: ethtool starts from -a, the link's autoneg
        new["autoneg"] = _link_autoneg(dev)
    start = {k: bool(new.get(k)) for k in ("autoneg", "rx", "tx")}  # get_pauseparam's
    new.update({name: value == "on" for name, value in pairs})
    if all(new[k] == start[k] for k in start):
        return  # ethnl_set_pause: nothing modified, the driver is not called (nor refuses)
    asked = any(new[k] != pause.get(k) for k in ("autoneg", "rx", "tx"))
    _driver_pause_rules(ifname, dev, pause, new, code)
    if pause.get("restarts") and _pause_renegotiates(dev, pause, new, asked):
        new["bounces"] = int(pause.get("bounces", 0)) + 1  # autonegotiation again
        dev["bounce_pending"] = True
    if asked and pause.get("advertisement_needs_link") and not _link_autoneg(dev):
        # lan78xx_set_pause rewrites the PHY's advertisement only `if (ecmd.base.autoneg)`:
        # over a forced link the request is stored and the advertisement stays as it was
        new["advertised"] = list(advertised_bits(pause))
    elif asked:  # the driver is called: its advertisement now follows the request (phylink:
        new.pop("advertised", None)  # phy_set_asym_pause replaces phy_support_asym_pause's)
        pause.pop("advertised", None)
    new["set"] = True  # the advertisement is now the encoding of this request (show_link)
    pause.update(new)


def _driver_pause_rules(
    ifname: str, dev: dict[str, Any], pause: dict[str, Any], new: dict[str, Any], code: int
) -> None:
    """set_pauseparam on `new`: what the driver keeps (link autoneg, fc_default), refuses."""
    # lan78xx_set_pause, rtl8152_set_pauseparam: pause autoneg without link autoneg is EINVAL
    if new["autoneg"] and pause.get("autoneg_needs_link") and not _link_autoneg(dev):
        raise nl_error(EINVAL, code)
    if pause.get("autoneg_is_link"):  # r8152, r8169: Autonegotiate shows the link's
        new["autoneg"] = _link_autoneg(dev)
    if new["autoneg"] and pause.get("autoneg_default"):  # igb/igc: fc_default, RX/TX ignored
        new.update(pause["autoneg_default"])
    if new["autoneg"] and pause.get("autoneg_refused"):
        raise nl_error(EOPNOTSUPP, code)
    above = pause.get("refused_above_mtu")  # r8169: rtl8169_set_pauseparam, jumbo frames
    if above and iface_mtu(ifname, dev) > int(above):
        raise nl_error(EOPNOTSUPP, code)
    # phy_validate_pause(): asymmetric pause needs the PHY's Asym_Pause ability.
    if new["rx"] != new["tx"] and not pause.get("asym", True):
        raise nl_error(EINVAL, code)


def _pause_renegotiates(
    dev: dict[str, Any], pause: dict[str, Any], new: dict[str, Any], asked: bool
) -> bool:
    """Whether the accepted request takes the link down and up (autonegotiation again)."""
    # igb/igc_set_pauseparam: only a set asking for autoneg takes the interface down and up
    needs_autoneg = pause.get("restart_needs_autoneg") and not new["autoneg"]
    if pause.get("restart_needs_link_autoneg") and not _link_autoneg(dev):
        needs_autoneg = True  # lan78xx, bcmgenet: a forced link is not renegotiated
    changed = any(new[k] != pause.get(k) for k in ("autoneg", "rx", "tx"))
    # phylink_ethtool_set_pauseparam (lan78xx from 6.17): link_failed, down and up, when pause
    # autoneg flips or RX/TX change with it off, whatever the link's autonegotiation
    manual = bool(new["autoneg"]) != bool(pause.get("autoneg")) or (
        not new["autoneg"] and any(new[k] != pause.get(k) for k in ("rx", "tx"))
    )
    if pause.get("manual_change_bounces") and manual:
        return True
    if pause.get("autoneg_default") and new["autoneg"]:
        changed = asked  # igb/igc_set_pauseparam: down and up for any set with autoneg
    encoding = pause.get("advertisement")
    if encoding:  # phylib renegotiates only when the advertised pause bits change (r8169:
        # phy_set_asym_pause; lan78xx, bcmgenet: genphy_check_and_restart_aneg)
        changed = advertised_pause(encoding, new) != advertised_pause(encoding, pause)
    return bool(changed and not needs_autoneg)


def _link_autoneg(dev: dict[str, Any]) -> bool:
    """Whether the lab's link autonegotiates now (`ethtool -s autoneg`); no link model: yes."""
    link = dev.get("link") or {}
    return bool(link.get("autoneg", True))


def shown_pause(ifname: str, dev: dict[str, Any], pause: dict[str, Any]) -> dict[str, bool]:
    """RX/TX as `-a` shows them where the driver reports the outcome, not the request (state
    `shown`, driver_caps: "phy" r8169's phy_get_pause, "mac" bcmgenet_get_pauseparam with
    bcmgenet_mac_config's UMAC_CMD). Without carrier: "mac" the request, "phy" none (the PHY's
    duplex is unknown); half duplex none; "mac" with pause autoneg off the request; over a
    forced link none (no partner advertisement); "mii" (r8152) at half duplex too; else
    linkmode_resolve_pause (mii_resolve_flowctrl_fdx, the same rule) of the driver's
    advertisement against the lab's partner, a PC NIC advertising Pause and Asym_Pause."""
    link = dev.get("link") or {}
    up, _, duplex = live(ifname, link) if link else (False, "", "")
    rx, tx = bool(pause.get("rx")), bool(pause.get("tx"))
    mac = pause.get("shown") == "mac"
    if not up:
        return {"rx": rx, "tx": tx} if mac else {"rx": False, "tx": False}
    if duplex.lower() != "full" and pause.get("shown") != "mii":  # r8152 reads no duplex
        return {"rx": False, "tx": False}
    if mac and not pause.get("autoneg"):
        return {"rx": rx, "tx": tx}
    if not _link_autoneg(dev) or not pause.get("link_partner", True):
        return {"rx": False, "tx": False}
    rx, tx = resolve_pause(advertised_bits(pause), LAB_PARTNER)
    return {"rx": rx, "tx": tx}


# The lab's link partner: a PC NIC advertising Pause and Asym_Pause (as the partner of every
# pause model here; phylib's phy_probe gives a PHY both unless its MAC takes them away).
LAB_PARTNER = (True, True)


def resolve_pause(ours: tuple[bool, bool], peer: tuple[bool, bool]) -> tuple[bool, bool]:
    """(RX, TX) pause from (Pause, Asym_Pause) of both sides, IEEE 802.3 Annex 28B table
    28B-3 as ethtool 6.1 computes it (netlink/pause.c pause_autoneg_cb; ethtool.c dump_pause
    for the ioctl path) and as the kernel does (linkmode_resolve_pause, phy_get_pause): both
    Pause: both ways; else both Asym_Pause: we receive if we advertise Pause, else we send if
    the partner does."""
    if ours[0] and peer[0]:
        return True, True
    if ours[1] and peer[1]:
        if ours[0]:
            return True, False
        if peer[0]:
            return False, True
    return False, False


def jumbo_clear(pause: dict[str, Any]) -> bool:
    """r8169's rtl_jumbo_config at an MTU above 1500 (`jumbo_clears`): Pause and Asym_Pause
    leave the advertisement (never put back at 1500), so -a shows the resolution without pause
    and `ethtool IFACE` "No"; phy_start_aneg renegotiates only where that changed the
    advertisement (genphy_check_and_restart_aneg, `only_if_advertised`): a second jumbo MTU, or
    one after `-A rx off tx off`, keeps the link (audit 34b row 2). Whether the link drops."""
    if not pause.get("jumbo_clears"):
        return True  # igb, igc, stmmac: their MTU change restarts the interface every time
    changed = any(advertised_bits(pause)) or not pause.get("only_if_advertised")
    pause.update(rx=False, tx=False, set=True)
    pause.pop("advertised", None)
    return changed


def advertised_bits(pause: dict[str, Any]) -> tuple[bool, bool]:
    """Our (Pause, Asym_Pause) as get_link_ksettings reports them: kept apart from the request
    where they differ (phylink's bring-up: `advertised`), else the driver's encoding of it."""
    kept = pause.get("advertised")
    if kept is not None:
        return bool(kept[0]), bool(kept[1])
    return advertised_pause(str(pause.get("advertisement", "")), pause)


def partner_pause(
    ifname: str, dev: dict[str, Any], pause: dict[str, Any]
) -> tuple[bool, bool] | None:
    """The partner's (Pause, Asym_Pause) as get_link_ksettings reports them, or None where its
    lp_advertising is empty: a driver that never fills it (igb, igc), no carrier (autoneg not
    complete: genphy_read_lpa clears it), a forced link (genphy_read_lpa: linkmode_zero), or a
    lab without a partner."""
    if pause.get("peer_unreported") or not pause.get("link_partner", True):
        return None
    if not _link_autoneg(dev) or not live(ifname, dev.get("link") or {})[0]:
        return None
    return LAB_PARTNER
