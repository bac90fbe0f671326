"""The lab's ``ethtool IFACE`` (link settings) and ``ethtool -s`` for ``fake_ethtool``.

The answer is a list of blocks (label, value, continuation lines) in ethtool's order: the
profile's real capture of ``ethtool IFACE`` where it has one, else blocks built from the
driver's facts (``[link]`` in resources/lab/ethtool/drivers/<driver>.toml, each with its kernel
source). The live parts are the lab's: Speed and Duplex from the shaped link's sysfs files,
"Link detected" from the carrier; with no carrier no link partner, and the speed and duplex
the driver reads then (``idle_shown``): "Unknown!" (phylib with autonegotiation, igb, igc,
atlantic), a forced link's own, mii's 10 Mbit/s half duplex (r8152, ax88179_178a), or, set
down on 6.1, the last link's (lan78xx, smsc95xx: PHY_HALTED keeps it). What only the hardware
knows (PHYAD, a register-read MDI-X, Wake-on where the source leaves it to the chip) is left
out.

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
# include/uapi/linux/ethtool.h link mode bits, in bit order (ethtool prints them so)
MODE_BITS = {
    "10baseT/Half": 0, "10baseT/Full": 1, "100baseT/Half": 2, "100baseT/Full": 3,
    "1000baseT/Half": 4, "1000baseT/Full": 5, "10000baseT/Full": 12,
    "2500baseT/Full": 47, "5000baseT/Full": 48,
}  # fmt: skip
MODES_LABEL = {
    "Supported link modes": "Supported link modes:   ",
    "Advertised link modes": "Advertised link modes:  ",
    "Link partner advertised link modes": "Link partner advertised link modes:  ",
}
# ethtool -s wol letters (ethtool.c parse_wolopts)
WOL_LETTERS = "pumbagsf"
_KINDS = {"speed": "num", "duplex": ("half", "full"), "autoneg": ("on", "off"),
          "advertise": "bitset", "wol": "wol"}  # fmt: skip
# fake_ethtool_linkinfo parses these
_EXTRA = ("port", "mdix", "phyad", "xcvr", "msglvl", "lanes", "master-slave", "sopass")
_LINKMODES_SET = {"speed", "duplex", "autoneg", "advertise", "lanes", "master-slave"}


def mode_key(mode: str) -> tuple[int, str]:
    return (MODE_BITS.get(mode, 99), mode)


def mode_speed(mode: str) -> tuple[int, str]:
    """'1000baseT/Full' -> (1000, 'full')."""
    head, _, duplex = mode.partition("/")
    return int(head.split("base")[0]), duplex.lower()


def mode_lines(label: str, modes: list[str], indent: str) -> list[str]:
    """ethtool's dump_link_modes: a mode per line, a Full after its Half on the same line."""
    start = MODES_LABEL.get(label, label + ": ")
    if not modes:
        return [f"{indent}{start}Not reported"]
    rows: list[str] = []
    for mode in sorted(modes, key=mode_key):
        base = mode.split("/")[0]
        if rows and rows[-1].endswith(base + "/Half") and mode.endswith("/Full"):
            rows[-1] += " " + mode
        else:
            rows.append(mode)
    pad = " " * len(start)
    return [f"{indent}{start}{rows[0]}"] + [f"{indent}{pad}{row}" for row in rows[1:]]


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read(64).strip()
    except OSError:
        return None


# A link put in place of the live one while fake_ethtool.link_dependent renders an answer under
# other link states (carrier, speed, duplex as sysfs gives them); None: the live link.
LINK_PROBE: list[dict[str, Any]] = []


def live(ifname: str, link: dict[str, Any]) -> tuple[bool, str, str]:
    """(carrier, speed text, duplex text) as the lab's link shows them now: the state's where
    it says (unit tests), else the namespace's sysfs (the profile's speed bound over the veth's)."""
    if LINK_PROBE:
        link = LINK_PROBE[-1]
    if "carrier" in link:
        carrier = bool(link["carrier"])
        speed, duplex = str(link.get("speed", "")), str(link.get("duplex", ""))
    else:
        carrier = _read(f"/sys/class/net/{ifname}/carrier") == "1"
        speed, duplex = _stored(ifname, link)
    known = speed.isascii() and speed.isdigit() and int(speed) > 0
    if known and (carrier or link.get("speed_kept")):  # usbnet: kept without a carrier
        return carrier, f"{speed}Mb/s", duplex.capitalize() if duplex else "Unknown! (255)"
    return False, "Unknown!", "Unknown! (255)"


