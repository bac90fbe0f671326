"""The kernel's network drivers (``resources/kernel_source/drivers.json``, generated from
Debian's linux-source-6.1 and 6.12 by ``scripts/regen_kernel_source.py``): by the name a driver
logs under (its driver struct's ``.name``), the buses it binds on, whether it is a Wi-Fi
driver, which kernel series have it, and the USB/PCI IDs its tables list.

So a device is a NIC, on a bus, and wireless by what the kernel's own tables say about its
driver, not by a list kept by hand; a driver added after 6.1 (rtw88's USB parts) is known.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from typing import Any

# A multi-bus driver's bus-specific parts are named for their bus: brcmfmac's bcmsdh.c and
# brcmf_sdiod_* (SDIO), usb.c and brcmf_usb_* (USB), pcie.c and brcmf_pcie_* (PCIe); rtw88's
# sdio.c/usb.c/pci.c; ath10k_sdio_*, ath10k_usb_*, ath10k_pci_*.
_BUS_WORDS = {"sdio": "sdio", "sdiod": "sdio", "sdh": "sdio", "bcmsdh": "sdio", "sdmmc": "sdio"}
_BUS_WORDS |= {"usb": "usb", "pcie": "pci", "pci": "pci"}
_BUS_WORD_RE = re.compile(
    r"(?:^|_)(" + "|".join(sorted(_BUS_WORDS, key=len, reverse=True)) + r")(?:_|$)"
)
_FUNCTION_RE = re.compile(r"^[\w-]{1,32}: ([a-z][a-z0-9_]{2,60}): ")
_RELEASE_RE = re.compile(r"^\s*(\d{1,2})\.(\d{1,3})(?!\d)")
_PROTOCOL_RE = re.compile(
    r"\bCDC\b|\bRNDIS\b|\bECM\b|\bNCM\b|\bEEM\b|\bMBIM\b|\bQMI\b|\bWWAN\b|\bclass\b", re.I
)


@dataclass(frozen=True)
class KernelDriver:
    name: str
    buses: tuple[str, ...]  # "usb", "pci", "sdio", "platform": contract 2's, no other
    file: str  # the source file that registers it
    wireless: bool
    series: tuple[str, ...]  # kernel series whose source has it: ("6.1", "6.12")
    about: str = ""  # its MODULE_DESCRIPTION
    spi: bool = False  # an spi_driver: its NIC's bus is "unknown" under contract 2 (README)
    compatible: tuple[str, ...] = ()  # an SPI driver's device-tree matches ("vendor,model")
    older_name_of: str = ""  # an older kernel's name ("WILC_SPI"): the 6.1/6.12 driver's name

    @property
    def protocol(self) -> bool:
        """A driver for a USB class or protocol (CDC Subset, CDC Ethernet, RNDIS, ECM ...),
        not for a chip, as its own description says: it has no chip's offloads to offer."""
        return bool(_PROTOCOL_RE.search(self.about))

    @property
    def bus(self) -> str | None:
        """The one bus it binds on, if it has one (r8152: usb; not ks8851, platform and SPI)."""
        return self.buses[0] if len(self.buses) == 1 and not self.spi else None


def _bus_word(name: str) -> str | None:
    found = {_BUS_WORDS[m] for m in _BUS_WORD_RE.findall(name)}
    return found.pop() if len(found) == 1 else None


def bus_word(name: str) -> str | None:
    """The one bus a name's words name ("rtl_usb" -> usb, "brcmf_sdiod_regrw" -> sdio)."""
    return _bus_word(name)


def bus_named_by(driver: KernelDriver, text: str, files: tuple[str, ...] = ()) -> str | None:
    """The bus a device-less line of a driver that binds on several buses speaks of: the
    function its line names ("brcmfmac: brcmf_sdiod_regrw_helper: ...") or the source files
    that print it, when that part of the driver is named for one of the driver's buses."""
    if driver.bus is not None:
        return driver.bus
    names = [m.group(1)] if (m := _FUNCTION_RE.match(text)) else []
    names += [f.rsplit("/", 1)[-1].split(".", 1)[0] for f in files]
    buses = {b for n in names if (b := _bus_word(n)) is not None}
    if len(buses) == 1 and (bus := buses.pop()) in driver.buses:
        return bus
    return None


def kernel_series(release: object) -> tuple[int, int] | None:
    """ "5.15.0-1055-raspi" -> (5, 15); None when it does not start with a version."""
    match = _RELEASE_RE.match(release) if isinstance(release, str) else None
    return (int(match.group(1)), int(match.group(2))) if match else None


