"""``ethtool -n``, ``-T``, ``-P`` and ``-d`` as ethtool 6.1 prints them (stdlib only: copied
into the standalone script). What each driver has: ``ethtool_misc.misc_state``.

Real outputs the layouts follow (resources/lab/ethtool/SOURCE.md):
- the real ethtool 1:6.1-1 binary on a veth (no get_rxnfc, no get_regs, veth's
  ethtool_op_get_ts_info, no permanent address): ``-n`` "Cannot get RX rings: Operation not
  supported", "rxclass: Cannot get RX class rule count: Operation not supported", "RX
  classification rule retrieval failed", exit 1; ``-d`` "Cannot get register dump: Operation
  not supported", exit 74; ``-P`` "Permanent address: not set"; ``-T`` the three software lines;
- ``-n`` with get_rxnfc and no rules: "4 RX rings available" / "Total 0 rules" / "" (netdev,
  "[PATCH net-next v3 00/11] virtio_net: Add ethtool flow rules support", 2025-09-23,
  https://lore.kernel.org/netdev/20250923141920.283862-1-danielj@nvidia.com/);
- ``-T`` with a driver's own get_ts_info (igc on a Pi 5, an I226):
  https://github.com/geerlingguy/raspberry-pi-pcie-devices/issues/674 (2024-09-20);
- ``-T`` with ethtool_op_get_ts_info on a Pi 3 B+'s lan78xx:
  https://github.com/raspberrypi/linux/pull/4856 (2022-01-29); software receive only
  (no get_ts_info): https://github.com/rusoku/TouCAN-SocketCAN/issues/12 (2024-01-25).
"""

import os
from typing import Any

# @tables-start
from sbctune.lab.fake_ethtool_base import ENODEV, EOPNOTSUPP, Failure, iface_up
from sbctune.lab.fake_ethtool_rxfh import rx_rings

# @tables-end


def show_ntuple(ifname: str, dev: dict[str, Any]) -> str:
    """do_grxclass: GRXRINGS, then the rule count (GRXCLSRLCNT); the lab holds no rules."""
    misc = dev.get("misc") or {}
    if not misc.get("rxnfc"):
        raise Failure([f"Cannot get RX rings: {EOPNOTSUPP}",
                       f"rxclass: Cannot get RX class rule count: {EOPNOTSUPP}",
                       "RX classification rule retrieval failed"], 1)  # fmt: skip
    rings = rx_rings({**dev, "rxfh": {"rings": misc.get("rings") or 1}})  # -L's, else lab-up's
    return f"{rings} RX rings available\nTotal 0 rules\n\n"


# the kernel's SOF_TIMESTAMPING names (net/ethtool/common.c sof_timestamping_names)
_SOFTWARE = {
    "generic": ("software-transmit", "software-receive", "software-system-clock"),
    "none": ("software-receive", "software-system-clock"),
}


def show_tsinfo(ifname: str, dev: dict[str, Any]) -> str:
    misc = dev.get("misc") or {}
    info = misc.get("ts_info")
    if misc.get("ts") == "driver" and isinstance(info, dict):  # igc_ethtool_get_ts_info
        return _driver_tsinfo(ifname, info)
    caps = _SOFTWARE[str(misc.get("ts"))]
    return "".join([f"Time stamping parameters for {ifname}:\n", "Capabilities:\n",
                    *(f"\t{name}\n" for name in caps), "PTP Hardware Clock: none\n",
                    "Hardware Transmit Timestamp Modes: none\n",
                    "Hardware Receive Filter Modes: none\n"])  # fmt: skip


def _driver_tsinfo(ifname: str, info: dict[str, Any]) -> str:
    """A driver's own answer (driver_caps `ts_info`), in the layout of a real igc capture
    (tests/captures/ethtool_T/pi5_igc_timehat_674.txt): the lab's one PHC is /dev/ptp0."""

    def block(title: str, names: Any) -> list[str]:
        return [f"{title}:\n", *(f"\t{name}\n" for name in names)] if names else [
            f"{title}: none\n"]  # fmt: skip

    return "".join([f"Time stamping parameters for {ifname}:\n",
                    *block("Capabilities", info.get("capabilities")),
                    f"PTP Hardware Clock: {0 if info.get('phc') else 'none'}\n",
                    *block("Hardware Transmit Timestamp Modes", info.get("tx_types")),
                    *block("Hardware Receive Filter Modes", info.get("rx_filters"))])  # fmt: skip


def show_permaddr(ifname: str, dev: dict[str, Any]) -> str:
    mac = str((dev.get("misc") or {}).get("perm_addr") or "")
    if not mac:  # the lab's own address, the one the NIC came up with
        try:
            with open(f"/sys/class/net/{ifname}/address", encoding="utf-8") as fh:
                mac = fh.read(64).strip()
        except OSError:
            mac = ""
    if not mac or mac.strip("0:") == "":
        return "Permanent address: not set\n"
    return f"Permanent address: {mac}\n"


def show_regs(ifname: str, dev: dict[str, Any]) -> str:
    raise Failure([f"Cannot get register dump: {EOPNOTSUPP}"], 74)  # only where absent


