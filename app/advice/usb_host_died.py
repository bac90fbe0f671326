"""A USB host controller the kernel declared dead: every device on its buses, USB NICs among
them, is gone until the controller is reset (a reboot, or unbinding and binding its driver).

The kernel says so in two lines, both at error level and alike in 6.1 and 6.12:
drivers/usb/core/hcd.c usb_hc_died() `dev_err(hcd->self.controller, "HC died; cleaning up\\n")`
(any host controller driver's, called by the PCI glue or the platform glue), and before it,
for xHCI, drivers/usb/host/xhci-ring.c xhci_hc_died() `xhci_err(xhci, "xHCI host controller
not responding, assume dead\\n")`. Both name the controller's device ("xhci_hcd 0000:01:00.0",
"xhci-hcd xhci-hcd.0.auto"). A controller dies when it stops answering: a Host System Error, a
command that times out (-110), often after a device's surge or a weak supply browns the bus
out, so the reader's cause is power or the bus, not the NIC's driver.

hcd.c usb_add_hcd() names the buses a controller drives ("DEV: new USB bus registered,
assigned bus number N"); where the log shows that, the USB NICs on those buses carry the
finding, otherwise the board does.
"""

from __future__ import annotations

from sbctune.advice.advisor import Advisor
from sbctune.advice.advisor import label as _label
from sbctune.advice.evidence import lines_with, quote
from sbctune.inventory.model import Nic

# The two lines' own words, in the order the kernel prints them (xhci_hc_died() calls
# usb_hc_died()).
_DIED = ("xHCI host controller not responding, assume dead", "HC died; cleaning up")
_BUS = ": new USB bus registered, assigned bus number "
_LIMIT = 200  # lines read per kind; a log repeating them says no more


def usb_controllers_died(adv: Advisor) -> None:
    """The usb-controller-died finding, once per dead controller (the module docstring)."""
    text = adv.parsed.dmesg_text
    if not text or not any(needle in text for needle in _DIED):
        return
    died: dict[str, list[str]] = {}
    for needle in _DIED:
        for line in lines_with(text, needle, _LIMIT):
            died.setdefault(_device_before(line, needle), []).append(line)
    buses = _buses(text) if _BUS in text else {}
    for device, lines in died.items():
        nics = [n for n in adv.inv.nics if _on_buses(n, buses.get(device, set()))]
        names = ", ".join(_label(n) for n in nics)
        where = f" ({names} on it)" if nics else ""
        adv.finding(
            "usb-controller-died",
            "problem",
            nics[0] if len(nics) == 1 else None,
            f"The kernel declared the USB host controller {device or ''}".rstrip()
            + f" dead{where}: every device on its buses is gone until a reboot. A controller "
            "stops answering after a brown-out (a device's surge, a weak supply or cable) or a "
            "hardware fault; the NIC's driver is not the cause (printed by "
            "drivers/usb/core/hcd.c usb_hc_died() and drivers/usb/host/xhci-ring.c "
            "xhci_hc_died()).",
            [quote(line) for line in list(dict.fromkeys(lines))[:3]],  # a log repeats them
        )
    adv.recommend(
        "power",
        None,
        "Give the USB devices steady power",
        "Use the board's official or a stronger supply with a short, thick cable, and power "
        "hungry USB devices (disks, modems, several adapters) from a powered hub; then reboot to "
        "bring the dead controller back.",
        "USB NICs that stay up under load",
        ["linux-usb-hc-died", "rpi-doc-power-supplies", "rpi-doc-usb"],
        evidence=[quote(lines[0]) for lines in died.values()],
    )


def _device_before(line: str, needle: str) -> str:
    """The device the line names before its words: "xhci_hcd 0000:01:00.0: HC died" ->
    "0000:01:00.0"; "" when the words stand alone."""
    head = line[: line.find(needle)].rstrip()
    if not head.endswith(":"):
        return ""
    words = head[:-1].split()
    return words[-1] if len(words) >= 2 else ""


def _buses(text: str) -> dict[str, set[int]]:
    """Each controller's bus numbers, from usb_add_hcd()'s registration lines."""
    found: dict[str, set[int]] = {}
    for line in lines_with(text, _BUS, _LIMIT):
        head, _, number = line.partition(_BUS)
        digits = number.strip().split()[0] if number.strip() else ""
        words = head.split()
        if digits.isascii() and digits.isdigit() and len(words) >= 2:
            found.setdefault(words[-1], set()).add(int(digits))
    return found


def _on_buses(nic: Nic, buses: set[int]) -> bool:
    """Whether a USB NIC's port path ("2-1.3") is on one of the buses."""
    if nic.bus != "usb" or not nic.bus_path or not buses:
        return False
    number = nic.bus_path.split("-", 1)[0]
    return number.isascii() and number.isdigit() and int(number) in buses