def _newest(series: tuple[str, ...]) -> tuple[int, int] | None:
    """The newest series a table names ("7.2" of ("7.2",)); None for none."""
    found = [v for s in series if (v := kernel_series(s)) is not None]
    return max(found) if found else None


def in_tree_since(series: tuple[str, ...]) -> str:
    """Exactly what the kernel sources read (6.1 and 6.12, and 7.2 for the IDs and drivers
    only it lists) say of when something came in: no first version is claimed that they cannot
    show."""
    if "6.1" in series and "6.12" in series:
        return "in the kernel since 6.1 at least (6.1 is the oldest source read)"
    if "6.1" in series:
        return "in the 6.1 source, no longer in 6.12"
    if "6.12" in series:
        return "added after 6.1 (not in the 6.1 source; present in 6.12)"
    newest = _newest(series)
    if newest is not None and newest > (6, 12):
        return (
            f"added after 6.12 (not in the 6.1 or 6.12 source; present in {newest[0]}.{newest[1]})"
        )
    return "in neither the 6.1 nor the 6.12 source"


def for_your_kernel(series: tuple[str, ...], release: object) -> str:
    """What that means for the running kernel, in one sentence; "" when nothing to say."""
    running = kernel_series(release)
    newest = _newest(series)
    if running is None or newest is None:
        return ""
    shown = release if isinstance(release, str) else ""
    if "6.12" not in series:
        if newest <= (6, 12) or running >= newest:
            return ""
        have = f"{newest[0]}.{newest[1]}"
        if running <= (6, 12):
            return (
                f"Your kernel is {shown}: it came after 6.12 ({have} has it): use the chip "
                "maker's driver or update the kernel."
            )
        return (
            f"Your kernel is {shown}: it came in between 6.13 and {have}, so yours may or may "
            "not have it (modinfo tells); if not, update the kernel or use the chip maker's "
            "driver."
        )
    if "6.1" not in series:
        if running < (6, 2):
            return f"Your kernel is {shown}: use the chip maker's driver or update the kernel."
        if running < (6, 12):
            return (
                f"Your kernel is {shown}: it came in between 6.2 and 6.12, so yours may or may "
                "not have it (modinfo tells); if not, update the kernel or use the chip maker's "
                "driver."
            )
        return ""
    if running < (6, 1):
        return (
            f"Your kernel is {shown}, older than 6.1: whether it has it is not known here "
            "(modinfo tells)."
        )
    return ""


# The buses DESIGN.md's contract 2 names. drivers.json also lists "spi" (an spi_driver:
# ENC28J60, KS8851 ...); contract 2 has no such bus, and "platform" is the SoC's own block, not a
# chip on a serial bus, so an SPI NIC's bus stays "unknown" and its driver has no bus here.
_CONTRACT_BUSES = frozenset({"usb", "pci", "sdio", "platform"})


