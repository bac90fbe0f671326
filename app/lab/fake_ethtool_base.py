"""What every answer of the lab's ``fake_ethtool`` shares: ethtool 6.1's netlink error lines and
exit codes, the root check of a set, and the ``name value`` argument parser.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

import os
from typing import Any

EOPNOTSUPP = "Operation not supported"
EINVAL = "Invalid argument"
EPERM = "Operation not permitted"
ERANGE = "Numerical result out of range"
ELNRNG = "Link number out of range"
EBUSY = "Device or resource busy"
ENODEV = "No such device"
# A driver rule's errno name (fake_ethtool_driver) -> the message ethtool prints for it.
ERRNO = {"EOPNOTSUPP": EOPNOTSUPP, "EINVAL": EINVAL, "ERANGE": ERANGE, "ELNRNG": ELNRNG,
         "ENODEV": ENODEV}  # fmt: skip

# Exit codes of ethtool 6.1's netlink handlers when the request fails (measured, see SOURCE.md).
FAIL_CODE = {"-g": 1, "-c": 1, "-k": 1, "-a": 1, "--show-eee": 1}
SET_FAIL_CODE = {"-G": 81, "-C": 1, "-K": 92, "-A": 76, "--set-eee": 76}


class Failure(Exception):
    """An ethtool failure: the lines it prints on stderr and its exit code."""

    def __init__(self, lines: list[str], code: int) -> None:
        super().__init__("\n".join(lines))
        self.lines = lines
        self.code = code
        # what the driver stored before it refused stays (stmmac's RX coalescing, audit 33b)
        self.keeps_state = False
        # the driver dropped the link before it refused (lan78xx's forced set, audit 44 row 5)
        self.bounces = False


def nl_error(
    message: str, code: int, extack: str | None = None, offset: int | None = None
) -> Failure:
    lines = []
    if extack:
        lines.append(f"netlink error: {extack}" + (f" (offset {offset})" if offset else ""))
    lines.append(f"netlink error: {message}")
    return Failure(lines, code)


def attr_offset(ifname: str, index: int) -> int:
    """Byte offset of the ``index``-th request attribute (after the header nest) in the message.

    nlmsghdr 16 + genlmsghdr 4, then the header nest (4) holding the device name attribute
    (4 + name + NUL, padded to 4); each u32/u8 attribute after it takes 8 bytes. The real
    ethtool reported "(offset 24)" for the name attribute, which this layout reproduces.
    """
    name_attr = (4 + len(ifname) + 1 + 3) // 4 * 4
    return 20 + 4 + name_attr + 8 * index


def require_root(code: int) -> None:
    if os.geteuid() != 0:
        raise nl_error(EPERM, code)


BOOL = "bool"
NUM = "num"


def parse_pairs(option: str, args: list[str], kinds: dict[str, str]) -> list[tuple[str, str]]:
    """``name value`` pairs checked like ethtool's own parser (unknown name, bad value)."""
    pairs: list[tuple[str, str]] = []
    for i in range(0, len(args), 2):
        name = args[i]
        if name not in kinds:
            raise Failure([f"ethtool ({option}): unknown parameter '{name}'"], 1)
        if i + 1 >= len(args):
            raise Failure([f"ethtool ({option}): option '{name}' requires an argument"], 1)
        value = args[i + 1]
        ok = (
            value in ("on", "off") if kinds[name] == BOOL else (value.isascii() and value.isdigit())
        )
        if not ok:
            raise Failure(
                [f"ethtool ({option}): invalid value '{value}' for parameter '{name}'"], 1
            )
        pairs.append((name, value))
    return pairs


_HEX = "0123456789abcdefABCDEF"


def _hex_text(text: str) -> int | None:
    """__parse_num_string with force_hex (the link-mode and EEE masks): hex digits, no sign."""
    return int(text, 16) if text and all(c in _HEX for c in text) else None


