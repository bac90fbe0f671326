"""Board and OS facts: ``/proc/cpuinfo``, ``/etc/os-release``, ``uname -a`` and
``/proc/device-tree/model``."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field

from .common import Parsed, ParseWarning, finish, guarded, is_noise, split_lines


@dataclass
class CpuInfo:
    cores: int | None = None  # number of "processor" entries
    model: str | None = None  # board model line ("Model : Raspberry Pi 4 Model B Rev 1.4")
    hardware: str | None = None  # "BCM2835" (all Pis report this family name)
    revision: str | None = None  # Raspberry Pi revision code, e.g. "c03112"
    serial: str | None = None
    model_name: str | None = None  # CPU: "ARMv7 Processor rev 3 (v7l)" / x86 model name
    cpu_architecture: str | None = None
    cpu_part: str | None = None
    cpu_implementer: str | None = None
    vendor_id: str | None = None  # x86 "GenuineIntel"
    features: list[str] = field(default_factory=list)
    # MIPS (arch/mips/kernel/proc.c show_cpuinfo()): get_system_type() ("MediaTek MT7628AN ver:1
    # eco:2") and mips_get_machine_name(), the device tree's model
    system_type: str | None = None
    machine: str | None = None


_CPUINFO_KEYS = {
    "processor", "BogoMIPS", "bogomips", "Features", "flags", "CPU implementer",
    "CPU architecture", "CPU variant", "CPU part", "CPU revision", "Hardware", "Revision",
    "Serial", "Model", "model name", "vendor_id", "cpu family", "model", "stepping", "cpu MHz",
    "cache size", "cpu cores", "siblings", "core id", "physical id", "isa", "uarch", "hart",
    "system type", "machine",
}  # fmt: skip
_CPUINFO_RE = re.compile(r"^([A-Za-z][\w ()]*?)\s*:\s?(.*)$")


def parse_cpuinfo(text: str) -> Parsed[CpuInfo]:
    """``/proc/cpuinfo`` on ARM (Pi: Hardware, Revision, Model) and x86."""
    return guarded("/proc/cpuinfo", _parse_cpuinfo, text, CpuInfo)


def _parse_cpuinfo(text: str) -> Parsed[CpuInfo]:
    info = CpuInfo()
    processors = 0
    found = bad = 0
    for line in split_lines(text):
        if is_noise(line):
            continue
        m = _CPUINFO_RE.match(line)
        if not m:
            bad += 1
            continue
        key, value = m.group(1).strip(), m.group(2).strip()
        if key in _CPUINFO_KEYS:
            found += 1
        if key == "processor":
            processors += 1
        elif key == "Model":
            info.model = value or None
        elif key == "Hardware":
            info.hardware = value or None
        elif key == "Revision":
            info.revision = value or None
        elif key == "Serial":
            info.serial = value or None
        elif key == "system type" and info.system_type is None:
            info.system_type = value or None
        elif key == "machine" and info.machine is None:
            info.machine = value or None
        elif key == "model name" and info.model_name is None:
            info.model_name = value or None
        elif key == "CPU architecture" and info.cpu_architecture is None:
            info.cpu_architecture = value or None
        elif key == "CPU part" and info.cpu_part is None:
            info.cpu_part = value or None
        elif key == "CPU implementer" and info.cpu_implementer is None:
            info.cpu_implementer = value or None
        elif key == "vendor_id" and info.vendor_id is None:
            info.vendor_id = value or None
        elif key in {"Features", "flags"} and not info.features:
            info.features = value.split()
    info.cores = processors or None
    return info, finish("/proc/cpuinfo", text, found, bad)


# --- /etc/os-release -----------------------------------------------------------------


@dataclass
class OsRelease:
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def pretty_name(self) -> str | None:
        return self.fields.get("PRETTY_NAME") or self.fields.get("NAME")

    @property
    def id(self) -> str | None:
        return self.fields.get("ID")

    @property
    def version_id(self) -> str | None:
        return self.fields.get("VERSION_ID")

    @property
    def version_codename(self) -> str | None:
        return self.fields.get("VERSION_CODENAME")

    @property
    def id_like(self) -> list[str]:
        return (self.fields.get("ID_LIKE") or "").split()


def parse_os_release(text: str) -> Parsed[OsRelease]:
    """``/etc/os-release``: ``KEY=value`` lines, values optionally quoted."""
    return guarded("/etc/os-release", _parse_os_release, text, OsRelease)


def _parse_os_release(text: str) -> Parsed[OsRelease]:
    res = OsRelease()
    bad = 0
    for line in split_lines(text):
        if is_noise(line) or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^\s*([A-Z][A-Z0-9_]*)=(.*)$", line)
        if not m:
            bad += 1
            continue
        value = m.group(2).strip()
        try:
            parts = shlex.split(value)
            value = parts[0] if len(parts) == 1 else " ".join(parts)
        except ValueError:
            value = value.strip("\"'")
        res.fields[m.group(1)] = value
    return res, finish("/etc/os-release", text, len(res.fields), bad)


# --- uname -a --------------------------------------------------------------------------


@dataclass
class Uname:
    kernel_name: str | None = None
    hostname: str | None = None
    kernel_release: str | None = None
    kernel_version: str | None = None
    machine: str | None = None
    operating_system: str | None = None

    @property
    def is_64bit(self) -> bool | None:
        if not self.machine:
            return None
        return self.machine in {"aarch64", "x86_64", "arm64", "riscv64", "ppc64le"}


def parse_uname(text: str) -> Parsed[Uname]:
    """``uname -a``: ``Linux host 6.1.0-rpi7-rpi-v8 #1 SMP ... aarch64 GNU/Linux``."""
    return guarded("uname -a", _parse_uname, text, Uname)


