"""``ethtool -i`` as the driver capability table (resources/tuning/driver_caps.json) says the
kernel answers it: the supports-* lines, the driver's name, version and firmware-version (split
from ethtool_table.py)."""

from __future__ import annotations

from typing import Any

from sbctune.inventory.usbnet_info import description_naming, only_description
from sbctune.tuning import driver_caps


def driver_info(driver: str, kernel: str = "", chip: str = "") -> dict[str, Any]:
    """The supports-* lines of ``ethtool -i``, from the ethtool_ops callbacks the kernel checks
    (net/ethtool/ioctl.c ethtool_get_drvinfo); all "no" for a driver the table does not know.
    Also `version` and `firmware` where the source decides them (`drvinfo_strings`)."""
    # the running kernel's ops: an op a release predates (ops_since: smsc95xx's self_test
    # before 5.18) is no supports-* line there (audit 28 row 5)
    caps = driver_caps.caps(driver, kernel or None)
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


def bus_info_from_parent(driver: str, kernel: str = "") -> bool:
    """Whether ``ethtool -i`` shows the parent device's name as bus-info for a driver whose own
    get_drvinfo writes none (the hand fact ``drvinfo_bus_info_unwritten``: bcmgenet): where
    every series the kernel may be fills it in (``_kernel`` ``drvinfo_bus_info_from_parent``:
    6.12's ethtool_get_drvinfo does, 6.1's does not; audit 22 row 4)."""
    caps = driver_caps.caps(driver, kernel or None)
    if caps is None or not caps.facts.get("drvinfo_bus_info_unwritten"):
        return False
    facts = [f for f in driver_caps.table()["hand"].get("_kernel", [])
             if f["fact"] == "drvinfo_bus_info_from_parent"]  # fmt: skip
    series = driver_caps.series_of(kernel or None)
    return all(any(s in f["kernels"] and f["value"] is True for f in facts) for s in series)
