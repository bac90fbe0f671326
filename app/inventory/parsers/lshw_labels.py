"""lshw's field labels in any language. lshw prints every label of its text output through
gettext (lyonel/lshw src/core/print.cc print(): ``_("description")``, ``_("bus info")``,
``_("logical name")``, ``_("configuration:")``, ``_(" UNCLAIMED")`` ...), so under another
locale a network node reads ``Bus-Informationen: pci@0000:02:00.0``, ``nom logique: eth0``,
``*-network NO RECLAMADO``. The values that carry the facts are not translated: the bus info's
``pci@``, the serial's MAC, the ``Mbit/s`` rates, the configuration's ``key=value`` pairs (the
driver's own keys), the capability ids (``ethernet physical wireless``), ``irq:N``. print.cc
prints the fields in one fixed order (``ORDER``), each only when set; a label that is not
English is named here by its value's shape and the fields seen before it in the node."""

from __future__ import annotations

import re
from collections.abc import Set as AbstractSet

# print.cc print(): the order of a node's fields (address/range are not network fields).
ORDER = (
    "description",
    "product",
    "vendor",
    "physical id",
    "bus info",
    "logical name",
    "version",
    "date",
    "serial",
    "slot",
    "size",
    "capacity",
    "width",
    "clock",
    "capabilities",
    "configuration",
    "resources",
)
# The head's flags in English (print.cc: _(" DISABLED"), _(" UNCLAIMED")).
ENGLISH_FLAGS = ("DISABLED", "UNCLAIMED")

_MAC = re.compile(r"[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}")
_BUS_INFO = re.compile(r"[a-z]{2,12}@\S{1,80}")  # pci@0000:03:00.0, usb@2:1.4, mmc@2:390b:1
_RATE = re.compile(r"\d{1,6}(?:\.\d{1,3})?[KMGT]?bit/s")  # decimalkilos(...) << "bit/s"
_CONFIG = re.compile(r"[a-z][\w-]{0,30}=")  # getConfigValues("="): driver=r8169 link=no
_RESOURCE = re.compile(r"\S{1,20}:[0-9a-fA-F]{1,16}(?:-[0-9a-fA-F]{1,16})?(?:\(\S{1,30}\))?")
_WIDTH = re.compile(r"\d{1,3} bits")  # node.getWidth() << " bits" (never translated)
_CLOCK = re.compile(r"\d{1,6}(?:\.\d{1,3})?[KMG]?Hz")
_PHYS_ID = re.compile(r"[0-9a-f]{1,4}(?:\.[0-9a-f]{1,4}){0,3}")  # "0", "e", "14.3", "0.1"
_IFACE = re.compile(r"[A-Za-z][\w.:-]{2,30}")  # eth0, enp3s0, wlp4s0, usb0 (lo is not listed)
_CAPABILITY = re.compile(r"[a-z0-9][\w.-]{0,30}")  # pm msi pciexpress bus_master cap_list ...


def label_for(value: str, seen: AbstractSet[str]) -> str | None:
    """The English label of a field whose label is not English: "rate" for a size or capacity
    (which of the two is told at the node's end, ``rates``), None when the shape names none."""
    v = value.strip()
    if not v:
        return None
    return _by_value(v) or _by_place(v, v.split(), seen)


def _by_value(v: str) -> str | None:
    """Fields whose values alone say what they are."""
    if _CONFIG.match(v):
        return "configuration"
    if _BUS_INFO.fullmatch(v):
        return "bus info"
    if _MAC.fullmatch(v):
        return "serial"
    if _RATE.fullmatch(v):
        return "rate"
    if _WIDTH.fullmatch(v):
        return "width"
    return "clock" if _CLOCK.fullmatch(v) else None


def _by_place(v: str, tokens: list[str], seen: AbstractSet[str]) -> str | None:
    """Fields told by their place in print.cc's order and a loose shape."""
    named = bool(seen & {"bus info", "physical id"})
    if "capabilities" in seen and all(_RESOURCE.fullmatch(t) for t in tokens):
        return "resources"
    if named and not seen & {"logical name", "version"} and _iface(v):
        return "logical name"
    single = len(tokens) == 1 and len(v) <= 16
    if seen & {"bus info", "logical name"} and not seen & {"version", "serial", "width"} and single:
        return "version"  # "versión: 16", "Version: 01": after the names, before the serial
    if len(tokens) > 1 and all(_CAPABILITY.fullmatch(t) for t in tokens) and named:
        return "capabilities"
    if named:
        return None
    if "description" in seen and _PHYS_ID.fullmatch(v):
        return "physical id"
    # the node's first text fields: description, product, vendor, each when set
    return next((k for k in ("description", "product", "vendor") if k not in seen), None)


def _iface(v: str) -> bool:
    return bool(_IFACE.fullmatch(v)) and not (v.isascii() and v.isdigit())


def rates(values: list[float], speed: float | None) -> tuple[float | None, float | None]:
    """(size, capacity) in Mbit/s from the rates a node printed, in order: two are the size then
    the capacity; one is the size when the configuration's ``speed=`` is the same rate
    (network.cc sets both from ethtool), else the capacity (a link that is down has no size)."""
    if len(values) >= 2:
        return values[0], values[1]
    if not values:
        return None, None
    return (values[0], None) if speed == values[0] else (None, values[0])


def is_flag(word: str) -> bool:
    """A word of a node head's flags in any language: "UNCLAIMED", "NON-RÉCLAMÉ", "NO"
    "RECLAMADO", "UNGEFORDERT" (print.cc prints the node id, then the translated flags)."""
    return any(c.isalpha() for c in word) and word.isupper() and len(word) <= 30
