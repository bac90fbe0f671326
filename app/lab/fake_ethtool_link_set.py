"""The lab's ``ethtool -s`` (link settings set) for ``fake_ethtool``; ``ethtool IFACE`` is
``fake_ethtool_link``'s.

``-s`` answers as the driver's set_link_ksettings does (``rule`` in the state): phylib
(phy_ethtool_ksettings_set), mii (mii_ethtool_set_link_ksettings), igb (igb_set_spd_dplx),
phylink (phylink_ethtool_ksettings_set); a forced speed, or a new advertisement, restarts
autonegotiation, which the lab shows as a link bounce. Formats, error lines and exit codes are
ethtool 6.1's, measured on Debian's binary (resources/lab/ethtool/SOURCE.md).

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

import os
from typing import Any

# @tables-start: sbctune's own imports; script_text drops them.
from sbctune.lab.fake_ethtool_base import (
    EINVAL,
    EOPNOTSUPP,
    EPERM,
    ERRNO,
    Failure,
    apply_bitset,
    iface_up,
    nl_error,
    parse_bitset,
)
from sbctune.lab.fake_ethtool_link import MODE_BITS, live, mode_key, mode_speed
from sbctune.lab.fake_ethtool_linkinfo import (
    LINKINFO,
    WOL_WORD,
    check_linkmodes,
    linkmodes_refusal,
    parse_extra,
    set_debug,
    set_linkinfo,
)

# @tables-end

SSET_FAIL = 75  # ethtool 6.1 -s: any netlink refusal (measured: EOPNOTSUPP, EPERM)
# ethtool -s wol letters (ethtool.c parse_wolopts)
WOL_LETTERS = "pumbagsf"
_KINDS = {"speed": "num", "duplex": ("half", "full"), "autoneg": ("on", "off"),
          "advertise": "bitset", "wol": "wol"}  # fmt: skip
# fake_ethtool_linkinfo parses these
_EXTRA = ("port", "mdix", "phyad", "xcvr", "msglvl", "lanes", "master-slave", "sopass")
_LINKMODES_SET = {"speed", "duplex", "autoneg", "advertise", "lanes", "master-slave"}


def _parse(args: list[str]) -> dict[str, Any]:
    """ethtool 6.1's nl_parser: the whole line is checked before anything is sent; `advertise`
    a bitset (fake_ethtool_base.parse_bitset)."""
    pairs: dict[str, Any] = {}
    i = 0
    while i < len(args):
        name = args[i]
        kind = _KINDS.get(name)
        if kind is None and name not in _EXTRA:
            raise Failure([f"ethtool (-s): unknown parameter '{name}'"], 1)
        if name in pairs:
            raise Failure([f"ethtool (-s): duplicate parameter '{name}'"], 1)
        if i + 1 >= len(args):  # measured: "no value for parameter 'phyad'"
            raise Failure([f"ethtool (-s): no value for parameter '{name}'"], 1)
        if kind is None:
            pairs[name], i = parse_extra(name, args, i + 1)
            continue
        if kind == "bitset":
            pairs[name], used = parse_bitset("-s", name, args[i + 1 :])
            i += 1 + used
            continue
        value = args[i + 1]
        ok = (
            (value.isascii() and value.isdigit()) if kind == "num"
            else all(c in WOL_LETTERS + "d" for c in value) if kind == "wol"
            else value in kind
        )  # fmt: skip
        if not ok:
            raise Failure([f"ethtool (-s): invalid value '{value}' for parameter '{name}'"], 1)
        pairs[name] = value
        i += 2
    return pairs


# rtl8152_set_link_ksettings: the link modes it turns into RTL_ADVERTISED_* bits
_R8152_MODES = ("10baseT/Half", "10baseT/Full", "100baseT/Half", "100baseT/Full",
                "1000baseT/Full", "2500baseT/Full")  # fmt: skip


def _forced_ok(
    rule: str, speed: int, duplex: str, supported: list[str], rates: list[int] | None = None
) -> bool:
    """Whether the driver takes a forced speed/duplex (autoneg off); `rates` the chip's own
    forced speeds where the driver checks them (atlantic: link_speed_msk, full duplex)."""
    if rule in ("phylib", "mii", "r8152"):
        # phy_ethtool_ksettings_set / mii_ethtool_set_link_ksettings: 10, 100, 1000 and a
        # duplex, whatever the PHY supports (mii: 1000 only with supports_gmii)
        top = 1000 if rule == "phylib" or any(m.startswith("1000base") for m in supported) else 100
        return speed in (10, 100, 1000) and speed <= top and duplex in ("half", "full")
    if rule == "gmii":  # mii_ethtool_set_link_ksettings with supports_gmii (asix AX88178)
        return speed in (10, 100, 1000) and duplex in ("half", "full")
    if rule == "igc":  # igc_ethtool_set_link_ksettings: "Force mode currently not supported"
        return True  # accepted (0), nothing forced: the link is only reset
    if rule == "atlantic":  # aq_nic_set_link_ksettings: a rate of the chip's link_speed_msk
        return duplex == "full" and speed in (rates or [1000, 100])  # no caps has a half rate
    if rule == "igb":  # igb_set_spd_dplx: 10/100 half or full, 1000 full (kept autonegotiated)
        return (speed, duplex) in {(10, "half"), (10, "full"), (100, "half"), (100, "full"),
                                   (1000, "full")}  # fmt: skip
    if rule == "phylink":
        # phylink_ethtool_ksettings_set (6.1 and 6.12): with a PHY attached (every lab board's
        # macb and stmmac) it returns phy_ethtool_ksettings_set's answer, phylib's check above,
        # before its own phy_lookup_setting against pl->supported (audit 9b row 1)
        return speed in (10, 100, 1000) and duplex in ("half", "full")
    # fixed-link or in-band phylink: a supported mode of that speed and duplex
    return f"{speed}baseT/{duplex.capitalize()}" in supported


def set_link(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    """``ethtool -s IFACE ...``: the new settings kept in the state, or the driver's refusal."""
    pairs = _parse(args)
    if os.geteuid() != 0:
        raise nl_error(EPERM, SSET_FAIL)
    link = dev.get("link")
    if link is None:
        raise nl_error(EOPNOTSUPP, SSET_FAIL)
    down = (dev.get("ops_refused_when_down") or {}).get("-s")
    modes = _LINKMODES_SET & set(pairs)
    info = {key: pairs[key] for key in LINKINFO if key in pairs}
    if modes and not info:  # linkmodes.c checks lanes before it looks at the device
        check_linkmodes(ifname, pairs)
    if (info or modes) and not link.get("set_op"):  # linkinfo.c / linkmodes.c: no set op
        raise nl_error(EOPNOTSUPP, SSET_FAIL)
    # one message per group, in sset_params' order: LINKINFO, LINKMODES, WOL, DEBUG
    if down and (info or modes) and not iface_up(ifname, dev):  # both read the settings first
        raise nl_error(ERRNO[str(down)], SSET_FAIL, "failed to retrieve link settings")
    if info and set_linkinfo(dev, info):
        dev["bounce_pending"] = True  # the driver's set_link_ksettings renegotiates
    if modes:
        if info:  # LINKINFO_SET went first and was taken
            check_linkmodes(ifname, pairs)
        linkmodes_refusal(ifname, link, pairs)
        _set_modes(ifname, dev, link, pairs)
    if "wol" in pairs or "sopass" in pairs:
        _set_wol(link, pairs.get("wol"), "sopass" in pairs)
    if "msglvl" in pairs:
        set_debug(link, bool(link.get("debug_op")), pairs["msglvl"])


