"""The lab's ethtool state held to the driver capability table (resources/tuning/driver_caps.json,
read from the kernel's source): the lab can be no kinder than the kernel it imitates.

The hand-written model (resources/lab/ethtool/drivers/<driver>.toml) gives current values; the
table decides which operations exist (a missing ethtool_ops callback is "Operation not
supported"), the ring maxima, the coalescing parameters, limits, steps and mode codes, the
chip-specific refusals, the default features the kernel itself sets, and whether a ring change
restarts the interface.
"""

from __future__ import annotations

from typing import Any

from sbctune.inventory.usbnet_info import description_naming, only_description
from sbctune.lab.ethtool_table_eee import eee_by_chip, eee_default, eee_modes, eee_timer
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps import DriverCaps

# include/linux/ethtool.h: ETHTOOL_COALESCE_* flags -> the ethtool parameters they allow.
_COALESCE_FLAGS = {
    "ETHTOOL_COALESCE_RX_USECS": ["rx-usecs"],
    "ETHTOOL_COALESCE_TX_USECS": ["tx-usecs"],
    "ETHTOOL_COALESCE_USECS": ["rx-usecs", "tx-usecs"],
    "ETHTOOL_COALESCE_RX_MAX_FRAMES": ["rx-frames"],
    "ETHTOOL_COALESCE_TX_MAX_FRAMES": ["tx-frames"],
    "ETHTOOL_COALESCE_MAX_FRAMES": ["rx-frames", "tx-frames"],
    "ETHTOOL_COALESCE_USE_ADAPTIVE_RX": ["adaptive-rx"],
    "ETHTOOL_COALESCE_USE_ADAPTIVE_TX": ["adaptive-tx"],
    "ETHTOOL_COALESCE_USE_ADAPTIVE": ["adaptive-rx", "adaptive-tx"],
    "ETHTOOL_COALESCE_RX_USECS_IRQ": ["rx-usecs-irq"],
    "ETHTOOL_COALESCE_TX_USECS_IRQ": ["tx-usecs-irq"],
    "ETHTOOL_COALESCE_USECS_IRQ": ["rx-usecs-irq", "tx-usecs-irq"],
    "ETHTOOL_COALESCE_RX_MAX_FRAMES_IRQ": ["rx-frames-irq"],
    "ETHTOOL_COALESCE_TX_MAX_FRAMES_IRQ": ["tx-frames-irq"],
    "ETHTOOL_COALESCE_MAX_FRAMES_IRQ": ["rx-frames-irq", "tx-frames-irq"],
    "ETHTOOL_COALESCE_STATS_BLOCK_USECS": ["stats-block-usecs"],
}
_RING_PARAMS = ("rx", "rx-mini", "rx-jumbo", "tx")
MANGLEID = "tx-tcp-mangleid-segmentation"


def coalesce_params(flags: frozenset[str]) -> list[str]:
    return sorted({p for flag in flags for p in _COALESCE_FLAGS.get(flag, [])})


def single_queue(driver: str, chip: str = "", queues: int | None = None) -> bool:
    """Whether the kernel gives the driver's net_device one transmit queue (xps_cpus: ENOENT):
    a single-queue allocation, or macb with one queue in use (`queues`: the profile's count;
    else the table's for the chip, RP1: 1)."""
    caps = driver_caps.caps(driver, None, chip) if driver else None
    return caps is not None and caps.single_tx_queue(chip, queues)


