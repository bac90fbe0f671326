"""What to read from a Pi, in two SSH round trips, as a diagnostics bundle's contents.

Round 1 (the login user): identification, USB/PCI listings, addresses, /proc and sysfs files;
the two reads round 2 depends on answer first, in a channel of their own, so round 2 starts
while round 1's slower reads still run. Round 2 (with sudo where possible, for `lspci -vv`
capabilities, `dmesg` and everything `ethtool` can tell): per-interface commands, whose
names round 1 revealed, run in a shell opened (sudo probe, sudo's password check) while
round 1 reads.
Tools that are missing on the Pi (no `lsusb` on Alpine, no `vcgencmd` off a Pi) are recorded
as missing, not as errors.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Container
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sbctune.inventory.parsers.netif import parse_ip_json
from sbctune.inventory.pci_driver_links import PCI_DRIVERS_KEY, pci_driver_files
from sbctune.limits import MAX_PROBED_INTERFACES, Capped
from sbctune.remote import batch
from sbctune.remote.errors import Disconnected, SudoFailed

if TYPE_CHECKING:  # SSH (asyncssh) only where a Pi is read, not for a bundle (issue 22)
    from sbctune.remote.session import HeldShell, Session

# Command lines exactly as contract 1 names them; argv is the line split on spaces.
ROUND1_COMMANDS = (
    "lsusb",
    "lsusb -t",
    "lspci -nnk",
    "ip -j addr",
    "ip -j link",
    "uname -a",
    "vcgencmd get_throttled",
    "vcgencmd measure_temp",
    "vcgencmd measure_clock arm",
    "iperf3 --version",
    "lsmod",  # with /proc/modules below: where either is missing (a lab on a kernel without
    # module support has no /proc/modules; a PATH may lack the lsmod of kmod), the other says
)
ROUND1_FILES = (
    "/proc/device-tree/model",
    "/sys/firmware/devicetree/base/model",
    "/proc/interrupts",
    "/proc/cpuinfo",
    "/proc/softirqs",
    "/proc/stat",
    "/etc/os-release",
    "/proc/modules",  # lsmod's source, as the kernel prints it
)
SYSFS_GLOBS = (
    "/sys/class/net/*/speed",
    "/sys/class/net/*/duplex",
    "/sys/class/net/*/operstate",
    "/sys/class/net/*/carrier",
    "/sys/class/net/*/mtu",
    "/sys/class/net/*/address",
    "/sys/class/net/*/type",
    "/sys/class/net/*/tx_queue_len",
    "/sys/class/net/*/queues/*/rps_cpus",
    "/sys/class/net/*/queues/*/rps_flow_cnt",
    "/sys/class/net/*/queues/*/xps_cpus",
    "/sys/class/net/*/statistics/rx_bytes",
    "/sys/class/net/*/statistics/tx_bytes",
    "/sys/class/net/*/statistics/rx_dropped",
    "/sys/class/net/*/statistics/rx_errors",
    "/sys/class/net/*/statistics/tx_errors",
    "/sys/class/net/*/statistics/rx_packets",
    "/sys/class/net/*/statistics/tx_packets",
    "/sys/class/net/*/statistics/tx_dropped",
    "/sys/bus/usb/devices/*/speed",
    "/sys/bus/usb/devices/*/idVendor",
    "/sys/bus/usb/devices/*/idProduct",
    "/sys/bus/usb/devices/*/product",
    "/sys/bus/usb/devices/*/busnum",
    "/sys/bus/usb/devices/*/devnum",
    "/sys/devices/system/cpu/present",  # the cores (the lab serves its Pi's, not the host's)
    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor",
    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_available_governors",
    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq",
    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_min_freq",
    "/sys/devices/system/cpu/cpu*/cpufreq/scaling_max_freq",
    "/sys/devices/system/cpu/cpu*/cpufreq/cpuinfo_max_freq",
    "/proc/sys/net/core/rmem_max",
    "/proc/sys/net/core/wmem_max",
    "/proc/sys/net/core/netdev_max_backlog",
    "/proc/sys/net/core/netdev_budget",
    "/proc/sys/net/core/rps_sock_flow_entries",
    "/proc/sys/net/ipv4/tcp_rmem",
    "/proc/sys/net/ipv4/tcp_wmem",
)
# Where each interface's device sits (bus path) and which driver is bound to it. Virtual
# interfaces have no device link (`readlink -f` would still print a made-up path).
_NET_LINKS = (
    'for i in /sys/class/net/*; do printf "%s\\0%s\\0%s\\0" "${i##*/}" '
    '"$([ -e "$i/device" ] && readlink -f "$i/device")" '
    '"$([ -e "$i/device/driver" ] && readlink "$i/device/driver")"; done'
)
# Which driver each PCI function is bound to: the `driver` link that drivers/base/dd.c
# driver_sysfs_add() makes at bind and driver_sysfs_remove() drops at unbind (6.1 and 6.12). A
# function listed here without one has no driver: the proof of "no driver" that neither plain
# `lspci` nor an excerpt of the kernel log gives (seed 004's I340, whose igb was not built).
_PCI_DRIVERS = (
    'for d in /sys/bus/pci/devices/*; do [ -e "$d" ] && printf "%s\\0%s\\0" "${d##*/}" '
    '"$([ -e "$d/driver" ] && readlink "$d/driver")"; done; true'
)
ROUND2_COMMANDS = ("lspci -vv", "dmesg")
PER_INTERFACE = (
    "ethtool {}",
    "ethtool -i {}",
    "ethtool -k {}",
    "ethtool -g {}",
    "ethtool -l {}",
    "ethtool -c {}",
    "ethtool -S {}",
)

_SAFE_IFACE = re.compile(r"^[A-Za-z0-9_.:@-]{1,15}$")
_VIRTUAL_PREFIXES = (
    "lo",
    "docker",
    "veth",
    "br-",
    "virbr",
    "tun",
    "tap",
    "wg",
    "dummy",
    "ifb",
    "ovs",
)


@dataclass
class Collection:
    """Raw outputs by command line and by file path, as a diagnostics bundle holds them."""

    host: str
    commands: dict[str, str] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    exit_codes: dict[str, int] = field(default_factory=dict)
    missing_tools: list[str] = field(default_factory=list)
    links: dict[str, tuple[str, str]] = field(default_factory=dict)  # iface -> (device, driver)
    used_sudo: bool = False
    round_trips: int = 0
    warnings: list[str] = field(default_factory=list)
    lost: str = ""  # the SSH connection was lost part-way: what was read before it is here


def _cmd(line: str) -> batch.Step:
    return batch.Step(tuple(line.split(" ")), key=line, timeout=20)


def round1_steps() -> list[batch.Step]:
    """Round 1's reads (the sudo probe is not one: `Session.sudo_mode` runs it beside them)."""
    steps = [_cmd(line) for line in ROUND1_COMMANDS]
    steps += [batch.read_file(path) for path in ROUND1_FILES]
    steps.append(batch.read_globs(SYSFS_GLOBS, key="sysfs"))
    steps.append(batch.Step(("sh", "-c", _NET_LINKS), key="net-links"))
    steps.append(batch.Step(("sh", "-c", _PCI_DRIVERS), key=PCI_DRIVERS_KEY))
    return steps


