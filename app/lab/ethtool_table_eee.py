"""The lab's EEE state held to the driver capability table (resources/tuning/driver_caps.json):
the kernel's own defaults per series, per-chip rules, the link modes a driver reports and the
driver's Tx LPI timer (split from ethtool_table.py, which calls hold_eee for `state["eee"]`)."""

from __future__ import annotations

from typing import Any

from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps import DriverCaps
from sbctune.tuning.driver_caps_series import release_holds


def phy_branch_known(value: dict[str, Any], eee: dict[str, Any]) -> bool:
    """Whether an EEE fact that holds only where the driver finds its PHY by address (stmmac
    on 6.12: stmmac_init_phy's phy_support_eee, not on a phy-handle) holds for the modelled
    board: only where its model says so (`eee.phy_by_address`), else neither side is claimed
    (a phy-handle board reports EEE disabled and keeps it off across an open)."""
    return not value.get("phy_by_address") or bool(eee.get("phy_by_address"))


def eee_default(eee: dict[str, Any], caps: DriverCaps) -> None:
    """EEE as the kernel sets it up (lan78xx: off on 6.1, where only set_eee turns the MAC's
    EEE on; on 6.12 phy_support_eee enables it and lan78xx_link_status_change turns the MAC's
    on after a link that negotiated it, so the MAC's LPI timer reads 0 until then; bcmgenet,
    r8169 and stmmac: phy_support_eee on 6.12). With an unknown kernel a default the table has
    for one series only, or that differs between the series, is not claimed: the model's values
    stay (else 6.1's Tx LPI would meet 6.12's link modes, which no kernel shows)."""
    default = caps.facts.get("eee_default")
    if not default or not driver_caps.fact_in_every_series(caps, "eee_default"):
        return
    if not phy_branch_known(default, eee):  # stmmac 6.12: only a PHY found by address
        return
    hand = driver_caps.table()["hand"].get(caps.driver, [])
    series = set(caps.series)
    by_series = [f["value"] for f in hand
                 if f["fact"] == "eee_default" and set(f["kernels"]) & series]  # fmt: skip
    # r8169: Tx LPI off on 6.1, on on 6.12: an unknown kernel claims neither, the model's stays.
    # Where the running kernel's release (or patch level) chose the fact (caps.dated: stmmac's
    # phylink default from 6.14, lan78xx's from 6.10, audit 31 row 1) the other series' value
    # is another release's, not a dispute.
    if "eee_default" not in caps.dated and any(value != default for value in by_series):
        return
    eee["enabled"] = bool(default["enabled"])
    eee["tx_lpi"] = bool(default["tx_lpi"])
    eee["active"] = eee["enabled"] and bool(eee.get("link_partner"))
    if isinstance(default.get("tx_lpi_timer"), int):  # lan78xx from 6.17: phylink's 50 us
        eee["tx_lpi_timer"] = default["tx_lpi_timer"]
    if not eee["active"] and default.get("timer_needs_link"):
        eee["tx_lpi_timer"] = 0


