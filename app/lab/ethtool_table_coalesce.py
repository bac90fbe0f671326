"""The lab's rings (``ethtool -g``) and coalescing (``ethtool -c``) held to the driver capability
table (resources/tuning/driver_caps.json): ring maxima and defaults, the coalescing parameters
the driver supports, their limits, steps, defaults and stmmac's and r8169's units (split from
ethtool_table.py)."""

from __future__ import annotations

from typing import Any

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


def coalesce_params(flags: frozenset[str]) -> list[str]:
    return sorted({p for flag in flags for p in _COALESCE_FLAGS.get(flag, [])})


def hold_rings(rings: dict[str, Any] | None, caps: DriverCaps) -> dict[str, Any] | None:
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
    # atlantic (aq_set_ringparam): closes and reopens at every call, with no "nothing to do"
    rings["restart_on_any_set"] = bool(caps.facts.get("ring_restart_on_any_set"))
    return rings


def hold_coalesce(
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
    chip_default = _chip_default(caps, chip)
    if chip_default is not None and "rx-usecs" in supported:  # r8152: what its init writes
        values["rx-usecs"] = chip_default
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
    _riwt(co, caps, clock_mhz, chip)
    if "riwt" in co and driver_caps.fact_in_every_series(
        caps, "coalesce_rx_stored_before_tx_checks"
    ):
        # stmmac (__stmmac_set_coalesce): RIWT and rx-frames stored before the TX checks refuse
        co["rx_first"] = list(caps.facts["coalesce_rx_stored_before_tx_checks"])
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


def _chip_default(caps: DriverCaps, chip: str, usb_speed: str = "super") -> int | None:
    """The rx-usecs the chip's own init writes (r8152: coalesce_default_by_chip, by the USB
    speed it enumerated at; the lab's USB NICs sit on a USB 3 port). Rows are matched by whole
    words of the chip's name, and a name listing two chips whose defaults differ ("RTL8153/
    RTL8153B", usb.ids' name for 0bda:8153) claims neither: the driver model's value stays."""
    rows = caps.facts.get("coalesce_default_by_chip") or {}
    words = set("".join(c if c.isalnum() else " " for c in chip.lower()).split())
    found = {int(row[usb_speed]) for name, row in rows.items() if name.lower() in words}
    return found.pop() if len(found) == 1 else None


def _riwt(co: dict[str, Any], caps: DriverCaps, clock_mhz: int | None, chip: str) -> None:
    """stmmac's rx-usecs: the RX watchdog in units of 256 cycles of the board's CSR clock
    (`clock_mhz`, the profile's; else the table's default, 125 MHz), its limits, its default
    (DEF_DMA_RIWT read back through stmmac_riwt2usec) and 6.1's skipping of 0 (with an unknown
    kernel 0 is refused, as 6.12 does: the lab is never kinder). A chip without the watchdog
    (the Allwinner EMAC: synopsys_id 0, so no use_riwt) shows rx-usecs and rx-frames 0 and
    takes new ones without storing them (__stmmac_get_coalesce / __stmmac_set_coalesce)."""
    riwt = caps.facts.get("coalesce_riwt")
    if not riwt:
        return
    if caps.refuses_on("coalesce_riwt_off_chips", chip):
        rx = [p for p in ("rx-usecs", "rx-frames") if p in co["values"]]
        co["values"].update(dict.fromkeys(rx, 0))
        co["ignored"] = sorted(set(co.get("ignored", [])) | set(rx))
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
