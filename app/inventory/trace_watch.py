"""A kernel trace's own lines name the NIC driver it happened in (issue 24, seventeenth set).

A WARNING (`WARNING: CPU: 0 PID: 65 at arch/arm/mm/dma-mapping-nommu.c:65 ...`, lib/bug.c
report_bug()), an allocation that failed (`ksoftirqd/0: page allocation failure: order:0`,
mm/page_alloc.c warn_alloc()), a soft lockup (kernel/watchdog.c) or an RCU stall
(kernel/rcu/tree_stall.h) is followed by the call trace: the functions that ran, innermost
first. A frame whose function is a network driver's own (`bcmgenet_rx_refill`, the
driver's name as the prefix its functions carry) or that names the driver's module
(`ocp_read_word+0x7d/0x90 [r8152]`), or a WARNING in a driver's own file, says in which
driver it happened: the first such frame from the top. A driver's library module
(`stmmac_open`: stmmac, which stm32-dwmac and the other dwmac glue drivers use) names the
source directory they share. The head and that frame are the evidence; the `Modules linked
in:` list names loaded modules, not the code that ran: it is read only to choose among the
drivers of a directory the trace named (trace_modules.py), never to name a NIC.

Cheap per line (parsers/dmesg.py docstring): the parser classifies heads and frames by
their needles ("WARNING: ", "page allocation failure", "+0x"); a function's driver is
looked up once per distinct function name.
"""

from __future__ import annotations

import functools
import re
from pathlib import PurePosixPath

from sbctune.catalog.function_families import family_of
from sbctune.catalog.ids import load_ids
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.library_modules import library_makefile
from sbctune.catalog.vendor_drivers import vendor_module, vendor_modules_listing
from sbctune.inventory.parsers.dmesg import DmesgEvent
from sbctune.inventory.sightings import Key, Sighting, iface_key
from sbctune.inventory.trace_library import PREFIX, library_nic, library_part, uses
from sbctune.inventory.trace_modules import driver_among, listed_modules

KINDS = frozenset({"trace_head", "trace_frame"})
_WINDOW = 80  # lines after its head a frame belongs to (a trace is some 20-60 lines)
_SRC = "dmesg"
# a function in a frame: "(fn+0x1/0x2)", "fn+0x1/0x2", "(fn) from", "fn from fn2+0x.."
_FUNC_RE = re.compile(
    r"(?<![\w.])([A-Za-z_][\w.]{2,80}?)(?:\.(?:constprop|isra|part)\.\d+)*"
    r"(?=\+0x[0-9a-f]+/0x[0-9a-f]+|\) from | from )"
)
_MODULE_RE = re.compile(r" \[([\w-]{2,40})(?:@[^\]\s]*)?\]")
_MODULE_NAME = re.compile(r"[a-z0-9][\w-]{1,39}")  # KBUILD_MODNAME: "8189fs", "88x2bu" too
_OWN_MODULE = "module:"  # a trace key for a module with no source directory in the tables
FAMILY = "family:"  # a trace key for a driver family's directory (catalog.function_families)
_SOURCE_DIR = re.compile(r"(drivers/(?:net|staging)/\S+?)/[\w.-]+\.[ch]\b")
_WIRELESS_TREE = re.compile(r"(?:^|/)drivers/net/wireless/[\w.-]+/\S*[\w.-]\.[ch]\b")
_SDIO_THREAD = re.compile(r"\bPID: \d{1,10} Comm: ksdioirqd/mmc\d{1,3}(?: |$)")


