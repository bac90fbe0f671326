"""Board-level findings without measurement: power/thermal flags and under-voltage lines, and
the kernel's "not running at top speed" for USB devices. Split from ``static`` (one concern:
the board and its buses rather than one NIC)."""

from __future__ import annotations

import re

from sbctune.advice.advisor import Advisor
from sbctune.advice.advisor import label as _label
from sbctune.advice.evidence import lines_matching
from sbctune.catalog import Chip
from sbctune.catalog.kernel_messages import explain
from sbctune.inventory.model import Nic, Throttled
from sbctune.wording import counted


def usb_device_resets(adv: Advisor) -> None:
    """A USB device the kernel reset again and again, when no NIC carries the finding itself
    (a paste whose log names the device only by its USB path)."""
    if not adv.parsed.dmesg_text:
        return
    seen: dict[str, list[str]] = {}
    for line in lines_matching(
        adv.parsed.dmesg_text, r"usb \S+: reset \S+ USB device", 200, ": reset "
    ):
        seen.setdefault(line.split("usb ", 1)[1].split(":", 1)[0], []).append(line)
    told = {f.nic for f in adv.inv.findings if f.id == "usb-reset"}
    for path, lines in seen.items():
        nic = next((n for n in adv.inv.nics if n.bus_path == path), None)
        if len(lines) < 2 or (nic is not None and _label(nic) in told):
            continue
        name = _label(nic) if nic else f"the USB device at {path}"
        adv.finding(
            "usb-reset",
            "warning",
            nic,
            f"The kernel reset {name} {counted(len(lines), 'time')}: a weak cable, hub or power "
            "supply, or a driver that cannot talk to the device.",
            lines[:2] + lines[-1:],
        )


# drivers/usb/core/hub.c port_event(): "over-current change #%u" (dev_dbg since 4.x; kernels
# before it printed "over-current change" at every level) and, when the port still reports it
# after power is restored, "over-current condition" (dev_err), on the port's device ("usb
# 1-1-port2") or the hub's ("hub 1-1:1.0"); 2.6's hub named the port in the words
_OVER_CURRENT = (
    r"(?:usb (?P<port>\S+?-port\d+)|hub (?P<hub>\S+)): over-current (?:change|condition)"
    r"(?: on port (?P<n>\d+))?"
)


def usb_over_current(adv: Advisor) -> None:
    """Ports the USB core reported over-current on: a device drew more than the port may
    give, or the board's over-current sensing misfires (a weak supply or a HAT); a port in
    over-current loses its power, and with it the devices below it (a USB NIC among them)."""
    if not adv.parsed.dmesg_text:
        return
    lines = lines_matching(adv.parsed.dmesg_text, _OVER_CURRENT, 200, ": over-current ")
    ports: list[str] = []
    for line in lines:
        m = re.search(_OVER_CURRENT, line)
        if m is None:
            continue
        port = m["port"] or (f"{m['hub'].split(':')[0]}-port{m['n']}" if m["n"] else m["hub"])
        ports += [port] if port not in ports else []
    if not ports:
        return
    below = [_port_path(p) for p in ports]
    nic = next(
        (n for n in adv.inv.nics for b in below if b and _below(n.bus_path, b)),
        None,
    )
    shown = ", ".join(ports[:4]) + (" ..." if len(ports) > 4 else "")
    adv.finding(
        "usb-over-current",
        "warning",
        nic,
        f"The USB core reported over-current {counted(len(lines), 'time')} on "
        f"{counted(len(ports), 'port')} ({shown}): a device draws more than the port may "
        "give, or the board's over-current sensing misfires (a weak supply, a HAT); a port "
        "in over-current is switched off with every device below it "
        "(printed by drivers/usb/core/hub.c port_event()).",
        lines[:2] + lines[-1:],
    )


def _below(path: str | None, port_path: str) -> bool:
    return path is not None and (path == port_path or path.startswith(port_path + "."))


def _port_path(port: str) -> str | None:
    """The USB path of the devices below a port: "1-1-port2" -> "1-1.2", "usb1-port1" -> "1-1"."""
    hub, sep, number = port.rpartition("-port")
    if not sep or not number.isascii() or not number.isdigit():
        return None
    if hub.startswith("usb") and hub[3:].isascii() and hub[3:].isdigit():
        return f"{hub[3:]}-{number}"
    return f"{hub}.{number}" if "-" in hub else None