def eee_timer(
    eee: dict[str, Any], caps: DriverCaps, chip: str, speed_mbps: float | None, mtu: int = 1500
) -> None:
    """r8169 on 6.12 (rtl_set_eee_txidle_timer, r8169_get_tx_lpi_timer_us): the RTL8125's
    Tx LPI timer is MTU + 46 bytes at the link's speed, DIV_ROUND_CLOSEST(bytes * 8, Mbit/s) us.
    Claimed where 6.12 may be running: 6.1 leaves Tx LPI off, so ethtool shows no timer there."""
    over = driver_caps.by_chip(caps.facts.get("eee_tx_lpi_timer_bytes"), chip)
    if over is None or not speed_mbps or "6.12" not in caps.series:
        return
    eee["tx_lpi_timer"] = (int(over + mtu) * 8 + int(speed_mbps) // 2) // int(speed_mbps)
    # the driver's own timer: ethtool shows it again from the MTU and speed of the moment
    # (rtl8169_change_mtu calls rtl_set_eee_txidle_timer), and a --set-eee tx-timer only
    # reaches phylib (rtl8169_set_eee: phy_ethtool_set_eee), which rtl8169_get_eee overrides
    eee["timer_bytes_over_mtu"], eee["timer_speed_mbps"] = int(over), int(speed_mbps)


def eee_by_chip(eee: dict[str, Any], caps: DriverCaps, chip: str) -> None:
    """r8152 (rtl_ops_init): the RTL8152 advertises 100baseT only, the RTL8156B has EEE on; a
    chip the table cannot tell (RTL8156: RTL_VER_10 off, RTL_VER_11 on) keeps the model's. The
    longest name `chip` contains decides (RTL8156B, not RTL8156). lan78xx on the Pi 3 B+'s
    LAN7515 with the Raspberry Pi tree: EEE, Tx LPI and its 600 us timer on at probe."""
    by_chip = caps.facts.get("eee_by_chip") or {}
    squeezed = chip.lower().replace(" ", "")
    names = [name for name in by_chip if squeezed and name.lower() in squeezed]
    if not names:
        return
    rule = by_chip[max(names, key=len)]
    if rule.get("modes"):
        eee["supported"] = list(rule["modes"])
    if isinstance(rule.get("enabled"), bool):
        eee["enabled"] = rule["enabled"]
    if isinstance(rule.get("tx_lpi"), bool):  # lan78xx on a Pi 3 B+ (the RPi tree): at probe
        eee["tx_lpi"] = rule["tx_lpi"]
    default = caps.facts.get("eee_default") or {}
    if isinstance(rule.get("tx_lpi_timer"), int):  # 6.12 reads 0 until the MAC's EEE is on
        eee["active"] = bool(eee["enabled"]) and bool(
            set(rule.get("modes") or eee["supported"]) & set(eee.get("link_partner", []))
        )
        late = bool(default.get("timer_needs_link")) and not eee["active"]
        eee["tx_lpi_timer"] = 0 if late else rule["tx_lpi_timer"]
    eee["active"] = bool(eee["enabled"]) and bool(
        set(eee["supported"]) & set(eee.get("link_partner", []))
    )


def eee_disabled_modes(eee: dict[str, Any], caps: DriverCaps, chip: str) -> None:
    """The EEE modes a driver keeps out of the chip's advertisement for good (the rule's
    "disabled_modes", a list or "all": phylib's eee_disabled_modes, which phy_support_eee,
    phy_advertise_eee_all and genphy_c45_ethtool_set_eee leave out; r8169 from 6.13 the RTL8125A's
    2500baseT/Full, phy_disable_eee_mode; from 7.2.10 every mode of the RTL8168h/8111h,
    phy_disable_eee): advertised without them now and after any --set-eee (fake_ethtool_eee)."""
    rule = driver_caps.by_chip(caps.facts.get("eee_by_chip"), chip) or {}
    disabled = rule.get("disabled_modes")
    if not disabled:
        return
    eee["disabled_modes"] = list(eee["supported"]) if disabled == "all" else list(disabled)
    eee["advertised"] = [m for m in eee["supported"] if m not in eee["disabled_modes"]]
    if not eee["advertised"]:
        eee["active"] = False


def eee_modes(eee: dict[str, Any], caps: DriverCaps) -> None:
    """The EEE link modes the driver reports where the table says so for the profile's series
    (igc: none on 6.1, 100/1000/2500baseT on 6.12; an unknown kernel: the model's, unless
    every series agrees) and the driver's own set rules (igc_ethtool_set_eee)."""
    held = {s: f["value"] for f in driver_caps.table()["hand"].get(caps.driver, [])
            if f["fact"] == "eee_modes" for s in f["kernels"] if s in caps.series}  # fmt: skip
    values = list(held.values())
    if "eee_modes" in caps.dated:  # its release says it holds (r8169's 6.1 modes until 6.9)
        eee["supported"] = list(caps.facts["eee_modes"]["supported"])
    elif values and set(held) == set(caps.series) and all(v == values[0] for v in values):
        eee["supported"] = list(values[0]["supported"])
    rules = dict(caps.facts.get("eee_set_rules", {}))
    if rules:
        rules["tx_lpi_follows"] = bool(caps.facts.get("eee_tx_lpi_follows"))
        eee["rules"] = rules
    if caps.facts.get("eee_tx_lpi_follows"):  # igc/igb: EEER's Tx LPI; atlantic: as shown
        eee["tx_lpi_follows"] = True
        eee["tx_lpi"] = bool(eee["enabled"])


def eee_follows_link(caps: DriverCaps) -> bool:
    """Whether the driver's eee_active is phylib's and every series the lab may run says it
    needs a link: 6.12's genphy_c45_eee_is_active (phy_check_valid on the negotiated speed);
    6.1's phy_ethtool_get_eee reads the registers only, so with an unknown kernel (or 6.1)
    the model's answer, the PHY's registers, stays (driver_caps.json eee_active_needs_link)."""
    if not caps.series or not driver_caps.fact_in_every_series(caps, "eee_active_from_phylib"):
        return False
    needs = {s: bool(f["value"]) for f in driver_caps.table()["hand"].get("_kernel", [])
             if f["fact"] == "eee_active_needs_link" for s in f["kernels"]}  # fmt: skip
    return all(needs.get(s, False) for s in caps.series)


def eee_not_on(caps: DriverCaps, chip: str) -> bool:
    """Whether the driver has EEE only on some chips and this one is not known to be one of
    them (macb from 7.1: MACB_CAPS_EEE, fact `eee_chips_only`): an unnamed chip is refused too,
    so the lab is never kinder than the kernel (audit 47 row 1)."""
    return bool(caps.facts.get("eee_chips_only")) and not caps.refuses_on("eee_chips_only", chip)


def hold_eee(
    state: dict[str, Any],
    caps: DriverCaps,
    chip: str,
    speed_mbps: float | None,
    kernel: str = "",
) -> None:
    """`state["eee"]`: None where the driver has no get_eee (or refuses it for this chip), else
    the model's (or no EEE link mode: never kinder) with the kernel's defaults and rules."""
    if (
        not caps.has("get_eee")
        or caps.refuses_on("eee_refused_chips", chip)
        or eee_not_on(caps, chip)
    ):
        state["eee"] = None
    elif state.get("eee") is None:  # no model: the lab claims no EEE link mode (never kinder)
        state["eee"] = {"supported": [], "enabled": False, "link_partner": [], "tx_lpi": False}
    if state["eee"] is None:
        return
    eee = state["eee"]
    eee["restarts"] = caps.restarts("eee")
    if caps.facts.get("eee_restart_on_any_set"):  # r8152, ax88179: mii_nway_restart at every set
        eee["restart_on_any_set"] = True
    if eee_follows_link(caps):  # fake_ethtool_knobs.show_eee: inactive with no carrier
        eee["active_needs_link"] = True
    eee_default(eee, caps)
    reset = caps.facts.get("eee_reset_on_open")
    if (reset and driver_caps.fact_in_every_series(caps, "eee_reset_on_open")
            and phy_branch_known(reset, eee)):  # fmt: skip
        # bcmgenet on 6.12: phy_support_eee at every open (fake_ethtool_base.reopened)
        eee["reset_on_open"] = {k: v for k, v in reset.items() if k != "phy_by_address"}
    eee_by_chip(eee, caps, chip)
    if caps.facts.get("eee_tx_lpi_follows") and driver_caps.fact_in_every_series(
        caps, "eee_tx_lpi_follows"
    ):  # lan78xx on 6.1: Tx LPI is MAC_CR_EEE_EN_, as EEE itself
        eee.update(tx_lpi_follows=True, tx_lpi=bool(eee["enabled"]))
    if caps.facts.get("eee_enable_refused"):  # ax88179_set_eee: chk_eee, zero advert
        eee["can_enable"] = False
    if caps.refuses_on("eee_inactive_chips", chip) and driver_caps.fact_in_every_series(
        caps, "eee_inactive_chips"
    ):  # r8152 on 6.12: eee_active checked at the 2500 it advertises, with no 2.5G mode
        eee["never_active"] = True
    if driver_caps.fact_in_every_series(caps, "eee_enabled_is_advertised"):
        eee["enabled_needs_modes"] = True  # atlantic: eee_enabled = !linkmode_empty(advertised)
    if caps.facts.get("eee_tx_lpi_unreported"):  # r8152, ax88179: always "disabled"
        eee.update(tx_lpi=False, tx_lpi_unreported=True)
    if caps.facts.get("eee_tx_lpi_timer_unreported"):  # igb, igc, atlantic: always 0
        eee["timer_unreported"] = True
    if caps.facts.get("eee_timer_zero_when_disabled"):  # lan78xx until 6.17: get_eee's 0
        eee["timer_zero_when_disabled"] = True
    eee_modes(eee, caps)
    eee_disabled_modes(eee, caps, chip)
    eee_timer(eee, caps, chip, speed_mbps)
    rule = advertise_rule(caps, kernel)
    # fake_ethtool_eee: phylib writes (or refuses) a --set-eee advertise, against the PHY's EEE
    # modes; where the lab knows none (lan78xx, stmmac: the PHY's), it claims no answer
    if rule and eee["supported"]:
        eee["adv_rule"] = rule
        # the driver's own rule writes the advertisement with no new autonegotiation (igb)
        eee["adv_own"] = driver_caps.fact_in_every_series(caps, "eee_advertise_rule")


def advertise_rule(caps: DriverCaps, kernel: str = "") -> str | None:
    """How phylib answers `--set-eee advertise` with a mode the PHY cannot do ("masked" on 6.1,
    "EINVAL" on 6.12: _kernel eee_advertise_outside_supported), where the driver hands EEE to
    phylib in every series the lab may run and those series agree (an unknown kernel: none);
    a driver that checks the advertisement itself, its own rule first (igb_set_eee:
    "EINVAL_if_on", the 100/1000 modes only while EEE is on; audit 33b row 5)."""
    if driver_caps.fact_in_every_series(caps, "eee_advertise_rule"):
        return str(caps.facts["eee_advertise_rule"])
    if not caps.facts.get("eee_set_via_phylib") or not driver_caps.fact_in_every_series(
        caps, "eee_set_via_phylib"
    ):
        return None
    rules = {driver_caps.kernel_fact("eee_advertise_outside_supported", s) for s in caps.series}
    values = {rule[0] for rule in rules if rule}
    if len(values) == 1 and None not in rules:
        return str(values.pop())
    return _dated_core_rule("eee_advertise_outside_supported", kernel)


def _dated_core_rule(name: str, kernel: str) -> str | None:
    """The value of the `_kernel` fact whose release range says it holds on the running kernel
    (6.6, 6.18: EINVAL from 186b1da76b72, 6.3; audit 37 row 8), where exactly one does; None
    for an undated fact or a kernel string without a version."""
    held = {str(f["value"]) for f in driver_caps.table()["hand"].get("_kernel", [])
            if f["fact"] == name and (f.get("since") or f.get("until"))
            and release_holds(f, kernel or None) is True}  # fmt: skip
    return held.pop() if len(held) == 1 else None


def _dated_out(hand: list[dict[str, Any]], series: str, kernel: str) -> bool:
    """Whether the series' eee_modes fact has a release range ("until"/"since") that leaves the
    running kernel out (r8169's 6.1 modes until 6.9, b63584c86edb: not on 6.18; audit 37)."""
    return any(
        f["fact"] == "eee_modes" and series in f["kernels"]
        and (f.get("since") or f.get("until")) and release_holds(f, kernel or None) is False
        for f in hand
    )  # fmt: skip


def eee_within_link_modes(state: dict[str, Any], driver: str, chip: str, kernel: str) -> None:
    """The EEE modes a phylib driver shows, kept to the interface's own link modes where the
    kernel does so (6.12: genphy_c45_read_eee_cap1 ANDs the PHY's EEE register with its link
    modes, and reads the 2.5G one only for a 2.5G PHY; _kernel eee_supported_within_link_modes):
    a gigabit RTL8168 behind the r8169 model (the RTL8125B's 100/1000/2500) shows 100/1000.
    Decided per series: one with the driver's own eee_modes fact shows those (6.1: the register
    alone), one with the kernel rule the model's modes within the link's; shown where every
    series the lab may run agrees (audit 33b row 1)."""
    eee, link = state.get("eee"), state.get("link")
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    if not eee or not link or not link.get("supported") or caps is None or not caps.series:
        return
    hand = driver_caps.table()["hand"].get(caps.driver, [])
    held = {s: list(f["value"]["supported"]) for f in hand if f["fact"] == "eee_modes"
            for s in f["kernels"]}  # fmt: skip
    phylib = {s for f in hand if f["fact"] == "eee_active_from_phylib" for s in f["kernels"]}
    modes = set(link["supported"])
    answers = []
    for series in caps.series:
        if series in held and _dated_out(hand, series, kernel):
            continue  # dated: the running kernel is on the other series' side of the change
        if series in held:
            answers.append(held[series])
        elif series in phylib and driver_caps.kernel_fact(
            "eee_supported_within_link_modes", f"{series}.0"
        ):
            answers.append([m for m in eee["supported"] if m in modes])
        else:
            return
    if any(answer != answers[0] for answer in answers):
        return
    eee["supported"] = answers[0]
    if "advertised" in eee:
        eee["advertised"] = [m for m in eee["advertised"] if m in answers[0]]
    eee["active"] = bool(eee.get("enabled")) and bool(
        set(eee["supported"]) & set(eee.get("link_partner", []))
    )
