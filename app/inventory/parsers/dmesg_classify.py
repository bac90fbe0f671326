"""What kind of kernel log line a message is, and its fields: the first of the line shapes
(dmesg_patterns._PATTERNS) whose needles the message holds and whose pattern matches it, else
a network driver's own device-less line. parsers/dmesg.py calls it once per distinct message;
its docstring says how a rule stays cheap."""

from __future__ import annotations

from sbctune.catalog.bcmdhd_lines import bcmdhd_line
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.library_modules import library_users
from sbctune.catalog.netdev_named_formats import iface_named
from sbctune.catalog.old_formats import old_format_line
from sbctune.catalog.oot_chips import chip_by_oot_name
from sbctune.catalog.vendor_formats import vendor_function_line, vendor_line

from .boot_firmware_lines import boot_firmware_line
from .daemon_lines import daemon_line
from .dmesg_bare_wiphy import bare_wiphy
from .dmesg_cut_netdev import cut_netdev_line
from .dmesg_func_ndev import func_ndev_line
from .dmesg_mii_phy import mii_phy_line
from .dmesg_named_alone import named_alone_device, named_alone_netdev
from .dmesg_patterns import _NEEDLES, _PATTERNS, IFACE, OF_NODE
from .dmesg_usb_serial import usb_serial_gone
from .lazy_pattern import Lazy, later
from .linuxptp_lines import linuxptp_line
from .needle_trie import longest_of

# The needles of every kind but the catch-all's, as one trie (needle_trie.longest_of): its
# match at a position is the longest needle starting there, so one scan of a message (again
# from each match's start + 1) finds every needle it holds: a message's kinds without a
# substring test per needle (~100 of them; a long log's distinct messages are thousands).
_TRIE_NEEDLES = tuple(dict.fromkeys(n for k, ns in _NEEDLES.items() if k != "device" for n in ns))
_NEEDLE_RE = later(longest_of(_TRIE_NEEDLES))
# the catch-all's needles (": "), in nearly every message: a substring test each, apart
_DEVICE_NEEDLES = tuple(n for n in _NEEDLES["device"] if n not in _TRIE_NEEDLES)
# the kinds a message's needles name → their patterns (a few hundred sets at most: the
# subsets of kinds whose needles one message holds)
_CANDIDATES: dict[frozenset[str], list[tuple[str, Lazy]]] = {}
_CANDIDATES_LIMIT = 4096
# a line on an interface alone, as kernels before 3.x and some drivers print it ("eth1: IBM
# emac, MAC ..."): an interface the kernel named, not "usbcore:" or "lan78xx:" (a module)
_BARE_IFACE_RE = later(r"((?:eth|wlan|usb|lan|wan)\d{1,3}|en[dopsx]\w{1,14}|wl[opsx]\w{1,14}): \S")
_NETDEV_NAME_RE = later(r"(?:eth|wlan|usb|lan|wan)\d{1,3}|en[dopsx]\w{1,14}|wl[opsx]\w{1,14}")
# "icssg-prueth icssg0-eth: ..." (dev_printk of a device named by a device-tree node alone)
_NODE_NAMED_RE = later(rf"([a-z][\w-]{{0,30}}) ({OF_NODE})(?: ({IFACE}))?")


# strerror(ENODEV)/ifconfig's words a user-space tool ends a line with when the interface it
# names does not exist (ifupdown's "wlan0: ERROR while getting interface flags: No such
# device", corpus/pi_xbian_421_*): the kernel prints an errno's number, not these words
_MISSING = ("No such device", "Device not found")


# the first characters a bcmdhd line can start with: its prefix, a function (dhd_, dhdsdio_,
# dhdpcie_, bcmsdh_), the F1 signature line, or a continuation's indent (blank or tab)
_BCMDHD_FIRST = frozenset("[dbF \t")


