"""What every tweak planner gets: the tweak, the facts read on the Pi, the inventory, the NIC,
the user's options, and the boot files as edited by the tweaks planned before it."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sbctune.inventory.model import Inventory, Nic
from sbctune.tuning import driver_caps, link_wait, ssh_stack
from sbctune.tuning.driver_caps import DriverCaps
from sbctune.tuning.knobs import parse_cpu_list
from sbctune.tuning.model import NotNeeded, PlannedTweak, Tweak
from sbctune.tuning.probe import Facts

ONLINE_CPUS = "/sys/devices/system/cpu/online"
# The CPUs a boot option took from the kernel's housekeeping, which an RPS map cannot use
# (driver_caps.json _kernel isolated_cpus_shown, nohz_full_cpus_shown: drivers/base/cpu.c)
LEFT_OUT_CPUS = (
    ("/sys/devices/system/cpu/isolated", "isolcpus="),
    ("/sys/devices/system/cpu/nohz_full", "nohz_full="),
)


@dataclass
class Context:
    tweak: Tweak
    facts: Facts
    inventory: Inventory
    nic: Nic | None
    options: dict[str, Any]
    pending: dict[str, str] = field(default_factory=dict)  # boot files as edited so far
    selected: tuple[str, ...] = ()  # the tweak ids planned together

    @property
    def iface(self) -> str | None:
        return self.facts.nic

    @property
    def caps(self) -> DriverCaps | None:
        """What the NIC's driver can do, from the kernel's source (None: not in the table)."""
        nic = self.nic
        return driver_caps.caps(
            nic.driver if nic else None, self.inventory.board.kernel, nic.chip if nic else None
        )

    def carries_ssh(self) -> bool:
        """Whether the NIC is the one this SSH session runs over, itself or under the device the
        route names (a bridge, bond, VLAN or DSA user port: ssh_stack); unknown counts as yes."""
        return self.ssh_path() is not None

    def ssh_path(self) -> list[str] | None:
        """The devices from the one the session's route leaves by down to the NIC ([nic] where
        it is the route's own device; [nic] too where either was not read: unknown counts as
        the NIC), or None where the session does not run over the NIC."""
        iface = self.iface or ""
        result = self.facts.step("ssh-route")
        if result is None or not result.ok:
            return [iface]
        try:
            routes = json.loads(result.text or "[]")
            dev = routes[0].get("dev") if isinstance(routes, list) and routes else None
        except (ValueError, AttributeError):
            dev = None
        if not isinstance(dev, str) or dev == iface:
            return [iface]
        stack = self.facts.step("ssh-lowers")
        if stack is None:  # facts from before the graph was read: the route's device alone
            return None
        if not stack.ok:
            return [iface]
        return ssh_stack.path_down(dev, iface, ssh_stack.parse_lowers(stack.text))

    def stp_bridge(self) -> tuple[str, int | None] | None:
        """(bridge, seconds) where the session runs over a bridge on the NIC that runs the
        spanning tree: after the NIC's link returns, the kernel's STP (stp_state 1) forwards
        again only after listening and learning, forward_delay each (net/bridge/br_stp.c:
        br_make_forwarding); a user-space daemon's (stp_state 2) when it chooses (seconds
        None: not known). None where no such bridge is on the session's path."""
        path = self.ssh_path() or []
        stack = self.facts.step("ssh-lowers")
        if len(path) < 2 or stack is None or not stack.ok:
            return None
        seconds = ssh_stack.stp_seconds(stack.text)
        daemon = ssh_stack.user_stp(stack.text)
        for dev in path[:-1]:
            if dev in daemon:
                return dev, None
            if seconds.get(dev):
                return dev, seconds[dev]
        return None

    def stp_wait(self) -> tuple[str, int | None] | None:
        """stp_bridge where its wait is too long for this SSH session or not known: the link's
        drop (link_restart.json's about_seconds) and the bridge's listening and learning
        together past the link wait's own bound (link_wait.MOST_SECONDS, under the session's
        keepalive allowance): a restart loses the session and the guard undoes it (audit 39
        row 3: 30 s, lost). A shorter forward delay (the kernel allows 2 s: br_stp.c:
        br_set_forward_delay) stalls the session for seconds only: consent applies, as on a
        plain NIC (audit 43). None elsewhere."""
        stp = self.stp_bridge()
        if stp is None:
            return None
        seconds = stp[1]
        if seconds is None or link_wait.about_seconds() + seconds > link_wait.MOST_SECONDS:
            return stp
        return None

    def ssh_words(self) -> str:
        """'eth0 carries this SSH session', saying which device the session runs over where it
        is one stacked on the NIC: the user knows the session by that device (br0, lan1)."""
        iface = self.iface or ""
        path = self.ssh_path() or [iface]
        if len(path) < 2:
            return f"{iface} carries this SSH session"
        through = f" through {', '.join(path[1:-1])}" if len(path) > 2 else ""
        over = f"it runs over {path[0]}, stacked on {iface}{through}"
        return f"{iface} carries this SSH session ({over})"

    def cpus(self) -> list[int]:
        online = self.facts.knob(ONLINE_CPUS)
        return parse_cpu_list(online.text) if online and online.ok else []

    def left_out_cpus(self) -> dict[int, str]:
        """The online CPUs a boot option took from the kernel's housekeeping, each with that
        option (isolcpus=, nohz_full=), as the Pi lists them; none where a list is absent
        (nohz_full without CONFIG_NO_HZ_FULL), unread or not a CPU list."""
        online = set(self.cpus())
        out: dict[int, str] = {}
        for path, option in LEFT_OUT_CPUS:
            read = self.facts.knob(path)
            if read is not None and read.ok:
                for cpu in parse_cpu_list(read.text):
                    if cpu in online:
                        out.setdefault(cpu, option)
        return out

    def too_few_cpus(self) -> str | None:
        """Why work cannot be spread over the Pi's CPUs, saying what was read: one CPU online,
        or the online list unread or unreadable (then the count is not known, never taken for
        one). None where two or more CPUs are online."""
        online = self.facts.knob(ONLINE_CPUS)
        head = f"the Pi's list of online CPUs ({ONLINE_CPUS})"
        tail = "so which CPUs could take the work is not known"
        if online is None:
            return f"{head} was not read, {tail}: plan again"
        if not online.ok:
            why = online.reason[:80]
            return (f"{head} could not be read ({why}), {tail}: check that `cat {ONLINE_CPUS}` "
                    "works on the Pi (sysfs at /sys), then plan again")  # fmt: skip
        cpus = parse_cpu_list(online.text)
        if not cpus:
            return (f"{head} is not a CPU list, {tail}: check what `cat {ONLINE_CPUS}` prints "
                    "on the Pi, then plan again")  # fmt: skip
        if len(cpus) == 1:
            return f"the Pi has one CPU core online (CPU {cpus[0]}, from {ONLINE_CPUS})"
        return None


Planner = Callable[[Context], PlannedTweak]
_NUMBER = re.compile(r"[0-9]{1,19}")


def is_number(text: str) -> bool:
    return _NUMBER.fullmatch(text.strip()) is not None


def not_applicable(ctx: Context, reason: str) -> PlannedTweak:
    """Left out, why; a NotNeeded reason marks it not needed rather than not possible."""
    return PlannedTweak(ctx.tweak, False, reason, not_needed=isinstance(reason, NotNeeded))


def all_mask(cpus: list[int]) -> int:
    mask = 0
    for cpu in cpus:
        mask |= 1 << cpu
    return mask


def queue_files(ctx: Context, prefix: str, knob: str) -> list[tuple[str, Any]]:
    base = f"/sys/class/net/{ctx.iface}/queues/{prefix}"
    found = ctx.facts.glob(base, "/" + knob)
    return sorted(found.items(), key=lambda item: int(item[0][len(base) :].split("/")[0] or 0))
