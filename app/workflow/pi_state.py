"""The Pi's settings a run ran under, read as it starts: offloads, rings, coalescing, MTU, the
sysctls sbctune tunes, CPU governor and clock, IRQ affinity, RPS/XPS, qdisc, kernel and driver
versions. Kept with the run (RunRecord.pi_state) so that compare can say what changed between
two runs. The knob files are read with the tuning package's reader (sbctune.tuning.probe).

The result is a flat map "group/name" -> value; every value is text from the Pi, so it is
cleaned (printable characters only) and bounded before it is kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from sbctune.kernel_words import release_words
from sbctune.limits import parse_json
from sbctune.remote import batch
from sbctune.tuning.catalog import tweak
from sbctune.tuning.knobs import safe_name
from sbctune.tuning.probe import Facts, probe

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

MAX_VALUE = 200  # characters kept of one value
MAX_KEYS = 400  # a Pi with hundreds of queues keeps the first ones

_SYSFS_GROUPS = (
    ("/queues/rx-", "/rps_cpus", "rps"),
    ("/queues/tx-", "/xps_cpus", "xps"),
)


def clean(text: str) -> str:
    """One line of printable text, bounded: safe to print and to store."""
    kept = "".join(c if c.isprintable() else " " for c in text.strip())
    return " ".join(kept.split())[:MAX_VALUE]


def _pairs(text: str) -> dict[str, str]:
    """`name: value` lines (ethtool -k / -c / -i) as a map; other lines are skipped."""
    out = {}
    for line in text.splitlines()[:500]:
        name, sep, value = line.partition(":")
        if sep and name.strip() and value.strip():
            out[clean(name)] = clean(value)
    return out


def _rings(text: str) -> dict[str, str]:
    """ethtool -g: the "Current hardware settings" part only (not the maximums)."""
    _, _, current = text.partition("Current hardware settings:")
    return _pairs(current)


def _knobs(facts: Facts, state: dict[str, str]) -> None:
    for path, read in sorted(facts.knobs.items()):
        if not read.ok:
            continue
        value = clean(read.text)
        if path.endswith("/scaling_governor"):
            state[f"governor/{path.split('/')[-2]}"] = value
        elif path.startswith("/proc/irq/") and path.endswith("/smp_affinity"):
            state[f"irq_affinity/{path.split('/')[3]}"] = value
        elif path.startswith("/proc/sys/"):
            state[f"sysctl/{path[len('/proc/sys/') :].replace('/', '.')}"] = value
        elif path.endswith("/mtu"):
            state["mtu"] = value
        for middle, suffix, group in _SYSFS_GROUPS:
            if middle in path and path.endswith(suffix):
                queue = path.split("/queues/")[1].split("/")[0]
                state[f"{group}/{queue}"] = value


def _extras_steps(nic: str | None) -> list[batch.Step]:
    steps = [
        batch.command("uname", "-r", key="kernel"),
        batch.command(
            "sh",
            "-c",
            "cat /sys/devices/system/cpu/cpufreq/policy*/scaling_cur_freq",
            key="cpu_khz",
        ),
    ]
    if nic:
        steps.append(batch.command("ethtool", "-i", nic, key="ethtool -i"))
        # The driver's name even where ethtool is missing.
        steps.append(batch.command("readlink", f"/sys/class/net/{nic}/device/driver", key="drv"))
    return steps


def _qdisc(ip_link_json: str) -> str | None:
    """The NIC's root qdisc from `ip -d -j link show` (read by the tuning probe)."""
    try:
        data = parse_json(ip_link_json or "[]")
        found = data[0].get("qdisc") if data else None
    except (ValueError, AttributeError, IndexError, TypeError):
        return None
    return clean(str(found)) if found else None


async def read_pi_state(
    session: Session, nic: str | None, irqs: Iterable[int] = ()
) -> dict[str, str]:
    """What the Pi runs with now (a failed read leaves its keys out, never fails the run)."""
    nic = safe_name(nic, "interface") if nic else None
    sysctls = list(tweak("socket-buffers").params.get("values", {}))
    facts = await probe(session, nic, list(irqs), sysctls)
    state: dict[str, str] = {}
    _knobs(facts, state)
    for key, prefix in (("ethtool -k", "offload"), ("ethtool -c", "coalesce")):
        for name, value in _pairs(facts.text(key)).items():
            state[f"{prefix}/{name}"] = value
    for name, value in _rings(facts.text("ethtool -g")).items():
        state[f"ring/{name}"] = value
    results = await session.run_script(_extras_steps(nic), timeout=30)
    found = {r.step.name: r.text for r in results if r.ok}
    if "kernel" in found:
        state["kernel"] = release_words(clean(found["kernel"]))
    for i, khz in enumerate(found.get("cpu_khz", "").split()[:16]):
        state[f"cpu_khz/policy{i}"] = clean(khz)
    info = _pairs(found.get("ethtool -i", ""))
    for name in ("driver", "version", "firmware-version"):
        if name in info:
            state[f"driver/{name}"] = info[name]
    if "driver/driver" not in state and found.get("drv", "").strip():
        state["driver/driver"] = clean(found["drv"].strip().rsplit("/", 1)[-1])
    qdisc = _qdisc(facts.text("ip-link"))
    if qdisc:
        state["qdisc"] = qdisc
    return dict(list(state.items())[:MAX_KEYS])
