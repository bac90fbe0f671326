"""What a driver does beyond ethtool's generic checks, for ``fake_ethtool``: its coalescing
refusals (limits, mode codes, value pairs), the steps it stores values in, the link bounce of
a change that restarts the interface, and its ``ethtool -i`` answer. The rules come from the
driver capability table (``ethtool_table``) through the lab's state.

Standard library only: ``ethtool_state.script_text`` copies this text into the standalone
script together with ``fake_ethtool_tables``.
"""

from typing import Any


def coalesce_refused(co: dict[str, Any], numbers: dict[str, int]) -> str:
    """The errno name the driver answers with ("" where it accepts), its checks in its order:
    a value over its limit (EINVAL, or the table's errno for it: atlantic's frames over 1 are
    EOPNOTSUPP), frames not 1 exactly when usecs is 0 (atlantic, EOPNOTSUPP, checked before its
    EINVAL usecs limit), a refused mode code (igb: 2 and 4-9), or a refused combination
    (bcmgenet: tx-frames 0; rx-usecs 0 with rx-frames 0), EINVAL."""
    merged = {**co["values"], **numbers}
    errnos = co.get("max_errno", {})
    over = [n for n, number in numbers.items()
            if co.get("max", {}).get(n) is not None and number > int(co["max"][n])]  # fmt: skip
    first = [n for n in over if n in errnos]
    if first:
        return str(errnos[first[0]])
    for usecs, frames in co.get("frames_iff_no_usecs", {}).items():
        if usecs in merged and int(merged.get(frames, 0)) != int(not int(merged[usecs])):
            return "EOPNOTSUPP"
    if over:
        return "EINVAL"
    if riwt_refused(co, merged):
        return "EINVAL"
    modes = co.get("modes")
    if modes:
        for name, number in numbers.items():
            if name in modes["params"] and (number in modes["refused"] or number > modes["max"]):
                return "EINVAL"
    refused = any(
        all(int(merged.get(n, -1)) == int(v) for n, v in combo.items())
        for combo in co.get("refuse", [])
    )
    return "EINVAL" if refused else ""


def riwt_refused(co: dict[str, Any], merged: dict[str, Any]) -> bool:
    """stmmac (__stmmac_set_coalesce): the rx-usecs ethtool hands over (given, or as read back)
    becomes a RIWT of usec * MHz / 256 that must lie in MIN_DMA_RIWT..MAX_DMA_RIWT; 6.1 skips
    rx-usecs 0."""
    riwt = co.get("riwt")
    if not riwt or riwt["param"] not in merged:
        return False
    usecs = int(merged[riwt["param"]])
    if usecs == 0 and riwt.get("zero_ignored"):
        return False
    units = usecs * int(riwt["mhz"]) // int(riwt["unit"])
    return not int(riwt["min"]) <= units <= int(riwt["max"])


def riwt_stored(co: dict[str, Any], usecs: int, current: int) -> int:
    """What stmmac reads back after a set (stmmac_riwt2usec of the stored RIWT, both ways
    rounded down: at 125 MHz 50 -> 49, 327 -> 325); 6.1 leaves it as it was for 0."""
    riwt = co["riwt"]
    if usecs == 0 and riwt.get("zero_ignored"):
        return current
    mhz, unit = int(riwt["mhz"]), int(riwt["unit"])
    return usecs * mhz // unit * unit // mhz


