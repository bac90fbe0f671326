"""The lab's word that its per-core CPU figures are this host's (``/etc/sbctune-lab-cpu``).

The lab is namespaces on this host and /proc/stat is not namespaced: the sampler's per-core
counters in a lab are the host's real ones (2 cores on this VM), while the profile's Pi has its
own count (4 on a Pi 4, which `inspect` shows from the lab's /sys/devices/system/cpu). The lab
does not make up a Pi's /proc/stat; it says what the figures are, in one line of the lab's
private /etc, which the product's sampler reads (sbctune.measure.sampler_data.LabCpu) and the
CPU chart and the command line then call "lab host CPU, N cores". A real Pi has no such file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

MARKER = "sbctune-lab-cpu"  # under the lab's /etc
_CPU_LINE = re.compile(r"^cpu[0-9]+ ")


def host_cpus(proc_stat: Path = Path("/proc/stat")) -> int:
    """The cores /proc/stat lists on this host (what the sampler will read in the lab)."""
    text = proc_stat.read_text(encoding="utf-8", errors="replace")
    return sum(1 for line in text.splitlines() if _CPU_LINE.match(line)) or (os.cpu_count() or 1)


def line(pi_cpus: int | None, host: int | None = None) -> str:
    host = host if host is not None else host_cpus()
    pi = f" pi_cpus={pi_cpus}" if pi_cpus else ""
    return f"host_cpus={host}{pi}\n"


def write(etc_upper: Path, pi_cpus: int | None) -> Path:
    """The marker in the lab's /etc overlay (its upper dir: the host's /etc is untouched)."""
    path = etc_upper / MARKER
    path.write_text(line(pi_cpus), encoding="utf-8")
    os.chmod(path, 0o644)  # the lab user's sampler reads it
    return path
