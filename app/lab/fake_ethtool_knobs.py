"""The lab's ``ethtool`` answers for the tuning knobs: rings (``-g/-G``), coalescing
(``-c/-C``), EEE (``--show-eee/--set-eee``) and pause (``-a/-A``), as ethtool 6.1 prints them
over netlink, held to the driver rules of ``fake_ethtool_driver``.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone script.
"""

from typing import Any

# @tables-start: sbctune's own imports; script_text drops them (the standalone script holds
# every fake_ethtool module's text in one file).
from sbctune.lab.fake_ethtool_base import (
    BOOL,
    EINVAL,
    ELNRNG,
    EOPNOTSUPP,
    ERRNO,
    FAIL_CODE,
    NUM,
    SET_FAIL_CODE,
    attr_offset,
    iface_mtu,
    nl_error,
    parse_bitset,
    parse_pairs,
    require_root,
    restarted,
)
from sbctune.lab.fake_ethtool_driver import (
    coalesce_refused,
    coalesce_unchanged,
    eee_refused,
    pairs_refusal,
    ring_size_kept,
    riwt_stored,
    scaled_set,
    shown_values,
    stored,
)
from sbctune.lab.fake_ethtool_eee import asked_advertisement, keep_advertisement
from sbctune.lab.fake_ethtool_link import LINK_PROBE, advertised_pause, live
from sbctune.lab.fake_ethtool_tables import (
    COALESCE_LAYOUT,
    COALESCE_PARAMS,
    RING_CORE_PARAMS,
    RING_PARAMS,
)

# @tables-end


# --------------------------------------------------------------------------- rings


def show_rings(ifname: str, dev: dict[str, Any]) -> str:
    rings = dev.get("rings")
    if rings is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-g"])
    labels = {"rx": "RX:\t\t", "rx-mini": "RX Mini:\t", "rx-jumbo": "RX Jumbo:\t", "tx": "TX:\t\t"}

    def block(values: dict[str, int]) -> list[str]:
        # The kernel sends a ring only when its maximum is non-zero (net/ethtool/rings.c).
        return [labels[p] + (str(values[p]) if rings["max"].get(p) else "n/a") for p in RING_PARAMS]

    lines = [f"Ring parameters for {ifname}:", "Pre-set maximums:", *block(rings["max"])]
    lines += ["Current hardware settings:", *block(rings["cur"])]
    lines += ["RX Buf Len:\t\tn/a", "CQE Size:\t\tn/a", "TX Push:\toff", "TCP data split:\tn/a"]
    return "\n".join(lines) + "\n"


def set_rings(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["-G"]
    pairs = parse_pairs("-G", args, {**dict.fromkeys(RING_PARAMS, NUM), **RING_CORE_PARAMS})
    rings = dev.get("rings")
    has_ops = rings is not None and rings.get("settable", False)
    # ethnl_set_rings(_validate): ethtool 6.1's rx-buf-len, cqe-size, tx-push are refused by
    # the core where supported_ring_params lacks them; 6.12 checks them before the ring ops
    core = dev.get("ring_params_core") or {}
    if not has_ops and not core.get("before_ops"):
        raise nl_error(EOPNOTSUPP, code)
    given = [name for name, _ in pairs]
    for name, text in (core.get("refused") or {}).items():  # in the kernel's order
        if name in given:
            raise nl_error(EOPNOTSUPP, code, text, attr_offset(ifname, given.index(name)))
    if not has_ops or rings is None:
        raise nl_error(EOPNOTSUPP, code)
    pairs = [(name, value) for name, value in pairs if name in RING_PARAMS]
    require_root(code)
    for index, (name, value) in enumerate(pairs):
        if int(value) > int(rings["max"].get(name, 0)):
            raise nl_error(
                EINVAL, code, "requested ring size exceeds maximum", attr_offset(ifname, index)
            )
    new = dict(rings["cur"])
    for name, value in pairs:
        kept = ring_size_kept(rings, name, int(value))
        if kept is None:
            raise nl_error(EINVAL, code)  # the driver's own check (stmmac: not a power of two)
        new[name] = kept
    # The driver's own checks, e.g. r8152: rx_pending < RTL8152_MAX_RX * 2 -> -EINVAL.
    for name, low in rings.get("min", {}).items():
        if new.get(name, 0) < int(low):
            raise nl_error(EINVAL, code)
    changed = new != rings["cur"]
    rings["cur"] = new
    if changed and rings.get("restarts"):
        restarted(ifname, dev, rings)


# --------------------------------------------------------------------------- coalescing


def show_coalesce(ifname: str, dev: dict[str, Any]) -> str:
    co = dev.get("coalesce")
    if co is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["-c"])
    if "scale" in co and not co["scale"].get("row"):  # r8169: rtl_coalesce_info, no row
        raise nl_error(ELNRNG, FAIL_CODE["-c"])
    supported = set(co["supported"])
    values = shown_values(co)

    def value(name: str) -> str:
        if name not in supported:
            return "n/a"
        if name.startswith("adaptive-"):
            return "on" if values.get(name) else "off"
        return str(values.get(name, 0))

    lines = [
        f"Coalesce parameters for {ifname}:",
        f"Adaptive RX: {value('adaptive-rx')}  TX: {value('adaptive-tx')}",
    ]
    for index, row in enumerate(COALESCE_LAYOUT):
        if index:
            lines.append("")
        lines += [f"{name}: {value(name)}" for name in row]
    lines += ["", "CQE mode RX: n/a  TX: n/a", ""]
    return "\n".join(lines) + "\n"