def driver_queues(
    driver: str,
    chip: str = "",
    cpus: int | None = None,
    queues: int | None = None,
    msix: bool = True,
) -> tuple[int, int] | None:
    """(TX, RX) queues the driver gives its net_device: 1 and 1 for a single-queue one, the
    hand-read counts where the source sets them (bcmgenet on GENET v5: 5 TX, 1 RX), one pair per
    CPU up to the MAC's maximum where the source says so (igb: I211 2, I210 4, else 8; igc 4),
    the board's where the device tree or the hardware decides (`queues`, the profile's count;
    else the table's: macb on RP1 1, stmmac without snps,tx-queues-to-use 1), None where the
    lab cannot know them and keeps veth's. `msix` False: the PCIe host gives no MSI-X
    (irq_model.pcie_msix), so igb and igc run one queue pair."""
    caps = driver_caps.caps(driver, None, chip) if driver else None
    if caps is None:
        return None
    vectors = caps.facts.get("irq_vectors") or {}
    if not msix and vectors.get("style") == "msix_link_then_queues":
        return 1, 1  # igb/igc_set_interrupt_capability without MSI-X: one MSI, one queue pair
    if queues and caps.facts.get("queues_allocated"):
        return queues, queues
    counts = caps.facts.get("queues")
    if counts:
        return int(counts["tx"]), int(counts["rx"])
    top = _rss_max(caps, chip)
    if top and caps.facts.get("rss_queues_per_cpu") and cpus:
        pairs = max(1, min(top, cpus))
        if caps.facts.get("rss_queues_pow2"):  # atlantic: rounddown_pow_of_two
            pairs = 1 << (pairs.bit_length() - 1)
        return pairs, pairs
    in_use = caps.queues_in_use(chip)
    if in_use:
        return in_use
    return (1, 1) if caps.multiqueue is False else None


def _rss_max(caps: DriverCaps, chip: str) -> int | None:
    """The MAC's most RSS queues (igb_get_max_rss_queues: I211 2, 82575/I210 4, else 8)."""
    maxima = caps.facts.get("rss_queues_max")
    if not maxima:
        return None
    squeezed = chip.lower().replace(" ", "")
    return next((int(n) for name, n in maxima.items() if name != "default"
                 and name.lower() in squeezed), int(maxima["default"]))  # fmt: skip


def channels_state(
    driver: str, chip: str, kernel: str, in_use: tuple[int, int] | None, msix: bool = True
) -> dict[str, Any] | None:
    """``ethtool -l``'s maxima and counts as the driver's get_channels gives them (None: no
    get_channels). igb/igc: combined = rss_queues (one per CPU up to the MAC's maximum), other
    = NON_Q_VECTORS (the MSI-X link vector), 0 without MSI-X (`msix` False), while their
    set_channels still asks for NON_Q_VECTORS ("other_required": so every -L is EINVAL there);
    stmmac: RX and TX in use, their maximum the hardware's (dma_cap), which the lab takes as
    the count in use."""
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    if caps is None or not caps.has("get_channels"):
        return None
    fact = caps.facts.get("channels", {})
    tx, rx = in_use or (1, 1)
    zero = dict.fromkeys(("rx", "tx", "other", "combined"), 0)
    required = caps.facts.get("channels_other_required")
    if fact.get("style") == "combined":
        other = int(fact.get("other", 0))
        if not msix and caps.facts.get("channels_other_needs_msix"):
            other = 0  # igb/igc_get_channels: other only with IGB/IGC_FLAG_HAS_MSIX
        top = _rss_max(caps, chip) or rx
        maxima, cur = (
            {**zero, "other": other, "combined": top},
            {**zero, "other": other, "combined": rx},
        )
    elif fact.get("style") == "separate":
        maxima = cur = {**zero, "rx": rx, "tx": tx}
        if caps.refuses_on("channels_max_zero_chips", chip):  # stmmac without dma_cap's counts
            maxima = dict(zero)
    else:  # get_channels without a hand-read fact: the lab cannot say, so claims nothing
        return None
    settable, restarts = caps.has("set_channels"), caps.restarts("channels")
    out = {"max": maxima, "cur": dict(cur), "style": fact["style"],
           "settable": settable, "restarts": restarts}  # fmt: skip
    if required is not None:
        out["other_required"] = int(required)
    return out


def driver_queues_allocated(
    driver: str, chip: str = "", cpus: int | None = None, queues: int | None = None
) -> tuple[int, int] | None:
    """(TX, RX) queues the net_device is allocated with, where more than those in use (stmmac:
    MTL_MAX_TX_QUEUES, 8, whatever the device tree uses: so XPS works on one queue in use;
    igb 8, igc 4 whatever the MAC, so ``ethtool -L`` can use more)."""
    caps = driver_caps.caps(driver, None, chip) if driver else None
    allocated = caps.facts.get("queues_allocated") if caps else None
    if caps and not isinstance(allocated, dict):  # igb/igc: room for ethtool -L's counts
        allocated = caps.facts.get("netdev_queues_allocated")
    if isinstance(allocated, dict):
        return int(allocated["tx"]), int(allocated["rx"])
    return driver_queues(driver, chip, cpus, queues)


