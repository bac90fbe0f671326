"""Read, in one SSH round trip, every value the tweaks could touch (as the login user).

Knob files are read by one small loop that reports each file's content or the kernel's error
(an `xps_cpus` that answers ENOENT is a fact the plan needs, not a failure).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sbctune.remote import batch, snippets
from sbctune.remote.batch import StepResult
from sbctune.tuning import link_hooks, nm_persist, ssh_stack, tryboot
from sbctune.tuning.knobs import safe_name

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

BOOT_DIRS = ("/boot/firmware", "/boot")  # Bookworm and later, then older images
SYSCTL_ROOT = "/proc/sys/"


@dataclass(frozen=True)
class Read:
    ok: bool
    text: str  # the value (without trailing newlines), or the error message

    @property
    def reason(self) -> str:
        """The kernel's reason from an error like 'cat: /x: No such file or directory'."""
        return self.text.strip().rsplit(": ", 1)[-1] if not self.ok else ""


@dataclass
class Facts:
    nic: str | None
    knobs: dict[str, Read] = field(default_factory=dict)
    steps: dict[str, StepResult] = field(default_factory=dict)

    def knob(self, path: str) -> Read | None:
        return self.knobs.get(path)

    def step(self, key: str) -> StepResult | None:
        return self.steps.get(key)

    def ok(self, key: str) -> bool:
        result = self.steps.get(key)
        return result is not None and result.ok

    def text(self, key: str) -> str:
        result = self.steps.get(key)
        return result.text if result is not None and result.ok else ""

    @property
    def systemd(self) -> bool:
        return self.ok("systemd")

    @property
    def netns(self) -> str:
        return self.text("netns").strip()

    def file_in(self, folder: str, name: str) -> str | None:
        """The content of `folder/name` as read, None where it does not exist."""
        result = self.steps.get(f"{folder}/{name}")
        return result.text if result is not None and result.ok else None

    def glob(self, prefix: str, suffix: str) -> dict[str, Read]:
        return {p: r for p, r in self.knobs.items() if p.startswith(prefix) and p.endswith(suffix)}

    def boot_file(self, name: str) -> tuple[str, str] | None:
        """(path, content) of config.txt / cmdline.txt in the first boot folder that has it."""
        for folder in BOOT_DIRS:
            key = f"{folder}/{name}"
            result = self.steps.get(key)
            if result is not None and result.ok:
                return key, result.text
        return None


def sysctl_path(key: str) -> str:
    return SYSCTL_ROOT + key.replace(".", "/")


def knob_patterns(nic: str | None, irqs: Iterable[int], sysctls: Iterable[str]) -> list[str]:
    patterns = [
        "/sys/devices/system/cpu/online",
        # the CPUs isolcpus= / nohz_full= took out: an RPS map cannot use them (plan_context)
        "/sys/devices/system/cpu/isolated",
        "/sys/devices/system/cpu/nohz_full",
        "/sys/devices/system/cpu/cpufreq/policy*/scaling_governor",
        "/sys/devices/system/cpu/cpufreq/policy*/scaling_available_governors",
        *(
            f"/proc/irq/{int(n)}/{name}"
            for n in irqs
            for name in ("smp_affinity", "effective_affinity")
        ),
        *(sysctl_path(k) for k in sysctls),
        sysctl_path("net.core.rps_sock_flow_entries"),
    ]
    if nic:
        base = f"/sys/class/net/{safe_name(nic, 'interface')}"
        patterns += [
            f"{base}/mtu",
            f"{base}/queues/rx-*/rps_cpus",
            f"{base}/queues/rx-*/rps_flow_cnt",
            f"{base}/queues/tx-*/xps_cpus",
        ]
    return patterns


# sshd's SSH_CONNECTION is "client port server port": the route back to the client. A
# link-local client comes with its zone ("fe80::1%eth0", glibc's getnameinfo), which `ip route
# get` refuses ("any valid prefix is expected"): the zone is the device, asked as `oif`.
SSH_ROUTE = (
    'set -- ${SSH_CONNECTION:-}; [ -n "${1:-}" ] || exit 1; case "$1" in '
    '*%*) exec ip -j route get "${1%%\\%*}" oif "${1#*%}" ;; esac; exec ip -j route get "$1"'
)