_KERNEL_NAMES = frozenset({"Linux", "Darwin", "FreeBSD", "GNU/Linux"})
_LIST_MARKER = re.compile(r"[-+*]|\d{1,9}[.)]")


def _parse_uname(text: str) -> Parsed[Uname]:
    lines = [ln for ln in split_lines(text) if not is_noise(ln)]
    res = Uname()
    if not lines:
        return res, finish("uname -a", text, 0, 0)
    tokens = lines[0].split()
    # an issue template's answer as a Markdown list item ("- Linux HomeStation 4.4.59+ ...",
    # "1. Linux ..."): CommonMark's bullet (-, + or *) or ordered marker (digits then . or )),
    # a word of its own before the line's text, is the form's, not uname's
    if len(tokens) > 3 and _LIST_MARKER.fullmatch(tokens[0]) and tokens[1] in _KERNEL_NAMES:
        tokens = tokens[1:]
    if len(tokens) < 3 or tokens[0] not in _KERNEL_NAMES:
        return res, finish("uname -a", text, 0, len(lines))
    res.kernel_name, res.hostname = tokens[0], tokens[1]
    # "unknown" is what uname prints for a field it does not know (the lab, for a kernel its
    # profile did not capture): not a release, a build or a machine
    res.kernel_release = tokens[2] if tokens[2] != "unknown" else None
    rest = tokens[3:]
    if rest and rest[-1] in {"GNU/Linux", "Linux", "Android"}:
        res.operating_system = rest.pop()
    if rest and re.match(r"^(?:aarch64|arm\w*|x86_64|i\d86|riscv\d+|mips\w*|ppc\w*)$", rest[-1]):
        res.machine = rest.pop()
        # uname -a repeats the machine as processor and hardware platform on some systems
        while rest and rest[-1] in {res.machine, "unknown"}:
            rest.pop()
    rest = [word for word in rest if word != "unknown"]
    res.kernel_version = " ".join(rest) or None
    return res, finish("uname -a", text, 1, len(lines) - 1)


def parse_proc_version(text: str) -> Parsed[Uname]:
    """``/proc/version``: the kernel's banner, ``Linux version 3.4.67-... (root@kali) (gcc
    version 4.7 (GCC) ) #1 SMP PREEMPT ...``; fs/proc/version.c version_proc_show() prints
    linux_proc_banner "%s version %s (...@...) (...) %s" with utsname's sysname, release and
    version (init/version.c, 2.6 to 6.12), so the release is the third word."""
    return guarded("/proc/version", _parse_proc_version, text, Uname)


def _parse_proc_version(text: str) -> Parsed[Uname]:
    lines = [ln for ln in split_lines(text) if not is_noise(ln) and ln.strip()]
    res = Uname()
    m = _PROC_VERSION_RE.match(lines[0].strip()) if lines else None
    if m is None:
        return res, finish("/proc/version", text, 0, len(lines))
    res.kernel_name, res.kernel_release = m.group("name"), m.group("release")
    # the version (utsname's, "#1 SMP PREEMPT ...") follows the compiler's parenthesis
    res.kernel_version = m.group("version")
    return res, finish("/proc/version", text, 1, len(lines) - 1)


_PROC_VERSION_RE = re.compile(
    r"^(?P<name>Linux) version (?P<release>[\w.+~-]{1,64}) \(.{0,400}?\) (?P<version>#\d.{0,200})?$"
)


