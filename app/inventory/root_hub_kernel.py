"""The kernel release a USB root hub names: the kernel makes each root hub's manufacturer string
itself, "%s %s %s" of utsname's sysname and release and the host controller driver's description
(6.1/6.12 drivers/usb/core/hcd.c rh_string(): "Linux 5.4.154 dwc_otg_hcd"), and usb-devices,
/sys/kernel/debug/usb/devices ("S:  Manufacturer=..."), lsusb -v ("iManufacturer 3 ...") and the
log ("usb usb1: Manufacturer: ...") show it. A paste with no uname and no "Linux version" line
still tells its kernel so (corpus/usbold71_pizerow_*)."""

from __future__ import annotations

import re
from collections.abc import Iterable

_NEEDLE = "Linux "
# the release as utsname prints it ("5.4.154", "6.1.0-18-arm64", "4.4.180+"), then the HCD's
# description (one word: "ehci_hcd", "xhci-hcd", "dwc_otg_hcd", "dwc2_hsotg", "musb-hcd")
_ROOT_HUB_RE = re.compile(
    r"(?:Manufacturer=|Manufacturer: |iManufacturer +\d+ )Linux "
    r"(?P<release>\d{1,2}\.\d{1,3}(?:\.\d{1,4})?[\w.+~-]{0,64}) [\w.-]{2,32}[ \t]*$",
    re.M,
)


def root_hub_kernel(texts: Iterable[str]) -> str | None:
    """The kernel release of the first root hub maker string of the outputs, if one shows it."""
    for text in texts:
        if _NEEDLE in text and (m := _ROOT_HUB_RE.search(text)) is not None:
            return m["release"]
    return None
