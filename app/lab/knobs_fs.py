"""The lab's kernel knobs as a small FUSE file system, so writes fail the way the kernel's do.

Trees (bind-mounted inside the lab's mount namespace by ``nsinit``):

- ``cpu/``  -> ``/sys/devices/system/cpu``: online/possible/present, ``cpuN/cpufreq`` (a link to
  ``cpufreq/policy0``, one policy shared by all CPUs as on a Raspberry Pi) with a writable
  ``scaling_governor`` (an unknown governor -> EINVAL), min/max/cur frequencies;
- ``irq/``  -> ``/proc/irq``: ``N/smp_affinity`` (+ ``_list``, ``effective_affinity``) for the
  IRQs of the captured /proc/interrupts; a mask without an online CPU -> EINVAL, and IRQs the
  profile marks as refusing (the Pi's xhci_hcd MSI) answer every write with EINVAL;
- ``net/IFACE/QUEUE/{rps_cpus,xps_cpus}`` -> over the veth's real queue files: masks are
  checked against the profile's CPU count and the bits this host has are written through to
  the real file, so RPS/XPS act for real; ``xps_enoent`` interfaces answer ENOENT like a
  single-queue driver;
- ``sysctl/net/core/NAME`` ... -> lab-private copies of the sysctls a network namespace does
  not make private (see ``sysctls``), bind-mounted over /proc/sys/net/... by ``nsinit``;
- ``power/firmware/get_throttled`` -> ``/sys/devices/platform/soc/soc:firmware`` and
  ``power/thermal_zone0/{temp,type}`` -> ``/sys/class/thermal/thermal_zone0``: read-only, as on
  a Pi, with the values of the lab's ``power.json`` at each read (see ``power``), so a test can
  change them mid-run from the host.

After every accepted write the knob state goes to ``knob_state`` (a JSON file in the lab's
state dir) for the lab's shaper (tweak effects).

Run as ``python -m sbctune.lab.knobs_fs CONFIG.json MOUNTPOINT`` (root; mounted allow_other so
the ``pi`` user can read, with kernel permission checks so only root can write).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import stat
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("sbctune.lab.knobs_fs")

ReadFn = Callable[[], str]
WriteFn = Callable[[str], None]


def _fail(code: int) -> OSError:
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
            raise _fail(errno.EOVERFLOW if len(group) > 8 else errno.EINVAL)
        try:
            part = int(group, 16)
        except ValueError:
            raise _fail(errno.EINVAL) from None
        value = (value << 32) | part
    if value >> nbits:
        raise _fail(errno.EOVERFLOW)
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
            raise _fail(errno.EINVAL) from None
        if lo > hi:
            raise _fail(errno.EINVAL)
        if hi >= nbits:
            raise _fail(errno.ERANGE)
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
        name = text.strip()
        if name not in self.governors:
            raise _fail(errno.EINVAL)
        self.governor = name

    def _khz(self, text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise _fail(errno.EINVAL) from None
        if value < 0:
            raise _fail(errno.EINVAL)
        return min(max(value, self.min_khz), self.max_khz)

    def set_min(self, text: str) -> None:
        self.scaling_min = min(self._khz(text), self.scaling_max)

    def set_max(self, text: str) -> None:
        self.scaling_max = max(self._khz(text), self.scaling_min)

    def set_speed(self, text: str) -> None:
        if self.governor != "userspace":
            raise _fail(errno.EINVAL)
        self.setspeed = self._khz(text)

    def read_speed(self) -> str:
        return str(self.setspeed) if self.governor == "userspace" else "<unsupported>"


@dataclass
class Irq:
    number: int
    cpus: int
    refuse: bool
    mask: int = 0

    def __post_init__(self) -> None:
        self.mask = self.mask or (1 << self.cpus) - 1

    def effective(self) -> int:
        low = self.mask & -self.mask
        return low or 1

    def _apply(self, mask: int) -> None:
        if self.refuse or not mask & ((1 << self.cpus) - 1):
            raise _fail(errno.EINVAL)
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

    def read(self) -> str:
        if self.enoent:
            raise _fail(errno.ENOENT)
        return format_mask(self.mask, self.cpus) + "\n"

    def write(self, text: str) -> None:
        if self.enoent:
            raise _fail(errno.ENOENT)
        mask = parse_mask(text, self.cpus)
        if self.real_fd is not None:
            host_mask = mask & ((1 << self.host_cpus) - 1)
            try:
                os.lseek(self.real_fd, 0, os.SEEK_SET)
                os.write(self.real_fd, f"{host_mask:x}\n".encode())
            except OSError as exc:
                raise _fail(exc.errno or errno.EIO) from exc
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
        node = self.root
        for part in (p for p in path.split("/") if p):
            child = node.children.get(part)
            if child is None:
                raise _fail(errno.ENOENT)
            node = child
        return node


def _const(text: str) -> ReadFn:
    return lambda: text


def knob_state(freq: CpuFreq, queues: list[tuple[str, QueueMap]]) -> dict[str, Any]:
    """What the lab's shaper needs to decide on tweak effects (see effects.condition_holds)."""
    # Under load a dynamic governor runs at the top of its range; powersave at the bottom.
    if freq.governor == "powersave":
        load = freq.scaling_min
    elif freq.governor == "userspace":
        load = freq.cur()
    else:
        load = freq.scaling_max
    state: dict[str, Any] = {
        "governor": freq.governor,
        "scaling_max_khz": freq.scaling_max,
        "load_khz": load,
        "rps": {},
        "xps": {},
    }
    for path, qmap in queues:
        _, iface, _queue, knob = path.split("/")
        kind = "rps" if knob == "rps_cpus" else "xps"
        if not qmap.enoent:
            state[kind].setdefault(iface, []).append(qmap.mask)
    return state