def classify(msg: str) -> tuple[str, dict[str, str]] | None:
    """The first pattern that matches a message: what kind of line it is, and its fields.
    A network daemon's line about an interface (parsers/daemon_lines.py) first: its words
    ("state change", "Link DOWN") are not a kernel driver's."""
    if (daemon := daemon_line(msg)) is not None:
        return daemon
    # linuxptp's line naming a port's interface ("port 1 (eth0): send sync failed") or its
    # transmit timestamp timeout: ptp4l's words, not a kernel driver's
    if (ptp := linuxptp_line(msg)) is not None:
        return ptp
    # U-Boot's or the Pi bootloader's network line ("ethernet@1c30000 Waiting for PHY ..."):
    # not a kernel driver's ("Could not get PHY for ethernet@..." names no driver "for")
    if (boot := boot_firmware_line(msg)) is not None:
        return boot
    frozen = _kinds_of(msg)
    candidates = _CANDIDATES.get(frozen)
    if candidates is None:  # the patterns of these kinds, in _PATTERNS' order
        candidates = [(k, rx) for k, rx in _PATTERNS if k in frozen]
        if len(_CANDIDATES) < _CANDIDATES_LIMIT:
            _CANDIDATES[frozen] = candidates
    for kind, rx in candidates:
        m = rx.search(msg)
        if m:
            fields = {k.rstrip("23"): v for k, v in m.groupdict().items() if v is not None}
            # "driver device: eth0: msg" (the catch-all "device" shape's iface2)
            old_shape = kind == "device" and m.groupdict().get("iface2") is not None
            if fields.get("device", "").endswith(":"):
                # "driver device: iface: msg" (kernels before 3.x, or a driver printing its
                # interface itself) read by a "driver device iface:" shape: no bus id ends in
                # ":" (PCI, USB and platform names all end in a digit or a word).
                fields["device"] = fields["device"].rstrip(":")
                old_shape = kind == "device" and "iface" in fields
            if old_shape and not _speaks_of_netdev(fields):
                del fields["iface"]
            # "igb 0000:03:00.0: added PHC on eth2": the interface in the message, by a
            # format the driver's source prints about its device with the name inside
            if (
                kind == "device"
                and "iface" not in fields
                and "driver" in fields
                and (named := iface_named(msg[m.end() :])) is not None
            ):
                fields["iface"] = named
            return kind, fields
    # "phy0: Atheros AR9285 Rev:2 ...": an older kernel's wiphy line, by its format
    # "PHY: 1:06 - Link is Up - 1000/Full": an older kernel's line, by its own format
    found = old_format_line(msg) or mii_phy_line(msg)  # r8169's PHY "r8169-3-3100:00"
    if found := found or _node_named(msg) or _driver_message(msg) or bare_wiphy(msg):
        return found
    if found := usb_serial_gone(msg):  # "option1 ttyUSB0: ... converter now disconnected ..."
        return found
    # "RTW: rtw_set_ps_mode(wlp3s0) ...": Realtek's FUNC_NDEV_FMT names the interface
    if found := func_ndev_line(msg, _is_netdev_name):
        return found
    # "dhd_conf_set_hw_oob_intr: Enable HW OOB for 43362": a driver that prints only its
    # function's name, by its row of vendor_formats.json (the function is the driver's own)
    if vendor := vendor_function_line(msg):
        row, fields = vendor
        name = row.function or row.prefix or ""
        return "vendor_function", {**fields, "function": name, "format": row.format}
    # "[dhd] [wlan0] dhd_open : Exit ret=0", "dhdsdio_write_vars: ...": Broadcom's bcmdhd,
    # known by its own prefix or its function name spaces (catalog/bcmdhd_lines.py)
    if msg[:1] in _BCMDHD_FIRST and (dhd := bcmdhd_line(msg)) is not None:
        return dhd
    # "unisoc_wifi unisoc_wifi wlan0: ...": a netdev line on a platform device named alone
    if found := named_alone_netdev(msg, _is_netdev_name):
        return found
    # "nuc970-emac0 nuc970-emac0: eth0 is OPENED": an out-of-tree driver's own line on its
    # platform device named alone, the interface in its words by its row of vendor_formats.json
    if found := named_alone_device(msg, _vendor_iface):
        return found
    # "ethernet eth0: stmmac_open: Hw setup failed": a netdev line's prefix cut to one word
    return cut_netdev_line(msg, _is_netdev_name)