def parse_bitset(option: str, name: str, args: list[str]) -> tuple[dict[str, Any], int]:
    """``advertise`` of ``-s`` and ``--set-eee`` as ethtool 6.1 parses it (netlink/parser.c
    nl_parse_bitset; its texts and the numbers' meaning measured on Debian's 1:6.1-1 binary with
    --debug): numeric when it starts with 0x or is hex digits with at most one '/'
    (is_numeric_bitset), always hex ("010" is bit 4), "VALUE/MASK" with a mask; else
    "name on|off" pairs to the end of the line or "--" (parse_name_bitset). ({"value", "mask"}
    or {"names": {name: on}}, the count of arguments taken)."""
    arg = args[0]
    body = arg[2:] if arg[:2] in ("0x", "0X") else arg
    numeric = arg[:2] in ("0x", "0X") or (
        arg.count("/") <= 1
        and all(
            c in _HEX for c in arg.replace("/0x", "/", 1).replace("/0X", "/", 1).replace("/", "")
        )
    )
    if numeric:
        value_text, slash, mask_text = body.partition("/")
        if slash and mask_text[:2] in ("0x", "0X"):
            mask_text = mask_text[2:]
        value, mask = _hex_text(value_text), _hex_text(mask_text) if slash else None
        if value is None or (slash and mask is None):
            raise Failure([f"ethtool ({option}): invalid value '{body}' for parameter '{name}'"], 1)
        return {"value": value, "mask": mask}, 1
    names: dict[str, bool] = {}
    used = 0
    while used < len(args):
        if args[used] == "--":
            return {"names": names}, used + 1
        if used + 1 >= len(args) or args[used + 1] not in ("on", "off"):
            raise Failure(
                [
                    f"ethtool ({option}): flag '{args[used]}' for parameter '{name}' "
                    "is not followed by 'on' or 'off'"
                ],
                1,
            )
        names[args[used]] = args[used + 1] == "on"
        used += 2
    return {"names": names}, used


def apply_bitset(now: int, parsed: dict[str, Any], bits: dict[str, int], code: int) -> int:
    """The kernel's ethnl_update_bitset (net/ethtool/bitset.c) of `now` by `parsed`: a number
    without a mask replaces it, with a mask changes the masked bits; names set or clear their
    bits, a name not in `bits` (the lab's table) is refused as ethnl_parse_bit refuses a name
    the kernel does not know ("bit name not found", EOPNOTSUPP)."""
    if "names" not in parsed:
        value, mask = int(parsed["value"]), parsed["mask"]
        return value if mask is None else (now & ~int(mask)) | (value & int(mask))
    for bit_name, on in parsed["names"].items():
        if bit_name not in bits:
            raise nl_error(EOPNOTSUPP, code, "bit name not found")
        now = now | (1 << bits[bit_name]) if on else now & ~(1 << bits[bit_name])
    return now


def iface_mtu(ifname: str, dev: dict[str, Any]) -> int:
    """The interface's MTU: the state's where it says one (unit tests), else the lab NIC's own
    (sysfs, in the namespace the fake ethtool runs in), else Ethernet's 1500."""
    if dev.get("mtu"):
        return int(dev["mtu"])
    try:
        with open(f"/sys/class/net/{ifname}/mtu", encoding="utf-8") as f:
            return int(f.read(32).strip())
    except (OSError, ValueError):
        return 1500


def iface_up(ifname: str, dev: dict[str, Any]) -> bool:
    """Whether the interface is up (IFF_UP, which netif_running follows): the state's where it
    says (unit tests), else the lab NIC's own flags (sysfs, in the fake ethtool's namespace)."""
    if "up" in dev:
        return bool(dev["up"])
    try:
        with open(f"/sys/class/net/{ifname}/flags", encoding="utf-8") as f:
            return bool(int(f.read(32).strip(), 16) & 0x1)
    except (OSError, ValueError):
        return True


def restarted(ifname: str, dev: dict[str, Any], setting: dict[str, Any]) -> None:
    """A change the driver makes by closing and reopening the interface, done only to a
    running one: igb_set_ringparam stores the sizes for the next open of a down interface, and
    macb_set_ringparam, aq_set_ringparam, stmmac_reinit_ringparam, igb/igc/stmmac_reinit_queues
    close and open only `if (netif_running(dev))` (audit 18 row 1). A down interface keeps the
    new value, has no open to set anything back now and no link to bounce."""
    if not iface_up(ifname, dev):
        return
    reopened(dev)
    setting["bounces"] = int(setting.get("bounces", 0)) + 1
    dev["bounce_pending"] = True


def reopened(dev: dict[str, Any]) -> None:
    """The driver closed and opened the interface for a change (stmmac_reinit_ringparam and
    stmmac_reinit_queues -> __stmmac_open): what its open sets again, e.g. stmmac_init_coalesce's
    tx-usecs, tx-frames and rx-frames (``coalesce.reset_on_open``, driver_caps.json), and
    bcmgenet's EEE on 6.12 (``eee.reset_on_open``)."""
    co = dev.get("coalesce") or {}
    co.get("values", {}).update(co.get("reset_on_open", {}))
    eee = dev.get("eee") or {}
    if eee.get("reset_on_open"):  # bcmgenet on 6.12: bcmgenet_mii_probe's phy_support_eee
        eee.update(eee["reset_on_open"])
        eee["active"] = bool(eee["enabled"]) and bool(eee.get("link_partner"))
