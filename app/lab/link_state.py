"""The starting state of the lab's ``ethtool IFACE`` / ``ethtool -s`` (``fake_ethtool_link``).

Where the profile's bundle has a real capture of ``ethtool IFACE`` its lines are kept as they
are, in their order and layout, and only the live ones (Speed, Duplex, Link detected, the
autonegotiation lines, advertised modes after ``-s``) are rewritten; else the lines are built
from the driver's facts (resources/lab/ethtool/link_settings.toml, each with its source). A
driver without facts or capture keeps the capture script's answer (None).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from sbctune.lab.ethtool_models import data_root, load_toml
from sbctune.tuning import driver_caps

_BLOCK = re.compile(r"^(\s+)([A-Z][A-Za-z -]*?):\s?(.*)$")
_MODE_LABELS = (
    "Supported link modes",
    "Advertised link modes",
    "Link partner advertised link modes",
)


def _facts(driver: str) -> dict[str, Any] | None:
    table = load_toml(data_root() / "link_settings.toml")
    entry = table.get(driver)
    return dict(entry) if isinstance(entry, dict) else None


def sysfs_duplex(driver: str) -> str:
    """What /sys/class/net/IFACE/duplex reads with a carrier: net-sysfs.c duplex_show names the
    duplex of the same __ethtool_get_link_ksettings as ``ethtool IFACE`` (zeroed first, so a
    driver that writes none reads "half": the facts' `duplex`, cdc_ncm's
    usbnet_get_link_ksettings_internal, audit 22 row 2); else the lab's full-duplex link."""
    shown = (_facts(driver) or {}).get("duplex") if driver else None
    return str(shown).lower() if shown in ("Half", "Full") else "full"


def parse_capture(text: str) -> tuple[str, list[list[Any]]]:
    """A captured ``ethtool IFACE`` as (indent, blocks): [label, value, continuation lines];
    link-mode blocks hold their modes as a list and every line of theirs as captured."""
    blocks: list[list[Any]] = []
    indent = "\t"
    for line in text.splitlines()[1:]:  # after "Settings for IFACE:"
        match = _BLOCK.match(line)
        if not line.strip():
            blocks.append(["", "", []])
        elif match:
            indent = indent if blocks else match.group(1)
            label, value = match.group(2), match.group(3).strip()
            modes = label in _MODE_LABELS  # their lines kept as captured (shown as they were)
            blocks.append([label, value.split() if modes else value, [line] if modes else []])
        elif blocks and blocks[-1][0] in _MODE_LABELS:
            blocks[-1][1] += line.split()
            blocks[-1][2].append(line)
        elif blocks:
            blocks[-1][2].append(line)
    return indent, blocks


def _fact_blocks(facts: dict[str, Any], caps_wol: bool, msglevel: int | None) -> list[list[Any]]:
    """ethtool's lines from the driver's facts. A driver whose chip or PHY decides the link
    modes (atlantic, stmmac, asix) has no `supported`: its mode, pause, port and transceiver
    lines are left out, never guessed. `autoneg = false`: a ksettings without the Autoneg bit
    (cdc_ncm's usbnet_get_link_ksettings_internal). `msglevel`: the driver's msg_enable at
    probe where it has get_msglevel (the table's ``msglevel_default``), else None."""

    def line(label: str, key: str) -> list[list[Any]]:
        return [[label, str(facts[key]), []]] if key in facts else []

    def modes(label: str, key: str) -> list[list[Any]]:
        return [[label, list(facts[key]), []]] if key in facts else []

    yes = "Yes" if facts.get("autoneg", True) else "No"
    known = "supported" in facts
    ports = " ".join(facts.get("ports", []))
    blocks: list[list[Any]] = [
        *([["Supported ports", f"[ {ports} ]", []]] if "ports" in facts else []),
        *modes("Supported link modes", "supported"),
        *line("Supported pause frame use", "pause_supported"),
        *([["Supports auto-negotiation", yes, []]] if known else []),
        ["Supported FEC modes", "Not reported", []],
        *modes("Advertised link modes", "advertised"),
        *line("Advertised pause frame use", "pause_advertised"),
        *([["Advertised auto-negotiation", yes, []]] if known else []),
        ["Advertised FEC modes", "Not reported", []],
        ["Speed", "", []],
        ["Duplex", "", []],
        ["Auto-negotiation", "on" if facts.get("autoneg", True) else "off", []],
        *line("Port", "port"),
        *line("PHYAD", "phyad"),  # where the source decides it (r8169, igc, atlantic: 0)
        *line("Transceiver", "transceiver"),
    ]
    if "mdix" in facts and facts.get("port") in ("Twisted Pair", "MII"):
        blocks.append(["MDI-X", str(facts["mdix"]), []])
    if caps_wol and "wol_supported" in facts:
        blocks.append(["Supports Wake-on", str(facts["wol_supported"]), []])
        blocks.append(["Wake-on", str(facts.get("wol_default", "d")), []])  # igc: g at probe
    if msglevel is not None:  # DEBUG_GET comes between WOL_GET and LINKSTATE_GET (nl_gset)
        blocks.append([MSGLEVEL, f"0x{msglevel:08x} ({msglevel})", [msglevel_names(msglevel)]])
    blocks.append(["Link detected", "", []])
    return blocks