def _set_modes(ifname: str, dev: dict[str, Any], link: dict[str, Any], pairs: dict[str, Any]
               ) -> None:  # fmt: skip
    """LINKMODES_SET: speed, duplex, autoneg, advertise as the driver's rule takes them."""
    supported = list(link["supported"])
    autoneg = link["autoneg"] if "autoneg" not in pairs else pairs["autoneg"] == "on"
    forced = link.get("forced") or {}
    # what ethtool does not say stays as the kernel reads it now (ethnl_set_linkmodes starts
    # from get_link_ksettings): the forced or live speed and duplex
    up, now, now_duplex = live(ifname, link)
    current = int(now[:-4]) if up else int(link.get("speed_max") or 0)
    speed = int(pairs.get("speed", forced.get("speed", current)))
    duplex = pairs.get("duplex", forced.get("duplex", now_duplex.lower() if up else "full"))
    if not autoneg:
        autoneg, advertised, duplex = _forced_modes(link, speed, duplex, supported)
    else:
        advertised = _autoneg_modes(link, pairs, speed, duplex, supported)
    if autoneg and link["rule"] == "r8152":  # rtl8152_set_speed: RTL_ADVERTISED_* only
        advertised = [m for m in advertised if m in _R8152_MODES]
    # phy_ethtool_ksettings_set: none left (lanes past 1 leave none whatever the PHY's modes)
    none_asked = "lanes" in pairs and int(pairs["lanes"]) != 1 and "advertise" not in pairs
    phy = supported or (none_asked and link["rule"] in ("phylib", "phylink"))
    if autoneg and not advertised and phy:
        raise nl_error(EINVAL, SSET_FAIL)
    link["autoneg"] = autoneg
    link["advertised"] = sorted(advertised, key=mode_key)
    link["forced"] = None if autoneg else {"speed": speed, "duplex": duplex}
    dev["bounce_pending"] = True  # the PHY restarts autonegotiation (or forces): link bounce
    dev["link_speed_pending"] = _negotiated(link)


