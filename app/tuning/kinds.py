"""The code of each tweak kind: from the facts read on the Pi, the changes it would make.

A planner never writes anything; it decides whether the tweak applies to this Pi and NIC
(from the inventory and the values read), and lists each value's before and after. Values
that the kernel already refuses to read (ENOENT on a USB NIC's xps_cpus) are listed as not
possible with the kernel's reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sbctune.inventory.model import Inventory, Nic
from sbctune.inventory.parsers.ethtool import (
    parse_ethtool_coalesce,
    parse_ethtool_features,
    parse_ethtool_rings,
)
from sbctune.tuning import catalog, tryboot
from sbctune.tuning.knobs import format_mask, mask_value, parse_cpu_list
from sbctune.tuning.model import Change, PlannedTweak, Tweak
from sbctune.tuning.parsers import parse_eee, parse_pause
from sbctune.tuning.probe import Facts, Read, sysctl_path


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

    def cpus(self) -> list[int]:
        online = self.facts.knob("/sys/devices/system/cpu/online")
        return parse_cpu_list(online.text) if online and online.ok else []


Planner = Callable[[Context], PlannedTweak]
_NUMBER = re.compile(r"[0-9]{1,19}")


def _is_number(text: str) -> bool:
    return _NUMBER.fullmatch(text.strip()) is not None


def _no(ctx: Context, reason: str) -> PlannedTweak:
    return PlannedTweak(ctx.tweak, False, reason)


def _all_mask(cpus: list[int]) -> int:
    mask = 0
    for cpu in cpus:
        mask |= 1 << cpu
    return mask


def _queue_files(ctx: Context, prefix: str, knob: str) -> list[tuple[str, Any]]:
    base = f"/sys/class/net/{ctx.iface}/queues/{prefix}"
    found = ctx.facts.glob(base, "/" + knob)
    return sorted(found.items(), key=lambda item: int(item[0][len(base) :].split("/")[0] or 0))


# --------------------------------------------------------------------------- kernel knobs


def plan_rps(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    queues = _queue_files(ctx, "rx-", "rps_cpus")
    if not queues:
        return _no(ctx, f"{ctx.iface} has no rps_cpus (the kernel was built without RPS)")
    cpus = ctx.cpus()
    if len(cpus) < 2:
        return _no(ctx, "the Pi has one CPU core: there is nothing to spread the work to")
    exclude = ctx.options.get("rps_exclude_irq_cpu", ctx.tweak.params.get("exclude_irq_cpu"))
    note = ""
    if exclude:
        busy = _irq_cpus(ctx)
        rest = [c for c in cpus if c not in busy]
        if busy and rest:
            cpus, note = (
                rest,
                f" (not CPU {', '.join(map(str, sorted(busy)))}: it takes the interrupt)",
            )
        elif busy:
            note = " (the interrupt runs on every CPU: none left out)"
        else:
            note = " (the CPU taking the interrupt is not known: none left out)"
    mask = _all_mask(cpus)
    item = PlannedTweak(ctx.tweak, True, f"receive work of {ctx.iface} on CPUs {cpus}{note}")
    for path, read in queues:
        if not read.ok:
            item.impossible.append((path, read.reason))
            continue
        item.changes.append(Change("file", path, read.text, format_mask(mask, read.text), path))
    if ctx.tweak.params.get("rfs", True) and ctx.options.get("rfs", True):
        _plan_rfs(ctx, item, len(queues))
    if not item.changes:
        item.applicable = False
        item.reason = "; ".join(f"{t}: {r}" for t, r in item.impossible)
    return item


def _plan_rfs(ctx: Context, item: PlannedTweak, queues: int) -> None:
    key = "net.core.rps_sock_flow_entries"
    read = ctx.facts.knob(sysctl_path(key))
    if read is None or not read.ok:
        reason = read.reason if read is not None else "No such file or directory"
        item.impossible.append((key, f"{reason} (RFS left off; RPS still applies)"))
        return
    wanted = int(ctx.tweak.params.get("rps_sock_flow_entries", 32768))
    current = int(read.text) if _is_number(read.text) else 0
    entries = max(current, wanted)  # only raise: another service may rely on a larger table
    item.changes.append(Change("sysctl", key, read.text, str(entries), sysctl_path(key)))
    per_queue = str(entries // max(queues, 1))
    for path, flow in _queue_files(ctx, "rx-", "rps_flow_cnt"):
        if flow.ok and _is_number(flow.text) and int(flow.text) < int(per_queue):
            item.changes.append(Change("file", path, flow.text, per_queue, path))


def plan_xps(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    queues = _queue_files(ctx, "tx-", "xps_cpus")
    if not queues:
        return _no(ctx, f"{ctx.iface} has no xps_cpus: the driver offers no transmit queue map")
    cpus = ctx.cpus()
    if len(cpus) < 2:
        return _no(ctx, "the Pi has one CPU core")
    item = PlannedTweak(ctx.tweak, True, f"transmit queues of {ctx.iface} mapped to CPUs")
    for index, (path, read) in enumerate(queues):
        if not read.ok:
            item.impossible.append((path, read.reason))
            continue
        mask = _all_mask(cpus) if len(queues) == 1 else 1 << cpus[index % len(cpus)]
        item.changes.append(Change("file", path, read.text, format_mask(mask, read.text), path))
    if not item.changes:
        item.applicable = False
        item.reason = (
            "the driver offers no transmit queue map ("
            + "; ".join(f"{t}: {r}" for t, r in item.impossible)
            + ")"
        )
    return item


def _irq_plan(ctx: Context, avoid: int) -> list[tuple[str, Read | None, str | None]]:
    """Per NIC interrupt: (smp_affinity path, value read, mask to write or None if refused)."""
    cpus = ctx.cpus()
    others = [c for c in cpus if c != avoid]
    out: list[tuple[str, Read | None, str | None]] = []
    for index, irq in enumerate(ctx.nic.irqs if ctx.nic else []):
        path = f"/proc/irq/{int(irq)}/smp_affinity"
        read = ctx.facts.knob(path)
        if read is None or not read.ok or not others:
            out.append((path, read, None))
            continue
        current = mask_value(read.text)
        if current is not None and current and not current >> avoid & 1:
            after = read.text  # already off that CPU
        else:
            after = format_mask(1 << others[index % len(others)], read.text)
        out.append((path, read, after))
    return out


def _irq_cpus(ctx: Context) -> set[int]:
    """The CPUs that take the NIC's interrupts: where irq-affinity (planned in the same
    session) puts them, else the kernel's effective affinity, else smp_affinity."""
    moving = "irq-affinity" in ctx.selected
    avoid = int(catalog.tweak("irq-affinity").params.get("avoid_cpu", 0))
    busy: set[int] = set()
    for path, read, after in _irq_plan(ctx, avoid):
        effective = ctx.facts.knob(path.replace("smp_affinity", "effective_affinity"))
        if moving and after is not None:
            text = after
        elif effective is not None and effective.ok:
            text = effective.text
        elif read is not None and read.ok:
            text = read.text
        else:
            continue
        mask = mask_value(text) or 0
        busy |= {cpu for cpu in range(mask.bit_length()) if mask >> cpu & 1}
    return busy