MSGLEVEL = "Current message level"
# net/ethtool/common.c netif_msg_class_names: the names of msg_enable's bits, lowest first
_MSG_CLASSES = ("drv", "probe", "link", "timer", "ifdown", "ifup", "rx_err", "tx_err",
                "tx_queued", "intr", "tx_done", "rx_status", "pktdata", "hw", "wol")  # fmt: skip


def msglevel_names(level: int) -> str:
    """The line under 'Current message level' as ethtool 6.1's debug_reply_cb prints it: 30
    spaces, then " NAME" for each class set."""
    return " " * 30 + "".join(f" {n}" for i, n in enumerate(_MSG_CLASSES) if level >> i & 1)


def _chip_modes(
    facts: dict[str, Any], caps: driver_caps.DriverCaps | None, chip: str
) -> dict[str, Any]:
    """atlantic (`modes_from_chip_rates`): aq_nic_get_link_ksettings lists the chip's caps
    (link_speed_msk, each rate full duplex: the table's link_forced_by_chip), Pause and
    Asym_Pause (every caps has flow_control), Autoneg and TP, or FIBRE where the caps' media
    type is (`fibre_chips`), and advertises the same rates (aq_nic_cfg_start: link_speed_msk
    0xFFFF masked by the caps). Without a named chip the lines stay out (audit 9b row 6)."""
    rates = driver_caps.by_chip(caps.facts.get("link_forced_by_chip"), chip) if caps else None
    if not facts.get("modes_from_chip_rates") or not rates:
        return facts
    modes = [f"{rate}baseT/Full" for rate in rates]
    fibre = driver_caps.by_chip(dict.fromkeys(facts.get("fibre_chips", []), True), chip)
    return {
        **facts,
        "ports": ["FIBRE"] if fibre else ["TP"],
        "supported": modes,
        "advertised": modes,
        "pause_supported": "Symmetric Receive-only",
        "port": "FIBRE" if fibre else "Twisted Pair",
        "transceiver": "internal",  # aq_ethtool_get_link_ksettings leaves it 0
        "mdix": "Unknown",  # 0, ETH_TP_MDI_INVALID; ethtool shows it for TP only
    }


def _by_series(facts: dict[str, Any], kernel: str) -> dict[str, Any]:
    """The facts for the profile's kernel series: a `by_series` entry ("6.12" = {...}) replaces
    the default for that series; with no known series a fact the series disagree on is left
    out (never guessed)."""
    by_series = facts.pop("by_series", {})
    series = driver_caps.series_of(kernel or None)
    if len(series) == 1:
        return {**facts, **dict(by_series.get(series[0], {}))}
    differing = {key for entry in by_series.values() for key in entry}
    return {k: v for k, v in facts.items() if k not in differing}


def _by_chip(facts: dict[str, Any], chip: str) -> dict[str, Any]:
    """The facts for the profile's chip: `by_chip` ("LAN7801" = {...}; r8169's gigabit and Fast
    Ethernet families, audit 9b row 9) replaces a fact,
    `chip_decides` lists the facts the chip's own hardware (an external PHY) decides, left out
    (never guessed); a chip the table does not name keeps the driver's facts."""
    over = driver_caps.by_chip(facts.pop("by_chip", {}), chip) or {}
    drop = driver_caps.by_chip(facts.pop("chip_decides", {}), chip) or []
    return {k: v for k, v in {**facts, **over}.items() if k not in drop}


def _by_board(facts: dict[str, Any], board: str | None) -> dict[str, Any]:
    """The facts the board's device tree decides (`by_board`, keyed by the model the board's
    captures name, the longest contained key wins): bcmgenet's PHY address is the `reg` of the
    ethernet-phy node of its board's .dts (audit 32 row 2); a board the table does not name
    keeps the driver's facts, where such a line is left out (never guessed)."""
    over = driver_caps.by_chip(facts.pop("by_board", {}), board) or {}
    return {**facts, **over}