def _stored(ifname: str, link: dict[str, Any]) -> tuple[str, str]:
    """The link's negotiated speed and duplex: the lab's store files (``store``: sysfs answers
    from them as net-sysfs.c does, EINVAL while set down: sysfs_link), else sysfs."""
    store = link.get("store") or {}
    folder = f"/sys/class/net/{ifname}"
    return (
        _read(store.get("speed") or f"{folder}/speed") or "",
        _read(store.get("duplex") or f"{folder}/duplex") or "",
    )


def advertised_pause(encoding: str, pause: dict[str, Any]) -> tuple[bool, bool]:
    """(Pause, Asym_Pause) as the driver advertises RX/TX pause: mii_advertise_flowctrl
    (lan78xx_set_pause, rtl8152_set_pauseparam) and linkmode_set_pause (r8169's
    phy_set_asym_pause), or Pause = RX, Asym = RX | TX (bcmgenet_phy_pause_set)."""
    rx, tx = bool(pause.get("rx")), bool(pause.get("tx"))
    if encoding == "pause_rx_asym_rx_or_tx":
        return rx, rx or tx
    return rx, rx != tx  # mii_advertise_flowctrl: RX+TX Pause, RX Pause+Asym, TX Asym


def _pause_words(bits: tuple[bool, bool]) -> str:
    """ethtool's dump_pause for an advertisement's (Pause, Asym_Pause)."""
    pause, asym = bits
    if pause:
        return "Symmetric Receive-only" if asym else "Symmetric"
    return "Transmit-only" if asym else "No"


def _last_link(ifname: str, link: dict[str, Any]) -> tuple[str, str]:
    """The speed and duplex of the link before it was set down: the lab's sysfs files (bound
    over the veth's, written at each renegotiation), or the state's (unit tests)."""
    if "carrier" in link:
        return str(link.get("speed", "")), str(link.get("duplex", ""))
    return _stored(ifname, link)


def idle_shown(link: dict[str, Any], last: tuple[str, str] | None = None) -> tuple[str, str] | None:
    """Speed and Duplex as the driver reads them without a carrier, where not "Unknown!"
    (link_state.idle_settings): a forced link's own, the last link's (`last`, given for an
    interface set down whose PHY keeps it), or mii's 10 Mbit/s half duplex."""
    idle = link.get("idle") or {}
    speed, duplex = last or ("", "")
    if idle.get("halted_last") and speed.isascii() and speed.isdigit() and int(speed) > 0:
        known = duplex in ("half", "full")
        return f"{speed}Mb/s", duplex.capitalize() if known else "Unknown! (255)"
    forced = link.get("forced")
    if forced and link.get("rule") in idle.get("forced_rules", ()):
        return f"{int(forced['speed'])}Mb/s", str(forced["duplex"]).capitalize()
    if link.get("autoneg") and idle.get("autoneg"):
        return f"{int(idle['autoneg']['speed'])}Mb/s", str(idle["autoneg"]["duplex"])
    return None


def _value(label: str, link: dict[str, Any], up: bool, speed: str, duplex: str) -> str | None:
    if not up and label in ("Speed", "Duplex") and "Unknown!" in speed:
        speed, duplex = idle_shown(link) or (speed, duplex)
    if label == "Speed":
        return speed
    if label == "Duplex":  # cdc_ncm: the kernel's zeroed duplex, whatever the link
        return str(link.get("duplex_shown") or duplex)
    if label == "Link detected":
        return "yes" if up else "no"
    if label == "Auto-negotiation":
        return "on" if link["autoneg"] else "off"
    if label == "Advertised auto-negotiation":
        return "Yes" if link["autoneg"] else "No"
    return None


_MODE_LABELS = ("Supported link modes", "Advertised link modes",
                "Link partner advertised link modes")  # fmt: skip


def _mode_block(label: str, value: Any, more: list[str], link: dict[str, Any], indent: str
                ) -> list[str]:  # fmt: skip
    """A link-modes block: a capture's lines as captured, unless -s changed what is advertised."""
    modes = link["advertised"] if label == "Advertised link modes" else value
    return list(more) if more and modes == value else mode_lines(label, list(modes), indent)


def _wol_refused(label: str, link: dict[str, Any]) -> list[str] | None:
    """The Wake-on lines for a user where the driver has get_wol: WOL_GET needs CAP_NET_ADMIN
    (net/ethtool/netlink.c), so ethtool prints its refusal once, in their place; None: shown."""
    if label not in ("Supports Wake-on", "Wake-on") or os.geteuid() == 0 or not link.get("wol_op"):
        return None
    return ["netlink error: " + EPERM] if label == "Supports Wake-on" else []