def _forced_modes(
    link: dict[str, Any], speed: int, duplex: str, supported: list[str]
) -> tuple[bool, list[str], str]:
    """A forced speed and duplex as the driver's rule takes them: (autoneg, advertised, duplex);
    some drivers autonegotiate after all (igb at 1000, igc)."""
    if not _forced_ok(str(link["rule"]), speed, duplex, supported, link.get("rates")):
        # aq_nic_set_link_ksettings: -1 (EPERM) for a rate it has no case for, EINVAL
        # only for half duplex above 1000
        atlantic = link["rule"] == "atlantic" and not (duplex == "half" and speed > 1000)
        refused = nl_error(EPERM if atlantic else EINVAL, SSET_FAIL)
        # lan78xx_set_link_ksettings (6.1, 6.12): BMCR_LOOPBACK toggled after phylib refused
        refused.bounces = bool(link.get("forced_drops_refused"))
        raise refused
    if link["rule"] == "r8152" and speed == 1000:  # rtl8152_set_speed: BMCR_FULLDPLX
        duplex = "full"
    if link["rule"] == "igb" and speed == 1000:  # igb_set_spd_dplx: autoneg, 1000 only
        return True, ["1000baseT/Full"], duplex
    if link["rule"] == "igc":  # not forced: autoneg and its advertisement stay
        return True, list(link["advertised"]), duplex
    if link["rule"] == "atlantic" and supported:  # link_speed_msk = the forced rate
        return False, [f"{speed}baseT/{duplex.capitalize()}"], duplex
    return False, list(link["advertised"]), duplex