def plan_irq_affinity(ctx: Context) -> PlannedTweak:
    if ctx.nic is None or not ctx.nic.irqs:
        return _no(ctx, "no interrupt of this NIC was found in /proc/interrupts")
    avoid = int(ctx.tweak.params.get("avoid_cpu", 0))
    if not [c for c in ctx.cpus() if c != avoid]:
        return _no(ctx, "the Pi has one CPU core")
    item = PlannedTweak(ctx.tweak, True, f"interrupts {ctx.nic.irqs} moved off CPU {avoid}")
    for path, read, after in _irq_plan(ctx, avoid):
        if read is None or not read.ok or after is None:
            item.impossible.append((path, read.reason if read else "No such file or directory"))
            continue
        item.changes.append(Change("irq_affinity", path, read.text, after, path))
    if not item.changes:
        item.applicable = False
        item.reason = "; ".join(f"{t}: {r}" for t, r in item.impossible)
        return item
    if any(c.needed for c in item.changes):
        service = _irqbalance(ctx)
        if service is not None:
            item.changes.insert(0, service)  # before the writes, so it cannot undo them
    return item


def _irqbalance(ctx: Context) -> Change | None:
    facts = ctx.facts
    if facts.systemd:
        active = facts.text("irqbalance-systemd").strip() == "active"
        manager = "systemctl"
    else:
        active = facts.ok("irqbalance-pid") and bool(facts.text("irqbalance-pid").strip())
        manager = "rc-service" if facts.ok("rc-service") else "service"
    if not active:
        return None
    return Change("service", "irqbalance", "active", "inactive", manager)


