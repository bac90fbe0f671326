"""The lab's ethtool state held to the driver capability table (resources/tuning/driver_caps.json,
read from the kernel's source): the lab can be no kinder than the kernel it imitates.

The hand-written model (resources/lab/ethtool/drivers/<driver>.toml) gives current values; the
table decides which operations exist (a missing ethtool_ops callback is "Operation not
supported"), the ring maxima, the coalescing parameters, limits, steps and mode codes, the
chip-specific refusals, the default features the kernel itself sets, and whether a ring change
restarts the interface.

hold_to_table runs one holder per concern, each in the module named for it: rings and
coalescing (ethtool_table_coalesce), pause (ethtool_table_pause), EEE (ethtool_table_eee),
features (ethtool_table_features); refusals while down, ``-r`` and the tunables are here. The
queues and channels (ethtool_table_queues) and ``-i`` (ethtool_table_drvinfo) are asked for by
ethtool_state on their own; their names stay importable from here.
"""

from __future__ import annotations

from typing import Any

from sbctune.lab.ethtool_table_coalesce import coalesce_params, hold_coalesce, hold_rings
from sbctune.lab.ethtool_table_drvinfo import driver_info, drvinfo_strings
from sbctune.lab.ethtool_table_eee import hold_eee
from sbctune.lab.ethtool_table_features import MANGLEID, hold_features
from sbctune.lab.ethtool_table_pause import hold_pause
from sbctune.lab.ethtool_table_queues import (
    channels_state,
    driver_queues,
    driver_queues_allocated,
    queue_pairs,
    single_queue,
)
from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps import DriverCaps

__all__ = [
    "MANGLEID",
    "NWAY_MODELLED",
    "channels_state",
    "coalesce_params",
    "driver_info",
    "driver_queues",
    "driver_queues_allocated",
    "drvinfo_strings",
    "hold_to_table",
    "queue_pairs",
    "single_queue",
]

# nway_reset ops the lab answers (fake_ethtool_misc.nway_reset): phylib's, usbnet's, r8152's
NWAY_MODELLED = ("phy_ethtool_nway_reset", "usbnet_nway_reset", "rtl8152_nway_reset")
# the ethtool option whose request reaches each op first (ethnl_set_linkmodes reads the link
# settings before it writes them: -s meets get_link_ksettings' refusal)
_OP_OPTION = {"get_link_ksettings": "-s", "get_eee": "--show-eee", "set_eee": "--set-eee",
              "set_pauseparam": "-A"}  # fmt: skip


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
    state["rings"] = hold_rings(state.get("rings"), caps)
    state["coalesce"] = hold_coalesce(state.get("coalesce"), caps, chip, clock_mhz, speed_mbps)
    # a chip whose get_coalesce refuses (coalesce_refused_chips) keeps the ops' parameters: the
    # core refuses an unsupported one (EINVAL) before asking the driver (ethnl_set_coalesce)
    refusing = caps.has("set_coalesce") and caps.refuses_on("coalesce_refused_chips", chip)
    state["coalesce_refused_params"] = coalesce_params(caps.coalesce_params) if refusing else None
    # ethnl_set_rings: -G parameters the core refuses for every driver of the table
    core = driver_caps.kernel_fact("ring_params_unsupported", kernel or None)
    state["ring_params_core"] = dict(core[0]) if core else None
    hold_pause(state, caps, chip)
    hold_eee(state, caps, chip, speed_mbps, kernel)
    hold_features(state["features"], caps, chip)
    _hold_refusals_when_down(state, caps)
    _hold_nway(state, caps)
    _hold_tunables(state, caps)


def _hold_refusals_when_down(state: dict[str, Any], caps: DriverCaps) -> None:
    """What the driver refuses while the interface is down, where every series agrees."""
    if caps.facts.get("ethtool_refused_when_down") and driver_caps.fact_in_every_series(
        caps, "ethtool_refused_when_down"
    ):  # stmmac on 6.1: .begin = stmmac_check_if_running
        state["refused_when_down"] = str(caps.facts["ethtool_refused_when_down"])
    down = caps.facts.get("ops_refused_when_down")  # bcmgenet: no PHY while down
    if isinstance(down, dict) and driver_caps.fact_in_every_series(caps, "ops_refused_when_down"):
        state["ops_refused_when_down"] = {
            _OP_OPTION[op]: e for op, e in down.items() if op in _OP_OPTION
        }


def _hold_nway(state: dict[str, Any], caps: DriverCaps) -> None:
    """``ethtool -r`` (audit 9a L3): only the generic resets whose code was read."""
    nway = caps.cite("nway_reset").rsplit(": ", 1)[-1] if caps.has("nway_reset") else None
    if nway in NWAY_MODELLED and driver_caps.fact_in_every_series(caps, "usbnet_mii_write") == (
        nway == "usbnet_nway_reset"
    ):
        state["nway"] = {
            "fn": nway,
            "mii_write": bool(caps.facts.get("usbnet_mii_write")),
            "phy_gone_when_down": bool(caps.facts.get("phy_disconnected_when_down")),
        }


def _hold_tunables(state: dict[str, Any], caps: DriverCaps) -> None:
    """The driver's tunables and their defaults (r8152: rx-copybreak, audit 9a L5)."""
    tunables = caps.facts.get("tunable_default")
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
