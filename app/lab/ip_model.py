"""The lab's `ip` for the few calls where a veth would answer unlike the driver it stands for:
the MTU, an administrative `ip link set up` (the driver's open, which sets coalescing back on
r8169, bcmgenet and stmmac) or `down` (the carrier, which the lab's ethtool answers read), and
the TSO/GSO limits `ip -d link` shows (a veth's tso_max_size is 524280, a NIC's 65536 unless
its driver sets less: r8169 64000), and what only a veth says in `ip -d link`: its peer
("eth1@if9", IFLA_LINK), the peer's netns ("link-netnsid 0") and its kind ("veth", IFLA_LINKINFO).
net/core/rtnetlink.c rtnl_fill_ifinfo sends IFLA_LINK only where dev_get_iflink differs from the
ifindex, IFLA_LINKINFO only through rtnl_link_ops (rtnl_link_fill) and IFLA_LINK_NETNSID only
from rtnl_link_ops->get_link_net: a NIC driver registers no rtnl_link_ops, so a real NIC's line
has none of them (audit 32 row 3). A veth shows maxmtu 65535 and takes any MTU up to it while
up; the kernel's dev_validate_mtu refuses more than the driver's max_mtu ("mtu greater than
device maximum", EINVAL), and macb_change_mtu refuses any change while the interface runs
(EBUSY).

A standalone script (the lab user's python has no sbctune): sbctune.lab.ip_front installs it
with the limits (from resources/tuning/driver_caps.json) and the real ip beside it. Everything
it does not change runs the real ip unchanged. argv: LIMITS.json REAL_IP ip-arguments...
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from typing import Any

_LINK = ("l", "li", "lin", "link")
_SHOW = ("show", "sh", "list", "lst", "ls")
_TEXT_IFACE = re.compile(r"^\d+: ([^:@\s]+)[@:]")


def _split(args: list[str]) -> tuple[list[str], list[str]]:
    """ip's global options (before the object) and the rest."""
    for index, arg in enumerate(args):
        if not arg.startswith("-"):
            return args[:index], args[index:]
    return args, []


def _mtu_set(rest: list[str]) -> tuple[str, int] | None:
    """(interface, MTU) of `link set [dev] NAME ... mtu N`, else None."""
    if len(rest) < 3 or rest[0] not in _LINK or rest[1] not in ("set", "change"):
        return None
    words = rest[2:]
    name = words[words.index("dev") + 1] if "dev" in words[:-1] else words[0]
    if "mtu" not in words[:-1]:
        return None
    value = words[words.index("mtu") + 1]
    return (name, int(value)) if (value.isascii() and value.isdigit()) else None


def _link_set_name(rest: list[str]) -> str | None:
    """The interface of `link set [dev] NAME ...`, else None."""
    if len(rest) < 3 or rest[0] not in _LINK or rest[1] not in ("set", "change"):
        return None
    words = rest[2:]
    return words[words.index("dev") + 1] if "dev" in words[:-1] else words[0]


def _opens(rest: list[str]) -> str | None:
    """The interface `link set [dev] NAME ... up` brings up, else None."""
    name = _link_set_name(rest)
    return name if name is not None and "up" in rest[3:] else None


def _is_up(name: str) -> bool:
    try:
        with open(f"/sys/class/net/{name}/flags", encoding="utf-8") as fh:
            return bool(int(fh.read(32).strip(), 16) & 1)  # IFF_UP
    except (OSError, ValueError):
        return False


def _mtu_now(name: str) -> int | None:
    try:
        with open(f"/sys/class/net/{name}/mtu", encoding="utf-8") as fh:
            return int(fh.read(32).strip())
    except (OSError, ValueError):
        return None