def plan_governor(ctx: Context) -> PlannedTweak:
    wanted = str(ctx.tweak.params.get("governor", "performance"))
    base = "/sys/devices/system/cpu/cpufreq/policy"
    policies = sorted(ctx.facts.glob(base, "/scaling_governor").items())
    if not policies:
        return _no(ctx, "the kernel has no CPU frequency scaling here (no cpufreq policy)")
    item = PlannedTweak(ctx.tweak, True, f"every core at its top clock ({wanted})")
    for path, read in policies:
        available = ctx.facts.knob(path.replace("scaling_governor", "scaling_available_governors"))
        if not read.ok:
            item.impossible.append((path, read.reason))
        elif available is not None and available.ok and wanted not in available.text.split():
            item.impossible.append((path, f"the kernel offers no {wanted} governor"))
        else:
            item.changes.append(Change("governor", path, read.text, wanted, path))
    if not item.changes:
        item.applicable = False
        item.reason = "; ".join(f"{t}: {r}" for t, r in item.impossible)
    return item


def _raise_only(before: str, target: str) -> str | None:
    """Field by field, the larger of the current and the target value; None if not numbers."""
    current, wanted = before.split(), target.split()
    if len(current) != len(wanted) or not all(_is_number(w) for w in current + wanted):
        return None
    fields = [str(max(int(c), int(w))) for c, w in zip(current, wanted, strict=True)]
    if fields == current:
        return before  # unchanged, in the kernel's own spacing
    return "\t".join(fields)


def plan_sysctls(ctx: Context) -> PlannedTweak:
    values: dict[str, str] = dict(ctx.tweak.params.get("values", {}))
    item = PlannedTweak(ctx.tweak, True, "buffers and backlog raised where below the targets")
    for key, target in values.items():
        path = sysctl_path(key)
        read = ctx.facts.knob(path)
        if read is None or not read.ok:
            item.impossible.append((key, read.reason if read else "No such file or directory"))
            continue
        after = _raise_only(read.text, target)
        if after is None:
            item.impossible.append((key, f"unexpected value {read.text!r}"))
            continue
        item.changes.append(Change("sysctl", key, read.text, after, path))
    if not item.changes:
        item.applicable = False
        item.reason = "; ".join(f"{t}: {r}" for t, r in item.impossible)
    return item


# --------------------------------------------------------------------------- ethtool


def _ethtool_output(ctx: Context, option: str) -> tuple[str | None, str]:
    """(output, reason if unusable)."""
    result = ctx.facts.step(f"ethtool {option}")
    if result is None:
        return None, "no NIC chosen"
    if result.missing:
        return None, "ethtool is not installed on the Pi (`sudo apt-get install ethtool`)"
    if not result.ok:
        message = (result.error_text or result.text).strip().splitlines()
        last = message[-1] if message else "no output"
        if "not supported" in last.lower():  # EOPNOTSUPP: the driver has no such setting
            return None, f"the driver does not offer this setting ({last})"
        return None, f"the driver does not say ({last})"
    return result.text, ""


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return "".join(ch if ch.isprintable() else "?" for ch in (lines[0] if lines else ""))[:60]


def _ethtool_change(iface: str, option: str, param: str, before: str, after: str) -> Change:
    return Change("ethtool", f"{iface} {option} {param}", before, after)