class TraceWatch:
    """Follows the log's lines in order: ``see(event)`` gives, for the first frame of a trace
    that names a network driver (or its library), a sighting keyed by that driver's source
    directory, with the trace's head and that frame as its facts."""

    def __init__(self) -> None:
        self.head: DmesgEvent | None = None
        self.named = False
        self.key: Key | None = None  # the open trace's key, once a line named its directory

    def see(self, event: DmesgEvent) -> Sighting | None:
        if event.kind == "trace_head":
            if "start" in event.fields:  # a stack dump's first line: a head only when none is
                if not self._open(event):  # open (an excerpt that starts mid-report)
                    self.head, self.named, self.key = event, False, None
                elif self.key is not None and event.fields["start"] == "Modules linked in:":
                    return self._modules(event, self.key)
                return None
            self.head, self.named, self.key = event, False, None
            if (iface := event.fields.get("iface")) and (key := iface_key(iface)):
                # skb_panic() names the interface the packet was for: that NIC's trace; the
                # frames may still name its driver
                sighting = Sighting([key])
                sighting.add("kernel_trace", event.text, _SRC, event.text, event.line)
                return sighting
            in_file = _directory_of_path(event.fields.get("file", ""))
            module = event.fields.get("module")
            found = in_file or (_directory_of_module(module) if module else None)
            if found:
                return self._named(event, found)
            if module and _MODULE_NAME.fullmatch(module):
                # A module no kernel table knows (an out-of-tree vendor driver: r8125, r8168,
                # 88x2bu): keyed by its name, tied only to a NIC whose driver line names that
                # module (tie_traces); the frames may still name an in-tree driver.
                sighting = self._named(event, (_OWN_MODULE + module, None))
                self.named = False
                if _WIRELESS_TREE.search(event.fields.get("file", "")):
                    # built in the kernel's Wi-Fi drivers' directory (a vendor tree's copy of
                    # rtl8189fs): drivers/net/wireless/Makefile builds only Wi-Fi drivers there
                    sighting.add("trace_wifi_module", module, _SRC, event.text, event.line)
                return sighting
            return None
        head = self.head
        if head is None or self.named or not self._open(event):
            return None
        found = frame_named(event.fields.get("frame", event.text))
        return self._named(event, found) if found is not None else None

    def sdio_thread(self, event: DmesgEvent) -> Sighting | None:
        """The dump's task line of an open trace in a module no table knows: "Comm:
        ksdioirqd/mmc0" is the SDIO interrupt thread (drivers/mmc/core/sdio_irq.c
        sdio_card_irq_get(): kthread_run(sdio_irq_thread, host, "ksdioirqd/%s", ...), 6.1 and
        6.12), which runs the SDIO functions' interrupt handlers: the module is an SDIO
        driver."""
        key = self.key
        if key is None or not key[1].startswith(_OWN_MODULE) or not self._open(event):
            return None
        if _SDIO_THREAD.search(event.text) is None:
            return None
        sighting = Sighting([key])
        sighting.add("trace_bus", "sdio", _SRC, event.text[:200], event.line)
        return sighting

    @staticmethod
    def _modules(event: DmesgEvent, key: Key) -> Sighting:
        """The open trace's `Modules linked in:` list, for tie_traces to choose the driver of
        its directory (trace_modules.py)."""
        sighting = Sighting([key])
        listed = " ".join(listed_modules(event.text))
        sighting.add("trace_modules", listed, _SRC, event.text[:200], event.line)
        return sighting

    def _open(self, event: DmesgEvent) -> bool:
        """Whether `event` lies within the open trace's window after its head."""
        return self.head is not None and 0 < event.line - self.head.line <= _WINDOW

    def _named(self, event: DmesgEvent, found: tuple[str, str | None]) -> Sighting:
        """The trace's head and the line that named the driver, keyed by its directory."""
        self.named = True
        head = self.head or event
        directory, driver = found
        key: Key = ("trace", directory)
        self.key = key if driver is None else None  # a directory's: its modules may say which
        sighting = Sighting([key])
        sighting.add("kernel_trace", head.text, _SRC, head.text, head.line)
        if event is not head:
            sighting.add("kernel_trace", event.text, _SRC, event.text, event.line)
        if driver is not None:
            sighting.add("trace_driver", driver, _SRC, event.text, event.line)
        return sighting


# A long log repeats its traces (a driver's WARNING at every reset, each under a new clock):
# a frame's reading is a pure function of its text, made once per distinct frame. Bounded: the
# text is the Pi's, so only frames of a real frame's length are kept, 4 096 of them.
_FRAMES_KEPT = 4096
_FRAME_CHARS = 400


