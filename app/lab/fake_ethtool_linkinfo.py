"""``ethtool -s IFACE port|mdix|phyad|xcvr|msglvl ...`` in the lab (audit 9a row L1).

ethtool 6.1 (netlink/settings.c ``sset_params``, netlink/parser.c ``nl_parser``; its Debian
binary run against a scratch veth for the words and exit codes) parses the whole line first
(a bad value, a missing one, a duplicate: exit 1, nothing sent), then sends one message per
group in ``sset_params``' order: LINKINFO_SET (port, mdix, phyad), LINKMODES_SET, WOL_SET,
DEBUG_SET (msglvl); it stops at the first refusal (exit 75). ``xcvr`` has no netlink
attribute: "deprecated parameter 'xcvr' not supported by kernel", exit 1.

The kernel: net/ethtool/linkinfo.c ethnl_set_linkinfo needs get_ and set_link_ksettings
(EOPNOTSUPP), reads the settings first ("failed to retrieve link settings"), calls the driver
only when a value differs from what it read (ethnl_update_u8), and the driver's
set_link_ksettings decides (the link state's ``rule``): mii_ethtool_set_link_ksettings (mii,
gmii) refuses a port other than MII and a phyad other than ``mii->phy_id`` (EINVAL), ignores
mdix and restarts autonegotiation; phy_ethtool_ksettings_set (phylib, and phylink with a PHY:
phylink_ethtool_ksettings_set passes to it) refuses a phyad other than the PHY's, keeps port
as the PHY reads it, stores mdix_ctrl and restarts autonegotiation; rtl8152_set_link_ksettings
(r8152) reads none of the three and renegotiates (rtl8152_set_speed). A restart is a link
bounce. net/ethtool/debug.c ethnl_set_debug needs get_ and set_msglevel (EOPNOTSUPP) and
updates the driver's msg_enable through ethnl_update_bitset32 (bitset.c): a value replaces it
(ETHTOOL_A_BITSET_NOMASK), value/mask or ``NAME on|off`` pairs change those bits; a bit past
the 15 classes "cannot modify bits past kernel bitset size" (EINVAL), an unknown name "bit
name not found" (EOPNOTSUPP). Every usbnet driver, lan78xx, bcmgenet and r8152 store it as
given (usbnet_set_msglevel, lan78xx_set_msglevel, bcmgenet_set_msglevel,
rtl8152_set_msglevel); the next ``ethtool IFACE`` shows it.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start: sbctune's own imports; script_text drops them.
from sbctune.lab.fake_ethtool_base import (
    EINVAL,
    EOPNOTSUPP,
    ERANGE,
    Failure,
    attr_offset,
    nl_error,
)

# @tables-end

PORTS = {"tp": "Twisted Pair", "aui": "AUI", "bnc": "BNC", "mii": "MII", "fibre": "FIBRE",
         "da": "Direct Attach Copper"}  # fmt: skip
MDIX = ("auto", "on", "off")
# net/ethtool/common.c netif_msg_class_names (NETIF_MSG_CLASS_COUNT 15)
MSG_CLASSES = ("drv", "probe", "link", "timer", "ifdown", "ifup", "rx_err", "tx_err",
               "tx_queued", "intr", "tx_done", "rx_status", "pktdata", "hw", "wol")  # fmt: skip
LINKINFO = ("port", "mdix", "phyad")
# set_link_ksettings rules whose linkinfo answer was read (the rest: the lab's word)
_READ_RULES = ("mii", "gmii", "phylib", "phylink", "r8152")
LAB_WORD = "sbctune lab: port, mdix and phyad on this driver are not modelled, and this lab has no real capture of the answer."  # noqa: E501
# what the board, not the driver's source, decides (audit 10): the lab refuses to guess
MASTER_SLAVE_WORD = "sbctune lab: whether master-slave is taken is this board's PHY's (a gigabit PHY reports it), and this lab has no real capture of the answer."  # noqa: E501
WOL_WORD = "sbctune lab: the Wake-on-LAN modes this NIC supports are its board's (NVM, PMT, PHY or USB descriptor), and this lab has no real capture of the answer."  # noqa: E501


def _c_number(text: str) -> int | None:
    """strtoul(text, 0): 0x hex, a leading 0 octal, else decimal."""
    try:
        if text[:2].lower() == "0x":
            return int(text[2:], 16)
        if len(text) > 1 and text[0] == "0":
            return int(text[1:], 8)
        return int(text, 10) if (text.isascii() and text.isdigit()) else None
    except ValueError:
        return None


def _bitset_number(text: str) -> int | None:
    """parser.c __parse_num_string: decimal that fits a u32, else hex (a 0x prefix forces it)."""
    try:
        if text[:2].lower() == "0x":
            return int(text[2:], 16) if text[2:] else None
        if (text.isascii() and text.isdigit()) and int(text) <= 0xFFFFFFFF:
            return int(text)
        return int(text, 16)
    except ValueError:
        return None


# ethtool 6.1 settings.c: master-slave's names (nl_parse_lookup_u8), the kernel's
# MASTER_SLAVE_CFG_* (2-5) that ethnl_validate_master_slave_cfg takes
MASTER_SLAVE = ("preferred-master", "preferred-slave", "forced-master", "forced-slave")
_LINKMODES = ("speed", "lanes", "duplex", "autoneg", "advertise", "master-slave")


def _bad(name: str, value: str) -> Failure:
    return Failure([f"ethtool (-s): invalid value '{value}' for parameter '{name}'"], 1)


def parse_extra(name: str, args: list[str], i: int) -> tuple[Any, int]:
    """Parse ``name``'s value(s) at args[i:]: (parsed value, index after it)."""
    value = args[i]
    if name == "xcvr":
        raise Failure(["ethtool (-s): deprecated parameter 'xcvr' not supported by kernel"], 1)
    if name == "port":
        if value not in PORTS:
            raise _bad(name, value)
        return value, i + 1
    if name == "mdix":
        if value not in MDIX:
            raise _bad(name, value)
        return value, i + 1
    if name in ("lanes", "master-slave", "sopass"):
        return _parse_audit10(name, value), i + 1
    if name == "phyad":
        number = _c_number(value)
        if number is None or number > 255:
            raise _bad(name, value)
        return number, i + 1
    # msglvl: is_numeric_bitset (a digit first) -> value[/mask], else NAME on|off ... [--]
    if value[:1].isascii() and value[:1].isdigit():
        head, slash, tail = value.partition("/")
        number, mask = _bitset_number(head), _bitset_number(tail) if slash else None
        if number is None or (slash and mask is None):
            raise _bad(name, value)
        return ("mask", number, mask), i + 1
    names: list[tuple[str, bool]] = []
    while i < len(args):
        if args[i] == "--":
            return ("names", names), i + 1
        if i + 1 >= len(args) or args[i + 1] not in ("on", "off"):
            raise Failure(
                [f"ethtool (-s): flag '{args[i]}' for parameter 'msglvl' is not followed by "
                 "'on' or 'off'"], 1)  # fmt: skip
        names.append((args[i], args[i + 1] == "on"))
        i += 2
    return ("names", names), i