def plan_rings(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-g")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    rings, _ = parse_ethtool_rings(text)
    item = PlannedTweak(ctx.tweak, True, "rings at the driver's maximum")
    for param, now, top in (("rx", rings.rx, rings.rx_max), ("tx", rings.tx, rings.tx_max)):
        if now is not None and top is not None:
            after = str(max(now, top))
            item.changes.append(_ethtool_change(ctx.iface, "-G", param, str(now), after))
    if not item.changes:
        return _no(ctx, "the driver does not offer ring sizes")
    return item


def plan_coalescing(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-c")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    coalesce, _ = parse_ethtool_coalesce(text)
    item = PlannedTweak(ctx.tweak, True, "fewer, larger interrupts")
    if coalesce.adaptive_rx is not None:
        before = "on" if coalesce.adaptive_rx else "off"
        item.changes.append(_ethtool_change(ctx.iface, "-C", "adaptive-rx", before, "on"))
        return item
    usecs = coalesce.params.get("rx-usecs")
    if usecs is not None:
        wanted = max(usecs, int(ctx.tweak.params.get("rx_usecs", 50)))
        item.changes.append(_ethtool_change(ctx.iface, "-C", "rx-usecs", str(usecs), str(wanted)))
        return item
    return _no(ctx, "the driver offers no interrupt coalescing settings")


def plan_offloads(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "-k")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    features, _ = parse_ethtool_features(text)
    item = PlannedTweak(ctx.tweak, True, "GRO/GSO/TSO on")
    names: dict[str, str] = dict(ctx.tweak.params.get("features", {}))
    for short, long in names.items():
        feature = features.features.get(long)
        if feature is None:
            continue
        if feature.fixed and not feature.enabled:
            item.impossible.append((f"{ctx.iface} -K {short}", "fixed off by the driver"))
            continue
        if feature.requested and not feature.enabled:
            # Already asked for; the kernel keeps it off because a feature it needs is off
            # (GSO needs scatter-gather, as on smsc95xx): `ethtool -K` cannot change that.
            item.impossible.append(
                (f"{ctx.iface} -K {short}", "requested on, but the kernel keeps it off")
            )
            continue
        before = "on" if feature.enabled else "off"
        item.changes.append(_ethtool_change(ctx.iface, "-K", short, before, "on"))
    if not item.changes:
        item.applicable = False
        item.reason = "the driver offers none of these offloads" + (
            "; " + "; ".join(f"{t}: {r}" for t, r in item.impossible) if item.impossible else ""
        )
    return item


def plan_eee(ctx: Context) -> PlannedTweak:
    text, reason = _ethtool_output(ctx, "--show-eee")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    eee = parse_eee(text)
    if eee.supported is None:
        return _no(ctx, "ethtool's --show-eee output was not understood (no 'EEE status:' "
                   f"line; it began {_first_line(text)!r}): EEE left as it is")  # fmt: skip
    if not eee.supported or eee.enabled is None:
        return _no(ctx, "the NIC does not support Energy-Efficient Ethernet")
    before = "on" if eee.enabled else "off"
    item = PlannedTweak(ctx.tweak, True, "EEE off")
    item.changes.append(_ethtool_change(ctx.iface, "--set-eee", "eee", before, "off"))
    return item


def plan_pause(ctx: Context) -> PlannedTweak:
    drivers = [str(d) for d in ctx.tweak.params.get("drivers", [])]
    driver = ctx.nic.driver if ctx.nic else None
    if driver not in drivers:
        return _no(ctx, f"only for NICs known to need it ({', '.join(drivers)})")
    text, reason = _ethtool_output(ctx, "-a")
    if text is None or not ctx.iface:
        return _no(ctx, reason)
    pause = parse_pause(text)
    item = PlannedTweak(ctx.tweak, True, "RX and TX pause frames on")
    for param, flag in (("rx", pause.rx), ("tx", pause.tx)):
        if flag is not None:
            before = "on" if flag else "off"
            item.changes.append(_ethtool_change(ctx.iface, "-A", param, before, "on"))
    if not item.changes:
        return _no(ctx, "ethtool's -a output was not understood (no 'RX:'/'TX:' on/off lines; "
                   f"it began {_first_line(text)!r}): flow control left as it is")  # fmt: skip
    return item


# --------------------------------------------------------------------------- link and boot


def plan_mtu(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    if not ctx.options.get("path_supports_jumbo"):
        return _no(
            ctx,
            "needs your statement that every device on the path (switch, this PC) is set to "
            "the same MTU (--path-supports-jumbo)",
        )
    wanted = int(ctx.options.get("mtu") or ctx.tweak.params.get("default_mtu", 9000))
    read = ctx.facts.knob(f"/sys/class/net/{ctx.iface}/mtu")
    if read is None or not read.ok:
        return _no(ctx, "the interface's MTU cannot be read")
    top = _max_mtu(ctx.facts.text("ip-link"))
    if top is not None and wanted > top:
        return _no(ctx, f"the driver allows an MTU of at most {top}")
    item = PlannedTweak(ctx.tweak, True, f"MTU {wanted} on {ctx.iface}")
    item.changes.append(Change("mtu", ctx.iface, read.text, str(wanted)))
    return item


def _max_mtu(text: str) -> int | None:
    try:
        links = json.loads(text or "[]")
        value = links[0].get("max_mtu") if links else None
    except (ValueError, AttributeError, IndexError, TypeError):
        return None
    return int(value) if isinstance(value, int) else None


def _board(ctx: Context, names: list[str]) -> str | None:
    model = str(ctx.options.get("board") or ctx.inventory.board.model or "")
    matches = [n for n in names if n in model]
    return max(matches, key=len) if matches else None


def marker_begin(tweak_id: str) -> str:
    return f"# >>> sbctune {tweak_id} (added by sbctune; `sbctune tune revert` removes it)"


def marker_end(tweak_id: str) -> str:
    return f"# <<< sbctune {tweak_id}"


def _tryboot(ctx: Context, config: tuple[str, str]) -> tryboot.Support:
    """Whether this boot tweak goes to tryboot.txt first (option boot_test, default on)."""
    if ctx.options.get("boot_test") is False:
        return tryboot.Support(False, "tryboot not used (--no-tryboot)")
    settings = catalog.tryboot_settings()
    boards = [str(b) for b in settings.get("boards", [])]
    folder = config[0].rsplit("/", 1)[0]
    return tryboot.support(
        _board_model(ctx),
        boards,
        config,
        ctx.facts.file_in(folder, tryboot.TRYBOOT_TXT),
        ctx.facts.file_in(folder, "autoboot.txt"),
    )


def _board_model(ctx: Context) -> str:
    return str(ctx.options.get("board") or ctx.inventory.board.model or "")


def _append_block(text: str, tweak_id: str, lines: list[str]) -> str:
    block = [marker_begin(tweak_id), "[all]", *lines, marker_end(tweak_id)]
    return text + ("" if text.endswith("\n") or not text else "\n") + "\n".join(block) + "\n"


def _tryboot_change(ctx: Context, test: tryboot.Support, config: str, lines: list[str]) -> Change:
    """tryboot.txt = config.txt (or the tryboot.txt being built) plus this tweak's block."""
    path = test.tryboot_path
    existing = ctx.pending.get(path, ctx.facts.file_in(test.folder, tryboot.TRYBOOT_TXT))
    if existing is not None and marker_begin(ctx.tweak.id) in existing:
        return Change("file", path, existing, existing, path)  # an earlier test boot's
    after = _append_block(config if existing is None else existing, ctx.tweak.id, lines)
    ctx.pending[path] = after
    return Change("file", path, existing, after, path)


_TEST_BOOT = (
    "in {path} for a test boot ({cmd}; config.txt stays as it is, so a crash or a reset boots "
    "the old configuration); after a good test boot `sbctune tune boot-commit HOST` writes it "
    "to config.txt"
)


def plan_boot_config(ctx: Context) -> PlannedTweak:
    params = ctx.tweak.params
    boards = params.get("boards", {})
    names = list(boards) if isinstance(boards, dict) else [str(b) for b in boards]
    board = _board(ctx, names)
    if board is None:
        return _no(ctx, f"only for {', '.join(names)} (this board: "
                   f"{ctx.inventory.board.model or 'not recognised'})")  # fmt: skip
    found = ctx.facts.boot_file(str(params.get("file", "config.txt")))
    if found is None:
        return _no(ctx, "no config.txt in /boot/firmware or /boot")
    path, content = found
    before = ctx.pending.get(path, content)
    if marker_begin(ctx.tweak.id) in before:
        item = PlannedTweak(ctx.tweak, True, "already in config.txt")
        item.changes.append(Change("boot", path, before, before, path))
        return item
    lines = [str(line) for line in params.get("lines", [])]
    if isinstance(boards, dict):
        limits = boards[board]
        freq = int(ctx.options.get("arm_freq") or limits["arm_freq"])
        if freq > int(limits["max_arm_freq"]):
            return _no(ctx, f"{freq} MHz is above the {board}'s limit of "
                       f"{limits['max_arm_freq']} MHz")  # fmt: skip
        lines = [f"arm_freq={freq}"]
        if int(limits.get("over_voltage", 0)):
            lines.append(f"over_voltage={int(limits['over_voltage'])}")
    test = _tryboot(ctx, found)
    if test.usable:
        change = _tryboot_change(ctx, test, content, lines)
        reason = _TEST_BOOT.format(path=change.path, cmd=tryboot.reboot_instruction(True))
        item = PlannedTweak(ctx.tweak, True, f"{', '.join(lines)} {reason}")
        item.changes.append(change)
        return item
    after = _append_block(before, ctx.tweak.id, lines)
    ctx.pending[path] = after
    item = PlannedTweak(
        ctx.tweak, True, f"{', '.join(lines)} in {path}; after a reboot ({test.reason})"
    )
    item.changes.append(Change("boot", path, before, after, path))
    return item


def plan_boot_cmdline(ctx: Context) -> PlannedTweak:
    params = ctx.tweak.params
    board = _board(ctx, [str(b) for b in params.get("boards", [])])
    if board is None:
        return _no(ctx, f"only for boards with PCIe (this board: "
                   f"{ctx.inventory.board.model or 'not recognised'})")  # fmt: skip
    found = ctx.facts.boot_file(str(params.get("file", "cmdline.txt")))
    if found is None:
        return _no(ctx, "no cmdline.txt in /boot/firmware or /boot")
    path, content = found
    before = ctx.pending.get(path, content)
    token = str(params["token"])
    if token in before.split():
        item = PlannedTweak(ctx.tweak, True, f"{token} is on the kernel command line already")
        item.changes.append(Change("boot", path, before, before, path))
        return item
    # cmdline.txt is one line and has no comments: the token is appended, the backup restores.
    newline = "\n" if before.endswith("\n") else ""
    after = before.rstrip("\n") + " " + token + newline
    config = ctx.facts.boot_file("config.txt")
    test = _tryboot(ctx, config) if config is not None else None
    if test is not None and test.usable and config is not None:
        # The test boot reads its own command line file, named by `cmdline=` in tryboot.txt.
        was = ctx.facts.file_in(test.folder, tryboot.CMDLINE_TXT)
        cmdline = Change("file", test.cmdline_path, was, after, test.cmdline_path)
        lines = [f"cmdline={tryboot.CMDLINE_TXT}"]
        change = _tryboot_change(ctx, test, config[1], lines)
        reason = _TEST_BOOT.format(path=change.path, cmd=tryboot.reboot_instruction(True))
        item = PlannedTweak(ctx.tweak, True, f"{token} on the kernel command line {reason}")
        item.changes += [cmdline, change]
        return item
    ctx.pending[path] = after
    note = f" ({test.reason})" if test is not None else ""
    item = PlannedTweak(
        ctx.tweak, True, f"{token} on the kernel command line; after a reboot{note}"
    )
    item.changes.append(Change("boot", path, before, after, path))
    return item


PLANNERS: dict[str, Planner] = {
    "rps": plan_rps,
    "xps": plan_xps,
    "irq_affinity": plan_irq_affinity,
    "governor": plan_governor,
    "sysctls": plan_sysctls,
    "rings": plan_rings,
    "coalescing": plan_coalescing,
    "offloads": plan_offloads,
    "eee": plan_eee,
    "pause": plan_pause,
    "mtu": plan_mtu,
    "boot_config": plan_boot_config,
    "boot_cmdline": plan_boot_cmdline,
}
