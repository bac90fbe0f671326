"""The lab's kernel knobs as a small FUSE file system, so writes fail the way the kernel's do.

Trees (bind-mounted inside the lab's mount namespace by ``nsinit``):

- ``cpu/``  -> ``/sys/devices/system/cpu``: online/possible/present, ``cpuN/cpufreq`` (a link to
  ``cpufreq/policy0``, one policy shared by all CPUs as on a Raspberry Pi) with a writable
  ``scaling_governor`` (an unknown governor -> EINVAL), min/max/cur frequencies;
- ``irq/``  -> ``/proc/irq``: ``N/smp_affinity`` (+ ``_list``, ``effective_affinity``) for the
  IRQs of the lab's /proc/interrupts (following it after ``ethtool -L``: ``knobs_irqs``); a
  mask without an online CPU -> EINVAL, and IRQs the profile marks as refusing (the Pi's
  xhci_hcd MSI) answer every write with the errno of their chip and the profile's kernel
  (``irq_refusal``: seed 000's EINVAL on 5.15, EPERM on 6.12);
- ``net/IFACE/QUEUE/{rps_cpus,xps_cpus}`` -> over the veth's real queue files: masks are
  checked against the profile's CPU count and the bits this host has are written through to
  the real file, so RPS/XPS act for real; ``xps_enoent`` interfaces answer ENOENT like a
  single-queue driver;
- ``net/IFACE/threaded`` -> ``/sys/class/net/IFACE/threaded``: threaded NAPI as the kernel
  answers for the profile's driver (``knobs_napi``), not as the veth does;
- ``sysctl/net/core/NAME`` ... -> lab-private copies of the sysctls a network namespace does
  not make private (see ``sysctls``), bind-mounted over /proc/sys/net/... by ``nsinit``;
- ``power/firmware/get_throttled`` -> ``/sys/devices/platform/soc/soc:firmware`` and
  ``power/thermal_zone0/{temp,type}`` -> ``/sys/class/thermal/thermal_zone0``: read-only, as on
  a Pi, with the values of the lab's ``power.json`` at each read (see ``power``), so a test can
  change them mid-run from the host.

After every accepted write the knob state goes to ``knob_state`` (a JSON file in the lab's
state dir) for the lab's shaper (tweak effects).

The models are in ``knobs_model``, the FUSE operations in ``knobs_fuse``.

Run as ``python -m sbctune.lab.knobs_fs CONFIG.json MOUNTPOINT`` (root; mounted allow_other so
the ``pi`` user can read, with kernel permission checks so only root can write).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import sys
from pathlib import Path
from typing import Any

from sbctune.lab.knobs_irqs import add_irqs
from sbctune.lab.knobs_model import (
    CpuFreq,
    Irq,
    Node,
    QueueMap,
    ReadFn,
    Tree,
    WriteFn,
    format_list,
    format_mask,
    kernel_error,
    parse_list,
    parse_mask,
)
from sbctune.lab.knobs_napi import Threaded
from sbctune.lab.power import ZONE_TYPE, read_state
from sbctune.lab.sysctls import private_sysctl
from sbctune.lab.sysfs_link import add_to_tree as add_links

log = logging.getLogger("sbctune.lab.knobs_fs")

# The models are in knobs_model; their names stay importable from here.
__all__ = [
    "CpuFreq",
    "Irq",
    "Node",
    "QueueMap",
    "ReadFn",
    "Tree",
    "WriteFn",
    "build_tree",
    "format_list",
    "format_mask",
    "knob_state",
    "main",
    "parse_list",
    "parse_mask",
    "serve",
]


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


def _add_cpus(tree: Tree, cpus: int, isolated: int = 0) -> None:
    every = f"0-{cpus - 1}" if cpus > 1 else "0"
    for name, text in (
        ("online", every),
        ("possible", every),
        ("present", every),
        ("offline", ""),
        ("kernel_max", str(max(cpus - 1, 0))),
        # drivers/base/cpu.c print_cpus_isolated: isolcpus='s CPUs as a list, empty if none
        ("isolated", format_list(isolated)),
    ):
        tree.add_file(f"cpu/{name}", _const(text + "\n"))
    for cpu in range(cpus):
        tree.add_file(f"cpu/cpu{cpu}/online", _const("1\n"))
        tree.add_link(f"cpu/cpu{cpu}/cpufreq", "../cpufreq/policy0")


def _add_cpufreq(tree: Tree, config: dict[str, Any], cpus: int) -> CpuFreq:
    freq = CpuFreq(
        cpus,
        list(config["governors"]),
        str(config["governor"]),
        int(config["min_khz"]),
        int(config["max_khz"]),
        modules=[str(m) for m in config.get("governor_modules", [])],
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
    return freq


def _isolated(config: dict[str, Any]) -> int:
    """The profile's isolcpus= CPUs as a mask."""
    mask = 0
    for cpu in config.get("isolated", []):
        mask |= 1 << int(cpu)
    return mask