def _parse_audit10(name: str, value: str) -> Any:
    """lanes (a u32: "-1", "x" and 2^32 refused, measured), master-slave (nl_parse_lookup_u8),
    sopass (nl_parse_byte_str: six hex bytes; its word says "of parameter", measured)."""
    if name == "lanes":
        if not (value.isascii() and value.isdigit()) or int(value) > 0xFFFFFFFF:
            raise _bad(name, value)
        return int(value)
    if name == "master-slave":
        if value not in MASTER_SLAVE:
            raise _bad(name, value)
        return value
    octets = value.split(":")
    if len(octets) != 6 or not all(_is_hex_byte(o) for o in octets):
        raise Failure([f"ethtool (-s): invalid value '{value}' of parameter 'sopass'"], 1)
    return value


def _is_hex_byte(text: str) -> bool:
    return 0 < len(text) <= 2 and all(c in "0123456789abcdefABCDEF" for c in text)


def _bitset_size(parsed: dict[str, Any]) -> int:
    """Bytes of an ``advertise`` bitset attribute as ethtool 6.1 builds it (measured against
    the offsets the kernel reports): names verbose (BITS, a BIT per name: NAME, VALUE if on),
    numbers compact (NOMASK without a mask, SIZE, VALUE and MASK of 32-bit words)."""
    if "names" in parsed:
        return 8 + sum(4 + (4 + len(n) + 1 + 3) // 4 * 4 + (4 if on else 0)
                       for n, on in parsed["names"].items())  # fmt: skip
    mask = parsed.get("mask")
    words = (max(int(parsed["value"]), int(mask or 0)).bit_length() + 31) // 32
    return 4 + 8 + (4 + 4 * words) + (4 if mask is None else 4 + 4 * words)


