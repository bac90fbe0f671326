"""Which driver should bind a NIC (split from logs.py): a chip with its own in-tree driver bound
to a generic class driver, a USB adapter with none bound, the in-tree module whose ID tables
list a NIC, and a driver that lists it only in kernels newer than the running one."""

from __future__ import annotations

from sbctune.advice.log_words import label
from sbctune.catalog.ids import KERNEL_SOURCE, load_ids
from sbctune.catalog.kernel_drivers import (
    KernelDriver,
    for_your_kernel,
    in_tree_since,
    kernel_series,
    load_kernel_drivers,
)
from sbctune.inventory.model import Finding, Nic, Recommendation


def _protocol_driver(driver: KernelDriver | None) -> bool:
    """cdc_subset lists the Linux USB gadget's IDs, but it is another protocol driver, not
    the chip's own: "use it instead" would promise offloads it does not have."""
    return driver is not None and driver.protocol


def generic_driver(nic: Nic, kernel: str | None = None) -> tuple[Finding, Recommendation] | None:
    """A chip with its own in-tree driver, bound to a class driver (cdc_ncm, cdc_ether)."""
    ids = load_ids()
    if nic.bus != "usb" or not ids.is_generic_usb(nic.driver):
        return None
    table = load_kernel_drivers()
    vendor = [
        m
        for m in ids.drivers_for("usb", nic.ids)
        if not ids.is_generic_usb(m) and not _protocol_driver(table.get(m))
    ]
    if not vendor:
        return _generic_driver_newer(nic, kernel)
    module = ids.module(vendor[0])
    chip = nic.chip or nic.ids
    finding = Finding(
        "generic-driver",
        "warning",
        label(nic),
        f"{label(nic)} ({chip}) runs the generic {nic.driver} driver although the kernel has "
        f"{vendor[0]} for this chip ({nic.ids}).",
        [e for e in nic.evidence if "driver" in e.lower()][:2],
    )
    kernels = ", ".join(ids.kernel_label(k) for k in module.kernels) if module else ""
    recommendation = Recommendation(
        "driver",
        label(nic),
        f"Use the {vendor[0]} driver",
        f"{vendor[0]} binds {nic.ids} when it is loaded before {nic.driver} claims the "
        f"device (built by {kernels or 'the usual kernels'}); with a generic driver the chip's "
        "offloads and power settings are not used.",
        "the chip's own offloads; often higher throughput and fewer stalls",
        [KERNEL_SOURCE + module.path + ".c"] if module else [],
        steps=[
            f"sudo modprobe {vendor[0]}",
            "unplug and replug the adapter (or reboot)",
            f"check: ethtool -i {nic.name or 'IFACE'} shows driver: {vendor[0]}",
        ],
    )
    return finding, recommendation


def _generic_driver_newer(nic: Nic, kernel: str | None) -> tuple[Finding, Recommendation] | None:
    """The same, when only a newer kernel's copy of the chip's driver lists its IDs
    (newer_drivers.json: r8152.c's rtl8152_table has 0bda:8157, the RTL8157, in 7.2 and not in
    6.1/6.12): the class driver binds it on older kernels, so the chip's own driver is one kernel
    update away, which the advice says instead of "load it"."""
    table = load_kernel_drivers()
    ids = load_ids()
    own = [
        (d, series)
        for d in table.for_ids("usb", nic.ids)
        if not ids.is_generic_usb(d.name)
        and not _protocol_driver(d)
        and d.wireless == bool(nic.wireless)  # a Wi-Fi driver is no Ethernet chip's own
        and "6.1" not in (series := table.id_series("usb", nic.ids, d.name))
        and "6.12" not in series
    ]
    if not own:
        return None
    driver, series = own[0]
    chip = nic.chip or nic.ids
    since = in_tree_since(series)
    finding = Finding(
        "generic-driver",
        "warning",
        label(nic),
        f"{label(nic)} ({chip}) runs the generic {nic.driver} driver; the chip's own driver, "
        f"{driver.name}, lists it ({nic.ids}) in newer kernels: {since}.",
        [e for e in nic.evidence if "driver" in e.lower()][:2],
    )
    yours = for_your_kernel(series, kernel) or (
        "Update to a kernel whose driver lists it, or build the chip maker's driver."
    )
    recommendation = Recommendation(
        "driver",
        label(nic),
        f"{driver.name} drives this chip in newer kernels",
        f"The kernel's {driver.name} ({driver.file}) lists {nic.ids}: {since}. {yours} With "
        f"the generic {nic.driver} driver the chip's offloads and power settings are not used.",
        "the chip's own offloads; often higher throughput and fewer stalls",
        [KERNEL_SOURCE + driver.file],
        steps=["uname -r", "update the kernel (or install the maker's driver), then replug"],
    )
    return finding, recommendation


