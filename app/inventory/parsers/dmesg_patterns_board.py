"""The board's kernel log lines (a part of dmesg_patterns, kept apart by concern): its model
(device tree, MIPS, DMI, a kernel warning's "Hardware name"), kernel version, SoC, a
/proc/cpuinfo paste inside a log, and the firmware's under-voltage warnings."""

from __future__ import annotations

from sbctune.inventory.parsers.lazy_pattern import Lazy as _Lazy

# early device-tree code prefixes the model line: drivers/of/fdt.c's pr_fmt is "OF: fdt: " in
# 6.1/6.12 and "OF: fdt:" with no space in 4.x (4.9: drivers/of/fdt.c of
# AndDiSa/android_kernel_google_msm-4.9@27c7fde7), so a 4.9 camera prints
# "OF: fdt:Machine model: ..." (corpus cam67_hi3516ev300_*)
_OF = "(?:OF: fdt: ?)?"

POWER: list[tuple[str, _Lazy]] = [
    (
        "under_voltage",
        _Lazy(r"(?i)under-?voltage detected!?(?:\s*\((?P<code>0x[0-9a-f]+)\))?"),
    ),
    (
        "voltage_normalised",
        _Lazy(r"(?i)voltage normali[sz]ed(?:\s*\((?P<code>0x[0-9a-f]+)\))?"),
    ),
]
BOARD: list[tuple[str, _Lazy]] = [
    # arm/arm64 "Machine model: %s"; MIPS prom.c "MIPS: machine is %s" (also the DT's model)
    ("machine_model", _Lazy(rf"^(?:{_OF}Machine model:|MIPS: machine is) (?P<model>.{{1,120}})$")),
    ("kernel_version", _Lazy(r"^Linux version (?P<version>[\w.+~-]{3,64}) \(")),
    (
        # a `uname -a` line pasted inside a log, as a /proc/cpuinfo paste is (below): coreutils'
        # uname prints "sysname nodename release version machine ... operating-system"; the
        # kernel's version string (init/version.c UTS_VERSION) begins "#<build> " and the
        # operating system is "GNU/Linux" (corpus/regr54_thinkpad_x1c8_zabbly_41_*)
        "kernel_version",
        _Lazy(
            r"^Linux [\w.-]{1,64} (?P<version>\d[\w.+~-]{2,63}) #\S{1,40} .{0,200}"
            r"(?:GNU/Linux|Android)$"
        ),
    ),
    (
        # a USB root hub's manufacturer string is the running kernel's: drivers/usb/core/hcd.c
        # rh_string() makes it "%s %s %s" of utsname's sysname and release and the HCD's
        # description, hub.c announce_device() prints it (show_string(): "%s: %s"), and only a
        # root hub is named "usb%d" (usb.c usb_alloc_dev()): "usb usb5: Manufacturer: Linux
        # 5.10.42 xhci-hcd" (6.1 and 6.12 alike; corpus/qcsm61_odroidxu4_haos_1488_*)
        "kernel_version",
        _Lazy(r"^usb usb\d{1,3}: Manufacturer: Linux (?P<version>\d[\w.+~-]{2,63}) [\w.-]{1,40}$"),
    ),
    (
        # the first line of every oops, warning and stack dump (lib/dump_stack.c
        # dump_stack_print_info(), 6.1: "CPU: %d PID: %d Comm: %.20s %s%s %s %.*s", 6.12 with
        # "UID: %u " before PID): the comm, "Kdump: loaded ", print_tainted() ("Not tainted"
        # or "Tainted: " and its flag letters), then the running kernel's release and its
        # version's first word ("#1642"); 3.x/4.x kernels print the same fields
        "kernel_version",
        _Lazy(
            r"^CPU: \d{1,4} (?:UID: \d{1,10} )?PID: \d{1,10} Comm: .{1,20}? (?:Kdump: loaded )?"
            r"(?:Not tainted|Tainted: [A-Z ]{1,40}?) +(?P<version>\d[\w.+~-]{2,63}) #\S{1,40}"
        ),
    ),
    # The SoC-info lines that name the SoC itself (6.1 and 6.12 alike): lantiq/prom.c
    # pr_info("SoC: %s\n", sys_type) ("SoC: xRX200 rev 1.1"); drivers/soc/imx/soc-imx8m.c
    # imx8m_soc_probe() pr_info("SoC: %s revision %s\n", soc_id, revision) ("SoC: i.MX8MM
    # revision 1.0"); drivers/soc/atmel/soc.c at91_soc_init() pr_info("Detected SoC: %s,
    # revision %X\n", soc->name, ...). A name with spaces (ath79's "Qualcomm Atheros QCA9558 ver
    # 1 rev 0") is not read: the SoC would be a sentence.
    (
        "soc_line",
        _Lazy(r"^(?:Detected )?SoC: (?P<soc>\w[\w.-]{1,30}),? rev(?:ision)? [\w.]{1,12}$"),
    ),
    (
        # U-Boot's banner on Allwinner boards (arch/arm/mach-sunxi/cpu_info.c print_cpuinfo():
        # "CPU:   Allwinner %s (SUN%dI[ %04x])", "CPU:   Allwinner H5 (SUN50I)"), pasted with
        # the kernel's log when a board boots over the network: the SoC itself
        "soc_line",
        _Lazy(
            r"^CPU:\s+Allwinner (?P<soc>[A-Z]\d{1,3}[A-Za-z]?) \(SUN\d{1,2}I(?: [0-9a-f]{4})?\)$"
        ),
    ),
    (
        # a MIPS SoC's own sentence (get_system_type()): ralink prom_init() pr_info("SoC Type:
        # %s\n"), ath79_detect_sys_type() pr_info("SoC: %s\n"); which word is the SoC is the
        # platform's format's (catalog/mips_system_types.py), so the whole sentence is kept
        "system_type",
        _Lazy(r"^SoC(?: Type)?: (?P<system>\S.{2,100})$"),
    ),
    (
        "dmi",  # dmi_show_system(): "DMI: <vendor> <product>/<board>, BIOS <version> <date>"
        _Lazy(r"^DMI: (?P<model>[^/]{1,120}?)(?:/(?P<board>[^/]{1,120}?))?, BIOS .{0,80}$"),
    ),
    (
        # a /proc/cpuinfo paste inside a log: "Hardware : BCM2835", "Revision : a02082"; MIPS's
        # "system type" and "machine" (arch/mips/kernel/proc.c show_cpuinfo())
        "cpuinfo",
        _Lazy(
            r"^(?P<key>Hardware|Revision|Model|system type|machine)\s*: "
            r"(?P<value>\S(?:.{0,118}\S)?)\s*$"
        ),
    ),
]
HARDWARE_NAME: list[tuple[str, _Lazy]] = [
    (
        # the header of a kernel warning: "Hardware name: X (DT)" (arm64: the device tree's
        # model), "X, BIOS ..." (x86: DMI), a bare "X" (32-bit ARM: the machine description's
        # name, which build.py tells from a board by resources/kernel_source/arm_machines.json)
        "machine_model",
        _Lazy(
            r"^(?P<header>Hardware name): (?P<model>[^,()]{1,120}?)(?P<dt> \(DT\))?"
            r"(?P<bios>, BIOS .*)?$"
        ),
    ),
]
BOARD_NEEDLES: dict[str, tuple[str, ...]] = {
    "under_voltage": ("oltage",),
    "voltage_normalised": ("ormali",),
    "machine_model": ("Machine model", "Hardware name", "machine is"),
    "kernel_version": ("Linux version", "GNU/Linux", "Android", " Comm: ", "Manufacturer: Linux"),
    "soc_line": ("SoC: ", "Allwinner "),
    "system_type": ("SoC",),
    "dmi": ("DMI: ",),
    "cpuinfo": ("Hardware", "Revision", "Model", "system type", "machine"),
}
