"""Proof, read after the test boot, that a boot tweak is in force before `boot-commit` writes it
to config.txt (audit 23): the tryboot flag says the firmware read tryboot.txt, not that the
kernel and the firmware took what it asked.

- A kernel command line token (pci=pcie_bus_perf): on the running kernel's /proc/cmdline.
- arm_freq: the CPU's top clock, /sys/.../cpuinfo_max_freq. raspberrypi-cpufreq
  (drivers/cpufreq/raspberrypi-cpufreq.c, raspberrypi_cpufreq_probe, 6.1 and 6.12) asks the
  firmware's clock for its fastest rate and rounds it up to the next 100 MHz
  (RASPBERRYPI_FREQ_INTERVAL): arm_freq=2000 reads 2000000 kHz; a firmware that did not take
  the value reads its default top clock (1500000 or 1800000 on a Pi 4). It says the limit, not
  that the CPU reaches it: the firmware still drops to the default clock while it sees
  under-voltage (vcgencmd get_throttled; the planner refuses arm_freq then, boot_rules).
- dtparam=pciex1_gen=3: the speed the x1 connector's link trained at, the `current_link_speed`
  (drivers/pci/pci-sysfs.c current_link_speed_show, both: LnkSta's speed, "8.0 GT/s PCIe") of
  the device on the root port's link, which is the NIC itself or the switch above it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.tuning import catalog
from sbctune.tuning.boot_rules import GEN3_GTS
from sbctune.tuning.kinds_boot import has_block, marker_end
from sbctune.tuning.knobs import safe_name
from sbctune.tuning.record import SessionRecord

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

CMDLINE = "/proc/cmdline"
CPU_MAX = "/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_max_freq"
STEP_KHZ = 100_000  # raspberrypi-cpufreq's RASPBERRYPI_FREQ_INTERVAL (100 MHz), in kHz
MAX_TEXT = 4096  # /proc/cmdline is at most COMMAND_LINE_SIZE (2048 on arm64)


def asked_arm_freq(record: SessionRecord, tweak_id: str) -> int | None:
    """The arm_freq (MHz) the tweak's block in tryboot.txt or config.txt asked for."""
    for outcome in record.tweaks:
        if outcome.tweak_id != tweak_id or outcome.status != "applied":
            continue
        for change in outcome.changes:
            text = change.after or ""
            if not has_block(text, tweak_id):
                continue
            block = text.split(f"# >>> sbctune {tweak_id} ", 1)[1].split(marker_end(tweak_id))[0]
            for line in block.splitlines():
                name, _, value = line.strip().partition("=")
                if name == "arm_freq" and value.isascii() and value.isdigit():
                    return int(value)
    return None


def top_khz(mhz: int) -> int:
    """cpuinfo_max_freq for a firmware maximum of `mhz`: rounded up to the next 100 MHz."""
    khz = mhz * 1000
    return -(-khz // STEP_KHZ) * STEP_KHZ


def _pci_address(word: str) -> bool:
    """A PCI address as sysfs names a device folder: "0000:01:00.0"."""
    parts = word.split(":")
    if len(parts) != 3 or len(parts[0]) != 4 or len(parts[1]) != 2:
        return False
    slot, _, function = parts[2].partition(".")
    hexdigits = "0123456789abcdef"
    return (len(slot) == 2 and function.isascii() and function.isdigit()
            and all(c in hexdigits for c in parts[0] + parts[1] + slot))  # fmt: skip


def x1_link_folder(device_path: str) -> str | None:
    """From the NIC's resolved sysfs device path (…/0000:00:00.0/0000:01:00.0/…), the folder of
    the device on the root port's link: the second PCI address on the path."""
    parts = device_path.strip().split("/")
    found = [i for i, p in enumerate(parts) if _pci_address(p)]
    return "/".join(parts[: found[1] + 1]) if len(found) >= 2 else None


def link_gts(text: str | None) -> float | None:
    """current_link_speed's "8.0 GT/s PCIe" -> 8.0; None for "Unknown" or an unread file."""
    word = (text or "").split(" ", 1)[0]
    try:
        return float(word)
    except ValueError:
        return None


def not_in_force(
    record: SessionRecord,
    cmdline: str | None,
    cpu_max_khz: int | None,
    x1_gts: float | None = None,
) -> list[str]:
    """What the test session applied that the running Pi does not show in force."""
    known = {t.id: t for t in catalog.load_tweaks()}
    missing = []
    for outcome in record.tweaks:
        tweak = known.get(outcome.tweak_id)
        if outcome.status != "applied" or tweak is None or not tweak.needs_reboot:
            continue
        if tweak.kind == "boot_cmdline":
            token = str(tweak.params.get("token", ""))
            if cmdline is None:
                missing.append(f"{token}: the running kernel's command line ({CMDLINE}) could "
                               "not be read")  # fmt: skip
            elif token not in cmdline.split():
                missing.append(f"{token} is not on the running kernel's command line "
                               f"({CMDLINE}): the test boot did not use it")  # fmt: skip
        elif tweak.params.get("acts_on") == "cpu_clock":
            mhz = asked_arm_freq(record, tweak.id)
            if mhz is None or cpu_max_khz is None:
                continue  # nothing to compare: said by the caller's other checks
            if cpu_max_khz < top_khz(mhz):
                missing.append(
                    f"arm_freq={mhz} is not in force: the CPU's top clock reads "
                    f"{cpu_max_khz // 1000} MHz ({CPU_MAX}): the firmware did not take "
                    "the value"
                )
        elif tweak.params.get("acts_on") == "pcie_x1_link":
            if x1_gts is None:
                missing.append("PCIe Gen 3: the speed of the x1 connector's link "
                               "(current_link_speed) could not be read")  # fmt: skip
            elif x1_gts < GEN3_GTS:
                missing.append(f"PCIe Gen 3 is not in force: the x1 connector's link trained "
                               f"at {x1_gts:g} GT/s (current_link_speed)")  # fmt: skip
    return missing


async def read_in_force(
    session: Session, nic: str | None
) -> tuple[str | None, int | None, float | None]:
    """(/proc/cmdline, cpuinfo_max_freq in kHz, the speed of the link `nic` crosses to the
    root port in GT/s) of the running Pi; None where unreadable."""
    line = await session.run(["cat", "--", CMDLINE], timeout=15)
    cmdline = line.stdout[:MAX_TEXT] if line.ok else None
    top = await session.run(["cat", "--", CPU_MAX], timeout=15)
    text = top.stdout.strip()[:32] if top.ok else ""
    gts = None
    if nic:
        device = f"/sys/class/net/{safe_name(nic, 'interface')}/device"
        path = await session.run(["readlink", "-f", "--", device], timeout=15)
        folder = x1_link_folder(path.stdout[:MAX_TEXT]) if path.ok else None
        if folder is not None:
            speed = await session.run(["cat", "--", f"{folder}/current_link_speed"], timeout=15)
            gts = link_gts(speed.stdout[:64]) if speed.ok else None
    return cmdline, int(text) if text.isascii() and text.isdigit() else None, gts