def link_state(
    driver: str,
    kernel: str,
    chip: str,
    capture: str | None,
    speed_mbps: float | None,
    board: str | None = None,
) -> dict[str, Any] | None:
    """The ``link`` entry of an interface's state, or None (the capture script answers);
    `board` the model the profile's captures name (sbctune.lab.board.board_name)."""
    facts = _by_board(_by_chip(_by_series(_facts(driver) or {}, kernel), chip), board)
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    facts = _chip_modes(facts, caps, chip)
    has = caps.has if caps is not None else (lambda op: False)
    if capture is not None:
        indent, blocks = parse_capture(capture)
    elif facts and has("get_link_ksettings"):
        level = caps.facts.get("msglevel_default") if caps and has("get_msglevel") else None
        indent, blocks = "\t", _fact_blocks(facts, has("get_wol"), level)
    else:
        return None
    by_label = {block[0]: block[1] for block in blocks}
    supported = list(by_label.get("Supported link modes") or facts.get("supported", []))
    wol = by_label.get("Supports Wake-on")
    table_facts = caps.facts if caps is not None else {}
    return {
        "indent": indent,
        "blocks": blocks,
        # asix: the bound chip's own ethtool_ops decide (AX88178 mii with gmii, AX88772 phylib)
        "rule": (driver_caps.by_chip(table_facts.get("link_rule_by_chip"), chip) if caps else None)
        or facts.get("rule", "phylib"),
        "supported": supported,
        "advertised": list(by_label.get("Advertised link modes") or supported),
        "autoneg": str(by_label.get("Auto-negotiation", "on")) != "off",
        "forced": None,
        "set_op": has("set_link_ksettings"),
        # lan78xx before 6.17: a forced set drops the link even where phylib refuses it
        "forced_drops_refused": bool(table_facts.get("link_forced_set_drops_link")),
        # net/ethtool/debug.c ethnl_set_debug: both ops, else EOPNOTSUPP (-s msglvl)
        "debug_op": has("get_msglevel") and has("set_msglevel"),
        **_wol_state(facts, wol, has, captured=capture is not None),
        "speed_max": int(speed_mbps) if speed_mbps else None,
        "duplex_shown": facts.get("duplex") if capture is None else None,  # cdc_ncm: Half
        # usbnet_get_link_ksettings_internal: the last notified speed, with or without carrier
        "speed_kept": bool(facts.get("speed_kept")),
        "idle": idle_settings(caps, kernel),
        # atlantic: the forced speeds of the chip's caps (link_speed_msk), else every chip's
        "rates": driver_caps.by_chip(table_facts["link_forced_by_chip"], chip or "default")
        if table_facts.get("link_forced_by_chip")
        else None,
        "source": "capture" if capture is not None else "link_settings.toml",
    }


# set_link_ksettings rules whose get side reads BMCR when forced: phylib and phylink with a PHY
# (genphy_read_status -> genphy_read_status_fixed), mii (mii_ethtool_get_link_ksettings)
_FORCED_READ = ("phylib", "phylink", "mii", "gmii", "r8152")


def idle_settings(caps: driver_caps.DriverCaps | None, kernel: str) -> dict[str, Any]:
    """What the driver's get_link_ksettings reads without a carrier where it is not "Unknown!"
    (audit 22 row 3): `forced` (the rules in _FORCED_READ: a forced speed and duplex are shown,
    _kernel phy_forced_read_without_link) and `autoneg` (a driver whose settings are
    mii_ethtool_get_link_ksettings' reading, ksettings_read_by_mii: 10 Mbit/s half duplex with
    no partner, _kernel mii_ksettings_without_partner) and `halted_last` (set down, a driver
    that keeps its PHY attached, phy_attached_while_down, shows the last link's speed and
    duplex where the kernel's PHY_HALTED keeps them: 6.1, _kernel phy_halted_keeps_link; audit
    22 row 5). igb, igc, atlantic and phylib with autonegotiation answer SPEED_UNKNOWN."""
    found: dict[str, Any] = {"forced_rules": list(_FORCED_READ)}
    if driver_caps.kernel_fact("phy_forced_read_without_link", kernel or None) is None:
        found["forced_rules"] = []
    if caps is not None and caps.facts.get("phy_attached_while_down"):
        # set down, phylib keeps the last link's speed and duplex (6.1's PHY_HALTED)
        found["halted_last"] = _every_series("phy_halted_keeps_link", kernel)
    if caps is not None and caps.facts.get("ksettings_read_by_mii"):
        fact = driver_caps.kernel_fact("mii_ksettings_without_partner", kernel or None)
        if fact is not None:
            found["autoneg"] = dict(fact[0])
    return found


def _every_series(name: str, kernel: str) -> bool:
    """Whether the ``_kernel`` fact `name` is true in every series the kernel may be."""
    facts = [f for f in driver_caps.table()["hand"].get("_kernel", []) if f["fact"] == name]
    return all(
        any(s in f["kernels"] and f["value"] is True for f in facts)
        for s in driver_caps.series_of(kernel or None)
    )


def _wol_state(
    facts: dict[str, Any], wol: Any, has: Callable[[str], bool], captured: bool
) -> dict[str, Any]:
    """The Wake-on-LAN part of the ``link`` entry: its ops, the modes shown (`wol`: the
    "Supports Wake-on" line's, None where there is none) and what the driver takes."""
    return {
        "wol_op": has("get_wol"),
        "wol_set_op": has("set_wol"),
        # asix: the modes get_wol supports are the source's, its Wake-on the chip's: lines out,
        # the refusal of other modes kept (wol_supported_unshown)
        "wol_supported": facts.get("wol_supported_unshown")
        if wol is None
        else ("" if wol == "d" else str(wol)),
        # igb: the NVM decides the supported set (IGB_FLAG_WOL_SUPPORTED); the bound
        # igb_get_wol can report and igb_set_wol's answer to `d` are the source's
        "wol_supported_within": facts.get("wol_supported_within"),
        "wol_off_taken": bool(facts.get("wol_off_taken")),
        # get_wol with its lines left out (the chip decides): a user still gets WOL_GET's EPERM
        "wol_hidden": not captured and has("get_wol") and wol is None,
    }