def driver_info(driver: str, kernel: str = "", chip: str = "") -> dict[str, Any]:
    """The supports-* lines of ``ethtool -i``, from the ethtool_ops callbacks the kernel checks
    (net/ethtool/ioctl.c ethtool_get_drvinfo); all "no" for a driver the table does not know.
    Also `version` and `firmware` where the source decides them (`drvinfo_strings`)."""
    caps = driver_caps.caps(driver)
    has = caps.has if caps else (lambda _op: False)
    test = has("self_test")
    if caps and chip and caps.facts.get("sset_test_chips_only"):  # asix: testinfo_len is the
        # ETH_SS_TEST count, which only the AX88772's ops table has (audit 7b row 1)
        test = test and caps.refuses_on("sset_test_chips_only", chip) is not None
    if caps and caps.facts.get("sset_test_config_off"):  # stmmac: selftests are a build option
        test = False
    return {
        "statistics": has("get_ethtool_stats"),
        "test": test,
        "eeprom-access": has("get_eeprom_len"),
        "register-dump": has("get_regs_len"),
        "priv-flags": has("get_priv_flags"),
        **drvinfo_strings(driver, kernel, chip),
        **({"name": name} if (name := _drvinfo_driver(caps, chip)) else {}),
    }


def _drvinfo_driver(caps: driver_caps.DriverCaps | None, chip: str) -> str | None:
    """The driver line get_drvinfo writes where it is not the module's name (stmmac's MAC name,
    hand fact drvinfo_driver_by_chip: st_gmac, the Allwinner EMACs' st_mac100; audit 9b row 4)."""
    rules = caps.facts.get("drvinfo_driver_by_chip") if caps else None
    if not rules:
        return None
    return str(driver_caps.by_chip(rules, chip) or rules["default"])


def drvinfo_strings(driver: str, kernel: str = "", chip: str = "") -> dict[str, str]:
    """``ethtool -i``'s version and firmware-version as the source makes them, for a driver whose
    get_drvinfo is usbnet's or none in every series: ethtool_get_drvinfo (net/ethtool/ioctl.c)
    pre-fills version with the running kernel's release (`kernel`, the profile's, where it names
    one), and usbnet_get_drvinfo (drivers/net/usb/usbnet.c) writes only the driver's name, its
    driver_info's description as fw_version, and the bus. A driver with a get_drvinfo of its own
    says in the table what it writes there (the hand fact ``drvinfo_version``: "kernel" where it
    writes none, as bcmgenet_get_drvinfo and igb_get_drvinfo; r8152's DRIVER_VERSION "v1.12.13",
    asix's "22-Dec-2011"); a driver with neither is claimed nothing."""
    entry = driver_caps.table()["drivers"].get(driver) or {}
    per_series = [v for s, v in entry.items() if s in driver_caps.table()["kernels"]]
    own = {v.get("ops", {}).get("get_drvinfo") for v in per_series}
    release = {"version": kernel} if kernel and kernel != "unknown" else {}
    if not per_series or not own <= {None, "usbnet_get_drvinfo"}:
        caps = driver_caps.caps(driver, kernel or None)
        written = caps.facts.get("drvinfo_version") if caps else None
        if written is None:
            return {}
        found = release if written == "kernel" else {"version": str(written)}
        inherits = caps.facts.get("drvinfo_firmware_usbnet") if caps else None
        if inherits:  # asix_get_drvinfo: usbnet's fw_version, the chip's driver_info's words
            description = description_naming(str(inherits), chip)
            if description:
                found = {**found, "firmware": description}
        return found
    found = dict(release)
    sources = [str(f) for v in per_series for f in v.get("sources", [])]
    if own == {"usbnet_get_drvinfo"} and sources:
        description = only_description(sources[0])
        if description:
            found["firmware"] = description
    return found