def _lm_offset(ifname: str, pairs: dict[str, Any], name: str) -> int:
    """Offset of `name`'s attribute in LINKMODES_SET: ethtool adds them in the command line's
    order after the header (measured: `speed 100 lanes 3` 40, `lanes 3 speed 100` 32 on lo)."""
    offset = attr_offset(ifname, 0)
    for key in pairs:
        if key == name:
            break
        if key in _LINKMODES:
            offset += _bitset_size(pairs[key]) if key == "advertise" else 8
    return offset


def check_linkmodes(ifname: str, pairs: dict[str, Any]) -> None:
    """net/ethtool/linkmodes.c (6.1 and 6.12), before the device's ops are looked at: the
    policy's NLA_POLICY_RANGE(NLA_U32, 1, 8) for lanes, then ethnl_check_linkmodes' power of
    two (measured: lanes 0 and 9 "integer out of range", 3 "lanes value is invalid")."""
    if "lanes" not in pairs:
        return
    lanes, offset = int(pairs["lanes"]), _lm_offset(ifname, pairs, "lanes")
    if not 1 <= lanes <= 8:
        raise nl_error(ERANGE, 75, "integer out of range", offset)
    if lanes & (lanes - 1):
        raise nl_error(EINVAL, 75, "lanes value is invalid", offset)


def master_slave_known(link: dict[str, Any]) -> bool | None:
    """Whether get_link_ksettings reports a master/slave config (not UNSUPPORTED): only
    phy_ethtool_ksettings_get (phylib, and phylink with a PHY) fills it, from
    phydev->master_slave_get, which genphy_read_status leaves UNSUPPORTED unless the PHY is
    gigabit-capable (genphy_read_master_slave); mii, r8152, igb, igc, atlantic and usbnet's
    ksettings never set it. None: the board's PHY decides (no modes known)."""
    if link.get("rule") not in ("phylib", "phylink"):
        return False
    if not link.get("supported"):
        return None
    return any(str(m).startswith("1000base") for m in link["supported"])


def linkmodes_refusal(ifname: str, link: dict[str, Any], pairs: dict[str, Any]) -> None:
    """ethnl_update_linkmodes' own refusals, after the settings were read: master-slave where
    the driver reports none, lanes with autonegotiation off where the driver has no
    cap_link_lanes_supported (in 6.12 only hns3, mlxsw and bnxt set it: none of the 13)."""
    if "master-slave" in pairs:
        known = master_slave_known(link)
        if known is None:
            raise Failure([MASTER_SLAVE_WORD], 1)
        if not known:
            raise nl_error(EOPNOTSUPP, 75, "master/slave configuration not supported by device",
                           _lm_offset(ifname, pairs, "master-slave"))  # fmt: skip
    autoneg = link["autoneg"] if "autoneg" not in pairs else pairs["autoneg"] == "on"
    if "lanes" in pairs and not autoneg:
        raise nl_error(EOPNOTSUPP, 75, "lanes configuration not supported by device",
                       _lm_offset(ifname, pairs, "lanes"))  # fmt: skip


def _block(link: dict[str, Any], label: str) -> list[Any] | None:
    return next((b for b in link.get("blocks", []) if b[0] == label), None)