def frame_named(frame: str) -> tuple[str, str | None] | None:
    """(source directory, driver) that a trace frame names: its first module that is a
    network driver's or library's, else its first such function; None if none. The two
    regexes scan the frame at every position (~10^4 instructions a frame): once per frame."""
    return _frames_kept(frame) if len(frame) <= _FRAME_CHARS else _read_frame(frame)


def _read_frame(frame: str) -> tuple[str, str | None] | None:
    for module in _MODULE_RE.findall(frame):
        if found := _directory_of_module(module):
            return found
    for function in _FUNC_RE.findall(frame):
        if found := _directory_of_function(function):
            return found
    return None


_frames_kept = functools.lru_cache(maxsize=_FRAMES_KEPT)(_read_frame)


@functools.cache
def _drivers_by_directory() -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    table = load_kernel_drivers()
    for name in table.names():
        driver = table.get(name)
        if driver is not None and driver.buses and driver.file:
            out.setdefault(str(PurePosixPath(driver.file).parent), []).append(name)
    return {d: tuple(sorted(names)) for d, names in out.items()}


def drivers_in(directory: str) -> tuple[str, ...]:
    """The network drivers (with a bus) whose source file lies in `directory`."""
    return _drivers_by_directory().get(directory, ())


@functools.cache
def _directory_of_module(module: str) -> tuple[str, str | None] | None:
    """(source directory, driver) of a network driver's module; a library module's directory
    (driver None); None for any other module."""
    driver = load_kernel_drivers().get(module)
    if driver is not None and driver.buses and driver.file:
        return str(PurePosixPath(driver.file).parent), driver.name
    makefile = library_makefile(module) or library_makefile(module.replace("_", "-"))
    if makefile and drivers_in(str(PurePosixPath(makefile).parent)):
        return str(PurePosixPath(makefile).parent), None
    part = library_part(module)  # rtlwifi's rtl_usb: its drivers live in subdirectories
    if part is not None:
        return part, None
    vendor = vendor_module(module)  # an out-of-tree network driver its source names (8812au)
    return (_OWN_MODULE + vendor.module, vendor.module) if vendor is not None else None


@functools.cache
def _directory_of_function(function: str) -> tuple[str, str | None] | None:
    """A function named after its driver or library: the longest prefix (cut at "_") that is
    one ("bcmgenet_rx_refill" → bcmgenet, "stmmac_open" → the stmmac library)."""
    parts = function.split("_")
    for end in range(len(parts) - 1, 0, -1):
        if found := _directory_of_module("_".join(parts[:end])):
            return found
    found = family_of(function)  # "ath10k_ce_alloc_src_ring": ath10k's code, in ath10k_core
    if found is None:
        return None
    family, driver = found
    if driver is not None:  # "mtk_rx_alloc": mtk_soc_eth's own file alone has mtk_rx_ functions
        return _directory_of_driver(driver) or family, driver
    return FAMILY + family, None


def _directory_of_path(path: str) -> tuple[str, str | None] | None:
    """A WARNING in a network driver's own file (a build tree's prefix before drivers/)."""
    m = _SOURCE_DIR.search(path)
    if m is None or not drivers_in(m.group(1)):
        return None
    names = drivers_in(m.group(1))
    return m.group(1), (names[0] if len(names) == 1 else None)


_BUS_KEYS = frozenset({"usb", "pci", "sdio", "platform"})


@functools.cache
def _directory_of_driver(name: str) -> str | None:
    driver = load_kernel_drivers().get(name)
    return str(PurePosixPath(driver.file).parent) if driver is not None and driver.file else None