def round2_steps(interfaces: list[str]) -> list[batch.Step]:
    steps = [_cmd(line) for line in ROUND2_COMMANDS]
    for iface in interfaces:
        steps += [_cmd(template.format(iface)) for template in PER_INTERFACE]
    return steps


def _split_links(data: bytes) -> dict[str, tuple[str, str]]:
    parts = data.decode("utf-8", errors="replace").split("\0")
    links = {}
    for name, device, driver in zip(parts[0::3], parts[1::3], parts[2::3], strict=False):
        if _SAFE_IFACE.match(name):
            links[name] = (device, driver.rsplit("/", 1)[-1] if driver else "")
    return links


def _record(collection: Collection, result: batch.StepResult) -> None:
    key = result.step.name
    tool = result.step.argv[0]
    if result.truncated:  # the Pi sent only the part the limit keeps (README: Limits)
        cut = Capped(result.stdout, True)
        collection.warnings.append(cut.warning(key, result.step.max_bytes))
    if result.missing:
        if tool not in collection.missing_tools:
            collection.missing_tools.append(tool)
        return
    if result.step.argv[:2] == ("cat", "--"):
        if result.ok:
            collection.files[key] = result.text
        return
    collection.commands[key] = result.text or result.error_text
    collection.exit_codes[key] = result.exit_code


