"""A lab profile's ``[lab]`` table, checked as ``profile`` checks the rest: the kernel and
machine the lab answers as, the IRQs whose affinity it refuses, and the PCIe host behind which
it models the NICs' interrupt lines where the profile captured no /proc/interrupts."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from sbctune.inventory.bundle import Bundle
from sbctune.lab import irq_model, uname
from sbctune.lab.errors import ProfileError
from sbctune.resources import resource_root

_KERNEL = re.compile(r"^(\d{1,2}\.\d{1,3}[A-Za-z0-9.+~_-]{0,60})?$")
_MACHINE = re.compile(r"^(aarch64|armv[5-8]\w{0,4}|x86_64|riscv64)?$")


def lab_kernel(lab: Mapping[str, Any], bundle: Bundle, where: str) -> str:
    """[lab] kernel, else the captured `uname` release, else "" (every series)."""
    captured = uname.facts(bundle)
    default = captured.release if captured.release != uname.UNKNOWN else ""
    kernel = lab.get("kernel", default)
    if not isinstance(kernel, str) or not _KERNEL.match(kernel):
        raise ProfileError(f"{where}: [lab] kernel must be a release like 6.12.47+rpt-rpi-v8")
    return kernel


def lab_machine(lab: Mapping[str, Any], where: str) -> str:
    machine = lab.get("machine", "")
    if not isinstance(machine, str) or not _MACHINE.match(machine):
        raise ProfileError(f"{where}: [lab] machine must be a uname -m name like aarch64")
    return machine


def interrupts_layout(text: str | None) -> tuple[int | None, tuple[int, ...]]:
    """CPU count (header columns) and numbered IRQs of a /proc/interrupts capture."""
    if not text:
        return None, ()
    lines = text.splitlines()
    header = next((ln for ln in lines if ln.strip().startswith("CPU")), None)
    cpus = len(re.findall(r"\bCPU\d+\b", header)) if header else None
    irqs = []
    for line in lines:
        match = re.match(r"^\s*(\d+):", line)
        if match:
            irqs.append(int(match.group(1)))
    return cpus or None, tuple(irqs)


def irq_refuse(lab: Mapping[str, Any], irqs: Sequence[int], where: str) -> list[int]:
    """[lab] irq_refuse: IRQ numbers, each one the captured /proc/interrupts has."""
    refuse = lab.get("irq_refuse", [])
    if not isinstance(refuse, list) or not all(
        isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in refuse
    ):
        raise ProfileError(f"{where}: [lab] irq_refuse must be a list of IRQ numbers")
    strays = sorted(set(refuse) - set(irqs))
    if strays:
        raise ProfileError(
            f"{where}: irq_refuse lists {'IRQ' if len(strays) == 1 else 'IRQs'} {strays} that the "
            "captured /proc/interrupts lacks"
        )
    return refuse


def pcie_host(lab: Mapping[str, Any], where: str) -> Any:
    """[lab] pcie_host: "" or one irq_model knows."""
    host = lab.get("pcie_host", "")
    if host and (not isinstance(host, str) or host not in irq_model.PCIE_HOSTS):
        raise ProfileError(
            f"{where}: [lab] pcie_host must be one of {', '.join(sorted(irq_model.PCIE_HOSTS))}"
        )
    return host


def modelled_interrupts(
    nics: Sequence[irq_model.Nic], cpus: int, host: str, kernel: str
) -> tuple[str, tuple[int, ...], list[int]] | None:
    """The /proc/interrupts the lab shows for a profile that captured none: its text, its IRQ
    numbers and those whose affinity the PCIe host refuses; None where no line is modelled."""
    vectors = irq_model.lines(nics, cpus, host, kernel) if host else []
    refused = [v.number for v in vectors] if irq_model.refuses_affinity(host) else []
    # SoC-side NICs on a chip the table names (macb on the Pi 5's RP1): movable lines
    vectors += irq_model.platform_lines(
        nics, cpus, kernel, max((v.number for v in vectors), default=0)
    )
    if not vectors:
        return None
    return irq_model.render(vectors, cpus), tuple(v.number for v in vectors), refused


def default_link_down_seconds() -> float:
    """How long a driver's restart keeps a lab link down unless the profile says: the shortest
    drop real captures show (resources/tuning/link_restart.json, 2.0 s of 2.0 to 3.1 s). The
    lab held it 0 s before walk s23, kinder than any kernel: the wait words never showed and
    a read-back at once always found the link up."""
    text = resource_root().joinpath("tuning", "link_restart.json").read_text(encoding="utf-8")
    return float(min(json.loads(text)["seen_seconds"]))


def link_down_seconds(lab: dict[str, Any], where: str) -> float:
    """[lab] link_down_seconds: a number from 0 to 10 (default: default_link_down_seconds();
    0: a bounce is up at once, for a test that needs it)."""
    if "link_down_seconds" not in lab:
        return default_link_down_seconds()
    value = lab["link_down_seconds"]
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 10:
        raise ProfileError(f"{where}: [lab] link_down_seconds must be a number from 0 to 10")
    return float(value)