def tie_traces(found: list[Sighting]) -> list[Sighting]:
    """A trace keyed by a driver's directory is about the one device the log shows of the
    drivers in that directory; failing that, the one device whose IDs those drivers' tables
    list (a USB stick in lsusb whose driver crashed while it probed); with none shown and one
    driver named, that driver's NIC (its bus from the driver's table when it has one: bcmgenet
    is the SoC's; a multi-bus driver's, brcmfmac's, unknown). Two devices: nothing is tied."""
    wanted = {k[1] for s in found for k in s.keys if k[0] == "trace"}
    if not wanted:
        return []
    devices: dict[str, set[Key]] = {}
    listed: dict[str, set[Key]] = {}
    named: dict[str, str] = {}
    wifi: dict[str, str] = {}  # an unknown module's trace in drivers/net/wireless/: its name
    buses: dict[str, str] = {}  # the bus the trace's task says (ksdioirqd: SDIO)
    # the wanted directories a driver's fact goes into, once per driver (a long log's ~2 600
    # driver facts name a few hundred drivers; each test runs over every wanted directory)
    into_of: dict[str, list[str]] = {}
    for sighting in found:  # a long log's sightings: one field test per fact, cached look-ups
        for fact in sighting.facts:
            field = fact.field
            if field == "driver":
                bound = str(fact.value)
                into = into_of.get(bound)
                if into is None:
                    into = into_of[bound] = _traced_into(bound, wanted)
                for found_in in into:
                    keys = {k for k in sighting.keys if k[0] in _BUS_KEYS}
                    devices.setdefault(found_in, set()).update(keys)
            elif field == "trace_driver":
                named.setdefault(sighting.keys[0][1], str(fact.value))
            elif field == "trace_wifi_module":
                wifi.setdefault(sighting.keys[0][1], str(fact.value))
            elif field == "trace_bus":
                buses.setdefault(sighting.keys[0][1], str(fact.value))
            elif field == "trace_modules":  # the loaded modules: which driver of the directory
                directory = sighting.keys[0][1]
                if chosen := driver_among(directory, tuple(str(fact.value).split())):
                    named.setdefault(directory, chosen)
            elif field == "ids" and sighting.keys:
                for directory in _listed_in(str(fact.value), wanted):
                    listed.setdefault(directory, set()).add(sighting.keys[0])
    ties: list[Sighting] = []
    for directory in sorted(wanted):
        keys = devices.get(directory, set()) or listed.get(directory, set())
        if len(keys) == 1:
            ties.append(Sighting([next(iter(keys)), ("trace", directory)]))
        elif not keys and directory.startswith(PREFIX):
            ties.append(library_nic(directory))
        elif not keys and directory.startswith(FAMILY):
            ties.append(_family_nic(directory))
        elif not keys and (module := wifi.get(directory)) and vendor_module(module) is None:
            ties.append(_oot_wifi_nic(directory, module, buses.get(directory)))
        elif not keys and (name := named.get(directory)) and (vendor := vendor_module(name)):
            ties.append(_vendor_nic(directory, vendor.module, vendor.bus, vendor.wireless))
        elif not keys and (name := named.get(directory)):
            driver = load_kernel_drivers().get(name)
            if driver is None or not driver.buses:
                continue
            own = Sighting([("trace", directory)])
            why = f"{name}: the kernel's trace ran in its functions"
            own.add("driver", name, _SRC, why)
            if len(driver.buses) == 1:
                own.add("bus", driver.buses[0], _SRC, why)
            ties.append(own)
    return ties


def _traced_into(driver: str, wanted: set[str]) -> list[str]:
    """The wanted trace keys a driver's device stands for: its own source directory (or
    its out-of-tree module's key), and each library part it uses."""
    directory = _directory_of_driver(driver) or _OWN_MODULE + driver
    into = [directory] if directory in wanted else []
    into += [w for w in wanted if _in_family(directory, w)]
    return into + [w for w in wanted if w.startswith(PREFIX) and uses(w, driver)]


def _in_family(directory: str, key: str) -> bool:
    """Whether a driver's source directory lies in the family of trace key `key`."""
    if not key.startswith(FAMILY):
        return False
    family = key.removeprefix(FAMILY)
    return directory == family or directory.startswith(family + "/")


def _family_nic(key: str) -> Sighting:
    """The NIC a family's trace stands for when the log shows none of its devices: a network
    device, wireless when the family is one of drivers/net/wireless/, its driver and bus not
    claimed (ath10k's and mt76's drivers are on several buses)."""
    family = key.removeprefix(FAMILY)
    why = f"{family}: the kernel's trace ran in this driver family's functions"
    own = Sighting([("trace", key)])
    own.add("net_device", True, _SRC, why)
    if family.startswith("drivers/net/wireless/"):
        own.add("wireless", True, _SRC, why)
    return own