def refusal(limits: dict[str, Any], name: str, mtu: int) -> str | None:
    """What ip prints when the kernel refuses this MTU for the driver `name` imitates."""
    limit = limits.get(name)
    if not limit:
        return None
    top = limit.get("max")
    if top and mtu > int(top):
        return "Error: mtu greater than device maximum.\n"  # dev_validate_mtu, EINVAL
    edom = limit.get("edom")
    if edom and (mtu + int(edom["extra"])) % int(edom["packet"]) == 0:
        return "RTNETLINK answers: Numerical argument out of domain\n"  # lan78xx_change_mtu
    fifo = limit.get("tx_fifo")
    if fifo and -(-mtu // 64) * 64 > int(fifo):
        return "RTNETLINK answers: Invalid argument\n"  # stmmac_change_mtu: TX FIFO too small
    if limit.get("busy_when_up") and _is_up(name) and mtu != _mtu_now(name):
        return "RTNETLINK answers: Device or resource busy\n"  # macb_change_mtu, EBUSY
    return None


def shown(text: str, limits: dict[str, Any], as_json: bool, pretty: bool = False) -> str:
    """`ip -d link` output with the drivers' max_mtu and TSO/GSO limits for the interfaces the
    lab imitates."""
    nics = {name for name, limit in limits.items() if limit.get("nic")}  # the veths imitating NICs
    tops = {name: int(limit["max"]) for name, limit in limits.items() if limit.get("max")}
    sizes = {name: limit["sizes"] for name, limit in limits.items() if limit.get("sizes")}
    # usbnet_probe's min_mtu 0 (shown only: the veth still refuses less than 68)
    lows = {name: int(limit["min"]) for name, limit in limits.items() if "min" in limit}
    if as_json:
        return _shown_json(text, tops, lows, sizes, pretty, nics)
    out: list[str] = []
    current = None
    for line in text.splitlines(keepends=True):
        match = _TEXT_IFACE.match(line)
        if match:
            current = match.group(1)
        if current in nics:
            line = _as_nic(line, match is not None)
            if line.lstrip(" ").startswith(_VETH_KIND) and out:
                # no link kind: what follows it stays on the link/ether line, as a NIC prints it
                out[-1] = out[-1].rstrip("\n").rstrip(" ") + " "
                line = line.lstrip(" ")[len(_VETH_KIND) :]
        if current in tops:
            line = re.sub(r"\bmaxmtu \d+", f"maxmtu {tops[current]}", line)
        if current in lows:
            line = re.sub(r"\bminmtu \d+", f"minmtu {lows[current]}", line)
        for key, value in sizes.get(current or "", {}).items():
            line = re.sub(rf"\b{key} \d+", f"{key} {int(value)}", line)
        out.append(line)
    return "".join(out)


_VETH_KIND = "veth "
_PEER_SUFFIX = re.compile(r"^(\d+: [^:@\s]+)@[^:\s]+:")
_NETNSID = re.compile(r" link-netnsid \d+")
# rtnl_fill_ifinfo's attributes a NIC never has (ip -j: "link" or "link_index", "link_netnsid",
# "linkinfo" with the kind)
_VETH_KEYS = ("link", "link_index", "link_netnsid", "linkinfo")


def _as_nic(line: str, header: bool) -> str:
    """One line of a veth imitating a NIC without the veth's own words: its peer on the
    header ("3: eth1@if9:" -> "3: eth1:") and the peer's netns ("link-netnsid 0")."""
    if header:
        line = _PEER_SUFFIX.sub(r"\1:", line, count=1)
    return _NETNSID.sub("", line)


def _shown_json(
    text: str,
    tops: dict[str, int],
    lows: dict[str, int],
    sizes: dict[str, dict[str, Any]],
    pretty: bool,
    nics: set[str] | None = None,
) -> str:
    """`ip -d -j link` output with those limits (as it was where it is not JSON)."""
    try:
        links = json.loads(text)
    except ValueError:
        return text
    for link in links if isinstance(links, list) else []:
        if not isinstance(link, dict):
            continue
        if link.get("ifname") in (nics or set()):
            for key in _VETH_KEYS:
                link.pop(key, None)
        if link.get("ifname") in tops and "max_mtu" in link:
            link["max_mtu"] = tops[link["ifname"]]
        if link.get("ifname") in lows and "min_mtu" in link:
            link["min_mtu"] = lows[link["ifname"]]
        for key, value in sizes[link["ifname"]].items() if link.get("ifname") in sizes else ():
            if key in link:
                link[key] = int(value)
    if pretty:
        return json.dumps(links, indent=4) + "\n"
    return json.dumps(links, separators=(",", ":")) + "\n"


def main(argv: list[str]) -> int:
    """``ip`` with the lab's limits file and the real ip: each case the driver would follow
    (an open that reopens, an MTU change, a link up/down, a detailed show), else the real ip."""
    limits_path, real, args = argv[0], argv[1], argv[2:]
    try:
        with open(limits_path, encoding="utf-8") as fh:
            limits: dict[str, Any] = json.load(fh)
    except (OSError, ValueError):
        limits = {}
    options, rest = _split(args)
    for case in (_reopened, _mtu_changed, _link_toggled):
        code = case(limits, real, args, rest)
        if code is not None:
            return code
    return _shown_details(limits, real, args, options, rest)


def _reopened(limits: dict[str, Any], real: str, args: list[str], rest: list[str]) -> int | None:
    """``ip link set IFACE up`` of a down interface whose driver's open sets coalescing again."""
    opened = _opens(rest)
    reopen = (limits.get(opened) or {}).get("reopen") if opened else None
    # dev_open calls ndo_open only when the interface was down
    if not reopen or _mtu_set(rest) is not None or _is_up(opened or ""):
        return None
    done_up = subprocess.run([real, *args], check=False)
    if done_up.returncode == 0 and _is_up(opened or ""):
        # the driver's open sets coalescing again (r8169 rtl_hw_start_8168: IntrMitigate
        # 0; bcmgenet_init_tx_ring: tx-frames 1; stmmac_init_coalesce)
        subprocess.run([str(a) for a in reopen], check=False, capture_output=True)
    return done_up.returncode


def _mtu_changed(limits: dict[str, Any], real: str, args: list[str], rest: list[str]) -> int | None:
    """``ip link set IFACE mtu N``: the driver's refusal, or the change and what follows it."""
    target = _mtu_set(rest)
    if target is None:
        return None
    said = refusal(limits, *target)
    if said:
        sys.stderr.write(said)
        return 2
    limit = limits.get(target[0]) or {}
    refresh = limit.get("refresh") or limit.get("shown")  # -k (r8169), an LPI timer
    if not refresh:
        return None
    # r8169: netdev_update_features after the change; the shown -k follows
    before = _mtu_now(target[0])
    same = before == target[1]  # dev_set_mtu: no change, no ndo call
    changed = subprocess.run([real, *args], check=False)
    if changed.returncode == 0 and not same:
        subprocess.run([str(a) for a in refresh], check=False, capture_output=True)
        drop = limit.get("link_drop") or {}
        above = drop.get("above")  # None: every change (igb, igc, stmmac); r8169: 1500 upwards
        crossed = above is None or (before is not None and before <= int(above) < target[1])
        if drop and crossed:
            subprocess.run([str(a) for a in drop["run"]], check=False, capture_output=True)
    return changed.returncode


def _link_toggled(
    limits: dict[str, Any], real: str, args: list[str], rest: list[str]
) -> int | None:
    """``ip link set IFACE up|down`` where ethtool answers read the carrier."""
    name = _link_set_name(rest)
    shown_again = (limits.get(name or "") or {}).get("shown")
    if not shown_again or not ("up" in rest[3:] or "down" in rest[3:]):
        return None
    # the carrier follows: the ethtool answers that read it (-a's negotiated lines,
    # bcmgenet's resolved pause) are written again, as after an ethtool set
    done_link = subprocess.run([real, *args], check=False)
    if done_link.returncode == 0:
        subprocess.run([str(a) for a in shown_again], check=False, capture_output=True)
    return done_link.returncode


def _shown_details(
    limits: dict[str, Any], real: str, args: list[str], options: list[str], rest: list[str]
) -> int:
    """``ip -d link show``: the driver's MTU limits in place of the veth's; else the real ip."""
    details = any(o in ("-d", "-details") or o.startswith("-det") for o in options)
    show = bool(rest) and rest[0] in _LINK and (len(rest) == 1 or rest[1] in (*_SHOW, "dev"))
    if not (details and show):
        os.execv(real, [real, *args])  # noqa: S606 - the real ip, with the caller's arguments
    done = subprocess.run([real, *args], capture_output=True, text=True, check=False)
    as_json = any(o in ("-j", "-json") for o in options)
    pretty = any(o in ("-p", "-pretty") for o in options)
    sys.stdout.write(shown(done.stdout, limits, as_json, pretty) if done.returncode == 0
                     else done.stdout)  # fmt: skip
    sys.stderr.write(done.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