def usb_no_driver(nic: Nic) -> tuple[Finding, Recommendation | None] | None:
    """A USB network adapter that a source shows with no driver bound (usb-devices
    "Driver=(none)", a driver that refused the chip): which in-tree module lists its IDs."""
    if nic.bus != "usb" or nic.driver or nic.driver_state != "none":
        return None
    ids = load_ids()
    modules = ids.drivers_for("usb", nic.ids)
    name = nic.chip or nic.ids
    finding = Finding(
        "no-driver",
        "problem",
        label(nic),
        f"No driver is bound to the USB network adapter{f' {name}' if name else ''}: it is on "
        "the bus but gives no network interface.",
        [e.split(": ", 1)[-1] for e in nic.evidence][:2],
    )
    if not modules and nic.log.get("probe_failed"):
        # A driver matched it and failed (its own finding says so, with the kernel's line):
        # not "no in-tree driver lists its IDs" (the s12 walk: rtw_8822bu on an RTL8822BU).
        return finding, None
    if not modules:
        return finding, Recommendation(
            "driver",
            label(nic),
            "Find a driver for this adapter",
            f"No in-tree driver of the kernels checked lists {nic.ids or 'its IDs'}: a newer "
            "kernel or the chip maker's driver may; a rebadged chip is often served by the "
            "maker's driver once its IDs are added.",
            "a working NIC",
            [],
        )
    module = ids.module(modules[0])
    kernels = ", ".join(ids.kernel_label(k) for k in module.kernels) if module else ""
    return finding, Recommendation(
        "driver",
        label(nic),
        f"Load the {modules[0]} driver",
        f"{modules[0]} lists {nic.ids} (built by {kernels}): load it, or update the kernel.",
        "a working NIC",
        [KERNEL_SOURCE + module.path + ".c"] if module else [],
        steps=[f"sudo modprobe {modules[0]}"],
    )


def driver_from_tables(nic: Nic) -> Recommendation | None:
    """ "No driver bound" on a chip the catalog has no figures for: which in-tree module lists
    its IDs (the kernel's modules.alias), whether Debian's arm64 / Raspberry Pi kernels build
    it, and how to get it."""
    ids = load_ids()
    modules = ids.drivers_for(nic.bus, nic.ids)
    if not modules:
        return None
    module = ids.module(modules[0])
    if module is None:
        return None
    built = [ids.kernel_label(k) for k in module.kernels]
    arm = [k for k in module.kernels if k in ("arm64", "rpi")]
    detail = f"The kernel's {modules[0]} driver ({module.path}) lists {nic.ids}. " + (
        f"It is built by {', '.join(built)}: check “modinfo {modules[0]}”, then "
        f"“sudo modprobe {modules[0]}”; if your kernel lacks it, update the kernel."
        if arm
        else f"Debian builds it only for {', '.join(built)}: an ARM board's kernel may "
        "not have it; build it from the kernel source or use the vendor's driver."
    )
    return Recommendation(
        "driver",
        label(nic),
        f"Load the {modules[0]} driver",
        detail,
        "a working NIC",
        [KERNEL_SOURCE + module.source_dir],
        steps=[f"modinfo {modules[0]}", f"sudo modprobe {modules[0]}"],
    )


def newer_kernel_driver(nic: Nic, kernel: str | None) -> Recommendation | None:
    """A NIC with no driver shown whose IDs an in-tree driver lists only since after 6.1 (the
    kernel source's own ID tables): on an older kernel, the vendor's driver or a newer kernel."""
    if nic.driver or nic.bus not in ("usb", "pci") or not nic.ids:
        return None
    table = load_kernel_drivers()
    listed = [
        (d, table.id_series(nic.bus, nic.ids, d.name)) for d in table.for_ids(nic.bus, nic.ids)
    ]
    newer = [(d, series) for d, series in listed if "6.1" not in series]
    if not newer or len(newer) < len(listed):
        return None
    driver, series = newer[0]
    # the oldest source that lists it: 6.12, or 7.2 for an ID only newer_drivers.json has
    first = min((v for s in series if (v := kernel_series(s)) is not None), default=(6, 12))
    running = kernel_series(kernel)
    if running is not None and running >= first:
        return None
    yours = for_your_kernel(series, kernel) or (
        f"Update to a kernel that has it ({first[0]}.{first[1]} does), or build the chip "
        "maker's driver."
    )
    return Recommendation(
        "driver",
        label(nic),
        f"{driver.name} drives this adapter in newer kernels",
        f"The kernel's {driver.name} ({driver.file}) lists {nic.ids}: {in_tree_since(series)}. "
        + yours,
        "a working NIC",
        [KERNEL_SOURCE + driver.file],
        steps=["uname -r", "update the kernel (or install the maker's driver), then replug"],
    )