def _vendor_nic(key: str, module: str, bus: str, wireless: bool) -> Sighting:
    """The NIC an out-of-tree network driver's trace stands for when the log shows none of the
    devices its ID table lists: its driver, bus and Wi-Fi from vendor_drivers.json."""
    own = Sighting([("trace", key)])
    why = f"{module}: the kernel's trace ran in this out-of-tree network driver's module"
    own.add("driver", module, _SRC, why)
    own.add("bus", bus, _SRC, why)
    own.add("net_device", True, _SRC, why)  # only a network driver's device runs its code
    if wireless:
        own.add("wireless", True, _SRC, why)
    return own


def _oot_wifi_nic(key: str, module: str, bus: str | None) -> Sighting:
    """The NIC a trace in an unknown module built in drivers/net/wireless/ stands for when the
    log shows none of its devices: a Wi-Fi NIC on that module, its bus only when the trace's
    task said it (an SDIO interrupt thread)."""
    own = Sighting([("trace", key)])
    why = f"{module}: the kernel's trace ran in this module, built in drivers/net/wireless/"
    own.add("driver", module, _SRC, why)
    own.add("net_device", True, _SRC, why)
    own.add("wireless", True, _SRC, why)
    if bus is not None:
        own.add("bus", bus, _SRC, f"{module}: its trace ran in the SDIO interrupt thread")
    return own


def tie_listed_traces(found: list[Sighting]) -> list[Sighting]:
    """Across every source (lsusb, lspci beside the log): a trace the log tied to no device is
    about the one device whose IDs the traced drivers' tables list (a USB stick in `lsusb`
    whose driver crashed while it probed). Two such devices: nothing is tied."""
    traced: dict[str, bool] = {}
    for sighting in found:
        for key in sighting.keys:
            if key[0] == "trace":
                tied = len(sighting.keys) > 1
                traced[key[1]] = traced.get(key[1], False) or tied
    alone = {d for d, tied in traced.items() if not tied}
    if not alone:
        return []
    listed: dict[str, set[Key]] = {}
    for sighting in found:
        for fact in sighting.facts:
            if fact.field == "ids" and sighting.keys:
                for directory in _listed_in(str(fact.value), alone):
                    listed.setdefault(directory, set()).add(sighting.keys[0])
    return [
        Sighting([next(iter(keys)), ("trace", directory)])
        for directory, keys in sorted(listed.items())
        if len(keys) == 1
    ]


def _listed_in(ids: str, wanted: set[str]) -> set[str]:
    """The wanted trace keys whose drivers' tables list `ids`: their directories, and the
    families those directories lie in."""
    listing = _directories_listing(ids)
    return set(listing & wanted) | {w for w in wanted for d in listing if _in_family(d, w)}


@functools.cache
def _directories_listing(ids: str) -> frozenset[str]:
    """The source directories of the drivers whose USB or PCI ID tables list `ids`: the
    source's tables, and the built modules' aliases (resources/ids/drivers.json), which also
    have the IDs a driver spells with a header's macro (brcmfmac's BRCM_USB_43143_DEVICE_ID)."""
    table, aliases = load_kernel_drivers(), load_ids()
    names = {d.name for bus in ("usb", "pci") for d in table.for_ids(bus, ids)}
    names |= {n for bus in ("usb", "pci") for n in aliases.drivers_for(bus, ids)}
    found = {d for n in names if (d := _directory_of_driver(n)) is not None}
    return frozenset(found | {_OWN_MODULE + m for m in vendor_modules_listing(ids)})


def named_in(line: str) -> str | None:
    """The module or function of a trace's line that names a network driver or its library
    ("bcmgenet_rx_refill", "r8152"), as TraceWatch found it; None if none does."""
    for module in _MODULE_RE.findall(line):
        if _directory_of_module(module):
            return str(module)
    for function in _FUNC_RE.findall(line):
        if _directory_of_function(function):
            return str(function)
    return None
