"""The lab's ``ethtool`` answers for the tuning knobs: rings (``-g/-G``), coalescing
(``-c/-C``) and EEE (``--show-eee/--set-eee``), as ethtool 6.1 prints them over netlink, held to
the driver rules of ``fake_ethtool_driver``; pause (``-a/-A``) is ``fake_ethtool_pause``.

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
    riwt_refused,
    riwt_stored,
    scaled_set,
    shown_values,
    stored,
)
from sbctune.lab.fake_ethtool_eee import asked_advertisement, keep_advertisement
from sbctune.lab.fake_ethtool_link import LINK_PROBE, live
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
    # rings_fill_reply puts ETHTOOL_A_RINGS_TX_PUSH always from 5.19 on (6.1); an older kernel
    # has no such attribute and ethtool prints n/a (audit 40: the 5.10 core fact)
    reported = (dev.get("ring_params_core") or {}).get("tx_push_reported", True)
    push = "off" if reported else "n/a"
    lines += ["RX Buf Len:\t\tn/a", "CQE Size:\t\tn/a", f"TX Push:\t{push}", "TCP data split:\tn/a"]
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
    # 6.1: EOPNOTSUPP; before 5.17 genetlink's strict parse refuses an attribute past the
    # policy's last (ETHTOOL_A_RINGS_TX) with EINVAL, "Unknown attribute type" (audit 40)
    errno = ERRNO.get(str(core.get("errno")), EOPNOTSUPP)
    refused = core.get("refused") or {}
    # ethnl_set_rings checks in its own order; the parser meets attributes in the message's
    order = given if core.get("order") == "message" else list(refused)
    for name in (n for n in order if n in refused and n in given):
        raise nl_error(errno, code, refused[name], attr_offset(ifname, given.index(name)))
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
    # ethnl_set_rings calls the driver where a value asked differs from the one shown; atlantic
    # then reopens even if its clamp and alignment give the sizes it has (audit 33b row 3)
    called = any(int(value) != int(rings["cur"].get(name, -1)) for name, value in pairs)
    rings["cur"] = new
    if (changed or (called and rings.get("restart_on_any_set"))) and rings.get("restarts"):
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
        failure = nl_error(EOPNOTSUPP if refused == "EOPNOTSUPP" else EINVAL, code)
        failure.keeps_state = _store_rx_first(co, numbers)
        raise failure
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


def _store_rx_first(co: dict[str, Any], numbers: dict[str, int]) -> bool:
    """What a refused `-C` still leaves: stmmac stores RIWT (rx-usecs, as stmmac_riwt2usec
    reads it back) and rx-frames before its TX checks refuse (co["rx_first"], driver_caps.json
    coalesce_rx_stored_before_tx_checks); a refused RIWT itself stores nothing."""
    first = co.get("rx_first")
    merged = {**co["values"], **numbers}
    if not first or riwt_refused(co, merged):
        return False
    riwt = co["riwt"]
    if int(merged.get(riwt["param"], 0)) == 0 and riwt.get("zero_ignored"):
        return False  # 6.1: `use_riwt && rx_coalesce_usecs > 0`, else the RX block is skipped
    for name in first:
        current = int(co["values"].get(name, 0))
        wanted = numbers.get(name, current)
        co["values"][name] = riwt_stored(co, wanted, current) if name == riwt["param"] else wanted
    return True


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
        if wanted == 0 and riwt.get("zero_ignored"):  # 6.1 skips the whole RX block for 0
            co["values"].update({n: before[n] for n in co.get("rx_first", []) if n in before})
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
    active = active and not eee.get("never_active")  # r8152 6.12: RTL8156/8156B (audit 47)
    if eee["enabled"]:
        status = "enabled - active" if active else "enabled - inactive"
    else:
        status = "disabled"
    lpi = f"{lpi_timer_us(ifname, dev)} (us)" if eee.get("tx_lpi") else "disabled"

    def modes(title: str, items: list[str]) -> list[str]:
        # netlink's print (ethtool 6.1 netlink/eee.c eee_reply_cb, settings.c dump_link_modes):
        # each further mode under the first, no space after a mode. The trailing spaces and
        # "EEE Settings" are the ioctl print's (ethtool.c do_geee, dump_link_caps; audit 42 row 2)
        head = f"\t{title} EEE link modes:  "
        if not items:
            return [head + "Not reported"]
        pad = "\t" + " " * (len(head) - 1)
        return [head + items[0]] + [pad + m for m in items[1:]]

    advertised = eee.get("advertised", eee["supported"]) if eee["enabled"] else []
    lines = [f"EEE settings for {ifname}:", f"\tEEE status: {status}", f"\tTx LPI: {lpi}"]
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
    handed = _timer_handed(ifname, dev)
    for name, value in pairs:
        if name == "eee":
            if value == "on" and not eee.get("can_enable", True):
                raise nl_error(EOPNOTSUPP, code)  # e.g. ax88179_set_eee: chk_eee fails
            if eee.get("restarts") and eee.get("enabled") != (value == "on"):
                eee["bounces"] = int(eee.get("bounces", 0)) + 1  # autonegotiation again
                dev["bounce_pending"] = True
            # atlantic: on advertises every supported rate; with none it still reads off
            modes = bool(eee["supported"]) or not eee.get("enabled_needs_modes")
            eee["enabled"] = value == "on" and modes
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
    if (
        eee.get("timer_zero_when_disabled")
        and reaches
        and eee["enabled"]
        and not was_on
        and all(name != "tx-timer" for name, _ in pairs)
    ):  # lan78xx_set_eee writes the timer it is handed: get_eee's 0 while EEE was off
        eee["tx_lpi_timer"] = handed
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


def _timer_handed(ifname: str, dev: dict[str, Any]) -> int:
    """The Tx LPI timer get_eee answers, which ethtool's set hands back to the driver when the
    request names none (net/ethtool/eee.c ethnl_set_eee): lan78xx until 6.17 answers 0 while
    its MAC's EEE is off (lan78xx_get_eee)."""
    eee = dev["eee"]
    if eee.get("timer_zero_when_disabled") and not eee["enabled"]:
        return 0
    return lpi_timer_us(ifname, dev)


def _eee_set_reaches_driver(
    ifname: str, dev: dict[str, Any], pairs: list[tuple[str, str]], asked: Any, advertised: Any
) -> bool:
    """Whether the driver's set_eee is called: net/ethtool/eee.c ethnl_set_eee calls it only
    when a field asked for differs from get_eee's answer (what --show-eee shows)."""
    eee = dev["eee"]
    shown = {
        "eee": "on" if eee["enabled"] else "off",
        "tx-lpi": "on" if eee.get("tx_lpi") else "off",
        "tx-timer": str(_timer_handed(ifname, dev)),
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