def build_tree(config: dict[str, Any]) -> Tree:
    """Build the knob tree from the lab's knobs config (see manager.knobs_config)."""
    tree = Tree()
    cpus = int(config["cpus"])
    every = f"0-{cpus - 1}" if cpus > 1 else "0"
    for name, text in (
        ("online", every),
        ("possible", every),
        ("present", every),
        ("offline", ""),
        ("kernel_max", str(max(cpus - 1, 0))),
    ):
        tree.add_file(f"cpu/{name}", _const(text + "\n"))

    freq = CpuFreq(
        cpus,
        list(config["governors"]),
        str(config["governor"]),
        int(config["min_khz"]),
        int(config["max_khz"]),
    )
    policy = "cpu/cpufreq/policy0"
    related = " ".join(str(i) for i in range(cpus)) + "\n"
    ro = {
        "affected_cpus": _const(related),
        "related_cpus": _const(related),
        "cpuinfo_min_freq": _const(f"{freq.min_khz}\n"),
        "cpuinfo_max_freq": _const(f"{freq.max_khz}\n"),
        "cpuinfo_transition_latency": _const("355000\n"),
        "scaling_driver": _const("cpufreq-dt\n"),
        "scaling_available_governors": lambda: " ".join(freq.governors) + " \n",
        "scaling_cur_freq": lambda: f"{freq.cur()}\n",
    }
    for name, reader in ro.items():
        tree.add_file(f"{policy}/{name}", reader)
    tree.add_file(f"{policy}/cpuinfo_cur_freq", lambda: f"{freq.cur()}\n", mode=0o400)
    rw: dict[str, tuple[ReadFn, WriteFn]] = {
        "scaling_governor": (lambda: freq.governor + "\n", freq.set_governor),
        "scaling_min_freq": (lambda: f"{freq.scaling_min}\n", freq.set_min),
        "scaling_max_freq": (lambda: f"{freq.scaling_max}\n", freq.set_max),
        "scaling_setspeed": (lambda: freq.read_speed() + "\n", freq.set_speed),
    }
    for name, (reader, writer) in rw.items():
        tree.add_file(f"{policy}/{name}", reader, writer)
    for cpu in range(cpus):
        tree.add_file(f"cpu/cpu{cpu}/online", _const("1\n"))
        tree.add_link(f"cpu/cpu{cpu}/cpufreq", "../cpufreq/policy0")

    every_mask = (1 << cpus) - 1
    default_mask = {"mask": every_mask}

    def write_default(text: str) -> None:
        mask = parse_mask(text, cpus)
        if not mask:
            raise _fail(errno.EINVAL)
        default_mask["mask"] = mask

    tree.add_file(
        "irq/default_smp_affinity",
        lambda: format_mask(default_mask["mask"], cpus) + "\n",
        write_default,
    )
    refuse = {int(n) for n in config.get("irq_refuse", [])}
    for number in config.get("irqs", []):
        irq = Irq(int(number), cpus, int(number) in refuse)
        base = f"irq/{irq.number}"
        tree.add_file(f"{base}/smp_affinity", _mask_reader(irq, cpus), irq.write_mask)
        tree.add_file(f"{base}/smp_affinity_list", _list_reader(irq), irq.write_list)
        tree.add_file(f"{base}/effective_affinity", _effective_reader(irq, cpus))
        tree.add_file(f"{base}/effective_affinity_list", _effective_list_reader(irq))
        tree.add_file(f"{base}/node", _const("0\n"))

    host_cpus = int(config.get("host_cpus", cpus))
    queues: list[tuple[str, QueueMap]] = []
    for queue in config.get("queues", []):
        real = queue.get("real")
        fd: int | None = None
        if real:
            try:
                fd = os.open(real, os.O_RDWR)
            except OSError as exc:  # pragma: no cover - depends on the kernel
                log.warning("cannot open %s: %s; %s is modelled only", real, exc, queue["path"])
        qmap = QueueMap(cpus, host_cpus, fd, bool(queue.get("enoent", False)))
        tree.add_file(queue["path"], qmap.read, qmap.write)
        queues.append((queue["path"], qmap))

    from sbctune.lab.sysctls import private_sysctl

    for name, model in config.get("sysctls", {}).items():
        knob = private_sysctl(name, model)
        tree.add_file("sysctl/" + name.replace(".", "/"), knob.read, knob.write)

    power_path = config.get("power_state")
    if power_path:
        _add_power(tree, Path(power_path))

    state_path = config.get("knob_state")
    if state_path:

        def save_state() -> None:
            tmp = state_path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as fh:
                json.dump(knob_state(freq, queues), fh)
            os.chmod(tmp, 0o644)
            os.replace(tmp, state_path)

        tree.on_change = save_state
        save_state()
    return tree