def hold_to_table(
    state: dict[str, Any],
    driver: str,
    chip: str = "",
    kernel: str = "",
    clock_mhz: int | None = None,
    speed_mbps: float | None = None,
) -> None:
    """Change `state` (one interface's, as ethtool_state builds it) to what the kernel allows
    (`kernel`: the profile's release, for facts of one series; "" every series; `clock_mhz`:
    the board's MAC clock where the driver counts in its cycles, stmmac; `speed_mbps`: the
    link's speed, the profile's, where coalescing depends on it: r8169, atlantic)."""
    caps = driver_caps.caps(driver, kernel or None, chip)
    if caps is None:
        return
    state["source"] = (state.get("source", "") + "; resources/tuning/driver_caps.json").lstrip("; ")
    state["rings"] = _rings(state.get("rings"), caps)
    state["coalesce"] = _coalesce(state.get("coalesce"), caps, chip, clock_mhz, speed_mbps)
    only = caps.facts.get("pause_chips_only")  # asix: only the AX88772 family's ops have it
    if not caps.has("get_pauseparam") or (
        only and chip and not caps.refuses_on("pause_chips_only", chip)
    ):
        state["pause"] = None
    elif state.get("pause") is None:  # the lab's choice where no model says: autoneg, no pause
        state["pause"] = {"autoneg": True, "rx": False, "tx": False}
    if state["pause"] is not None:
        for key, on in caps.facts.get("pause_default", {}).items():
            state["pause"][key] = bool(on)
        state["pause"]["restarts"] = caps.restarts("pause")
        if caps.facts.get("pause_autoneg_is_link"):  # r8152: the link's autoneg, kept
            state["pause"]["autoneg_is_link"] = True
        if caps.facts.get("pause_autoneg_refused"):  # atlantic: -A autoneg on is EOPNOTSUPP
            state["pause"]["autoneg_refused"] = True
        if caps.facts.get("pause_refused_above_mtu"):  # r8169: not with jumbo frames
            state["pause"]["refused_above_mtu"] = int(caps.facts["pause_refused_above_mtu"])
        if caps.facts.get("pause_restart_needs_autoneg"):  # igb/igc: down/up only with autoneg
            state["pause"]["restart_needs_autoneg"] = True
        if caps.facts.get("pause_autoneg_ignores_rx_tx"):  # igb/igc: the default comes back
            state["pause"]["autoneg_default"] = {k: state["pause"][k] for k in ("rx", "tx")}
        for key, on in caps.facts.get("pause_request_default", {}).items():
            state["pause"][key] = bool(on)  # r8169: phy_support_asym_pause's Pause + Asym
        if caps.facts.get("pause_autoneg_needs_link_autoneg"):  # lan78xx, r8152: EINVAL
            state["pause"]["autoneg_needs_link"] = True
        if caps.facts.get("pause_advertisement"):  # lan78xx, bcmgenet: renegotiate on change
            state["pause"]["advertisement"] = str(caps.facts["pause_advertisement"])
        if caps.facts.get("pause_restart_needs_link_autoneg"):  # not over a forced link
            state["pause"]["restart_needs_link_autoneg"] = True
        at_start = caps.facts.get("pause_advertised_at_start")  # phylink: Pause + Asym_Pause
        if at_start:  # kept until the first -A that reaches the driver
            state["pause"]["advertised"] = [bool(at_start["Pause"]), bool(at_start["Asym_Pause"])]
        if caps.facts.get("link_partner_modes_unreported"):  # igb, igc: no lp_advertising
            state["pause"]["peer_unreported"] = True
        shown = _pause_shown(caps)
        if shown:  # -a shows the resolution with the partner, not the request
            state["pause"]["shown"] = shown
    if not caps.has("get_eee") or caps.refuses_on("eee_refused_chips", chip):
        state["eee"] = None
    elif state.get("eee") is None:  # no model: the lab claims no EEE link mode (never kinder)
        state["eee"] = {"supported": [], "enabled": False, "link_partner": [], "tx_lpi": False}
    if state["eee"] is not None:
        state["eee"]["restarts"] = caps.restarts("eee")
        eee_default(state["eee"], caps)
        eee_by_chip(state["eee"], caps, chip)
        if caps.facts.get("eee_tx_lpi_follows") and driver_caps.fact_in_every_series(
            caps, "eee_tx_lpi_follows"
        ):  # lan78xx on 6.1: Tx LPI is MAC_CR_EEE_EN_, as EEE itself
            state["eee"].update(tx_lpi_follows=True, tx_lpi=bool(state["eee"]["enabled"]))
        if caps.facts.get("eee_enable_refused"):  # ax88179_set_eee: chk_eee, zero advert
            state["eee"]["can_enable"] = False
        if caps.facts.get("eee_tx_lpi_unreported"):  # r8152, ax88179: always "disabled"
            state["eee"].update(tx_lpi=False, tx_lpi_unreported=True)
        if caps.facts.get("eee_tx_lpi_timer_unreported"):  # igb, igc, atlantic: always 0
            state["eee"]["timer_unreported"] = True
        eee_modes(state["eee"], caps)
        eee_timer(state["eee"], caps, chip, speed_mbps)
    _features(state["features"], caps, chip)
    if caps.facts.get("ethtool_refused_when_down") and driver_caps.fact_in_every_series(
        caps, "ethtool_refused_when_down"
    ):  # stmmac on 6.1: .begin = stmmac_check_if_running
        state["refused_when_down"] = str(caps.facts["ethtool_refused_when_down"])
    down = caps.facts.get("ops_refused_when_down")  # bcmgenet: no PHY while down
    if isinstance(down, dict) and driver_caps.fact_in_every_series(caps, "ops_refused_when_down"):
        state["ops_refused_when_down"] = {
            _OP_OPTION[op]: e for op, e in down.items() if op in _OP_OPTION
        }
    state["features"]["mtu_drops"] = driver_caps.mtu_drops(caps, chip)  # r8169: jumbo frames
    nway = caps.cite("nway_reset").rsplit(": ", 1)[-1] if caps.has("nway_reset") else None
    if nway in NWAY_MODELLED and driver_caps.fact_in_every_series(caps, "usbnet_mii_write") == (
        nway == "usbnet_nway_reset"
    ):  # ethtool -r (audit 9a L3): the generic resets whose code was read
        state["nway"] = {
            "fn": nway,
            "mii_write": bool(caps.facts.get("usbnet_mii_write")),
            "phy_gone_when_down": bool(caps.facts.get("phy_disconnected_when_down")),
        }
    tunables = caps.facts.get("tunable_default")  # r8152: rx-copybreak (audit 9a L5)
    if isinstance(tunables, dict) and caps.has("get_tunable"):
        low = caps.facts.get("tunable_min") or {}
        state["tunables"] = {
            name: {
                "value": int(v),
                "min": int(low.get(name, 0)),
                "settable": caps.has("set_tunable"),
            }
            for name, v in tunables.items()
        }


