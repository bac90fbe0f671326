"""``/proc/interrupts``, ``/proc/softirqs`` and the cpu lines of ``/proc/stat``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from sbctune.limits import MAX_IRQ_LINES
from sbctune.wording import grouped

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines

_CPU_HEADER_RE = re.compile(r"^\s*(?:CPU\d+\s*)+$")
_IRQ_LINE_RE = re.compile(r"^\s*([A-Za-z0-9_]+):(.*)$")
# The controller ends on a non-blank: a try starts only where a run of blanks starts, so a
# long line is about one pass, not a retry from every blank (Python 3.10 has no possessive
# quantifiers; none is needed then).
_NEW_STYLE_RE = re.compile(
    r"^(?P<ctrl>.*?\S)\s+(?P<hwirq>\d+)\s+(?P<trig>Level|Edge)\s*(?P<names>.*)$"
)
_X86_STYLE_RE = re.compile(
    r"^(?P<ctrl>.*?\S)\s+(?P<hwirq>\d+)-(?P<trig>[A-Za-z]+)\s*(?P<names>.*)$"
)
_TOKEN_RE = re.compile(r"\s*\S+")
# A USB host controller's interrupt as usb_add_hcd names it: "<hc_driver.description>:usb<busnum>"
# (drivers/usb/core/hcd.c usb_hcd_request_irqs, 6.1 and 6.12): xhci-hcd:usb1, ehci_hcd:usb3,
# dwc2_hsotg:usb1, dwc_otg_hcd:usb1.
_HCD_NAME_RE = re.compile(r"^(?P<hc>[A-Za-z0-9_.\-]+):usb(?P<bus>\d+)$")
# A line of 1024 CPUs' counts is about 12 KB; a longer one is not /proc/interrupts.
_MAX_LINE = 64 * 1024


@dataclass
class Irq:
    irq: str  # "46", "IPI0", "Err", "FIQ", "NMI"...
    counts: list[int] = field(default_factory=list)
    controller: str | None = None
    hwirq: str | None = None
    trigger: str | None = None
    names: list[str] = field(default_factory=list)
    description: str | None = None  # for IPI/LOC/... lines: the text after the counts
    line: str = ""  # the line as read (evidence)

    @property
    def number(self) -> int | None:
        return int(self.irq) if (self.irq.isascii() and self.irq.isdigit()) else None

    @property
    def total(self) -> int:
        return sum(self.counts)


@dataclass
class Interrupts:
    cpus: int | None = None  # from the CPU header; None when the header is missing
    irqs: list[Irq] = field(default_factory=list)
    # Look-ups by IRQ and by handler name, made once: one scan per IRQ asked for made a
    # 20 000-line /proc/interrupts take minutes (rebuilt when irqs grew since).
    _by_irq: dict[str, Irq] = field(default_factory=dict, init=False, repr=False, compare=False)
    _by_name: dict[str, list[int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _by_bus: dict[int, list[tuple[str, int]]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    _indexed: int = field(default=-1, init=False, repr=False, compare=False)

    def _index(self) -> None:
        if self._indexed == len(self.irqs):
            return
        self._by_irq, self._by_name, self._by_bus = {}, {}, {}
        for irq in self.irqs:
            self._by_irq.setdefault(irq.irq, irq)
            if irq.number is not None:
                for name in dict.fromkeys(n.rstrip(",") for n in irq.names):
                    self._by_name.setdefault(name, []).append(irq.number)
                    hcd = _HCD_NAME_RE.match(name)
                    if hcd:
                        entry = (hcd.group("hc"), irq.number)
                        self._by_bus.setdefault(int(hcd.group("bus")), []).append(entry)
        self._indexed = len(self.irqs)

    def get(self, irq: str | int) -> Irq | None:
        self._index()
        return self._by_irq.get(str(irq))

    def numbers_named(self, name: str) -> list[int]:
        """The IRQ numbers with a handler called exactly ``name`` (e.g. ``xhci_hcd``)."""
        self._index()
        return list(self._by_name.get(name, ()))

    def host_controller_irqs(self, bus: int | None) -> list[int]:
        """The IRQs of the USB host controller that runs USB bus `bus` (every host controller's
        when the bus is not known): the one usb_add_hcd named "...:usb<bus>", else, for the
        second root hub of an xHCI (USB 3 devices: usb_add_hcd requests the interrupt for the
        primary HCD only, registered first, so one bus number lower), "xhci...:usb<bus - 1>"."""
        self._index()
        if bus is None:
            return sorted({n for entries in self._by_bus.values() for _, n in entries})
        own = [n for _, n in self._by_bus.get(bus, [])]
        if own:
            return own
        return [n for hc, n in self._by_bus.get(bus - 1, []) if hc.startswith("xhci")]

    def find(self, name: str) -> list[Irq]:
        """IRQs with a handler name containing ``name`` (e.g. ``eth0``, ``xhci``)."""
        return [i for i in self.irqs if any(name in n for n in i.names)]


def parse_interrupts(text: str) -> Parsed[Interrupts]:
    """``/proc/interrupts`` (also grep'ed lines without the header)."""
    return guarded("/proc/interrupts", _parse_interrupts, text, Interrupts)


def _split_desc(irq: Irq, rest: str) -> None:
    rest = rest.strip()
    if not rest:
        return
    if not (irq.irq.isascii() and irq.irq.isdigit()):
        irq.description = rest
        return
    m = _NEW_STYLE_RE.match(rest) or _X86_STYLE_RE.match(rest)
    if m:
        irq.controller = m.group("ctrl").strip()
        irq.hwirq = m.group("hwirq")
        irq.trigger = m.group("trig").lower()
        names = m.group("names")
    else:  # old ARM: "GIC  eth0", "ARMCTRL  BCM2708 Timer Tick"
        parts = rest.split(None, 1)
        irq.controller = parts[0]
        names = parts[1] if len(parts) > 1 else ""
        # kernel/irq/proc.c show_interrupts() (6.1/6.12): the chip's name, " %*lu" of the
        # hwirq when the IRQ has a domain, the trigger only with CONFIG_GENERIC_IRQ_SHOW_LEVEL,
        # then "  %s" of each action's name: "armada_370_xp_irq  10  mvneta" (an ARM kernel
        # without SHOW_LEVEL) is hwirq 10 of a line named "mvneta", not a name "10  mvneta"
        number, _, after = names.partition(" ")
        if number.isascii() and number.isdigit() and after.strip():
            irq.hwirq, names = number, after
    irq.names = [n.strip() for n in names.split(", ") if n.strip()]


def _parse_interrupts(text: str) -> Parsed[Interrupts]:
    res = Interrupts()
    bad = 0
    warnings: list[ParseWarning] = []
    for line in split_lines(text):
        if is_noise(line):
            continue
        if len(res.irqs) >= MAX_IRQ_LINES:
            warnings.append(ParseWarning("/proc/interrupts", (
                f"more than {grouped(MAX_IRQ_LINES)} interrupt lines; only the first"
                f" {grouped(MAX_IRQ_LINES)}"
                " were read (a real system has a few hundred)"
            )))  # fmt: skip
            break
        if _CPU_HEADER_RE.match(line):
            res.cpus = len(line.split())
            continue
        m = _IRQ_LINE_RE.match(line) if len(line) <= _MAX_LINE else None
        if not m:
            bad += 1
            continue
        irq = Irq(irq=m.group(1), line=line)
        tokens = m.group(2).split()
        limit = res.cpus if res.cpus is not None else len(tokens)
        i = 0
        while i < len(tokens) and i < limit and (tokens[i].isascii() and tokens[i].isdigit()):
            irq.counts.append(int(tokens[i]))
            i += 1
        if not irq.counts and (irq.irq.isascii() and irq.irq.isdigit()):
            bad += 1
            continue
        rest = m.group(2)
        # cut the counts off the original text to keep the spacing of the names (one pass:
        # re-slicing the rest once per count made a long line quadratic)
        position = 0
        for _ in range(i):
            found = _TOKEN_RE.match(rest, position)
            position = found.end() if found else len(rest)
        _split_desc(irq, rest[position:])
        res.irqs.append(irq)
    return res, finish("/proc/interrupts", text, len(res.irqs), bad, warnings)


# --- /proc/softirqs ---------------------------------------------------------------------


@dataclass
class Softirqs:
    cpus: int | None = None
    counts: dict[str, list[int]] = field(default_factory=dict)

    @property
    def net_rx(self) -> list[int]:
        return self.counts.get("NET_RX", [])

    @property
    def net_tx(self) -> list[int]:
        return self.counts.get("NET_TX", [])


def parse_softirqs(text: str) -> Parsed[Softirqs]:
    """``/proc/softirqs``: per-CPU counts per softirq (NET_RX, NET_TX, ...)."""
    return guarded("/proc/softirqs", _parse_softirqs, text, Softirqs)


def _parse_softirqs(text: str) -> Parsed[Softirqs]:
    res = Softirqs()
    bad = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        if _CPU_HEADER_RE.match(line):
            res.cpus = len(line.split())
            continue
        m = re.match(r"^\s*([A-Z_]+):\s*([\d\s]*)$", line)
        if not m or not m.group(2).strip():
            bad += 1
            continue
        res.counts[m.group(1)] = [int(x) for x in m.group(2).split()]
    return res, finish("/proc/softirqs", text, len(res.counts), bad)


# --- /proc/stat -------------------------------------------------------------------------

_STAT_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")


@dataclass(frozen=True)
class CpuTimes:
    """Jiffies (USER_HZ ticks) per state, as in /proc/stat."""

    user: int = 0
    nice: int = 0
    system: int = 0
    idle: int = 0
    iowait: int = 0
    irq: int = 0
    softirq: int = 0
    steal: int = 0

    @property
    def total(self) -> int:
        return sum(getattr(self, f) for f in _STAT_FIELDS)

    @property
    def busy(self) -> int:
        return self.total - self.idle - self.iowait


@dataclass
class ProcStat:
    total: CpuTimes | None = None
    cpus: dict[int, CpuTimes] = field(default_factory=dict)


_STAT_OTHER = {"intr", "ctxt", "btime", "processes", "procs_running", "procs_blocked", "softirq"}


def parse_proc_stat(text: str) -> Parsed[ProcStat]:
    """The ``cpu``/``cpuN`` lines of ``/proc/stat``."""
    return guarded("/proc/stat", _parse_proc_stat, text, ProcStat)


def _parse_proc_stat(text: str) -> Parsed[ProcStat]:
    res = ProcStat()
    bad = found = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        parts = line.split()
        key = parts[0]
        m = re.match(r"^cpu(\d*)$", key)
        if m:
            nums = [int(x) for x in parts[1:] if (x.isascii() and x.isdigit())]
            if len(nums) < 4:
                bad += 1
                continue
            nums += [0] * (len(_STAT_FIELDS) - len(nums))
            times = CpuTimes(**dict(zip(_STAT_FIELDS, nums[: len(_STAT_FIELDS)], strict=True)))
            if m.group(1):
                res.cpus[int(m.group(1))] = times
            else:
                res.total = times
            found += 1
        elif key not in _STAT_OTHER:
            bad += 1
    return res, finish("/proc/stat", text, found, bad)