def _add_power(tree: Tree, path: Path) -> None:
    from sbctune.lab.power import ZONE_TYPE, read_state

    def temp() -> str:
        text = read_state(path).temp_text()
        if text is None:  # no sensor value: the thermal core passes the driver's error on
            raise _fail(errno.ENODATA)
        return text

    tree.add_file("power/firmware/get_throttled", lambda: read_state(path).get_throttled_text())
    tree.add_file("power/thermal_zone0/temp", temp)
    tree.add_file("power/thermal_zone0/type", _const(ZONE_TYPE + "\n"))


def _mask_reader(irq: Irq, cpus: int) -> ReadFn:
    return lambda: format_mask(irq.mask, cpus) + "\n"


def _list_reader(irq: Irq) -> ReadFn:
    return lambda: format_list(irq.mask) + "\n"


def _effective_reader(irq: Irq, cpus: int) -> ReadFn:
    return lambda: format_mask(irq.effective(), cpus) + "\n"


def _effective_list_reader(irq: Irq) -> ReadFn:
    return lambda: format_list(irq.effective()) + "\n"


# --------------------------------------------------------------------------- FUSE glue


def make_operations(tree: Tree) -> Any:
    """The mfusepy Operations object serving ``tree`` (imported lazily: Linux + libfuse)."""
    import mfusepy

    started = time.time_ns()

    def oserr(exc: OSError) -> Exception:
        error: Exception = mfusepy.FuseOSError(exc.errno or errno.EIO)
        return error

    class KnobsOps(mfusepy.Operations):  # type: ignore[misc]
        use_ns = True

        def _node(self, path: str) -> Node:
            try:
                return tree.lookup(path)
            except OSError as exc:
                raise oserr(exc) from None

        def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
            node = self._node(path)
            kind = {"dir": stat.S_IFDIR, "file": stat.S_IFREG, "link": stat.S_IFLNK}[node.kind]
            size = 4096 if node.kind == "file" else len(node.target)
            return {
                "st_mode": kind | node.mode,
                "st_nlink": 2 if node.kind == "dir" else 1,
                "st_size": size,
                "st_uid": 0,
                "st_gid": 0,
                "st_atime": started,
                "st_mtime": started,
                "st_ctime": started,
            }

        def readdir(self, path: str, fh: int) -> list[str]:
            node = self._node(path)
            if node.kind != "dir":
                raise mfusepy.FuseOSError(errno.ENOTDIR)
            return [".", "..", *sorted(node.children)]

        def readlink(self, path: str) -> str:
            node = self._node(path)
            if node.kind != "link":
                raise mfusepy.FuseOSError(errno.EINVAL)
            return node.target

        def open(self, path: str, flags: int) -> int:
            node = self._node(path)
            if node.kind == "dir":
                raise mfusepy.FuseOSError(errno.EISDIR)
            wants_write = flags & (os.O_WRONLY | os.O_RDWR)
            if wants_write and node.write is None:
                raise mfusepy.FuseOSError(errno.EACCES)
            return 0

        def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
            node = self._node(path)
            if node.read is None:
                raise mfusepy.FuseOSError(errno.EIO)
            try:
                data = node.read().encode()
            except OSError as exc:
                raise oserr(exc) from None
            return data[offset : offset + size]

        def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
            node = self._node(path)
            if node.write is None:
                raise mfusepy.FuseOSError(errno.EACCES)
            try:
                node.write(data.decode("utf-8", errors="replace"))
            except OSError as exc:
                log.info("write %r to %s refused: %s", data, path, exc)
                raise oserr(exc) from None
            if tree.on_change is not None:
                try:
                    tree.on_change()
                except OSError as exc:  # the shaper misses one update; the knob itself is set
                    log.warning("cannot save the knob state: %s", exc)
            return len(data)

        def truncate(self, path: str, length: int, fh: int | None = None) -> int:
            node = self._node(path)
            if node.write is None:
                raise mfusepy.FuseOSError(errno.EACCES)
            return 0

        def chmod(self, path: str, mode: int) -> int:
            raise mfusepy.FuseOSError(errno.EPERM)

        def chown(self, path: str, uid: int, gid: int) -> int:
            raise mfusepy.FuseOSError(errno.EPERM)

        def utimens(self, path: str, times: Any = None) -> int:
            return 0

    return KnobsOps()


def serve(config_path: str, mountpoint: str) -> None:
    with open(config_path, encoding="utf-8") as fh:
        config = json.load(fh)
    tree = build_tree(config)
    import mfusepy

    mfusepy.FUSE(
        make_operations(tree),
        mountpoint,
        foreground=True,
        nothreads=True,
        allow_other=True,
        default_permissions=True,
        direct_io=True,
        attr_timeout=0,
        entry_timeout=0,
        fsname="sbctune-lab-knobs",
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2:
        print("usage: python -m sbctune.lab.knobs_fs CONFIG.json MOUNTPOINT", file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s knobs_fs: %(message)s")
    serve(args[0], args[1])
    return 0


if __name__ == "__main__":
    sys.exit(main())