def interfaces_to_probe(
    links: dict[str, tuple[str, str]], addressed: Container[str] = ()
) -> list[str]:
    """Physical-looking interfaces (and any with a device), never loopback or bridges. Those
    with a device (a real NIC) come first, then those with a global address (the ones in
    use), so a bound on the count cuts a container host's veths, not its uplink."""
    found = [
        (not device, name not in addressed, name)
        for name, (device, _driver) in links.items()
        if device or not name.startswith(_VIRTUAL_PREFIXES)
    ]
    return [name for *_rank, name in sorted(found)]


def addressed_interfaces(ip_addr_json: str) -> set[str]:
    """Names of the interfaces with a global address in ``ip -j addr`` (garbage: none)."""
    parsed, _warnings = parse_ip_json(ip_addr_json)
    return {i.name for i in parsed.interfaces if any(a.scope == "global" for a in i.addresses)}


def bounded(interfaces: list[str], limit: int = MAX_PROBED_INTERFACES) -> tuple[list[str], str]:
    """At most ``limit`` interfaces to probe, and the warning that says so when cut."""
    if len(interfaces) <= limit:
        return interfaces, ""
    left = len(interfaces) - limit
    return interfaces[:limit], (
        f"{len(interfaces)} network interfaces were found; sbctune asked ethtool about the"
        f" first {limit} (those with a device or an address first) and left out {left}"
        f" ({', '.join(interfaces[limit : limit + 3])}, …): their driver, offloads and rings"
        " are not in this inventory"
    )


# Round 1's steps that decide round 2: the interfaces and their addresses. They run first,
# in a small batch of their own, and round 2 starts as soon as they answer, while round 1's
# other reads (the sysfs walk, the listings) still run beside it: two round trips one after
# the other, as before. Round 2's shell is opened meanwhile (`_hold_round2`): the sudo probe,
# then sudo's password check (PAM hashes the password: tens of ms on a Pi) happen beside
# round 1's reads, not between them and round 2's.
EARLY_KEYS = frozenset({"ip -j addr", "net-links"})


@dataclass
class _Second:
    """Round 2's outcome: its results (none when the connection was lost), whether sudo was
    used, the warnings it adds and the extra round trip of a sudo refused."""

    results: list[batch.StepResult] = field(default_factory=list)
    sudo: bool = False
    warnings: list[str] = field(default_factory=list)
    lost: str = ""
    retried: bool = False
    shell: HeldShell | None = None


async def _hold_round2(session: Session, use_sudo: bool) -> _Second:
    """Round 2's shell, held open for its steps: as root where the login may (the session's
    sudo probe answers how, in a command of its own unless already known), else as the
    login user, with the warning that says so when sudo refused."""
    second = _Second()
    if use_sudo:
        mode = await session.sudo_mode()
        second.sudo = mode != "password" or bool(session.target.effective_sudo_password())
    try:
        second.shell = await session.hold_shell(sudo=second.sudo)
    except SudoFailed as exc:  # refused: read what a plain user may
        second.warnings.append(f"sudo failed ({exc}); read as a plain user instead")
        second.sudo, second.retried = False, True
        second.shell = await session.hold_shell()
    return second