def show_privflags(ifname: str, dev: dict[str, Any]) -> str:
    """``--show-priv-flags`` (ethtool 6.1: nl_gprivflags over netlink, a failed get exits 1):
    privflags_prepare_data (net/ethtool/privflags.c, 6.1 and 6.12) is EOPNOTSUPP without the
    driver's get_priv_flags (or get_sset_count, get_strings). Where the driver's string table
    and probe-time values are in the table (igb, igc, atlantic), ethtool's privflags_reply_cb
    prints them, each name padded to the longest ("%-*s: %s"); elsewhere the capture answers."""
    flags = ((dev.get("misc") or {}).get("priv_flag_list")) or None
    if flags is None:
        raise Failure([f"netlink error: {EOPNOTSUPP}"], 1)
    names = [str(n) for n in flags["names"]]
    width = max(len(n) for n in names)
    rows = [f"{n:<{width}}: {'on' if n in flags.get('on', []) else 'off'}\n" for n in names]
    return f"Private flags for {ifname}:\n" + "".join(rows)


def answers(option: str, dev: dict[str, Any]) -> bool:
    """Whether the lab answers `option` for this interface (else the capture does)."""
    misc = dev.get("misc")
    if not misc:
        return False
    if option == "-T":
        return bool(misc.get("ts"))
    if option == "-d":
        return not misc.get("regs")
    if option == "--show-priv-flags":
        # absent (EOPNOTSUPP) or the source's own flags; a state from before the key: the capture
        return misc.get("priv_flags") is False or bool(misc.get("priv_flag_list"))
    return option in ("-n", "-P")


# ethtool 6.1 ethtool.c tunables_info: the names --get-tunable / --set-tunable know (ioctl path)
TUNABLE_NAMES = ("rx-copybreak", "tx-copybreak", "pfc-prevention-tout")
BAD_ARGS = "ethtool: bad command line argument(s)"


def tunable(
    option: str, dev: dict[str, Any], rest: list[str], root: bool
) -> tuple[str, list[str], int]:
    """``--get-tunable IFACE NAME...`` / ``--set-tunable IFACE NAME N...`` where the table
    holds the driver's tunables (r8152's rx-copybreak: rtl8152_get_tunable/_set_tunable).
    ethtool 6.1 (do_gtunable, do_stunable): an unknown name or value is a bad argument; a
    kernel refusal prints "NAME: Cannot get tunable" or perror(NAME), exit 255. Any other
    tunable id the driver answers EOPNOTSUPP; GTUNABLE needs no CAP_NET_ADMIN, STUNABLE does."""
    held: dict[str, Any] = dev["tunables"]
    if option == "--get-tunable":
        if not rest or any(name not in TUNABLE_NAMES for name in rest):
            return "", [BAD_ARGS], 1
        out: list[str] = []
        for name in rest:
            if name not in held:
                return "".join(out), [f"{name}: Cannot get tunable"], 255
            out.append(f"{name}: {held[name]['value']}\n")
        return "".join(out), [], 0
    pairs: list[tuple[str, int]] = []
    for i in range(0, len(rest), 2):
        name, text = rest[i], rest[i + 1] if i + 1 < len(rest) else ""
        if (
            name not in TUNABLE_NAMES
            or not (text.isascii() and text.isdigit())
            or int(text) > 0xFFFFFFFF
        ):
            return "", [BAD_ARGS], 1
        pairs.append((name, int(text)))
    if not pairs:
        return "", [BAD_ARGS], 1
    for name, number in sorted(pairs, key=lambda p: TUNABLE_NAMES.index(p[0])):
        if not root:
            return "", [f"{name}: {EPERM_TEXT}"], 255
        entry = held.get(name)
        if entry is None or not entry.get("settable"):
            return "", [f"{name}: {EOPNOTSUPP}"], 255
        if number < int(entry.get("min", 0)):  # rtl8152_set_tunable: below ETH_ZLEN
            return "", [f"{name}: Invalid argument"], 255
        entry["value"] = number
    return "", [], 0


EPERM_TEXT = "Operation not permitted"


def nway_reset(ifname: str, dev: dict[str, Any], rest: list[str]) -> None:
    """``ethtool -r IFACE`` (ethtool 6.1 do_nway_rst: ETHTOOL_NWAY_RST, perror "Cannot restart
    autonegotiation", exit 255; an extra argument is a bad one). net/ethtool/ioctl.c needs
    CAP_NET_ADMIN. phy_ethtool_nway_reset: no PHY ENODEV (bcmgenet while down: bcmgenet_close
    disconnects it), else phy_restart_aneg. usbnet_nway_reset: no mii.mdio_write EOPNOTSUPP
    (cdc_ncm), else mii_nway_restart, as rtl8152_nway_reset: EINVAL with autonegotiation off
    (BMCR_ANENABLE clear), else BMCR_ANRESTART. A restart is a link bounce."""
    if rest:
        raise Failure([BAD_ARGS], 1)

    def refused(text: str) -> Failure:
        return Failure([f"Cannot restart autonegotiation: {text}"], 255)

    if os.geteuid() != 0:
        raise refused(EPERM_TEXT)
    nway = dev["nway"]
    if nway["fn"] == "phy_ethtool_nway_reset":
        if nway.get("phy_gone_when_down") and not iface_up(ifname, dev):
            raise refused(ENODEV)
    else:
        if nway["fn"] == "usbnet_nway_reset" and not nway.get("mii_write"):
            raise refused(EOPNOTSUPP)
        if not (dev.get("link") or {}).get("autoneg", True):  # mii_nway_restart
            raise refused("Invalid argument")
    dev["bounce_pending"] = True
