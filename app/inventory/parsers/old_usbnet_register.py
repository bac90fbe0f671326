"""A 2.6-era usbnet `register` line, which names the interface alone: before usbnet printed
through netdev_info() (the driver and its USB interface first, "asix 3-1.4:1.0 eth5: register
..."), its devinfo() macro was `printk(KERN_INFO "%s: " fmt "\\n", (usbnet)->net->name, ...)`,
so usbnet_probe() logged "usb0: register 'cdc_subset' at usb-0000:00:1f.4-2.1, Linux Device,
a6:7e:1b:da:a3:ae" ('%s' the usb_driver's name, then "usb-" the host's bus_name and the
device's devpath, which lacks the bus number). The bus number is the one of the log's own
"usb B-DEVPATH:" lines, when exactly one bus has that port path; the line is then given the
modern head ("cdc_subset 2-2.1 usb0: register 'cdc_subset' at ..."), so every later step reads
it as it reads a 3.x+ kernel's. A blog's typography may have curled the quotes (‘’,
corpus/usbold71_x86_rickwargo_*); a driver name with blanks (mcs7830's "MOSCHIP usb-ethernet
driver") is left as it is, as no head can carry it."""

from __future__ import annotations

import re

from .dmesg_names import OLD_NETDEV
from .lazy_pattern import later

_NEEDLE = ": register "
# today's head ends in the USB interface or device ("1-1.2:1.0 usb0: register", 2.6.3x's
# "1-1.3:1.0: usb0: register"): not old
_MODERN_TAIL_RE = re.compile(r"\d+-[\d.]+(?::\d+\.\d+)?:? $")
_OLD_RE = later(
    rf"^(?P<pre>.*?)(?<![\w.-])(?P<iface>{OLD_NETDEV}): register "
    r"[‘'](?P<name>[\w-]{1,32})[’'] at "
    r"usb-(?P<host>\S{1,64}?)-(?P<devpath>\d{1,3}(?:\.\d{1,3}){0,6}), (?P<rest>.*)$"
)


def _buses(text: str, devpath: str) -> set[str]:
    """The bus numbers of the log's "usb B-DEVPATH" devices with this port path."""
    found = re.findall(rf"\busb (\d{{1,3}})-{re.escape(devpath)}(?=[:\s])", text)
    return set(found)


def modern_register_lines(text: str) -> str:
    """`text` with each old usbnet register line that the log's USB lines place given the
    driver-and-device head of today's; the text itself when none is there."""
    if _NEEDLE not in text:
        return text
    lines = text.split("\n")
    changed = False
    for no, line in enumerate(lines):
        if _NEEDLE not in line:
            continue
        m = _OLD_RE.match(line)
        if m is None or _MODERN_TAIL_RE.search(m["pre"]):
            continue
        if len(buses := _buses(text, m["devpath"])) != 1:
            continue
        (bus,) = buses
        name, devpath = m["name"], m["devpath"]
        lines[no] = (
            f"{m['pre']}{name} {bus}-{devpath} {m['iface']}: register '{name}' at "
            f"usb-{m['host']}-{devpath}, {m['rest']}"
        )
        changed = True
    return "\n".join(lines) if changed else text
