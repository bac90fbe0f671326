"""The board an inventory describes: its model, SoC, kernel and OS, its power and clocks, each
from the first source that says it (the device tree, /proc/cpuinfo, the log's own "Machine
model:", "Hardware name:", "DMI:" and "Linux version" lines, a MIPS system type, the kernel
build's flavour, the Wi-Fi firmware's board file, a SoC's own PCIe root port)."""

from __future__ import annotations

import re

from sbctune.catalog import Catalog
from sbctune.catalog.arm_machines import ArmMachine, arm_machine
from sbctune.catalog.dt_boards import load_dt_boards
from sbctune.catalog.kernel_flavours import soc_by_kernel
from sbctune.inventory.brcmfmac_board import board_types
from sbctune.inventory.btbcm_board import board_types as bt_board_types
from sbctune.inventory.kernel_build import irq_threads
from sbctune.inventory.mips_identity import mips_machine, mips_soc
from sbctune.inventory.model import Board, Throttled
from sbctune.inventory.raw import Parsed
from sbctune.inventory.root_hub_kernel import root_hub_kernel


def _logged(parsed: Parsed, kind: str) -> list[dict[str, str]]:
    return [e.fields for e in parsed.dmesg.of_kind(kind)] if parsed.dmesg is not None else []


def _log_identity(parsed: Parsed) -> tuple[list[str], str | None, str | None]:
    """What the log's own lines say of the board: models (best first), a revision code and a
    SoC name ("Machine model: ...", "Hardware name: ...", a /proc/cpuinfo paste, "DMI: ...")."""
    cpuinfo = {f["key"]: f["value"] for f in _logged(parsed, "cpuinfo")}
    named = [f for f in _logged(parsed, "machine_model") if _arm_machine_named(f) is None]
    models = [_hardware_model(f) for f in named][-1:]
    models += [cpuinfo.get("Model", "")]
    for dmi in _logged(parsed, "dmi")[-1:]:  # "<vendor> <product>/<board>": either may match
        models += [dmi.get("board", ""), dmi.get("model", "")]
    revision = cpuinfo.get("Revision")
    if revision is not None and not re.fullmatch(r"[0-9a-fA-F]{4,8}", revision):
        revision = None
    socs = [f["soc"] for f in _logged(parsed, "soc_line")][-1:]  # Lantiq's "SoC: xRX200 rev 1.1"
    return [m for m in models if m], revision, cpuinfo.get("Hardware") or next(iter(socs), None)


def _hardware_model(fields: dict[str, str]) -> str:
    """A model line's board. x86's "Hardware name: X, BIOS ..." is the DMI string the "DMI:"
    line prints (drivers/firmware/dmi_scan.c dmi_format_ids(), 6.1/6.12: "<vendor> <product>"
    then "/<board name>" when the firmware gives one): the product is before the "/", as the
    "DMI:" line is read ("Synology DS918+/DS918+, BIOS M.034" is a Synology DS918+)."""
    model = fields.get("model", "").strip()
    return model.split("/", 1)[0].strip() if "bios" in fields else model


def _arm_machine_named(fields: dict[str, str]) -> ArmMachine | None:
    """The 32-bit ARM machine description a warning's bare "Hardware name: X" names (neither
    arm64's " (DT)" board model nor x86's ", BIOS" DMI name): a machine, not a board."""
    if fields.get("header") is None or "dt" in fields or "bios" in fields:
        return None
    return arm_machine(fields.get("model", ""))


def _machine_soc(parsed: Parsed) -> tuple[str, str] | None:
    """The SoC of the last 32-bit ARM machine the log names, when it serves one SoC only."""
    machines = [m for f in _logged(parsed, "machine_model") if (m := _arm_machine_named(f))]
    last = machines[-1] if machines else None
    return (last.soc, last.evidence) if last is not None and last.soc is not None else None


def _hardware_soc(hardware: str | None) -> str | None:
    """/proc/cpuinfo's "Hardware" as a SoC. On 32-bit ARM it is the machine description's name
    (arch/arm/kernel/setup.c c_show(): machine_name), the same as a warning's "Hardware name":
    a SoC only when that machine serves one ("BCM2711"), none for "BCM2835" (bcm2835/6/7)."""
    machine = arm_machine(hardware) if hardware else None
    return machine.soc if machine is not None else hardware