def _shown_value(label: str, value: Any, dev: dict[str, Any], live_link: tuple[bool, str, str]
                 ) -> Any:  # fmt: skip
    """A block's value now: the live link's, the WoL set since, the pause advertised since."""
    link = dev["link"]
    if label == "Wake-on" and link.get("wol") is not None:
        value = link["wol"]
    pause = dev.get("pause") or {}
    encoding = pause.get("advertisement") if pause.get("set") else None
    if label == "Advertised pause frame use" and encoding:
        # after an `ethtool -A` the PHY's advertisement is the driver's encoding of it, or the
        # one it kept where the driver advertises only over an autonegotiating link (lan78xx)
        kept = pause.get("advertised") if pause.get("advertisement_needs_link") else None
        bits = (bool(kept[0]), bool(kept[1])) if kept else advertised_pause(str(encoding), pause)
        value = _pause_words(bits)
    up, speed, duplex = live_link
    shown = _value(label, link, up, speed, duplex)
    return shown if shown is not None else value


def show_link(ifname: str, dev: dict[str, Any]) -> str:
    link = dev["link"]
    live_link = live(ifname, link)
    up = live_link[0]
    if not up and (link.get("idle") or {}).get("halted_last") and not iface_up(ifname, dev):
        shown_idle = idle_shown(link, _last_link(ifname, link))
        live_link = (False, *shown_idle) if shown_idle else live_link
    indent = link.get("indent", "\t")
    out = [*_settings_refused(ifname, dev), f"Settings for {ifname}:"]
    no_settings = out[0].startswith("netlink error")
    # WOL_GET (admin only) is sent before DEBUG_GET and LINKSTATE_GET: its refusal comes once,
    # before the first of them
    eperm_due = bool(link.get("wol_hidden")) and os.geteuid() != 0
    for label, value, more in link["blocks"]:
        if no_settings and label not in _NOT_LINK_SETTINGS:
            continue  # LINKMODES_GET and LINKINFO_GET failed: none of their lines
        if label.startswith("Link partner") and (not up or not link["autoneg"]):
            continue  # no link (or forced): the PHY reads no partner (genphy_read_lpa)
        if label in _MODE_LABELS:
            out += _mode_block(label, value, more, link, indent)
            continue
        refused = _wol_refused(label, link)
        if refused is not None:
            out += refused
            continue
        debug = label == "Current message level" and link.get("source") != "capture"
        if eperm_due and (label == "Link detected" or debug):
            out.append("netlink error: " + EPERM)
            eperm_due = False
        if debug:  # debug_reply_cb's own layout: eight spaces, not the tab (audit 9b row 7)
            out += [f"        {label}: {value}", *more]
            continue
        out.append(
            f"{indent}{label}: {_shown_value(label, value, dev, live_link)}" if label else ""
        )
        out += list(more)
    return "\n".join(out) + "\n"


# The lines of `ethtool IFACE` that come from WOL_GET, DEBUG_GET and LINKSTATE_GET, not from the
# link settings (LINKMODES_GET, LINKINFO_GET)
_NOT_LINK_SETTINGS = ("Supports Wake-on", "Wake-on", "Current message level", "Link detected")


def _settings_refused(ifname: str, dev: dict[str, Any]) -> list[str]:
    """The errors `ethtool IFACE` prints where the driver's get_link_ksettings refuses while the
    interface is down (bcmgenet_get_link_ksettings: EINVAL without netif_running; table fact
    ops_refused_when_down): net/ethtool/linkmodes.c and linkinfo.c prepare_data (6.1, 6.12) both
    fail with "failed to retrieve link settings", and ethtool's nl_gset (suppress_nlerr 1:
    only EOPNOTSUPP is silent, netlink/nlsock.c nlsock_process_ack) prints each extack and errno
    and goes on to WOL_GET, DEBUG_GET and LINKSTATE_GET (audit 9a L2, audit 33a row 3)."""
    down = (dev.get("ops_refused_when_down") or {}).get("-s")
    if not down or iface_up(ifname, dev):
        return []
    failed = [
        "netlink error: failed to retrieve link settings",
        f"netlink error: {ERRNO[str(down)]}",
    ]
    return failed * 2  # LINKMODES_GET, then LINKINFO_GET


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
        raise nl_error(EPERM if atlantic else EINVAL, SSET_FAIL)
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