# nway_reset ops the lab answers (fake_ethtool_misc.nway_reset): phylib's, usbnet's, r8152's
NWAY_MODELLED = ("phy_ethtool_nway_reset", "usbnet_nway_reset", "rtl8152_nway_reset")
# the ethtool option whose request reaches each op first (ethnl_set_linkmodes reads the link
# settings before it writes them: -s meets get_link_ksettings' refusal)
_OP_OPTION = {"get_link_ksettings": "-s", "get_eee": "--show-eee", "set_eee": "--set-eee",
              "set_pauseparam": "-A"}  # fmt: skip


def _rings(rings: dict[str, Any] | None, caps: DriverCaps) -> dict[str, Any] | None:
    if not caps.has("get_ringparam"):
        return None
    if rings is None:
        zero = dict.fromkeys(_RING_PARAMS, 0)
        rings = {"max": dict(zero), "cur": dict(zero), "min": {}, "settable": False}
    for param, top in caps.ring_maxima().items():
        rings["max"][param] = top
    for param, value in caps.facts.get("ring_default", {}).items():
        if not rings["cur"].get(param):
            rings["cur"][param] = int(value)
    rings["settable"] = caps.has("set_ringparam")
    if caps.facts.get("ring_kept"):  # macb: up to 64 and a power of two; igb: multiple of 8
        rings["kept"] = dict(caps.facts["ring_kept"])
    rings["restarts"] = caps.restarts("rings")
    return rings