def _identity(board: Board, parsed: Parsed, catalog: Catalog) -> None:
    """Model, catalog entry, SoC and cores: the device tree, /proc/cpuinfo, then the log."""
    cpuinfo = parsed.cpuinfo
    logged, logged_revision, logged_hardware = _log_identity(parsed)
    ubus = parsed.ubus_board.model if parsed.ubus_board is not None else None
    report = parsed.lshw.model if parsed.lshw is not None else None  # inxi's Machine: System
    named = (parsed.model, cpuinfo.model if cpuinfo else None, mips_machine(parsed), ubus, report)
    models = [m for m in named if m] + logged
    board.model = models[0] if models else None
    entry = next((e for m in models if (e := catalog.board_by_model(m)) is not None), None)
    if entry is None and parsed.compatible:
        entry = catalog.board_by_compatible(" ".join(parsed.compatible))
    revision = (cpuinfo.revision if cpuinfo else None) or logged_revision
    if entry is None and revision:
        entry = catalog.board_by_revision(revision)
    if entry is not None:
        board.catalog_id = entry.id
        board.soc = entry.soc
        board.model = board.model or entry.name
    else:
        _soc_from_device_trees(board, parsed, models)
    if board.soc is None:
        board.soc = _hardware_soc((cpuinfo.hardware if cpuinfo else None) or logged_hardware)
    if board.soc is None and (machine := _machine_soc(parsed)) is not None:
        board.soc, board.soc_source = machine
    if board.soc is None and (mips := mips_soc(parsed)) is not None:
        board.soc, board.soc_source = mips
    own = catalog.soc_nic(board.soc)
    board.soc_nic = own.chip_name if own is not None else None
    present = _present_cpus(parsed.sys_value(CPUS_PRESENT))
    # Each count says where it came from: the tuning's "one CPU core" words name it, and
    # the catalogue's is the board's specification, not read from this Pi (audit15).
    if cpuinfo and cpuinfo.cores:
        board.cpu_cores, board.cpu_cores_source = cpuinfo.cores, "processors in /proc/cpuinfo"
    elif present:
        # The Pi's own list of its cores: what the tuning spreads work over and the lab's CPU
        # chart names (the s13 walk: "CPU cores: unknown" beside "not the Pi's 4").
        board.cpu_cores, board.cpu_cores_source = present, CPUS_PRESENT
    elif entry is not None:
        board.cpu_cores = entry.cores
        board.cpu_cores_source = (f"the specification of a {entry.name}; the Pi's own CPU "
                                  "list was not read")  # fmt: skip
    elif parsed.interrupts is not None and parsed.interrupts.cpus:
        board.cpu_cores = parsed.interrupts.cpus
        board.cpu_cores_source = "the CPU columns of /proc/interrupts"


CPUS_PRESENT = "/sys/devices/system/cpu/present"
_CPU_RANGE = re.compile(r"([0-9]{1,4})(?:-([0-9]{1,4}))?")


def _present_cpus(text: str | None) -> int | None:
    """How many CPUs a sysfs list names ("0-3", "0,2-3"); None for anything else."""
    if not text:
        return None
    cpus: set[int] = set()
    for item in text.strip().split(",")[:64]:
        match = _CPU_RANGE.fullmatch(item.strip())
        if match is None:
            return None
        first, last = int(match.group(1)), int(match.group(2) or match.group(1))
        if last < first:
            return None
        cpus.update(range(first, last + 1))
    return len(cpus) or None


def _soc_by_wifi_firmware(board: Board, parsed: Parsed) -> None:
    """The SoC of the board brcmfmac (or btbcm) named its firmware file for: the board type in
    "brcmfmac43430-sdio.raspberrypi,3-model-b.bin" is the device tree's first root compatible
    (inventory.brcmfmac_board), whose kernel device tree names the SoC (boards.json)."""
    if parsed.dmesg is None:
        return
    events = parsed.dmesg.of_kind("firmware_missing")
    names = [n for e in events if (n := e.fields.get("firmware") or e.fields.get("firmware2"))]
    for board_type in board_types(names)[:4] if names else ():
        found = load_dt_boards().by_compatible(board_type)
        if found is not None:
            why = f"brcmfmac's firmware file for the board {board_type!r}: {found.evidence}"
            board.soc, board.soc_source = found.soc, why
            return
    # the combo's Bluetooth half: btbcm's patch names carry the same compatible
    for board_type in bt_board_types(parsed.dmesg_text)[:4]:
        found = load_dt_boards().by_compatible(board_type)
        if found is not None:
            why = f"btbcm's patch file for the board {board_type!r}: {found.evidence}"
            board.soc, board.soc_source = found.soc, why
            return


