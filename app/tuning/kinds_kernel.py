"""Planners of the kernel knobs: RPS/RFS, XPS, IRQ affinity, the CPU governor, sysctls."""

from __future__ import annotations

from sbctune.tuning import catalog, driver_caps, irq_names, irq_threads, source_rule
from sbctune.tuning.knobs import format_mask, mask_value
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.plan_context import Context, all_mask, is_number, queue_files
from sbctune.tuning.plan_context import not_applicable as _no
from sbctune.tuning.probe import Read, sysctl_path
from sbctune.wording import counted


def _numbers(values: list[int]) -> str:
    """CPU or interrupt numbers as a reader writes them ("0, 1, 2"), not a Python list."""
    return ", ".join(str(v) for v in values)


def plan_rps(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    queues = queue_files(ctx, "rx-", "rps_cpus")
    if not queues:
        return _no(ctx, f"{ctx.iface} has no rps_cpus (the kernel was built without RPS)")
    cpus, few = ctx.cpus(), ctx.too_few_cpus()
    if few:
        return _no(ctx, f"{few}: there is nothing to spread the work to" if cpus else few)
    cpus, kept_out = _housekeeping(ctx, cpus)
    if len(cpus) < 2:
        only = f"only CPU {cpus[0]} is" if cpus else "no online CPU is"
        return _no(ctx, f"{only} left to receive steering ({kept_out}): there is nothing to "
                   "spread the work to")  # fmt: skip
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
    mask = all_mask(cpus)
    note += f" ({kept_out})" if kept_out else ""
    where = f"receive work of {ctx.iface} on CPUs {_numbers(cpus)}{note}"
    item = PlannedTweak(ctx.tweak, True, where)
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


def _housekeeping(ctx: Context, cpus: list[int]) -> tuple[list[int], str]:
    """The online CPUs an RPS map can hold, and words for those it cannot: the kernel cuts a
    written mask to its housekeeping CPUs, so a CPU isolcpus= or nohz_full= took out would
    read back missing and the change would never verify, and a mask of such CPUs alone is
    refused with EINVAL (driver_caps.json _kernel rps_housekeeping_cpus; audit 41 row 1)."""
    fact = driver_caps.kernel_fact("rps_housekeeping_cpus", ctx.inventory.board.kernel)
    left = ctx.left_out_cpus() if fact is not None else {}
    if not left or fact is None:
        return cpus, ""
    options = " and ".join(dict.fromkeys(left[c] for c in sorted(left)))
    words = (f"leaving out {counted(len(left), 'CPU')} ({_numbers(sorted(left))}), taken "
             f"from the kernel's housekeeping by the Pi's {options} boot option: the kernel "
             f"steers received packets only to housekeeping CPUs ({fact[1]})")  # fmt: skip
    return [c for c in cpus if c not in left], words


def _plan_rfs(ctx: Context, item: PlannedTweak, queues: int) -> None:
    key = "net.core.rps_sock_flow_entries"
    read = ctx.facts.knob(sysctl_path(key))
    if read is None or not read.ok:
        reason = read.reason if read is not None else "No such file or directory"
        item.impossible.append((key, f"{reason} (RFS left off; RPS still applies)"))
        return
    wanted = int(ctx.tweak.params.get("rps_sock_flow_entries", 32768))
    current = int(read.text) if is_number(read.text) else 0
    entries = max(current, wanted)  # only raise: another service may rely on a larger table
    item.changes.append(Change("sysctl", key, read.text, str(entries), sysctl_path(key)))
    per_queue = str(_flow_table_size(ctx, entries // max(queues, 1)))
    for path, flow in queue_files(ctx, "rx-", "rps_flow_cnt"):
        if flow.ok and is_number(flow.text) and int(flow.text) < int(per_queue):
            item.changes.append(Change("file", path, flow.text, per_queue, path))


def _flow_table_size(ctx: Context, count: int) -> int:
    """The rps_flow_cnt the kernel keeps for a write of `count`: its flow table is a power of
    two, rounded up (driver_caps.json _kernel `rps_flow_cnt_pow2`), so writing that size reads
    back as written (5461 on six queues would read back 8192 and fail the verify)."""
    if (
        count < 1
        or driver_caps.kernel_fact("rps_flow_cnt_pow2", ctx.inventory.board.kernel) is None
    ):
        return count
    return 1 << (count - 1).bit_length()


def plan_xps(ctx: Context) -> PlannedTweak:
    if not ctx.iface:
        return _no(ctx, "no NIC chosen")
    single = _single_queue(ctx)
    if single:
        return _no(ctx, single)
    queues = queue_files(ctx, "tx-", "xps_cpus")
    if not queues:
        return _no(ctx, f"{ctx.iface} has no xps_cpus: the driver offers no transmit queue map")
    by_ac = _queues_by_access_category(ctx, len(queues))
    if by_ac:
        return _no(ctx, by_ac)
    cpus, few = ctx.cpus(), ctx.too_few_cpus()
    if few:
        return _no(ctx, few)
    item = PlannedTweak(ctx.tweak, True, f"transmit queues of {ctx.iface} mapped to CPUs")
    for index, (path, read) in enumerate(queues):
        if not read.ok:
            item.impossible.append((path, read.reason))
            continue
        mask = all_mask(cpus) if len(queues) == 1 else 1 << cpus[index % len(cpus)]
        item.changes.append(Change("file", path, read.text, format_mask(mask, read.text), path))
    if not item.changes:
        item.applicable = False
        item.reason = (
            "the driver offers no transmit queue map ("
            + "; ".join(f"{t}: {r}" for t, r in item.impossible)
            + ")"
        )
    return item


def _queues_by_access_category(ctx: Context, queues: int) -> str | None:
    """A Wi-Fi interface's several transmit queues are its access categories: mac80211's
    ndo_select_queue picks one per packet by priority and never reads the XPS map (6.1,
    drivers without wake_tx_queue; _kernel fact wireless_tx_queue_by_ac). A rule over the
    interface's registration (the inventory's wireless), not over driver names."""
    if ctx.nic is None or not ctx.nic.wireless or queues < 2:
        return None
    fact = driver_caps.kernel_fact("wireless_tx_queue_by_ac", ctx.inventory.board.kernel)
    if fact is None:
        return None
    return (f"{ctx.iface} is a Wi-Fi interface: its {queues} transmit queues are the access "
            "categories, and the kernel picks one per packet by its priority, never by the "
            f"transmit queue map ({fact[1]}): writing xps_cpus would change nothing")  # fmt: skip


def _single_queue(ctx: Context) -> str | None:
    """One transmit queue (source_rule.single_queue) as the Pi shows it: its xps_cpus files
    counted (macb allocates the queues in use; the inventory's count was the rule's)."""
    seen = len(queue_files(ctx, "tx-", "xps_cpus")) or None
    chip = ctx.nic.chip if ctx.nic else None
    return source_rule.single_queue(ctx.caps, ctx.iface, ctx.inventory.board.kernel, chip, seen)


def _irq_plan(ctx: Context, avoid: int) -> list[tuple[str, Read | None, str | None]]:
    """Per NIC interrupt: (smp_affinity path, value read, mask to write or None if refused)."""
    cpus = ctx.cpus()
    others = [c for c in cpus if c != avoid]
    out: list[tuple[str, Read | None, str | None]] = []
    fixed = set(ctx.nic.fixed_irqs) if ctx.nic else set()
    for index, irq in enumerate(ctx.nic.irqs if ctx.nic else []):
        path = f"/proc/irq/{int(irq)}/smp_affinity"
        read = ctx.facts.knob(path)
        if read is None or not read.ok or not others or irq in fixed:
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
        elif effective is not None and effective.ok and mask_value(effective.text):
            # an empty effective mask is a chip that does not report it (RP1's rp1_irq_chip:
            # raspberrypi/linux issue 7101, "effective_affinity: 0" on 6.12): smp_affinity says
            text = effective.text
        elif read is not None and read.ok:
            text = read.text
        else:
            continue
        mask = mask_value(text) or 0
        busy |= {cpu for cpu in range(mask.bit_length()) if mask >> cpu & 1}
    return busy


_which = source_rule.irqs_words


def plan_irq_affinity(ctx: Context) -> PlannedTweak:
    avoid = int(ctx.tweak.params.get("avoid_cpu", 0))
    online = ctx.cpus()
    if online and not [c for c in online if c != avoid]:
        # whatever its interrupts: before them (the only CPU online is the one to avoid)
        return _no(ctx, ctx.too_few_cpus() or f"the only CPU online is CPU {avoid}")
    if ctx.nic is None or not ctx.nic.irqs:
        return _no(ctx, "no interrupt of this NIC was found in /proc/interrupts")
    if not online:  # unread or unreadable: the count is not known, not taken for one
        return _no(ctx, ctx.too_few_cpus() or "the Pi's online CPUs are not known")
    irqs = ctx.nic.irqs
    # What Inspect shows (the inventory's fact, from the interrupt chip): not a second rule
    # (every one of them fixed: the source rule's, refused before this runs)
    fixed = [i for i in irqs if i in ctx.nic.fixed_irqs]
    why = f"cannot be moved off CPU {avoid}: {ctx.nic.fixed_irqs_why}"
    item = PlannedTweak(ctx.tweak, True, f"{_which([i for i in irqs if i not in fixed])} moved "
                        f"off CPU {avoid}")  # fmt: skip
    if fixed:
        item.impossible.append((_which(fixed), why))
    # a threaded handler that the write would not move (PREEMPT_RT, a chip with no effective
    # mask: audit 46 row 2) is as good as fixed: the work stays where it is
    staying = irq_threads.staying(ctx, [i for i in irqs if i not in fixed])
    if staying is not None:
        item.impossible.append((_which(staying[0]), staying[1]))
        fixed = fixed + staying[0]
    _affinity_writes(ctx, item, avoid, fixed, ctx.nic.driver)
    if not item.changes:
        item.applicable = False
        item.reason = "; ".join(f"{t}: {r}" for t, r in item.impossible)
        return item
    if ctx.nic.bus == "usb":
        item.reason += _USB_SHARED
    if any(c.needed for c in item.changes):
        service = _irqbalance(ctx)
        if service is not None:
            item.changes.insert(0, service)  # before the writes, so it cannot undo them
    return item


# A USB NIC has no interrupt of its own: the inventory gives it its host controller's (xhci_hcd,
# dwc_otg, dwc2), which every device on that controller raises (audit 29 row 7).
_USB_SHARED = (
    "; this is the USB host controller's interrupt (a USB NIC has none of its own), so every "
    "device on that controller (disks, keyboard, other adapters) is served on the new CPUs too"
)


def _affinity_writes(
    ctx: Context, item: PlannedTweak, avoid: int, fixed: list[int], driver: str | None
) -> None:
    """Each movable interrupt's smp_affinity write (named as /proc/interrupts names it, so the
    scripts find it again after a reboot), or why it cannot be written."""
    table = irq_names.interrupts(ctx.facts.text("interrupts"))
    for path, read, after in _irq_plan(ctx, avoid):
        if int(path.split("/")[3]) in fixed:
            continue
        if read is None or not read.ok or after is None:
            item.impossible.append((path, read.reason if read else "No such file or directory"))
            continue
        name, ordinal = irq_names.identity(table, int(path.split("/")[3]), ctx.iface, driver)
        item.changes.append(Change("irq_affinity", path, read.text, after, path, name, ordinal))


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
    item = PlannedTweak(ctx.tweak, True, "", named_all=f"every core at its top clock ({wanted})",
                        named_form=f"the cores of CPU frequency {{}} at their top clock "
                        f"({wanted})", named_join=", ")  # fmt: skip
    for path, read in policies:
        item.named.append((path, path.rsplit("/", 2)[-2]))  # "policy0"
        # scaling_available_governors lists the governors registered so far, not those a
        # write can load: store_scaling_governor -> cpufreq_parse_governor request_module()s
        # "cpufreq_<name>" (drivers/cpufreq/cpufreq.c, 6.1 and 6.12), so a governor built as
        # a module (Debian's powersave/ondemand/userspace/conservative) is not in the list
        # until then. Only the write tells: the kernel's EINVAL is then "not possible".
        if not read.ok:
            item.impossible.append((path, read.reason))
        else:
            item.changes.append(Change("governor", path, read.text, wanted, path))
    item.reason = item.summary({target for target, _why in item.impossible})
    if not item.changes:
        item.applicable = False
        item.reason = "; ".join(f"{t}: {r}" for t, r in item.impossible)
    return item


def _raise_only(before: str, target: str) -> str | None:
    """Field by field, the larger of the current and the target value; None if not numbers."""
    current, wanted = before.split(), target.split()
    if len(current) != len(wanted) or not all(is_number(w) for w in current + wanted):
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