def _coalesce(
    co: dict[str, Any] | None,
    caps: DriverCaps,
    chip: str,
    clock_mhz: int | None = None,
    speed_mbps: float | None = None,
) -> dict[str, Any] | None:
    if not caps.has("get_coalesce") or caps.refuses_on("coalesce_refused_chips", chip):
        return None
    supported = coalesce_params(caps.coalesce_params)
    co = dict(co or {})
    values = dict(co.get("values", {}))
    default = caps.facts.get("coalesce_default")
    defaults = dict(caps.facts.get("coalesce_defaults", {}))  # stmmac: per parameter
    by_speed = caps.facts.get("coalesce_defaults_by_speed")  # atlantic: AUTO's speed table
    if by_speed and speed_mbps:
        defaults.update(by_speed.get(str(int(speed_mbps)), by_speed["other"]))
        values = {k: v for k, v in values.items() if k not in by_speed["other"]}
    for param in supported:
        if param not in values:
            values[param] = (
                False if param.startswith("adaptive-") else defaults.get(param, default or 0)
            )
    co.update(supported=supported, values=values, settable=caps.has("set_coalesce"))
    co["max"] = {**co.get("max", {}), **caps.facts.get("coalesce_max", {})}
    co["refuse"] = caps.facts.get("coalesce_refuses", [])
    co["max_errno"] = caps.facts.get("coalesce_max_errno", {})  # atlantic: frames EOPNOTSUPP
    co["frames_iff_no_usecs"] = caps.facts.get("coalesce_usecs_needs_frames_zero", {})
    co["read_back"] = caps.facts.get("coalesce_frames_read_back", {})  # atlantic: frames 0
    co["step_ns"] = caps.facts.get("coalesce_step_ns", {})
    co["floor_ns"] = caps.facts.get("coalesce_step_floor_ns", {})
    co["adaptive_rx_start"] = caps.facts.get("coalesce_adaptive_rx_start", {})  # bcmgenet: DIM
    _riwt(co, caps, clock_mhz)
    _scale(co, caps, chip, speed_mbps)
    reset = caps.facts.get("coalesce_reset_on_open", [])  # stmmac_init_coalesce at each open
    co["reset_on_open"] = {p: co["values"][p] for p in reset if p in co["values"]}
    modes = caps.facts.get("coalesce_modes")
    if modes:
        co["modes"] = {
            "params": ["rx-usecs", "tx-usecs"],
            "refused": modes["refused"],
            "max": modes["max_usecs"],
        }
    return co


def _riwt(co: dict[str, Any], caps: DriverCaps, clock_mhz: int | None) -> None:
    """stmmac's rx-usecs: the RX watchdog in units of 256 cycles of the board's CSR clock
    (`clock_mhz`, the profile's; else the table's default, 125 MHz), its limits, its default
    (DEF_DMA_RIWT read back through stmmac_riwt2usec) and 6.1's skipping of 0 (with an unknown
    kernel 0 is refused, as 6.12 does: the lab is never kinder)."""
    riwt = caps.facts.get("coalesce_riwt")
    if not riwt:
        return
    mhz = int(clock_mhz or riwt["clock_mhz_default"])
    unit = int(riwt["cycles_per_unit"])
    limits = caps.facts.get("coalesce_riwt_limits", {"min": 0, "max": 2**32 - 1})
    zero = bool(caps.facts.get("coalesce_riwt_zero_ignored")) and driver_caps.fact_in_every_series(
        caps, "coalesce_riwt_zero_ignored"
    )
    co["riwt"] = {"param": riwt["param"], "mhz": mhz, "unit": unit, "min": int(limits["min"]),
                  "max": int(limits["max"]), "zero_ignored": zero}  # fmt: skip
    default = caps.facts.get("coalesce_riwt_default")
    if default is not None:
        co["values"][riwt["param"]] = int(default) * unit // mhz


def _scale(co: dict[str, Any], caps: DriverCaps, chip: str, speed_mbps: float | None) -> None:
    """r8169: usecs kept in up to 15 units of a scale (the chip's rows: the PCI RTL8169's, or
    RTL8168/8111/8101's) from the link speed's
    row (an unknown speed: the first, 1 Gbit/s, as rtl_coalesce_info assumes; a speed with no
    row: none, ELNRNG), frames in fours up to 60; IntrMitigate starts at 0 (rtl_hw_start_8168:
    "disable interrupt coalescing"), which rtl_get_coalesce shows as usecs 0 and frames 1."""
    scales, frames = caps.facts.get("coalesce_scale_ns"), caps.facts.get("coalesce_frames_scale")
    rows = driver_caps.coalesce_scale_rows(caps, chip)
    if not scales or not frames or not rows:
        return
    row = rows.get(str(int(speed_mbps))) if speed_mbps else rows[max(rows, key=int)]
    co["scale"] = {"row": row, "units_max": int(scales["units_max"]),
                   "frames_max": int(frames["max"]), "frames_step": int(frames["step"]),
                   "frames_errno": str(frames["max_errno"])}  # fmt: skip
    for direction in ("rx", "tx"):
        co["values"][f"{direction}-usecs"] = 0
        co["values"][f"{direction}-frames"] = int(frames["shown_when_off"])