class KernelDrivers:
    def __init__(self, data: dict[str, Any]) -> None:
        self._drivers: dict[str, dict[str, Any]] = data.get("drivers", {})
        self._ids: dict[str, dict[str, list[str]]] = data.get("ids", {})
        self._firmware: dict[str, list[str]] = data.get("firmware", {})
        self._older: dict[str, str] = data.get("older_names", {})  # an older kernel's names
        # Each driver's record made once (a long log asks for its drivers ~20 000 times):
        # keyed by the name asked, only names the table has (bounded by it).
        self._made: dict[str, KernelDriver] = {}
        self._by_file: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None

    def names(self) -> list[str]:
        return list(self._drivers)

    def by_file(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        """The drivers by their own source file, and by its folder (with its "/"), in the
        table's order: made once (driver_for_files read every driver's record per format)."""
        if self._by_file is None:
            files: dict[str, list[str]] = {}
            homes: dict[str, list[str]] = {}
            for name in self.names():
                known = self.get(name)
                if known is not None and known.file:
                    files.setdefault(known.file, []).append(name)
                    homes.setdefault(known.file.rsplit("/", 1)[0] + "/", []).append(name)
            self._by_file = (files, homes)
        return self._by_file

    def ids_of(self, driver: str) -> list[tuple[str, str]]:
        """(bus, "vvvv:dddd") of every ID the driver's tables list."""
        return [
            (key.split(":", 1)[0], key.split(":", 1)[1])
            for key, drivers in self._ids.items()
            if driver in drivers
        ]

    def knows(self, name: str) -> bool:
        """A network driver of the kernel by that name (a cheap test, for every log line)."""
        return name in self._drivers or name.replace("-", "_") in self._drivers

    def get(self, name: object) -> KernelDriver | None:
        if not isinstance(name, str):
            return None
        made = self._made.get(name)
        if made is not None:
            return made
        info = self._drivers.get(name) or self._drivers.get(name.replace("-", "_"))
        current = self._older.get(name, "") if info is None else ""
        if current:
            info = self._drivers.get(current)
        if info is None:
            return None
        buses = tuple(info.get("buses", ()))
        made = self._made[name] = KernelDriver(
            name,
            tuple(b for b in buses if b in _CONTRACT_BUSES),
            str(info.get("file", "")),
            bool(info.get("wireless")),
            tuple(info.get("series", ())),
            str(info.get("about", "")),
            "spi" in buses,
            tuple(info.get("compatible", ())),
            current,
        )
        return made

    def for_ids(self, bus: str, ids: object) -> list[KernelDriver]:
        """The drivers whose ID tables list a USB/PCI vendor:device."""
        if not isinstance(ids, str):
            return []
        names = self._ids.get(f"{bus}:{ids.lower()}", {})
        return [d for d in (self.get(n) for n in names) if d is not None]

    def id_series(self, bus: str, ids: object, driver: str) -> tuple[str, ...]:
        """The kernel series whose copy of the driver's ID table lists this vendor:device (a
        driver of 6.1 may list an adapter only since a later kernel)."""
        if not isinstance(ids, str):
            return ()
        return tuple(self._ids.get(f"{bus}:{ids.lower()}", {}).get(driver, ()))

    def for_firmware(self, path: object) -> list[KernelDriver]:
        """The drivers that declare a firmware file (MODULE_FIRMWARE): "rtw88/rtw8822b_fw.bin"
        is rtw88's. A board-specific variant ("brcmfmac43436-sdio.raspberrypi,model-zero-2-w
        .bin") is matched by the declared file it extends."""
        if not isinstance(path, str):
            return []
        names = self._firmware.get(path)
        if names is None:
            stem = path.split(".", 1)[0]
            names = next((v for k, v in self._firmware.items() if k.split(".", 1)[0] == stem), [])
        if not names and "/" in path:
            # a file the 6.1/6.12 drivers do not declare, in a directory that is a driver
            # family's own ("rtw88/rtw8812a_fw.bin": rtw88's, a part added later)
            names = self._firmware_dirs().get(path.rsplit("/", 1)[0], [])
        return [d for d in (self.get(n) for n in names) if d is not None]

    def _firmware_dirs(self) -> dict[str, list[str]]:
        if not hasattr(self, "_dirs"):
            dirs: dict[str, set[str]] = {}
            for file, drivers in self._firmware.items():
                if "/" in file:
                    dirs.setdefault(file.rsplit("/", 1)[0], set()).update(drivers)
            self._dirs = {k: sorted(v) for k, v in dirs.items()}
        return self._dirs


@functools.cache
def load_kernel_drivers() -> KernelDrivers:
    """The shipped table (cached), with the IDs a newer kernel added (newer_drivers.json,
    scripts/regen_newer_drivers.py: 7.2's, each ID no 6.1/6.12 driver lists) merged under it,
    and the names an older kernel used for its drivers (older_driver_names.json). A missing
    file gives an empty table: nothing known."""
    from sbctune.catalog.table_cache import json_file
    from sbctune.resources import resource_root

    folder = resource_root().joinpath("kernel_source")
    try:
        data = json_file("kernel-drivers", folder.joinpath("drivers.json"))
    except (OSError, ValueError):
        return KernelDrivers({})
    if not isinstance(data, dict):
        return KernelDrivers({})
    try:
        later = json_file("kernel-drivers-newer", folder.joinpath("newer_drivers.json"))
    except (OSError, ValueError):
        later = {}
    try:
        older = json_file("kernel-drivers-older", folder.joinpath("older_driver_names.json"))
    except (OSError, ValueError):
        older = {}
    merged = with_newer(data, later if isinstance(later, dict) else {})
    return KernelDrivers(with_older_names(merged, older if isinstance(older, dict) else {}))


def with_older_names(data: dict[str, Any], older: dict[str, Any]) -> dict[str, Any]:
    """The names an older kernel (5.10) gave drivers that 6.1/6.12 rename (older_driver_names
    .json, scripts/regen_older_driver_names.py: "WILC_SPI" is 6.1's wilc1000_spi, the same
    file), each to its driver's current name: looked up by get() only, so no file or ID gains a
    second driver; a name the tables have keeps its own record."""
    drivers = data.get("drivers", {})
    names = {
        old: str(row["driver"])
        for old, row in (older.get("names") or {}).items()
        if isinstance(row, dict) and old not in drivers and row.get("driver") in drivers
    }
    return {**data, "older_names": names}


def with_newer(data: dict[str, Any], later: dict[str, Any]) -> dict[str, Any]:
    """drivers.json's body with a newer kernel's IDs and drivers added: the older tables win
    (a driver or an ID they have keeps their record), so only what 6.1/6.12 lack comes in."""
    drivers = {**(later.get("drivers") or {}), **data.get("drivers", {})}
    ids = dict(data.get("ids", {}))
    for key, names in (later.get("ids") or {}).items():
        if key not in ids and isinstance(names, dict):
            ids[key] = names
    return {**data, "drivers": drivers, "ids": ids}


@functools.cache
def _chips_by_speed() -> dict[str, Any]:
    from sbctune.resources import resource_root

    try:
        text = (
            resource_root()
            .joinpath("kernel_source", "chips_by_speed.json")
            .read_text(encoding="utf-8")
        )
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def chip_by_speed(driver: object, mbps: object) -> str | None:
    """The chips of a multi-speed driver that can link at this speed (r8169 at 2500 Mbit/s:
    an RTL8125/RTL8126), from resources/kernel_source/chips_by_speed.json."""
    if not isinstance(driver, str) or not isinstance(mbps, int):
        return None
    item = _chips_by_speed().get(driver, {}).get(str(mbps))
    return str(item["chip"]) if isinstance(item, dict) and "chip" in item else None


@functools.cache
def _probe_resets() -> dict[str, Any]:
    from sbctune.resources import resource_root

    try:
        text = (
            resource_root()
            .joinpath("kernel_source", "usb_probe_resets.json")
            .read_text(encoding="utf-8")
        )
        data = json.loads(text)
    except (OSError, ValueError):
        return {}
    drivers = data.get("drivers") if isinstance(data, dict) else None
    return drivers if isinstance(drivers, dict) else {}


def probe_resets(driver: object) -> str | None:
    """Where a USB network driver's probe resets its device ("drivers/net/usb/r8152.c,
    rtl8152_probe_once"), from resources/kernel_source/usb_probe_resets.json; else None."""
    if not isinstance(driver, str):
        return None
    item = _probe_resets().get(driver)
    if not isinstance(item, dict):
        return None
    return f"{item.get('file', '?')}, {item.get('function', '?')}"


def _home(driver: object) -> str | None:
    known = load_kernel_drivers().get(driver)
    if known is None or not known.file:
        return None
    return "/".join(known.file.split("/")[:-1][:4]) + "/"  # drivers/net/<kind>/<vendor>/


def other_drivers_message(files: tuple[str, ...], driver: object) -> bool:
    """The format a line matched is only other vendors' network drivers' own (igc's
    info-level "NIC Link is Down" reads like bnx2x's error-level one): not what this driver
    said. A core's format (drivers/base, net/core ...) may be printed for any driver."""
    home = _home(driver)
    if home is None:
        return False
    drivers_own = all(f.startswith("drivers/net/") for f in files)
    return drivers_own and not any(f.startswith(home) for f in files)


def sibling_driver_dir(files: tuple[str, ...], driver: object) -> str | None:
    """The directory of the same vendor's other driver that alone prints a format the driver's
    line matched (an ath12k_pci line read by ath11k/wmi.c's format: ath12k's own files in
    6.1/6.12 do not print it, a newer kernel's do); None when a file of the driver's own
    directory, or of a directory above it (ath/'s common code, mt76/'s core), prints it."""
    known = load_kernel_drivers().get(driver)
    home = _home(driver)
    if known is None or not known.file or home is None or not files:
        return None
    own_dir = known.file.rsplit("/", 1)[0] + "/"
    own_tree = _own_tree(own_dir, home)
    dirs = {f.rsplit("/", 1)[0] + "/" for f in files}
    if any(d.startswith(own_tree) or own_dir.startswith(d) for d in dirs):
        return None  # its own tree's, or a parent's: code its driver runs
    first = files[0].rsplit("/", 1)[0] + "/"
    return first if first.startswith(home) and first != home else None


def own_files_first(files: tuple[str, ...], driver: object) -> tuple[str, ...]:
    """The files that print a format, the driver's own first (igc's "PCIe link lost" cites
    igc_main.c before fm10k_pci.c)."""
    known = load_kernel_drivers().get(driver)
    if known is None or not known.file:
        # a driver the table does not name (iwlwifi registers under a macro): a directory
        # named as the driver is its own (intel/iwlwifi/ before intel/iwlegacy/)
        mine = f"/{driver}/" if isinstance(driver, str) and driver else None
        return tuple(sorted(files, key=lambda f: mine is None or mine not in f))
    own_dir = known.file.rsplit("/", 1)[0] + "/"
    home = _home(driver) or own_dir
    tree = _own_tree(own_dir, home)

    def rank(path: str) -> tuple[bool, bool, bool, bool]:
        return (
            path != known.file,
            not path.startswith(own_dir),
            not path.startswith(tree),  # iwlwifi/fw/dbg.c before iwlegacy/3945-mac.c
            not path.startswith(home),
        )

    return tuple(sorted(files, key=rank))


def _own_tree(own_dir: str, home: str) -> str:
    """The driver's tree below its vendor's folder: iwlwifi/ holds pcie/, mvm/, dvm/ and fw/,
    the modules of one driver; a driver filed in the vendor's folder itself has no tree."""
    rest = own_dir[len(home) :] if own_dir.startswith(home) else ""
    return home + rest.split("/", 1)[0] + "/" if rest else home


# A chip's model number in a driver's MODULE_DESCRIPTION: four digits or more, with letters
# around them ("8852BE", "RTL8822CE"); "802.11ax" and "5/2.5GbE" are not one.
_MODEL_RE = re.compile(r"(?<![\w./])[A-Za-z]*\d{4,}[A-Za-z0-9]*(?![\w./])")


def chip_by_description(driver: object) -> str | None:
    """A driver whose description names ONE chip drives that chip: rtw89_8852be, "Realtek
    802.11ax wireless 8852BE driver" (MODULE_DESCRIPTION in rtw89/rtw8852be.c). The
    description itself, without "driver", is the chip's name; None when it names none or
    several ("ASIX AX88179_178A based ..." names a family, "... 8192CU/8188CU ..." two), or
    when the driver is not named for that model with its letters (r8169, rk_gmac-dwmac)."""
    known = load_kernel_drivers().get(driver)
    models = set(_MODEL_RE.findall(known.about)) if known is not None else set()
    if known is None or len(models) != 1:
        return None
    model = models.pop().lower()
    if not re.search(r"\d[a-z]", model) or model not in known.name.lower():
        return None  # the driver is named for that exact model: r8169 ("RTL-8169") drives more
    about = re.sub(r"\s+driver\s*$", "", known.about.strip(), flags=re.I)
    if about.lower().startswith("realtek") and re.fullmatch(r"\d{4}[a-z]*", model):
        # Realtek's own name for the chip carries "RTL" ("802.11ac wireless 8821cu": RTL8821CU)
        about = re.sub(
            rf"(?<![\w./]){re.escape(model)}(?![\w./])", f"RTL{model.upper()}", about, flags=re.I
        )
    return about or None


def chip_by_driver_name(driver: object) -> str | None:
    """A driver named for its chip ("mt7601u") with no description: that model, when the
    pci.ids/usb.ids names of the IDs its table lists call the chip so ("MT7601U Wireless
    Adapter")."""
    known = load_kernel_drivers().get(driver)
    if known is None or not re.fullmatch(r"[a-z]{2,4}\d{4}[a-z]{0,3}", known.name):
        return None
    from sbctune.catalog.ids import load_ids

    ids, model = load_ids(), known.name.upper()
    names = [ids.name(bus, found) or "" for bus, found in load_kernel_drivers().ids_of(known.name)]
    return model if any(re.search(rf"\b{model}\b", n, re.I) for n in names) else None


@functools.cache
def driver_for_files(files: tuple[str, ...]) -> KernelDriver | None:
    """The one network driver whose source directory holds every file that prints a format
    ("Firmware has halted or crashed": brcmfmac/core.c → brcmfmac); None when the files are
    shared code or several drivers' own (a wiphy's line names no driver, its format does)."""
    if not files:
        return None
    table = load_kernel_drivers()
    by_file, by_home = table.by_file()
    # A format printed from one driver's own file is that driver's, though its directory holds
    # others' (drivers/net/ethernet/marvell/: mv643xx_eth.c beside mvneta.c, skge.c, sky2.c)
    owners = {n for f in set(files) for n in by_file.get(f, ())}
    if len(owners) == 1 and len(set(files)) == 1:
        return table.get(owners.pop())
    # a folder that holds every file is one that holds the first: the first's own prefixes
    # that end in "/" (each driver's folder is read from the index, not every driver's record)
    first = files[0]
    found: dict[str, int] = {}
    for end, char in enumerate(first):
        home = first[: end + 1]
        if char == "/" and home in by_home and all(f.startswith(home) for f in files):
            for name in by_home[home]:
                found[name] = len(home)
    deepest = [n for n, depth in found.items() if depth == max(found.values(), default=0)]
    return table.get(deepest[0]) if len(deepest) == 1 else None
