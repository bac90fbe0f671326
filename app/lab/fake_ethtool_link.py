"""The lab's ``ethtool IFACE`` (link settings) for ``fake_ethtool``.

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

``ethtool -s`` is fake_ethtool_link_set's. Formats, error lines and exit codes are ethtool
6.1's, measured on Debian's binary (resources/lab/ethtool/SOURCE.md).

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

import os
from typing import Any

# @tables-start: sbctune's own imports; script_text drops them.
from sbctune.lab.fake_ethtool_base import (
    EPERM,
    ERRNO,
    iface_up,
)

# @tables-end

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