async def _round2(
    session: Session, steps: list[batch.Step], holding: asyncio.Future[_Second]
) -> _Second:
    second = _Second()
    try:
        second = await holding
        try:
            second.results = await session.run_script(steps, parallel=True, held=second.shell)
        except SudoFailed as exc:  # a shell that could not be held, refused at its start
            second.warnings.append(f"sudo failed ({exc}); read as a plain user instead")
            second.sudo, second.retried = False, True
            second.results = await session.run_script(steps, parallel=True)
    except Disconnected as lost:  # what the first round read is kept and shown
        second.lost = lost.message
        second.warnings.append(
            f"{lost.message} Only the first part of the inspection was read: the NICs' "
            "driver, ring, offload and interrupt details are missing."
        )
    return second


async def _settle(tasks: list[asyncio.Future[Any]]) -> None:
    """Cancel what still runs (a cancel also stops its command on the Pi) and wait for every
    task, so that no failure is left unread."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


async def _let_go(holding: asyncio.Future[_Second]) -> None:
    """Round 2's shell when round 2 never took it (round 1 failed): stopped on the Pi."""
    if holding.done() and not holding.cancelled() and holding.exception() is None:
        shell = holding.result().shell
        if shell is not None:
            await shell.cancel()


async def collect(session: Session, *, use_sudo: bool = True) -> Collection:
    """Read everything the inventory needs from the Pi in two round trips (the second one
    starts while the first one's slower reads still run: `EARLY_KEYS`, in a shell opened
    while the first one reads: `_hold_round2`)."""
    collection = Collection(host=session.target.host)
    steps = round1_steps()
    early = [step for step in steps if step.key in EARLY_KEYS]
    later = [step for step in steps if step.key not in EARLY_KEYS]
    holding = asyncio.ensure_future(_hold_round2(session, use_sudo))
    rest = asyncio.ensure_future(session.run_script(later, parallel=True))  # side by side
    round2: asyncio.Task[_Second] | None = None
    try:
        by_step = dict(zip(early, await session.run_script(early, parallel=True), strict=True))
        answer = {result.step.key: result for result in by_step.values()}
        links = _split_links(answer["net-links"].stdout)
        ip_addr = answer["ip -j addr"]
        addressed = addressed_interfaces(
            "" if ip_addr.missing else ip_addr.text or ip_addr.error_text
        )
        probed, cut = bounded(interfaces_to_probe(links, addressed))
        round2 = asyncio.ensure_future(_round2(session, round2_steps(probed), holding))
        by_step.update(zip(later, await rest, strict=True))
        second = await round2
    finally:
        await _settle([task for task in (rest, round2, holding) if task is not None])
        await _let_go(holding)
    collection.round_trips += 1
    collection.links = links
    for result in (by_step[step] for step in steps):  # recorded in round 1's own order
        if result.step.key == "sysfs":
            collection.files.update(batch.split_globs(result.stdout))
        elif result.step.key == PCI_DRIVERS_KEY:
            collection.files.update(pci_driver_files(result.stdout))
        elif result.step.key != "net-links":
            _record(collection, result)
    if cut:
        collection.warnings.append(cut)
    collection.warnings += second.warnings
    if second.lost:
        collection.lost = second.lost
        return collection
    collection.round_trips += 2 if second.retried else 1
    collection.used_sudo = second.sudo
    for result in second.results:
        _record(collection, result)
    # A tool that answered one invocation is installed, whatever another invocation said
    # (a wrapper, or an older version without that option, may also exit 127).
    first = list(by_step.values())
    answered = {r.step.argv[0] for r in (*first, *second.results) if not r.missing}
    if "/proc/modules" in collection.files:
        answered.add("lsmod")  # the module list was read: lsmod off the PATH is no loss
    collection.missing_tools = [t for t in collection.missing_tools if t not in answered]
    return collection