def usb_below_top_speed(adv: Advisor) -> None:
    """The kernel's "not running at top speed": a device enumerated slower than it can go
    (a USB 3 adapter in a USB 2.0 port or hub; with "connect to a high speed hub", a USB 2.0
    device stuck at 12 Mbit/s full speed)."""
    if not adv.parsed.dmesg_text:
        return
    seen: dict[str, list[str]] = {}
    pattern = r"usb \S+: not running at top speed"
    for line in lines_matching(adv.parsed.dmesg_text, pattern, 50, ": not running at top speed"):
        path = line.split("usb ", 1)[1].split(":", 1)[0]
        seen.setdefault(path, []).append(line)
    for path, lines in seen.items():
        if any(f.id == "usb3-adapter-at-usb2" for f in adv.inv.findings):
            return  # lsusb -t already showed it, with the NIC named
        nic = next((n for n in adv.inv.nics if n.bus_path == path), None)
        full_speed = any("high speed hub" in line for line in lines)
        usb2 = adv.catalog.bus("usb2")
        practical = usb2.figure("practical_ethernet_mbps") if usb2 else None
        name = _label(nic) if nic else f"the USB device at {path}"
        adv.finding(
            "usb-below-top-speed" if full_speed else "usb3-adapter-at-usb2",
            "problem",
            nic,
            f"The kernel says {name} is not running at top speed: "
            + (
                "it runs at USB 1.1 full speed (12 Mbit/s)."
                if full_speed
                else "a USB 3 device connected at USB 2.0 speed (480 Mbit/s)."
            ),
            lines[:2],
        )
        adv.recommend(
            "cable",
            nic,
            "Connect it at USB 2.0 speed" if full_speed else "Move the adapter to a USB 3 port",
            (
                "Plug it straight into a blue USB 3 port (not through a USB 2.0 hub, "
                "extension or a USB-C adapter plugged the wrong way round)."
                if not full_speed
                else "Plug it into a USB 2.0 port directly, not through a USB 1.1 hub; on a "
                "Pi check that cmdline.txt does not force dwc_otg.speed=1."
            ),
            (
                f"from at most ~{practical.value:g} Mbit/s (USB 2.0) to the adapter's full speed"
                if practical and not full_speed
                else "from ~12 Mbit/s to USB 2.0 speed"
            ),
            (["bbqq-r8152-58"] + ([practical.source] if practical else [])),
            None,
            None,
            evidence=lines[:2],
        )


# The x86 CPUs' thermal interrupt: drivers/thermal/intel/therm_throt.c throttle_active_work()
# pr_warn("CPU%d: %s temperature is above threshold, cpu clock is throttled (total events =
# %lu)\n", ..., "Core" or "Package", ...) in 6.1 and 6.12; kernels before 5.5
# (arch/x86/kernel/cpu/mcheck/therm_throt.c) printed "temperature above threshold, cpu clock
# throttled". Both hold the needle.
_HOT = r"CPU\d+: (?:Core|Package) temperature (?:is )?above threshold, cpu clock (?:is )?throttled"
_HOT_NEEDLE = "above threshold, cpu clock"


def power(adv: Advisor) -> None:
    t = adv.inv.board.throttled
    text = adv.parsed.dmesg_text
    dmesg_lines = lines_matching(text, r"[Uu]nder-?voltage", 2, "voltage") if text else []
    hot_lines = lines_matching(text, _HOT, 2, _HOT_NEEDLE) if text else []
    if (t is None or not (t.any_now or t.any_since_boot)) and not (dmesg_lines or hot_lines):
        return
    now = t is not None and t.any_now
    what = _power_troubles(t)
    if dmesg_lines and "under-voltage" not in what:
        what.append("under-voltage")
    if hot_lines:
        what.append("CPU thermal throttling")
    evidence = ([f"throttled={t.raw}"] if t is not None else []) + dmesg_lines + hot_lines
    cited = explain("under_voltage")
    adv.finding(
        "under-voltage" if "under-voltage" in what else "power-or-thermal",
        "problem" if now else "warning",
        None,
        f"The board reports {', '.join(what)} {'now' if now else 'since boot'}: the CPU "
        "slows down and network throughput with it"
        + (f" (the kernel's line is printed by {cited.source})" if dmesg_lines and cited else "")
        + (
            " (the CPU's thermal interrupt, drivers/thermal/intel/therm_throt.c: too hot, not "
            "the network's fault)"
            if hot_lines
            else ""
        )
        + ".",
        evidence,
    )
    _power_remedies(adv, what)


def _power_troubles(t: Throttled | None) -> list[str]:
    """What `vcgencmd get_throttled` reports, now or since boot, in words."""
    if t is None:
        return []
    flags = [
        (t.under_voltage or t.under_voltage_occurred, "under-voltage"),
        (t.frequency_capped or t.frequency_capped_occurred, "frequency capping"),
        (t.throttled or t.throttled_occurred, "throttling"),
        (t.soft_temp_limit or t.soft_temp_limit_occurred, "soft temperature limit"),
    ]
    return [words for on, words in flags if on]


