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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.tuning import catalog
from sbctune.tuning.kinds_boot import has_block, marker_end
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
                if name == "arm_freq" and value.isdigit():
                    return int(value)
    return None


def top_khz(mhz: int) -> int:
    """cpuinfo_max_freq for a firmware maximum of `mhz`: rounded up to the next 100 MHz."""
    khz = mhz * 1000
    return -(-khz // STEP_KHZ) * STEP_KHZ


def not_in_force(record: SessionRecord, cmdline: str | None, cpu_max_khz: int | None) -> list[str]:
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
    return missing


async def read_in_force(session: Session) -> tuple[str | None, int | None]:
    """(/proc/cmdline, cpuinfo_max_freq in kHz) of the running Pi; None where unreadable."""
    line = await session.run(["cat", "--", CMDLINE], timeout=15)
    cmdline = line.stdout[:MAX_TEXT] if line.ok else None
    top = await session.run(["cat", "--", CPU_MAX], timeout=15)
    text = top.stdout.strip()[:32] if top.ok else ""
    return cmdline, int(text) if text.isdigit() else None