def queue_pairs(state: dict[str, Any], driver: str, chip: str = "", kernel: str = "") -> None:
    """igb/igc: whether one vector serves a TX and an RX queue (igb/igc_set_flag_queue_pairs:
    more RSS queues than half the MAC's maximum, never on the 82575 or I211), which changes
    what -c shows and -C accepts for tx-usecs; `state` is the interface's, its channels set."""
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    rule = caps.facts.get("coalesce_queue_pairs") if caps else None
    co, ch = state.get("coalesce"), state.get("channels")
    if not rule or co is None or ch is None:
        return
    squeezed = chip.lower().replace(" ", "")
    exempt = any(name.lower() in squeezed for name in rule.get("unpaired_chips", []) if squeezed)
    paired = not exempt and int(ch["cur"]["combined"]) > int(ch["max"]["combined"]) // 2
    co["pairs"] = {"tx-usecs": rule["tx-usecs"], "paired": paired, "exempt": exempt}


def _features(features: dict[str, Any], caps: DriverCaps, chip: str = "") -> None:
    features["restart_on"] = list(caps.facts.get("restarts_on_features", []))
    features["follow"] = dict(caps.facts.get("features_follow", {}))  # igb/igc: VLAN TX = RX
    features["needs"] = dict(caps.facts.get("features_need", {}))  # atlantic: LRO needs RX csum
    wanted = features["wanted"]
    # neither in features nor in hw_features (the Raspberry Pi tree's lan78xx_bind leaves TSO
    # out unless enable_tso): "off [fixed]", before mangleid, which follows TSO
    for name in (n for n in caps.facts.get("features_fixed_off", []) if n in features["order"]):
        wanted.pop(name, None)
        features["fixed"][name] = False
    off = list(caps.facts.get("features_off_by_default", []))
    if driver_caps.kernel_fact("mangleid_needs_hw_tso") and "tx-tcp-segmentation" not in wanted:
        # register_netdevice adds it to hw_features only when TSO is there: fixed off otherwise
        wanted.pop(MANGLEID, None)
        features["fixed"][MANGLEID] = False
    elif driver_caps.kernel_fact("mangleid_hw_only"):
        off.append(MANGLEID)  # register_netdevice adds it to hw_features only
    for name in off:
        if name in wanted or name in features["order"]:
            wanted[name] = False
            features["fixed"].pop(name, None)
    # set in features but never in hw_features (igb: HIGHDMA, the VLAN filter): "on [fixed]"
    for name in caps.facts.get("features_fixed_on", []):
        if name in features["order"]:
            wanted.pop(name, None)
            features["fixed"][name] = True
    # what the chip's MAC type adds or lacks (igb: HW_TC and NTUPLE from the I350; r8169: no
    # IPv6 checksum or TSO6 before csum v2), the longest chip name that `chip` contains
    rule = driver_caps.by_chip(caps.facts.get("features_by_chip"), chip) or {}
    for name in (n for n in rule.get("fixed_off", []) if n in features["order"]):
        wanted.pop(name, None)
        features["fixed"][name] = False
    for key, on in (("changeable_on", True), ("changeable_off", False)):
        for name in (n for n in rule.get(key, []) if n in features["order"]):
            features["fixed"].pop(name, None)
            wanted[name] = on


def _pause_shown(caps: driver_caps.DriverCaps) -> str:
    """What `-a` shows for RX/TX, one model for every driver (fake_ethtool_knobs.shown_pause):
    "phy" where get_pauseparam asks phy_get_pause (r8169, fact `pause_resolved`: the
    resolution, none without a full-duplex link), "mac" where it reads the MAC's state while
    the carrier is up (bcmgenet, `pause_shown_resolved`: the request without carrier or with
    pause autoneg off), "mii" where it resolves the MII registers whatever the duplex (r8152,
    `pause_resolved` "mii"), "" where it shows the request."""
    if caps.facts.get("pause_resolved") == "mii":  # r8152: mii_resolve_flowctrl_fdx
        return "mii"
    if caps.facts.get("pause_resolved"):
        return "phy"
    if caps.facts.get("pause_shown_resolved"):
        return "mac"
    return ""
