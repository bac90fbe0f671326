"""The configuration files a lab's processes start from (written by ``manager.up``): the
lab's init (``nsinit.json``: overlays, binds, sshd) and its knob file system (``knobs.json``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from sbctune.lab import cpu_marker, hostname, irq_model, irq_refusal, knobs_napi, overlay, sysctls
from sbctune.lab.errors import ProfileError
from sbctune.lab.profile import LabProfile
from sbctune.lab.system import tool
from sbctune.resources import resource_root
from sbctune.safefiles import UnsafeMember, regular_file


def nsinit_config(
    profile: LabProfile, plan: overlay.OverlayPlan, directory: Path, shadow: Path, config: Path
) -> dict[str, Any]:
    """What the lab's init (``nsinit``) sets up inside the namespaces."""
    overlays = _private_dirs(profile, directory)
    etc = next(Path(o["upper"]) for o in overlays if o["target"] == "/etc")
    cpu_marker.write(etc, profile.cpu.count)  # the CPU figures in the lab are this host's
    name = hostname.lab_hostname(profile.bundle)
    hostname.write_etc(etc, name)
    return {
        "bin_dir": plan.bin_dir,
        "file_binds": plan.file_binds,
        "model": plan.model,
        "shadow": str(shadow),
        "sshd": tool("sshd"),
        "sshd_config": str(config),
        "interfaces": nsinit_interfaces(profile),
        "pci_unbound": list(profile.pci_unbound),  # folders without a driver link
        "sysctls": sysctls.models(),
        "overlays": overlays,
        "hostname": name,  # nsinit sets it in the lab's own UTS namespace, not in this one:
        "host_uts": os.readlink("/proc/self/ns/uts"),  # posix-only: the lab is Linux
    }


def nsinit_interfaces(profile: LabProfile) -> list[dict[str, Any]]:
    """The NICs as nsinit models their sysfs knobs: XPS on one queue (ENOENT), threaded NAPI
    as the driver's kernel answers it (``knobs_napi``: the table's ``napi`` fact)."""
    return [
        {
            "name": i.name,
            "xps_enoent": i.xps_enoent,
            "napi": knobs_napi.napi_of(i.driver or "", profile.kernel, i.chip or ""),
        }
        for i in profile.interfaces
    ]


BOOT_FILES = ("config.txt", "cmdline.txt")


def _boot_source(profile: LabProfile, name: str) -> Path:
    """The profile's own boot/NAME if it ships one, else the shared Raspberry Pi OS file."""
    try:
        own = regular_file(profile.path, f"boot/{name}")  # never a link out of the profile
    except UnsafeMember as exc:
        raise ProfileError(f"profile {profile.path}: {exc.message}", exc.hint) from exc
    if own is not None:
        return own
    return Path(str(resource_root())) / "lab" / "boot" / name


def _private_dirs(profile: LabProfile, directory: Path) -> list[dict[str, str]]:
    """Overlay dirs for the lab's /etc, /boot (config.txt + cmdline.txt in /boot/firmware) and
    /var/lib (where tuning keeps its sessions on the Pi: each lab must see only its own)."""
    entries = []
    for target in ("/etc", "/boot", "/var/lib"):
        base = directory / "overlay" / target.strip("/")
        upper, work = base / "upper", base / "work"
        for folder in (upper, work):
            folder.mkdir(mode=0o755, parents=True, exist_ok=True)
        entries.append({"target": target, "upper": str(upper), "work": str(work)})
    firmware = directory / "overlay" / "boot" / "upper" / "firmware"
    firmware.mkdir(mode=0o755, exist_ok=True)
    for name in BOOT_FILES:
        shutil.copyfile(_boot_source(profile, name), firmware / name)
        os.chmod(firmware / name, 0o644)  # pi-gen: install -m 644; root writes, pi reads
        link = firmware.parent / name
        if not link.is_symlink():
            link.symlink_to(f"firmware/{name}")  # as pi-gen's stage1/00-boot-files/00-run.sh
    return entries


def knobs_config(
    profile: LabProfile, interrupts_file: str = "", held_file: str = ""
) -> dict[str, Any]:
    """What the knob file system (``knobs_fs``) models: CPUs, cpufreq, IRQs, power.
    `interrupts_file`: the host copy of a /proc/interrupts the lab models (its PCIe NICs'
    vectors), which ``ethtool -L`` writes again: /proc/irq follows it (``knobs_irqs``), each new
    vector refusing as its chip does under the profile's kernel (``irq_chip_errno``);
    `held_file`: the lines of closed NICs' vectors, whose folders stay (fake_ethtool_irqs)."""
    interrupts = profile.bundle.file("/proc/interrupts") or profile.modelled_files.get(
        "/proc/interrupts"
    )
    config: dict[str, Any] = {
        "cpus": profile.cpu.count,
        "governors": list(profile.cpu.governors),
        "governor": profile.cpu.governor,
        "governor_modules": list(profile.cpu.governor_modules),
        "isolated": list(profile.cpu.isolated),
        "min_khz": profile.cpu.min_khz,
        "max_khz": profile.cpu.max_khz,
        "irqs": list(profile.irqs),
        "irq_refuse": list(profile.irq_refuse),
        # how they refuse: the interrupt chip's and the kernel's errno (irq_refusal)
        "irq_errno": irq_refusal.refusals(interrupts, list(profile.irq_refuse), profile.kernel),
        "power": profile.power.to_json(),  # the starting power.json (sbctune.lab.power)
    }
    if interrupts_file and "/proc/interrupts" in profile.modelled_files:
        config["interrupts"] = interrupts_file
        if held_file:
            config["interrupts_held"] = held_file
        chip, refused = irq_model.PCIE_HOSTS.get(profile.pcie_host, ("", False))
        # where the chip is named per device, the name before the address (knobs_irqs matches
        # it within the line), refused as such a chip is (irq_refusal, audit 41 row 3)
        named = irq_model.per_device_chip(profile.pcie_host, profile.kernel)
        example = f"{named}-0000:{irq_model.PCI_BUS:02x}:00.0" if named else chip
        config["irq_chip_errno"] = (
            {named or chip: irq_refusal.refusal(example, profile.kernel)}
            if chip and refused
            else {}
        )
    return config