def stored(co: dict[str, Any], name: str, value: int) -> int:
    """The value the driver keeps and reads back (bcmgenet: 8.192 us ticks, rounded up; macb on
    the Raspberry Pi tree: 0.8 us ticks, rounded down on the way in and again on the way out)."""
    floor = co.get("floor_ns", {}).get(name)
    if floor:
        return value * 1000 // int(floor) * int(floor) // 1000
    step = co.get("step_ns", {}).get(name)
    return value if not step else -(-value * 1000 // step) * step // 1000


# The lab NICs' sysfs (a test points it elsewhere)
SYSFS_NET = "/sys/class/net"


def _carrier_changes(ifname: str) -> int | None:
    try:
        with open(f"{SYSFS_NET}/{ifname}/carrier_changes", encoding="ascii") as f:
            text = f.read(24).strip()
    except (OSError, ValueError):
        return None
    return int(text) if text.isascii() and text.isdigit() else None


def _carrier_dropped(ifname: str, down_seconds: float, requests: str) -> bool:
    """Ask the lab's shaper on the host (``requests``: the folder it watches, carrier_drop)
    to take the veth's host end down for ``down_seconds``: this end keeps IFF_UP and loses its
    carrier, as a NIC does while its driver restarts. True once the carrier changed (or where
    it has none to drop); False where no shaper answered within 8 s (nothing asked any more):
    a lab always runs one, so the bound only matters on a starved machine (load 8)."""
    import contextlib  # here: only a restart needs them, not every read of the fake ethtool
    import os
    import time

    before = _carrier_changes(ifname)
    try:
        with open(f"{SYSFS_NET}/{ifname}/carrier", encoding="ascii") as f:
            if f.read(4).strip() == "0":
                return True  # no link (no partner, or a restart already under way)
    except OSError:
        return False
    if before is None:
        return False
    path = os.path.join(requests, ifname)
    try:
        with open(path + ".new", "w", encoding="ascii") as f:
            f.write(f"{min(max(down_seconds, 0.0), 10.0):g}\n")
        os.replace(path + ".new", path)
    except OSError:
        return False  # no folder to ask through: the interface is set down instead
    for _ in range(400):  # 8 s by count, whatever the clock
        now = _carrier_changes(ifname)
        if now is not None and now != before:
            return True
        time.sleep(0.02)
    with contextlib.suppress(OSError):
        os.unlink(path)
    return False


def bounce_link(ifname: str, down_seconds: float = 0.0, requests: str = "") -> None:
    """What macb_set_ringparam (and atlantic, stmmac, igb, igc) do to a running interface:
    close and reopen it, so the link goes down and comes back; a restart of autonegotiation
    likewise. The driver calls its own ndo_stop/ndo_open (or resets the chip, or restarts the
    PHY), never dev_close: the interface stays administratively up (IFF_UP: `ip link` shows
    UP, NO-CARRIER; the ethtool ops that refuse a down interface still answer) and only its
    carrier drops. In a lab (``requests``) the host's shaper drops this veth's carrier so; only
    where none answers is the interface set down and up, the carrier's only switch on this
    side. With `down_seconds` (the profile's [lab] link_down_seconds) the link comes back that
    long after, as a PHY's renegotiation takes seconds (link_restart.json), from a detached
    process: the ethtool command returns at once, as the kernel's does."""
    import shutil  # here: only a ring change needs them, not every read of the fake ethtool
    import subprocess

    if requests and _carrier_dropped(ifname, down_seconds, requests):
        return
    ip = shutil.which("ip", path="/usr/sbin:/usr/bin:/sbin:/bin")
    if ip is None:
        return
    subprocess.run([ip, "link", "set", "dev", ifname, "down"], check=False,
                   capture_output=True, timeout=10)  # fmt: skip
    if down_seconds <= 0:
        subprocess.run([ip, "link", "set", "dev", ifname, "up"], check=False,
                       capture_output=True, timeout=10)  # fmt: skip
        return
    later = 'sleep "$1"; exec "$2" link set dev "$3" up'
    subprocess.Popen(["sh", "-c", later, "sh", f"{min(down_seconds, 10.0):g}", ip, ifname],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip


def show_info(ifname: str, dev: dict[str, Any]) -> str:
    """``ethtool -i`` as ethtool 6.1 lays it out: the driver's name; the version and
    firmware-version where the source decides them (ethtool_table_drvinfo.drvinfo_strings: the lab's
    kernel release, a usbnet driver's description) and the PCI address the lab gave a modelled
    PCIe NIC, where known; what only the board knows is left empty."""
    info = dev["info"]
    name = info.get("name") or dev["driver"]  # stmmac: the MAC's name (st_gmac), not the module
    lines = [f"driver: {name}", f"version: {info.get('version', '')}",
             f"firmware-version: {info.get('firmware', '')}",
             "expansion-rom-version: ", f"bus-info: {info.get('bus-info', '')}"]  # fmt: skip
    for name in ("statistics", "test", "eeprom-access", "register-dump", "priv-flags"):
        lines.append(f"supports-{name}: {'yes' if info.get(name) else 'no'}")
    return "\n".join(lines) + "\n"


def ring_size_kept(rings: dict[str, Any], name: str, value: int) -> int | None:
    """The ring size the driver keeps, or None where it refuses it (EINVAL): macb raises it to
    64 and rounds up to a power of two (macb_set_ringparam); igb, igc and atlantic raise it to
    their minimum and round up to a multiple of 8; stmmac refuses a size that is not a power of
    two or under 64 (stmmac_set_ringparam); other drivers keep what they are given."""
    rule = rings.get("kept")
    if not rule:
        return value
    low = int(rule.get("min", {}).get(name, 0))
    if rule.get("round") == "pow2_or_einval":
        return value if value >= low and value & (value - 1) == 0 else None
    value = max(value, low)
    if rule.get("round") == "pow2":
        return 1 << (value - 1).bit_length()
    multiple = int(rule.get("multiple", 1))
    return -(-value // multiple) * multiple


def scaled_set(co: dict[str, Any], numbers: dict[str, int]) -> str:
    """r8169 (rtl_set_coalesce, RTL8168/8111/8101): the errno name it answers with ("" where
    it accepts, and then `co["values"]` holds what rtl_get_coalesce reads back). Every value
    ethtool hands over (given, or as read back) is stored again: frames over 60 ERANGE; usecs
    in units of the first scale of the link speed's row (max(rx, tx) usecs decides) that
    holds them in 15 units, ERANGE where none does, ELNRNG at a speed with no row; frames 1
    taken as 0; frames without usecs EINVAL; usecs rounded up into units, frames into fours."""
    scale = co["scale"]
    merged = {name: int(co["values"].get(name, 0)) for name in _SCALED}
    merged.update({name: int(value) for name, value in numbers.items() if name in _SCALED})
    if max(merged["rx-frames"], merged["tx-frames"]) > int(scale["frames_max"]):
        return str(scale["frames_errno"])
    row = scale.get("row")
    if not row:
        return "ELNRNG"  # rtl_coalesce_info: the link's speed has no row
    top = max(merged["rx-usecs"], merged["tx-usecs"])
    step = next((int(s) for s in row if top <= int(s) * int(scale["units_max"]) // 1000), None)
    if step is None:
        return "ERANGE"  # rtl_coalesce_choose_scale
    frames = {name: 0 if merged[name] == 1 else merged[name] for name in ("rx-frames", "tx-frames")}
    if any(frames[f"{d}-frames"] and not merged[f"{d}-usecs"] for d in ("rx", "tx")):
        return "EINVAL"  # "HW requires time limit to be set if frame limit is set"
    fours = int(scale["frames_step"])
    for direction in ("rx", "tx"):
        units = -(-merged[f"{direction}-usecs"] * 1000 // step)
        count = -(-frames[f"{direction}-frames"] // fours)
        co["values"][f"{direction}-usecs"] = -(-units * step // 1000)
        co["values"][f"{direction}-frames"] = count * fours if units or count else 1
    return ""


_SCALED = ("rx-usecs", "rx-frames", "tx-usecs", "tx-frames")


def eee_refused(eee: dict[str, Any], given: dict[str, str]) -> bool:
    """igc_ethtool_set_eee's EINVALs, on what ethtool hands over (given, or as read back): with
    EEE on, another Tx LPI or a non-zero timer; with EEE off, a set that leaves it off. A set
    that changes nothing does not reach the driver (ethnl_set_eee)."""
    rules = eee.get("rules")
    now = {"eee": bool(eee["enabled"]), "tx-lpi": bool(eee.get("tx_lpi")),
           "tx-timer": int(eee.get("tx_lpi_timer", 0))}  # fmt: skip
    new = dict(now)
    new.update({k: (v == "on") if k != "tx-timer" else int(v) for k, v in given.items()
                if k in now})  # fmt: skip
    if not rules or new == now:
        return False
    if now["eee"]:
        return new["tx-lpi"] != now["tx-lpi"] or new["tx-timer"] != 0
    return not new["eee"]


def eee_advertised(
    eee: dict[str, Any], bits: int, enabled: bool, mode_bits: dict[str, int]
) -> list[str] | None:
    """The EEE advertisement phylib writes for a --set-eee with `advertise` (`bits`, as
    ethnl_set_eee made them from the advertisement read back), EEE `enabled` after the set;
    None where it refuses (EINVAL). 6.12 genphy_c45_ethtool_set_eee: a mode outside the PHY's
    supported_eee is refused; 6.1 phy_ethtool_set_eee: such modes are dropped (ANDed with the
    PHY's ability). Both: none asked is every supported mode; EEE off writes none."""
    if not enabled:
        return []
    supported = list(eee["supported"])
    # modes the driver disabled are checked as supported but never written (7.2
    # genphy_c45_ethtool_set_eee: EINVAL outside supported_eee, then andnot eee_disabled_modes)
    kept = [m for m in supported if m not in eee.get("disabled_modes", [])]
    asked = [m for m in kept if bits >> mode_bits.get(m, 99) & 1]
    known = sum(1 << mode_bits[m] for m in supported if m in mode_bits)
    if not bits:
        return kept
    if bits & ~known and eee.get("adv_rule") in ("EINVAL", "EINVAL_if_on"):
        return None
    return asked


def shown_values(co: dict[str, Any]) -> dict[str, Any]:
    """The values get_coalesce reports: igb under queue pairs leaves tx-usecs out (0)."""
    pq = co.get("pairs", {})
    if pq.get("paired") and pq.get("tx-usecs") == "hidden_and_refused":
        return {**co["values"], "tx-usecs": 0}
    return dict(co["values"])


def pairs_refusal(co: dict[str, Any], numbers: dict[str, int]) -> str | None:
    """igb_set_coalesce / igc_ethtool_set_coalesce under queue pairs: igb refuses any non-zero
    tx-usecs, igc one other than the current (with its extack); None where nothing is refused,
    "" for a refusal without a message."""
    pq = co.get("pairs", {})
    if not pq.get("paired"):
        return None
    shown = int(shown_values(co).get("tx-usecs", 0))
    tx = numbers.get("tx-usecs", shown)
    if pq.get("tx-usecs") == "hidden_and_refused":
        return "" if tx else None
    if tx != shown:
        return "igc: Queue Pair mode enabled, both Rx and Tx coalescing controlled by rx-usecs"
    return None


def coalesce_unchanged(values: dict[str, Any], name: str, value: str) -> bool:
    """Whether `name value` of a `-C` is what get_coalesce reports already."""
    if name.startswith("adaptive-"):
        return bool(values.get(name)) == (value == "on")
    return name in values and int(values[name]) == int(value)