def _add_queues(tree: Tree, config: dict[str, Any], cpus: int) -> list[tuple[str, QueueMap]]:
    host_cpus = int(config.get("host_cpus", cpus))
    housekeeping = ((1 << cpus) - 1) & ~_isolated(config)
    queues: list[tuple[str, QueueMap]] = []
    for queue in config.get("queues", []):
        real = queue.get("real")
        fd: int | None = None
        if real:
            try:
                fd = os.open(real, os.O_RDWR)
            except OSError as exc:  # pragma: no cover - depends on the kernel
                log.warning("cannot open %s: %s; %s is modelled only", real, exc, queue["path"])
        rps = str(queue["path"]).endswith("/rps_cpus")
        qmap = QueueMap(cpus, host_cpus, fd, bool(queue.get("enoent", False)),
                        housekeeping=housekeeping if rps else None)  # fmt: skip
        tree.add_file(queue["path"], qmap.read, qmap.write)
        queues.append((queue["path"], qmap))
    return queues


def _save_state_on_change(
    tree: Tree, state_path: str, freq: CpuFreq, queues: list[tuple[str, QueueMap]]
) -> None:
    def save_state() -> None:
        tmp = state_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(knob_state(freq, queues), fh)
        os.chmod(tmp, 0o644)
        os.replace(tmp, state_path)

    tree.on_change = save_state
    save_state()


def build_tree(config: dict[str, Any]) -> Tree:
    """Build the knob tree from the lab's knobs config (see configs.knobs_config)."""
    tree = Tree()
    cpus = int(config["cpus"])
    _add_cpus(tree, cpus, _isolated(config))
    freq = _add_cpufreq(tree, config, cpus)
    add_irqs(tree, config, cpus)
    queues = _add_queues(tree, config, cpus)
    for knob in config.get("threaded", []):
        threaded = Threaded(knob["napi"], str(knob.get("flags", "")))
        tree.add_file(knob["path"], threaded.read, threaded.write)
    for name, model in config.get("sysctls", {}).items():
        knob = private_sysctl(name, model)
        tree.add_file("sysctl/" + name.replace(".", "/"), knob.read, knob.write)
    add_links(tree, config)  # net/IFACE/{speed,duplex}: net-sysfs.c's answers (sysfs_link)
    power_path = config.get("power_state")
    if power_path:
        _add_power(tree, Path(power_path))
    state_path = config.get("knob_state")
    if state_path:
        _save_state_on_change(tree, state_path, freq, queues)
    return tree


def _add_power(tree: Tree, path: Path) -> None:
    def temp() -> str:
        text = read_state(path).temp_text()
        if text is None:  # no sensor value: the thermal core passes the driver's error on
            raise kernel_error(errno.ENODATA)
        return text

    tree.add_file("power/firmware/get_throttled", lambda: read_state(path).get_throttled_text())
    tree.add_file("power/thermal_zone0/temp", temp)
    tree.add_file("power/thermal_zone0/type", _const(ZONE_TYPE + "\n"))


def serve(config_path: str, mountpoint: str) -> None:
    with open(config_path, encoding="utf-8") as fh:
        config = json.load(fh)
    tree = build_tree(config)
    from sbctune.lab.knobs_fuse import mount  # mfusepy loads libfuse: only where it serves

    mount(tree, mountpoint)


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