def set_linkinfo(dev: dict[str, Any], pairs: dict[str, Any]) -> bool:
    """LINKINFO_SET: True when the driver was called (its PHY renegotiates: a bounce)."""
    link = dev["link"]
    rule = str(link.get("rule"))
    if rule not in _READ_RULES:
        raise Failure([LAB_WORD], 1)
    port_block, phyad_block = _block(link, "Port"), _block(link, "PHYAD")
    now_port = str(port_block[1]) if port_block else None
    now_phyad = (
        int(phyad_block[1])
        if phyad_block and (str(phyad_block[1]).isascii() and str(phyad_block[1]).isdigit())
        else None
    )
    if now_port is None:  # the chip or the board's PHY decides the link (stmmac, asix): unknown
        raise Failure([LAB_WORD], 1)
    phylib = rule in ("phylib", "phylink")
    # eth_tp_mdix_ctrl as read: phylib's phydev->mdix_ctrl (ETH_TP_MDI_INVALID until set:
    # phy_device_create leaves it 0); mii_ethtool_get_link_ksettings never fills it (0)
    changed = "mdix" in pairs and (not phylib or pairs["mdix"] != link.get("mdix_ctrl"))
    if "port" in pairs:
        changed = changed or PORTS[pairs["port"]] != now_port
    if "phyad" in pairs:
        if now_phyad is None:  # the board decides the PHY's address: not known here
            raise Failure([LAB_WORD], 1)
        changed = changed or pairs["phyad"] != now_phyad
    if not changed:
        return False  # ethnl_update_u8: nothing modified, the driver is not called
    if "phyad" in pairs and pairs["phyad"] != now_phyad and rule != "r8152":
        raise nl_error(EINVAL, 75, "link settings update failed")
    if rule in ("mii", "gmii") and "port" in pairs and pairs["port"] != "mii":
        raise nl_error(EINVAL, 75, "link settings update failed")
    if phylib and "mdix" in pairs:
        _show_mdix(link, str(pairs["mdix"]))
    return True  # mii/phylib/r8152: taken, autonegotiation restarted


def _show_mdix(link: dict[str, Any], ctrl: str) -> None:
    """phy_ethtool_ksettings_set stores mdix_ctrl; ethtool 6.1's dump_mdix (common.c) prints
    "on (forced)" / "off (forced)", or the PHY's status then " (auto)". The status (the
    PHY driver's) stays as the facts say."""
    link["mdix_ctrl"] = ctrl
    block = _block(link, "MDI-X")
    if block is None:
        return
    status = link.setdefault("mdix_status", str(block[1]))
    block[1] = f"{ctrl} (forced)" if ctrl in ("on", "off") else f"{status} (auto)"


def set_debug(link: dict[str, Any], has_op: bool, value: Any) -> None:
    """DEBUG_SET: the new msg_enable, shown by the next ``ethtool IFACE``."""
    if not has_op:
        raise nl_error(EOPNOTSUPP, 75)
    block = _block(link, "Current message level")
    try:
        now = int(str(block[1]).split()[0], 16) if block else None
    except ValueError:
        now = None
    full = (1 << len(MSG_CLASSES)) - 1
    if value[0] == "mask":
        _, number, mask = value
        if mask is None:  # NOMASK: the value replaces msg_enable
            if number & ~full:
                raise nl_error(EINVAL, 75, "cannot modify bits past kernel bitset size")
            new = number
        else:
            if mask & ~full:
                raise nl_error(EINVAL, 75, "cannot modify bits past kernel bitset size")
            if now is None:
                raise Failure([LAB_WORD.replace("port, mdix and phyad", "msglvl")], 1)
            new = (now & ~mask) | (number & mask)
    else:
        if now is None:
            raise Failure([LAB_WORD.replace("port, mdix and phyad", "msglvl")], 1)
        new = now
        for name, on in value[1]:
            if name not in MSG_CLASSES:
                raise nl_error(EOPNOTSUPP, 75, "bit name not found")
            bit = 1 << MSG_CLASSES.index(name)
            new = new | bit if on else new & ~bit
    names = " " * 30 + "".join(f" {n}" for i, n in enumerate(MSG_CLASSES) if new >> i & 1)
    text = f"0x{new:08x} ({new})"
    if block is not None:
        block[1], block[2] = text, [names]