def _autoneg_modes(
    link: dict[str, Any], pairs: dict[str, Any], speed: int, duplex: str, supported: list[str]
) -> list[str]:
    """The modes advertised with autonegotiation on, from what ethtool asked."""
    if link["rule"] == "atlantic":  # every rate of the chip, whatever is asked
        return list(supported or link["advertised"])
    if "advertise" in pairs:  # ethnl_update_linkmodes: the bitset applied to what is
        # advertised now; phy_ethtool_ksettings_set keeps what the PHY supports of it
        ours = sum(1 << MODE_BITS[m] for m in link["advertised"] if m in MODE_BITS)
        bits = apply_bitset(ours, pairs["advertise"], MODE_BITS, SSET_FAIL)
        return [m for m in supported if bits >> MODE_BITS.get(m, 99) & 1]
    if "speed" in pairs or "duplex" in pairs or "lanes" in pairs:
        # net/ethtool/linkmodes.c ethnl_auto_linkmodes: the supported modes of that speed,
        # lanes and duplex; every BASE-T mode has one lane (common.c __LINK_MODE_LANES_T)
        return [m for m in supported
                if ("speed" not in pairs or mode_speed(m)[0] == speed)
                and ("lanes" not in pairs or int(pairs["lanes"]) == 1)
                and ("duplex" not in pairs or mode_speed(m)[1] == duplex)]  # fmt: skip
    return list(link["advertised"])


def _negotiated(link: dict[str, Any]) -> tuple[int, str] | None:
    """The speed and duplex the link comes back at: the forced ones, else the best advertised
    mode no faster than the lab's link (its partner's, as shaped), or None (unchanged)."""
    if link.get("forced"):
        return int(link["forced"]["speed"]), str(link["forced"]["duplex"])
    cap = int(link.get("speed_max") or 0)
    fits = [mode_speed(m) for m in link["advertised"] if not cap or mode_speed(m)[0] <= cap]
    return max(fits, key=lambda sd: (sd[0], sd[1] == "full")) if fits else None


def _set_wol(link: dict[str, Any], value: str | None, sopass: bool = False) -> None:
    """net/ethtool/wol.c ethnl_set_wol: no set_wol EOPNOTSUPP; a mode the driver does not
    support EINVAL ("cannot enable unsupported WoL mode"); a SecureOn password where the driver
    does not support WAKE_MAGICSECURE ('s') EINVAL. Where the board decides what is supported
    (igb's NVM, stmmac's PMT or PHY, a USB chip's descriptor) only what the source settles is
    answered: a mode past
    the driver's own bound, and igb's `d` (igb_set_wol: 0 without IGB_FLAG_WOL_SUPPORTED)."""
    if not link.get("wol_set_op"):
        raise nl_error(EOPNOTSUPP, SSET_FAIL)
    supported = link.get("wol_supported")  # None: the chip decides
    bound = supported if supported is not None else link.get("wol_supported_within")
    wanted = None if value is None else "" if value == "d" else value.replace("d", "")
    if bound is not None and wanted is not None and any(c not in bound for c in wanted):
        raise nl_error(EINVAL, SSET_FAIL, "cannot enable unsupported WoL mode")
    if sopass and bound is not None and "s" not in bound:
        raise nl_error(EINVAL, SSET_FAIL, "magicsecure not supported, cannot set password")
    if supported is None and not (wanted == "" and link.get("wol_off_taken")):
        # the board's answer (NVM, PMT, the PHY, a USB descriptor): refused, never guessed
        raise Failure([WOL_WORD], 1)
    if wanted is not None:
        link["wol"] = "".join(c for c in WOL_LETTERS if c in wanted) or "d"


def write_link_speed(ifname: str, speed_duplex: tuple[int, str], state_path: str = "") -> None:
    """The lab's store of the shaped link (``overlay.link_files``, beside the ethtool state's
    folder; sysfs answers from it: sysfs_link) takes the renegotiated speed."""
    speed, duplex = speed_duplex
    store = os.path.join(os.path.dirname(os.path.dirname(state_path)), "link") if state_path else ""
    for name, text in (("speed", str(speed)), ("duplex", duplex)):
        path = os.path.join(store, f"{ifname}.{name}") if store else ""
        if not (path and os.path.isfile(path)):
            path = f"/sys/class/net/{ifname}/{name}"  # unit tests: their own files
        try:
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError:
            pass