def _vendor_iface(driver: str, msg: str) -> str | None:
    """The interface an out-of-tree driver's row reads from its line ("%s is OPENED")."""
    found = vendor_line(driver, msg)
    return found[1].get("iface") if found is not None else None


def _kinds_of(msg: str) -> frozenset[str]:
    """The kinds with a needle in the message (the kinds whose patterns are worth trying)."""
    search = _NEEDLE_RE.search
    m = search(msg)
    if m is None:  # most messages of a long log: one scan, then the catch-all's test alone
        return _DEVICE_KINDS if any(n in msg for n in _DEVICE_NEEDLES) else _NO_KINDS
    kinds: set[str] = set()
    while m is not None:
        found = m.group()
        held = _HELD_BY.get(found)
        if held is None:
            held = _HELD_BY[found] = _held_by(found)
        kinds |= held
        m = search(msg, m.start() + 1)
    if any(n in msg for n in _DEVICE_NEEDLES):
        kinds |= _DEVICE_KINDS
    return frozenset(kinds)


_DEVICE_KINDS = frozenset({"device"})
_NO_KINDS: frozenset[str] = frozenset()


# a needle of the trie → the kinds of every needle it holds, made when first found (a short
# log finds few: no table of all ~100 needles at every start of the program)
_HELD_BY: dict[str, frozenset[str]] = {}


def _held_by(found: str) -> frozenset[str]:
    """The kinds of every needle `found` holds: itself and the shorter ones inside it (the
    trie's match at a position is only the longest needle there)."""
    return frozenset(k for k, ns in _NEEDLES.items() for n in ns if n in found)


def _is_netdev_name(name: str) -> bool:
    return _NETDEV_NAME_RE.fullmatch(name) is not None


def _speaks_of_netdev(fields: dict[str, str]) -> bool:
    """Whether "driver device: name: msg" names a network interface: a network driver (the
    kernel's tables, or an out-of-tree one named for its chip) or a name of the kernel's own
    interface templates. A class driver names its character device there, "usblp 1-1.2:1.0:
    usblp0: USB Bidirectional printer ..." (drivers/usb/class/usblp.c usblp_probe()), which is
    no NIC (corpus/pi_hexxeh_fw_42_*)."""
    driver = fields.get("driver", "")
    if load_kernel_drivers().knows(driver) or chip_by_oot_name(driver) is not None:
        return True
    return _NETDEV_NAME_RE.fullmatch(fields.get("iface", "")) is not None


def _node_named(msg: str) -> tuple[str, dict[str, str]] | None:
    """ "icssg-prueth icssg0-eth: ...": a network driver of the kernel's tables speaking of a
    device named by a device-tree node alone (dmesg_patterns.OF_NODE): that device's line."""
    head, sep, rest = msg.partition(": ")
    # string tests first: most lines of a long log fall through every shape to here
    if not sep or not rest[:1].strip() or "-" not in head or not 0 < head.count(" ") < 3:
        return None
    m = _NODE_NAMED_RE.fullmatch(head)
    if m is None or not load_kernel_drivers().knows(m.group(1)):
        return None
    fields = {"driver": m.group(1), "device": m.group(2)}
    if m.group(3):
        fields["iface"] = m.group(3)
    return "device", fields


def _driver_message(msg: str) -> tuple[str, dict[str, str]] | None:
    """ "brcmfmac: brcmf_sdiod_regrw_helper: failed ... err: -110": a network driver of the
    kernel (its pr_err prefix) speaking of no device; the driver names the NIC. An interface
    in that place ("eth0: IBM emac, MAC ...", kernels before 3.x) is a line about it."""
    head, sep, _rest = msg.partition(": ")
    if not sep or len(head) > 32 or " " in head:
        return None
    if not load_kernel_drivers().knows(head):
        if library_users(head):  # "wlcore: ERROR ...": a library module speaking for its user
            return "library_message", {"driver": head}
        if head[:1] in "ewlu" and _BARE_IFACE_RE.match(msg) and "renamed from" not in msg:
            if msg.endswith(_MISSING):  # a tool's "wlan0: ERROR ...: No such device": none
                return None
            return "device", {"iface": head}  # an old kernel's "eth0: AT91 ethernet at ..."
        return None
    return "driver_message", {"driver": head}