def set_coalesce(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["-C"]
    kinds = {p: BOOL if p.startswith(("adaptive-", "cqe-mode-")) else NUM for p in COALESCE_PARAMS}
    pairs = parse_pairs("-C", args, kinds)
    co = _coalesce_ops(dev, code)
    require_root(code)
    _core_coalesce_refusal(ifname, co, pairs, code)
    numbers = {n: int(v) for n, v in pairs if not n.startswith("adaptive-")}
    if all(coalesce_unchanged(shown_values(co), name, value) for name, value in pairs):
        return  # ethnl_set_coalesce: nothing modified, so the driver is not called
    if "scale" in co:  # r8169: every value stored again in units of a speed's scale
        failed = scaled_set(co, numbers)
        if failed:
            raise nl_error(ERRNO[failed], code)
        return
    refused = coalesce_refused(co, numbers)
    if refused:  # the driver's own checks, no extack
        raise nl_error(EOPNOTSUPP if refused == "EOPNOTSUPP" else EINVAL, code)
    paired = pairs_refusal(co, numbers)
    if paired is not None:
        raise nl_error(EINVAL, code, paired or None)
    _store_coalesce(co, pairs, numbers)


def _coalesce_ops(dev: dict[str, Any], code: int) -> dict[str, Any]:
    """The coalescing model `-C` sets; EOPNOTSUPP where the driver has no settable ops."""
    co: dict[str, Any] | None = dev.get("coalesce")
    # a chip whose get_coalesce refuses (r8169 on the RTL8125) still has the ops: the core's
    # check of supported_coalesce_params answers first (ethnl_set_coalesce)
    refused_params = dev.get("coalesce_refused_params")
    if co is None and refused_params is not None:
        co = {"supported": refused_params, "settable": True, "refused": True}
    if co is None or not co.get("settable", True):
        raise nl_error(EOPNOTSUPP, code)
    return co


def _core_coalesce_refusal(
    ifname: str, co: dict[str, Any], pairs: list[tuple[str, str]], code: int
) -> None:
    """ethnl_set_coalesce: an unsupported parameter (extack), then a get_coalesce refusing."""
    supported = set(co["supported"])
    for index, (name, _value) in enumerate(pairs):
        if name not in supported:
            raise nl_error(
                EINVAL, code, "cannot modify an unsupported parameter", attr_offset(ifname, index)
            )
    if co.get("refused"):  # rtl_get_coalesce: EOPNOTSUPP
        raise nl_error(EOPNOTSUPP, code)


def _store_coalesce(
    co: dict[str, Any], pairs: list[tuple[str, str]], numbers: dict[str, int]
) -> None:
    """The values the driver keeps of an accepted `-C`, as its get_coalesce reads them back."""
    before = dict(co["values"])
    for name, value in pairs:
        if name in co.get("ignored", []):
            continue  # accepted by the driver, which does not store it (reads back unchanged)
        adaptive = name.startswith("adaptive-")
        co["values"][name] = value == "on" if adaptive else stored(co, name, int(value))
    if co["values"].get("adaptive-rx") and not before.get("adaptive-rx"):
        # bcmgenet_set_ring_rx_coalesce: DIM's default profile replaces rx-usecs/rx-frames
        for name, value in co.get("adaptive_rx_start", {}).items():
            co["values"][name] = stored(co, name, int(value))
    for name, shown in co.get("read_back", {}).items():  # atlantic: frames always read 0
        co["values"][name] = shown
    if co.get("pairs", {}).get("paired"):  # igb/igc: tx_itr_setting = rx_itr_setting
        co["values"]["tx-usecs"] = co["values"].get("rx-usecs", 0)
    # ethnl_set_coalesce hands the driver every value (the ones not given as read back): macb on
    # the Raspberry Pi tree stores them all again, so an untouched 49 becomes 48.
    given = {name for name, _ in pairs}
    riwt = co.get("riwt")
    if riwt and riwt["param"] in co["values"]:  # stmmac: stored again whether given or not
        param = riwt["param"]
        wanted = numbers.get(param, int(before.get(param, 0)))
        co["values"][param] = riwt_stored(co, wanted, int(before.get(param, 0)))
    for name in co.get("floor_ns", {}):
        if name not in given and name in co["values"]:
            co["values"][name] = stored(co, name, int(co["values"][name]))


# --------------------------------------------------------------------------- EEE


def lpi_timer_us(ifname: str, dev: dict[str, Any]) -> int:
    """The Tx LPI timer ethtool shows: the state's, or where the driver reports its own timer
    in bytes (r8169 on 6.12: MTU + 46, rtl_set_eee_txidle_timer), that many bytes at the link's
    speed now, DIV_ROUND_CLOSEST(bytes * 8, Mbit/s) (r8169_get_tx_lpi_timer_us)."""
    eee = dev["eee"]
    over = eee.get("timer_bytes_over_mtu")
    if over is None:
        return int(eee.get("tx_lpi_timer", 0))
    speed = int(dev.get("link_speed") or 0)  # unit tests; else the lab NIC's own sysfs
    if not speed and LINK_PROBE:  # fake_ethtool.link_dependent's link in place of the live one
        speed = int(str(LINK_PROBE[-1].get("speed") or 0))
    elif not speed:
        try:
            with open(f"/sys/class/net/{ifname}/speed", encoding="utf-8") as f:
                speed = int(f.read(32).strip())
        except (OSError, ValueError):
            speed = 0
    if speed <= 0:  # no reading: the profile's speed
        speed = int(eee.get("timer_speed_mbps") or 0)
    if speed <= 0:
        return 0  # SPEED_UNKNOWN
    return ((iface_mtu(ifname, dev) + int(over)) * 8 + speed // 2) // speed


def show_eee(ifname: str, dev: dict[str, Any]) -> str:
    eee = dev.get("eee")
    if eee is None:
        raise nl_error(EOPNOTSUPP, FAIL_CODE["--show-eee"])
    active = bool(eee.get("active"))
    if active and eee.get("active_needs_link"):  # 6.12 phylib: no speed, not active
        active = live(ifname, dev.get("link") or {})[0]
    if eee["enabled"]:
        status = "enabled - active" if active else "enabled - inactive"
    else:
        status = "disabled"
    lpi = f"{lpi_timer_us(ifname, dev)} (us)" if eee.get("tx_lpi") else "disabled"

    def modes(title: str, items: list[str]) -> list[str]:
        head = f"\t{title} EEE link modes: "
        if not items:
            return [head + " Not reported"]
        pad = "\t" + " " * (len(head) - 1)
        return [head + " " + items[0] + " "] + [pad + " " + m + " " for m in items[1:]]

    advertised = eee.get("advertised", eee["supported"]) if eee["enabled"] else []
    lines = [f"EEE Settings for {ifname}:", f"\tEEE status: {status}", f"\tTx LPI: {lpi}"]
    lines += modes("Supported", eee["supported"])
    lines += modes("Advertised", advertised)
    lines += modes("Link partner advertised", eee.get("link_partner", []))
    return "\n".join(lines) + "\n"


def set_eee(ifname: str, dev: dict[str, Any], args: list[str]) -> None:
    code = SET_FAIL_CODE["--set-eee"]
    rest: list[str] = []
    asked: dict[str, Any] | None = None
    while args:  # `advertise` a bitset, as ethtool 6.1 parses it (hex, VALUE/MASK, names)
        if args[0] == "advertise" and len(args) > 1:
            asked, used = parse_bitset("--set-eee", "advertise", args[1:])
            args = args[1 + used :]
            continue
        rest, args = rest + args[:2], args[2:]
    pairs = parse_pairs("--set-eee", rest, {"eee": BOOL, "tx-lpi": BOOL, "tx-timer": NUM,
                                            "advertise": NUM})  # fmt: skip
    eee = dev.get("eee")
    if eee is None:
        raise nl_error(EOPNOTSUPP, code)
    require_root(code)
    if eee_refused(eee, dict(pairs)):
        raise nl_error(EINVAL, code)
    was_on, advertised = bool(eee["enabled"]), asked_advertisement(eee, asked, pairs, code)
    reaches = _eee_set_reaches_driver(ifname, dev, pairs, asked, advertised)
    for name, value in pairs:
        if name == "eee":
            if value == "on" and not eee.get("can_enable", True):
                raise nl_error(EOPNOTSUPP, code)  # e.g. ax88179_set_eee: chk_eee fails
            if eee.get("restarts") and eee.get("enabled") != (value == "on"):
                eee["bounces"] = int(eee.get("bounces", 0)) + 1  # autonegotiation again
                dev["bounce_pending"] = True
            eee["enabled"] = value == "on"
            eee["active"] = eee["enabled"] and bool(eee.get("link_partner"))
        elif name == "tx-lpi":
            eee["tx_lpi"] = value == "on"
        # r8169 (6.12): phylib keeps it, never shown; igb, igc, atlantic: their get_eee never
        # fills one in (igb_get_eee): taken, shown 0
        elif (
            name == "tx-timer"
            and "timer_bytes_over_mtu" not in eee
            and not eee.get("timer_unreported")
        ):
            eee["tx_lpi_timer"] = int(value)
    keep_advertisement(dev, eee, advertised, was_on)
    if eee.get("restart_on_any_set") and reaches and not dev.get("bounce_pending"):
        eee["bounces"] = int(eee.get("bounces", 0)) + 1  # r8152, ax88179: mii_nway_restart
        dev["bounce_pending"] = True
    # igc, igb: the MAC's Tx LPI goes with EEE (EEER); atlantic shows it as EEE itself
    if eee.get("rules", {}).get("tx_lpi_follows") or eee.get("tx_lpi_follows"):
        eee["tx_lpi"] = bool(eee["enabled"])
    if eee.get("tx_lpi_follows"):  # lan78xx on 6.1: one bit, MAC_CR_EEE_EN_, for both
        eee["tx_lpi"] = bool(eee["enabled"])
    if eee.get("tx_lpi_unreported"):  # r8152, ax88179: get_eee never fills tx_lpi_enabled
        eee["tx_lpi"] = False


def _eee_set_reaches_driver(
    ifname: str, dev: dict[str, Any], pairs: list[tuple[str, str]], asked: Any, advertised: Any
) -> bool:
    """Whether the driver's set_eee is called: net/ethtool/eee.c ethnl_set_eee calls it only
    when a field asked for differs from get_eee's answer (what --show-eee shows)."""
    eee = dev["eee"]
    shown = {
        "eee": "on" if eee["enabled"] else "off",
        "tx-lpi": "on" if eee.get("tx_lpi") else "off",
        "tx-timer": str(lpi_timer_us(ifname, dev)),
    }
    for name, value in pairs:
        asked_value = str(value)
        if name == "tx-timer" and asked_value.isascii() and asked_value.isdigit():
            asked_value = str(int(asked_value))
        if asked_value != shown.get(name, asked_value):
            return True
    if asked is None:
        return False
    now = eee.get("advertised", eee["supported"]) if eee["enabled"] else []
    return advertised is None or sorted(advertised) != sorted(now)


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
    if asked:  # the driver is called: its advertisement now follows the request (phylink:
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
