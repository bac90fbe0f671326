"""The models behind the lab's knob file system (``knobs_fs``): the kernel's mask and list
formats, a cpufreq policy, an IRQ's affinity, an RPS/XPS queue map, and the tree of files that
serves them. Each write fails the way the kernel's does (an OSError with the kernel's errno)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

ReadFn = Callable[[], str]
WriteFn = Callable[[str], None]


def kernel_error(code: int) -> OSError:
    """The error a refused write gets, as the kernel's (errno and its text)."""
    return OSError(code, os.strerror(code))


# --------------------------------------------------------------------------- kernel formats


def format_mask(mask: int, nbits: int) -> str:
    """A CPU mask as the kernel prints it (``%*pb``): hex, 32-bit groups joined by commas."""
    chunk = nbits % 32 or 32
    start = ((nbits + 31) // 32) * 32 - 32
    parts = []
    while start >= 0:
        value = (mask >> start) & ((1 << chunk) - 1)
        parts.append(f"{value:0{(chunk + 3) // 4}x}")
        chunk = 32
        start -= 32
    return ",".join(parts)


def format_list(mask: int) -> str:
    """A CPU mask as the kernel prints a list (``%*pbl``): ``0-3`` or ``0,2``."""
    cpus = [i for i in range(mask.bit_length()) if mask >> i & 1]
    ranges: list[str] = []
    i = 0
    while i < len(cpus):
        j = i
        while j + 1 < len(cpus) and cpus[j + 1] == cpus[j] + 1:
            j += 1
        ranges.append(str(cpus[i]) if i == j else f"{cpus[i]}-{cpus[j]}")
        i = j + 1
    return ",".join(ranges)


def parse_mask(text: str, nbits: int) -> int:
    """Parse a hex mask like the kernel's bitmap_parse: EINVAL if garbled, EOVERFLOW if too wide."""
    text = text.strip()
    if not text:
        return 0
    value = 0
    for group in text.split(","):
        group = group.strip()
        if not group or len(group) > 8:
            raise kernel_error(errno.EOVERFLOW if len(group) > 8 else errno.EINVAL)
        try:
            part = int(group, 16)
        except ValueError:
            raise kernel_error(errno.EINVAL) from None
        value = (value << 32) | part
    if value >> nbits:
        raise kernel_error(errno.EOVERFLOW)
    return value


def parse_list(text: str, nbits: int) -> int:
    """Parse a CPU list like ``0-3`` or ``1,3`` (bitmap_parselist): EINVAL / ERANGE."""
    text = text.strip()
    value = 0
    if not text:
        return 0
    for item in text.split(","):
        lo_text, _, hi_text = item.strip().partition("-")
        try:
            lo = int(lo_text, 10)
            hi = int(hi_text, 10) if hi_text else lo
        except ValueError:
            raise kernel_error(errno.EINVAL) from None
        if lo > hi:
            raise kernel_error(errno.EINVAL)
        if hi >= nbits:
            raise kernel_error(errno.ERANGE)
        for cpu in range(lo, hi + 1):
            value |= 1 << cpu
    return value


# --------------------------------------------------------------------------- the models


@dataclass
class CpuFreq:
    cpus: int
    governors: list[str]
    governor: str
    min_khz: int
    max_khz: int
    scaling_min: int = 0
    scaling_max: int = 0
    setspeed: int = 0
    # governors built as modules: not listed until a write loads them (request_module)
    modules: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.scaling_min = self.scaling_min or self.min_khz
        self.scaling_max = self.scaling_max or self.max_khz
        self.setspeed = self.setspeed or self.scaling_min

    def cur(self) -> int:
        if self.governor == "performance":
            return self.scaling_max
        if self.governor == "userspace":
            return min(max(self.setspeed, self.scaling_min), self.scaling_max)
        return self.scaling_min  # powersave, and the dynamic governors while idle

    def set_governor(self, text: str) -> None:
        """store_scaling_governor (drivers/cpufreq/cpufreq.c, 6.1 and 6.12): the first word,
        at most 15 characters (sscanf "%15s"), matched without case (find_governor's
        strncasecmp); a governor not registered is loaded by cpufreq_parse_governor's
        request_module("cpufreq_%s") and then listed; none -> EINVAL."""
        words = text.split()
        name = words[0][:15].lower() if words else ""
        known = {g.lower(): g for g in self.governors}
        if name not in known:
            loadable = {m.lower(): m for m in self.modules}
            if name not in loadable:
                raise kernel_error(errno.EINVAL)
            self.governors.append(loadable[name])
            known[name] = loadable[name]
        self.governor = known[name]

    def _khz(self, text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise kernel_error(errno.EINVAL) from None
        if value < 0:
            raise kernel_error(errno.EINVAL)
        return min(max(value, self.min_khz), self.max_khz)

    def set_min(self, text: str) -> None:
        self.scaling_min = min(self._khz(text), self.scaling_max)

    def set_max(self, text: str) -> None:
        self.scaling_max = max(self._khz(text), self.scaling_min)

    def set_speed(self, text: str) -> None:
        if self.governor != "userspace":
            raise kernel_error(errno.EINVAL)
        self.setspeed = self._khz(text)

    def read_speed(self) -> str:
        return str(self.setspeed) if self.governor == "userspace" else "<unsupported>"


@dataclass
class Irq:
    number: int
    cpus: int
    refuse: bool
    refuse_errno: int = errno.EINVAL  # the chip's and kernel's (lab.irq_refusal)
    mask: int = 0

    def __post_init__(self) -> None:
        self.mask = self.mask or (1 << self.cpus) - 1

    def effective(self) -> int:
        low = self.mask & -self.mask
        return low or 1

    def _apply(self, mask: int) -> None:
        if self.refuse:
            raise kernel_error(self.refuse_errno)
        if not mask & ((1 << self.cpus) - 1):
            raise kernel_error(errno.EINVAL)
        self.mask = mask

    def write_mask(self, text: str) -> None:
        self._apply(parse_mask(text, self.cpus))

    def write_list(self, text: str) -> None:
        self._apply(parse_list(text, self.cpus))


@dataclass
class QueueMap:
    """rps_cpus / xps_cpus of one veth queue, written through to the real sysfs file."""

    cpus: int
    host_cpus: int
    real_fd: int | None
    enoent: bool = False
    mask: int = 0
    # an RPS map's CPUs: the kernel's housekeeping ones (store_rps_map, 6.12
    # rps_cpumask_housekeeping: a mask is cut to them, EINVAL if that empties it); None: XPS
    housekeeping: int | None = None

    def read(self) -> str:
        if self.enoent:
            raise kernel_error(errno.ENOENT)
        return format_mask(self.mask, self.cpus) + "\n"

    def write(self, text: str) -> None:
        if self.enoent:
            raise kernel_error(errno.ENOENT)
        mask = parse_mask(text, self.cpus)
        if self.housekeeping is not None and mask:
            mask &= self.housekeeping
            if not mask:
                raise kernel_error(errno.EINVAL)
        if self.real_fd is not None:
            host_mask = mask & ((1 << self.host_cpus) - 1)
            try:
                os.lseek(self.real_fd, 0, os.SEEK_SET)
                os.write(self.real_fd, f"{host_mask:x}\n".encode())
            except OSError as exc:
                raise kernel_error(exc.errno or errno.EIO) from exc
        self.mask = mask


# --------------------------------------------------------------------------- the tree


@dataclass
class Node:
    kind: str  # "dir" | "file" | "link"
    mode: int = 0o444
    read: ReadFn | None = None
    write: WriteFn | None = None
    target: str = ""
    children: dict[str, Node] = field(default_factory=dict)


class Tree:
    def __init__(self) -> None:
        self.root = Node("dir", 0o755)
        self.on_change: Callable[[], None] | None = None
        """Called after every successful write (the knob state file for the lab's shaper)."""
        self.before_lookup: list[Callable[[], None]] = []
        """Called before every lookup (the IRQ folders following /proc/interrupts)."""

    def _dir(self, parts: Iterable[str]) -> Node:
        node = self.root
        for part in parts:
            node = node.children.setdefault(part, Node("dir", 0o755))
        return node

    def add_file(
        self, path: str, read: ReadFn, write: WriteFn | None = None, mode: int | None = None
    ) -> None:
        *dirs, name = path.strip("/").split("/")
        default = 0o644 if write else 0o444
        self._dir(dirs).children[name] = Node(
            "file", default if mode is None else mode, read, write
        )

    def add_link(self, path: str, target: str) -> None:
        *dirs, name = path.strip("/").split("/")
        self._dir(dirs).children[name] = Node("link", 0o777, target=target)

    def lookup(self, path: str) -> Node:
        for hook in self.before_lookup:
            hook()
        node = self.root
        for part in (p for p in path.split("/") if p):
            child = node.children.get(part)
            if child is None:
                raise kernel_error(errno.ENOENT)
            node = child
        return node