def split_knobs(data: bytes) -> dict[str, Read]:
    parts = data.decode("utf-8", errors="replace").split("\0")
    found: dict[str, Read] = {}
    for i in range(0, len(parts) - 2, 3):
        path, status, value = parts[i], parts[i + 1], parts[i + 2]
        if path and status in ("ok", "err"):
            found[path] = Read(status == "ok", value)
    return found


def steps_for(
    nic: str | None, irqs: Iterable[int], sysctls: Iterable[str], nm: bool = False
) -> list[batch.Step]:
    steps = [
        batch.Step(
            ("sh", "-c", snippets.READ_FILES, "sh", *knob_patterns(nic, irqs, sysctls)), "knobs"
        ),
        batch.command("test", "-d", "/run/systemd/system", key="systemd"),
        batch.command("readlink", "/proc/self/ns/net", key="netns"),
        # The interrupts' handler names: irq-affinity keeps them, to find its IRQs again
        batch.command("cat", "/proc/interrupts", key="interrupts"),
        batch.command("pidof", "irqbalance", key="irqbalance-pid"),
        batch.command("systemctl", "is-active", "irqbalance", key="irqbalance-systemd"),
        batch.command("sh", "-c", "command -v rc-service", key="rc-service"),
        batch.command("test", "-d", "/etc/systemd/system", key="dir:/etc/systemd/system"),
        batch.command("test", "-d", "/etc/udev/rules.d", key="dir:/etc/udev/rules.d"),
        batch.command("test", "-d", "/etc/sysctl.d", key="dir:/etc/sysctl.d"),
    ]
    if nm:
        folder = nm_persist.DISPATCHER_DIR
        steps.append(batch.command("test", "-d", folder, key=f"dir:{folder}"))
    for folder in BOOT_DIRS:
        for name in ("config.txt", "cmdline.txt", "tryboot.txt", "autoboot.txt"):
            steps.append(batch.read_file(f"{folder}/{name}"))
    steps.append(batch.command("od", "-An", "-tx1", tryboot.FLAG_PATH, key="tryboot-flag"))
    # The running kernel's command line: the pci=pcie_bus_* policy in force (boot_rules)
    steps.append(batch.read_file("/proc/cmdline"))
    if nic:
        iface = safe_name(nic, "interface")
        for option in ("-g", "-k", "-c", "--show-eee", "-a"):
            steps.append(batch.command("ethtool", option, iface, key=f"ethtool {option}"))
        steps.append(batch.command("ip", "-d", "-j", "link", "show", "dev", iface, key="ip-link"))
        # The NIC that carries this SSH session: a change that restarts it drops the link.
        steps.append(batch.command("sh", "-c", SSH_ROUTE, key="ssh-route"))
        # ... and the devices stacked on the NIC (bridge, bond, VLAN, DSA): the route may name one
        steps.append(batch.command("sh", "-c", ssh_stack.READ_LOWERS, key="ssh-lowers"))
        if nm:  # only --persist needs it (nmcli is slow to start on a small Pi)
            steps.append(batch.command("sh", "-c", nm_persist.READ, "sh", iface, key="nm"))
            # the link-up hooks where dhcpcd or ifupdown, not NM, brings the NIC up (link_hooks)
            for folder in link_hooks.DIRS:
                steps.append(batch.command("test", "-d", folder, key=f"dir:{folder}"))
            steps.append(batch.command("pidof", "dhcpcd", key="dhcpcd-pid"))
            states = link_hooks.ifupdown_states(iface)
            steps.append(batch.command("sh", "-c", link_hooks.IFUPDOWN_HAS, "sh", iface, *states,
                                       key="ifupdown-nic"))  # fmt: skip
    return steps


async def probe(
    session: Session,
    nic: str | None,
    irqs: Iterable[int],
    sysctls: Iterable[str],
    nm: bool = False,
) -> Facts:
    steps = steps_for(nic, list(irqs), list(sysctls), nm)
    # About 30 commands: a slow Pi (or an emulated one) needs more than a minute for them.
    results = await session.run_script(steps, timeout=60 + 3 * len(steps))
    facts = Facts(nic)
    for result in results:
        facts.steps[result.step.name] = result
    knobs = facts.steps.get("knobs")
    if knobs is not None:
        facts.knobs = split_knobs(knobs.stdout)
    return facts