def _soc_from_device_trees(board: Board, parsed: Parsed, models: list[str]) -> None:
    """A board the catalog does not know: its SoC from the kernel's own device tree for it
    (resources/kernel_source/boards.json), by the board's compatible, else by its model."""
    if not parsed.compatible and not models:
        return  # nothing to look up: the 600 kB table is not read
    trees = load_dt_boards()
    found = trees.by_compatible(parsed.compatible[0]) if parsed.compatible else None
    found = found or next((b for m in models if (b := trees.by_model(m)) is not None), None)
    if found is not None:
        board.soc, board.soc_source = found.soc, found.evidence
        board.model = board.model or found.model
    elif len(parsed.compatible) > 1:
        # Device trees list the board, then its SoC last: "radxa,rock-5b", "rockchip,rk3588".
        board.soc = parsed.compatible[-1].split(",", 1)[-1].upper()
        board.soc_source = "the board's device tree (/proc/device-tree/compatible)"
    elif named := next((s for m in models if (s := trees.soc_named_in(m)) is not None), None):
        board.soc, board.soc_source = named, "named in the board's model"


def _soc_root_port(parsed: Parsed) -> tuple[str, str] | None:
    """The SoC a PCIe root port on bus 00 names (pci.ids: "Broadcom ... BCM2712 PCIe Bridge",
    "Rockchip ... RK3399 PCI Express Root Port"): the SoC's own PCIe controller, so a SoC the
    kernel's device trees know (a switch's bridge names none)."""
    roots = [d for d in parsed.pci[:64] if d.bus == "00" and d.description]
    for d in (d for d in roots if "bridge" in (d.class_name or "").lower()):
        if (soc := load_dt_boards().soc_named_in(d.description)) is not None:
            return soc, f"its PCIe root port {d.slot} ({d.description})"
    return None


def _power(parsed: Parsed) -> Throttled | None:
    t = parsed.throttled
    if t is None or t.raw is None:
        return None
    return Throttled(
        raw=hex(t.raw),
        under_voltage=bool(t.under_voltage_now),
        frequency_capped=bool(t.arm_freq_capped_now),
        throttled=bool(t.throttled_now),
        soft_temp_limit=bool(t.soft_temp_limit_now),
        under_voltage_occurred=bool(t.under_voltage_occurred),
        frequency_capped_occurred=bool(t.arm_freq_capped_occurred),
        throttled_occurred=bool(t.throttled_occurred),
        soft_temp_limit_occurred=bool(t.soft_temp_limit_occurred),
    )


def board_of(parsed: Parsed, catalog: Catalog) -> Board:
    """The board: its model, SoC, kernel, OS, power and clocks, from whatever said them."""
    board = Board()
    _identity(board, parsed, catalog)
    if parsed.uname:
        board.kernel = parsed.uname.kernel_release
        board.irq_threads = irq_threads(parsed.uname.kernel_version)
    booted = parsed.dmesg.of_kind("kernel_version") if parsed.dmesg is not None else []
    if not board.kernel and parsed.ubus_board is not None:  # procd's uname release
        board.kernel = parsed.ubus_board.kernel
    if not board.kernel and parsed.lshw is not None:  # inxi's System: Kernel: (uname -r)
        board.kernel = parsed.lshw.kernel
    if not board.kernel and booted:  # the log's own "Linux version 6.1.0-... (...)" line
        board.kernel = booted[-1].fields.get("version")
    if not board.kernel:  # a USB root hub's maker string: "Linux <release> <hcd>"
        board.kernel = root_hub_kernel(parsed.texts.values())
    if board.soc is None and (found := soc_by_kernel(board.kernel)) is not None:
        board.soc, board.soc_source = found[0], f"the kernel build {board.kernel}, made for it"
        own = catalog.soc_nic(board.soc)
        board.soc_nic = own.chip_name if own is not None else None
    if board.soc is None:
        _soc_by_wifi_firmware(board, parsed)
    if board.soc is None and (root := _soc_root_port(parsed)) is not None:
        board.soc, board.soc_source = root
        own = catalog.soc_nic(board.soc)
        board.soc_nic = own.chip_name if own is not None else None
    if parsed.os_release:
        board.os = parsed.os_release.pretty_name
    board.throttled = _power(parsed)
    if parsed.temperature is not None:
        board.temperature_c = parsed.temperature.celsius
    if parsed.clock is not None:
        board.arm_clock_hz = parsed.clock.hz
    governors = {
        path: value.strip()
        for path, value in parsed.sysfs.items()
        if path.endswith("/cpufreq/scaling_governor")
    }
    board.cpu_governors = [governors[p] for p in sorted(governors)]
    return board