def _power_remedies(adv: Advisor, what: list[str]) -> None:
    """A stronger supply for under-voltage, cooling for heat."""
    if "under-voltage" in what:
        adv.recommend(
            "power",
            None,
            "Use a stronger power supply",
            "Use the official power supply for this model (Pi 4: 5.1 V 3 A; "
            "Pi 5: 5.1 V 5 A) and a short, thick cable; unpower hungry USB devices.",
            "full CPU clock under load",
            ["rpi-doc-hardware"],
        )
    if "CPU thermal throttling" in what:
        adv.recommend(
            "power",
            None,
            "Cool the CPU",
            "The CPU cut its clock because it ran above its temperature threshold: clean the "
            "fan and heatsink, give the case air, and check that its fans spin.",
            "full CPU clock under load",
            ["linux-therm-throt"],
        )
    elif {"soft temperature limit", "throttling"} & set(what):
        adv.recommend(
            "power",
            None,
            "Cool the Pi",
            "Add a heatsink or fan; the CPU clocks down when it gets hot.",
            "full CPU clock under load",
            ["rpi-doc-hardware"],
        )


def usb3_named_at_usb2(adv: Advisor, nic: Nic) -> None:
    """A USB NIC the catalog has no figures for, whose name says 2.5G/5G (a USB 3 chip), at
    480 Mbit/s or less (the kernel's "new high-speed USB device", `480M` in `lsusb -t`)."""
    if any(f.id == "usb3-adapter-at-usb2" and f.nic == _label(nic) for f in adv.inv.findings):
        return
    evidence = [e.split(": ", 1)[-1] for e in nic.evidence if "480" in e or "high-speed" in e]
    adv.finding(
        "usb3-adapter-at-usb2",
        "problem",
        nic,
        f"The {nic.chip} is a USB 3 adapter but runs at {nic.usb_speed_mbps} Mbit/s "
        "(USB 2.0): it is in a USB 2.0 port or behind a USB 2.0 hub.",
        evidence[:2],
    )
    adv.recommend(
        "cable",
        nic,
        "Move the adapter to a USB 3 port",
        "Plug it straight into a USB 3 port (not through a USB 2.0 hub or extension).",
        "from at most ~480 Mbit/s (USB 2.0) to the adapter's full speed",
        ["rpi-doc-usb"],
        evidence=evidence[:2],
    )


def best_figure(
    chip: Chip, board: str | None, direction: str, test: str = "half_duplex"
) -> float | None:
    values = [
        m.value_mbps
        for m in chip.measurements
        if m.direction == direction and m.test == test and (board is None or m.board == board)
    ]
    return max(values) if values else None


def better_adapter(
    adv: Advisor, nic: Nic, chip: Chip, board: str | None, tx: float, tx_source: str
) -> None:
    best: tuple[float, Chip, str] | None = None
    for other in adv.catalog.nics:
        if other.id == chip.id or other.bus != chip.bus:
            continue
        value = best_figure(other, board, "pi_to_peer")
        if value and value > tx * 1.05 and (best is None or value > best[0]):
            source = next(m.source for m in other.measurements if m.value_mbps == value)
            best = (value, other, source)
    if best is None:
        return
    value, other, source = best
    adv.recommend(
        "adapter",
        nic,
        f"Use a {other.name}-based adapter instead",
        f"On this board a {other.name} adapter ({', '.join(other.drivers.in_tree)}) "
        f"was measured sending at {value:g} Mbit/s where the {chip.name} reached "
        f"{tx:g}.",
        f"Pi→PC from ~{tx:g} to ~{value:g} Mbit/s",
        [tx_source, source],
        value - tx,
        value - tx,
    )


def unowned_phy_failures(adv: Advisor) -> None:
    """A PHY the kernel could not find or attach, printed by a line that names no NIC (cpsw's
    'phy "/ocp/.../ethernet-phy@0" not found on slave 0', libphy's "PHY stmmac-0:03 not found"),
    when no NIC carries the finding itself: said once, for the board."""
    dmesg = adv.parsed.dmesg
    if dmesg is None or any(f.id == "phy-attach-failure" for f in adv.inv.findings):
        return
    lines = [e.text for e in dmesg.of_kind("phy_failure")[:3]]
    if not lines:
        return
    explanation = explain("phy_failure")
    cited = f" (printed by {explanation.source})" if explanation else ""
    adv.finding(
        "phy-attach-failure",
        "problem",
        None,
        "The kernel could not find or attach an Ethernet PHY, on a line that names no interface"
        f"{cited}: that port cannot link. Check the device tree's phy-handle/phy-mode and PHY "
        "address for this board and kernel, and the PHY's reset and power.",
        lines,
    )