def parse_uname_fields(fields: str, text: str) -> Parsed[Uname]:
    """``uname -r -m``, ``uname -mr``, ``uname -r``: the fields ``fields`` names ("rm"), one
    word each in uname.c's order; the kernel version (-v) holds spaces, so it is the words left
    between the fields before it and those after it."""
    return guarded("uname", lambda raw: _parse_uname_fields(fields, raw), text, Uname)


def _parse_uname_fields(fields: str, text: str) -> Parsed[Uname]:
    lines = [ln for ln in split_lines(text) if not is_noise(ln) and ln.strip()]
    res = Uname()
    words = lines[0].split() if lines else []
    before = fields.split("v")[0]
    after = fields.split("v")[1] if "v" in fields else ""
    spaced = "v" in fields  # the version's words: any number of them
    if len(lines) != 1 or len(words) < len(fields) or (not spaced and len(words) != len(fields)):
        return res, finish("uname", text, 0, len(lines))
    attrs = {"s": "kernel_name", "n": "hostname", "r": "kernel_release", "m": "machine"}
    values = dict(zip(before, words[: len(before)], strict=True))
    values |= dict(zip(after, words[len(words) - len(after) :], strict=True))
    if "v" in fields:
        values["v"] = " ".join(words[len(before) : len(words) - len(after)])
    for f, value in values.items():
        if f in attrs and value != "unknown":
            setattr(res, attrs[f], value)
        elif f == "v":
            res.kernel_version = value or None
        elif f == "o":
            res.operating_system = value
    return res, finish("uname", text, 1, 0)


# --- /proc/device-tree/model -------------------------------------------------------------


@dataclass
class DeviceTreeModel:
    model: str | None = None


_MODEL_TAIL_RE = re.compile(r"^(.*\bRev \d+\.\d+)([A-Za-z].*)$")


def parse_device_tree_model(text: str) -> Parsed[DeviceTreeModel]:
    """``/proc/device-tree/model``: one NUL-terminated string."""
    return guarded("/proc/device-tree/model", _parse_device_tree_model, text, DeviceTreeModel)


def _parse_device_tree_model(text: str) -> Parsed[DeviceTreeModel]:
    warnings: list[ParseWarning] = []
    value = text.split("\x00", 1)[0] if "\x00" in text else text
    lines = [ln.strip() for ln in value.split("\n") if ln.strip() and not is_noise(ln)]
    if not lines:
        return DeviceTreeModel(), finish(
            "/proc/device-tree/model", text, 0, 0 if not text.strip() else 1
        )
    model = lines[0]
    if "\x00" not in text:
        m = _MODEL_TAIL_RE.match(model)
        if m:  # "...Rev 1.4root": the next shell prompt glued to the NUL-terminated string
            model = m.group(1)
            warnings.append(
                ParseWarning(
                    "/proc/device-tree/model",
                    f"text after the model was dropped ({m.group(2)!r}, probably a shell prompt)",
                )
            )
    if not model.isprintable() or len(model) > 200:
        return DeviceTreeModel(), [
            ParseWarning("/proc/device-tree/model", "nothing could be read (not a model string)")
        ]
    extra = len(lines) - 1
    if extra:
        warnings.append(ParseWarning("/proc/device-tree/model", f"{extra} extra lines ignored"))
    return DeviceTreeModel(model=model), warnings


# --- /proc/device-tree/compatible --------------------------------------------------------


@dataclass
class DeviceTreeCompatible:
    """Most specific first: ``radxa,rock-5b``, ``rockchip,rk3588``."""

    values: list[str] = field(default_factory=list)


_COMPATIBLE_RE = re.compile(r"^[A-Za-z0-9][\w.+-]*,[\w.+-]+$")


def parse_device_tree_compatible(text: str) -> Parsed[DeviceTreeCompatible]:
    """``/proc/device-tree/compatible``: NUL-separated strings (pasted: spaces or lines)."""
    return guarded("/proc/device-tree/compatible", _parse_compatible, text, DeviceTreeCompatible)


def _parse_compatible(text: str) -> Parsed[DeviceTreeCompatible]:
    parts = re.split(r"[\x00\s]+", text.strip())
    values = [p for p in parts if _COMPATIBLE_RE.match(p)][:16]
    bad = len([p for p in parts if p and not _COMPATIBLE_RE.match(p) and not is_noise(p)])
    return DeviceTreeCompatible(values), finish(
        "/proc/device-tree/compatible", text, len(values), bad, what="strings"
    )
