"""Planning: what each selected tweak would change on this Pi and NIC, with the exact commands,
and the files `--persist` would write. Planning reads the Pi and writes nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.ethtool import parse_ethtool_coalesce
from sbctune.tuning import (
    catalog,
    down_nic,
    link_hooks,
    nm_persist,
    persist_gaps,
    reopen_order,
    scripts,
)
from sbctune.tuning.errors import TuningError
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.knobs import commands_text, joined_argvs, safe_name
from sbctune.tuning.model import Change, TuningPlan
from sbctune.tuning.parsers import parse_eee
from sbctune.tuning.probe import Facts, probe
from sbctune.tuning.why_words import why_for

if TYPE_CHECKING:  # SSH (asyncssh) loads where a session is opened (issue 22)
    from sbctune.remote.session import Session

SYSTEMD_DIR = persist_gaps.SYSTEMD_DIR
PERSIST_DIRS = (
    SYSTEMD_DIR,
    "/etc/udev/rules.d",
    "/etc/sysctl.d",
    nm_persist.DISPATCHER_DIR,
    *link_hooks.DIRS,
)
PREVIEW_ID = "00000000T000000Z-000000"  # stands for the id `apply` will choose


def _selection(tweak_ids: Sequence[str] | None) -> list[str]:
    known = catalog.load_tweaks()
    if tweak_ids is None:
        return [t.id for t in known if t.recommended and not t.advanced]
    wanted = set(tweak_ids)
    for tweak_id in wanted:
        catalog.tweak(tweak_id)  # a clear error for an unknown id
    return [t.id for t in known if t.id in wanted]


async def plan(
    session: Session,
    inventory: Inventory,
    nic: str | None,
    tweak_ids: Sequence[str] | None = None,
    options: dict[str, Any] | None = None,
) -> TuningPlan:
    """What each selected tweak would change on this Pi and NIC, with the exact commands."""
    options = dict(options or {})
    if nic is not None:
        safe_name(nic, "interface")
        if inventory.nics and inventory.nic(nic) is None:
            names = ", ".join(n.name for n in inventory.nics if n.name)
            raise TuningError(f"The Pi has no interface {nic!r}.", f"Its interfaces: {names}.")
    selected = _selection(tweak_ids)
    nic_obj = inventory.nic(nic) if nic else None
    sysctls = list(catalog.tweak("socket-buffers").params.get("values", {}))
    irqs = nic_obj.irqs if nic_obj else []
    facts = await probe(session, nic, irqs, sysctls, nm=bool(options.get("persist")))
    pending: dict[str, str] = {}
    items = []
    for tweak in catalog.load_tweaks():
        if tweak.id not in selected:
            continue
        ctx = Context(tweak, facts, inventory, nic_obj, options, pending, tuple(selected))
        item = PLANNERS[tweak.kind](ctx)
        item.why, item.sources = why_for(tweak, inventory, nic_obj)
        placeholder = f"{scripts.STATE_ROOT}/<session id>"
        needed = [(i, c) for i, c in enumerate(item.changes) if c.needed]
        for _run, argvs in joined_argvs([c for _i, c in needed], [c.after for _i, c in needed],
                                        state_dir=placeholder, indices=[i for i, _c in needed],
                                        restoring=False):  # fmt: skip
            item.commands += commands_text(argvs)
        items.append(item)
    result = TuningPlan(nic, items, options, list(tweak_ids) if tweak_ids is not None else None)
    result.inventory = inventory
    down_nic.note_plan(result, facts.text("ip-link"))  # a down NIC: what its driver takes
    shown = facts.step("ethtool -c")
    eee = facts.step("ethtool --show-eee")
    coalesce = parse_ethtool_coalesce(shown.text)[0].params if shown and shown.ok else {}
    eee_off = eee is not None and eee.ok and parse_eee(eee.text).enabled is False
    if coalesce or eee_off:
        result.kept = reopen_order.note_resets(
            items, reopen_order.for_plan(result), coalesce, eee_off
        )
    result.systemd = facts.systemd
    result.netns = facts.netns
    result.persist_dirs = persist_dirs(facts)
    result.nm_link = nm_persist.parse(facts.text("nm")) if nic else None
    if options.get("persist"):
        result.persist_preview = persist_preview(result)
        persist_gaps.note_plan(result)  # what the files cannot hold where NM does not run them
    return result


def persist_dirs(facts: Facts) -> list[str]:
    """The folders `--persist` writes to: those the Pi has, less the ones nothing reads there.
    A unit in /etc/systemd/system runs only where systemd is PID 1 (sd_booted: the probe's
    /run/systemd/system, as the guard's choice): Debian's deb-systemd-helper makes that folder
    on a Pi booted with sysvinit too (audit 45); a hook only where its program manages the NIC
    (link_hooks)."""
    found = [d for d in PERSIST_DIRS if facts.ok(f"dir:{d}")]
    if not facts.systemd:
        found = [d for d in found if d != SYSTEMD_DIR]
    return link_hooks.managed_dirs(found, facts.ok("dhcpcd-pid"), facts.ok("ifupdown-nic"))


def persist_preview(the_plan: TuningPlan) -> list[Change]:
    """The files `apply --persist` would write for this plan (the session id shown as
    `<session id>`): what keeps the values across a reboot, for the dry run."""
    needed = [c for i in the_plan.items if i.applicable for c in i.changes if c.needed]
    shown = []
    facts = reopen_order.for_plan(the_plan)
    for change in persist_changes(
        PREVIEW_ID, the_plan.nic, needed, the_plan.persist_dirs, the_plan.nm_link, facts
    ):

        def named(text: str | None) -> str | None:
            return None if text is None else text.replace(PREVIEW_ID, "<session id>")

        shown.append(Change(change.kind, named(change.target) or "", named(change.before),
                            named(change.after), named(change.path) or ""))  # fmt: skip
    return shown


def after_nm_restarts(
    changes: Sequence[Change], facts: reopen_order.OpenFacts | None
) -> list[Change]:
    """The changes NetworkManager must not hold: where one of `changes` restarts the interface
    and the driver's open sets others back (reopen_order facts: macb on RP1's gem_init_intmod,
    stmmac, r8169, bcmgenet), NM would set them back itself, since it applies a profile's
    coalescing before its rings and pause (NetworkManager src/core/devices/nm-device.c,
    _ethtool_state_set: features, coalesce, ring, pause). at-boot.sh holds them instead: NM's
    dispatcher runs it on `up`, after NM has applied the profile, so it comes last."""
    if not any(reopen_order.restarts(c, facts) for c in changes):
        return []
    return [c for c in changes if reopen_order.reset_by_open(c, facts)]


def persist_changes(
    session_id: str,
    nic: str | None,
    applied: Sequence[Change],
    dirs: Sequence[str],
    nm_link: nm_persist.NmLink | None = None,
    facts: reopen_order.OpenFacts | None = None,
) -> list[Change]:
    """What keeps the session's values across reboots: NetworkManager's own ethtool settings
    where NM manages the NIC (for what it can hold), files named for sbctune for the rest
    (at-boot.sh in applying's order, with the NIC's `facts`: reopen_order)."""
    directory = scripts.session_dir(session_id)
    sysctls = [c for c in applied if c.kind == "sysctl"]
    live = [c for c in applied if c.kind not in ("sysctl", "boot")]
    hooked = persist_gaps.nm_hooked(nic, nm_link, dirs)
    after_nm = after_nm_restarts(live, facts) if hooked else []
    in_nm, runtime = nm_persist.split([c for c in live if c not in after_nm], nm_link)
    runtime += after_nm
    changes: list[Change] = list(in_nm)
    if sysctls and "/etc/sysctl.d" in dirs:
        path = f"/etc/sysctl.d/90-sbctune-{session_id}.conf"
        changes.append(Change("file", path, None, scripts.sysctl_conf(session_id, sysctls), path))
    if runtime:
        path = f"{directory}/at-boot.sh"
        script = scripts.apply_at_boot_script(session_id, runtime, facts)
        changes.append(Change("file", path, None, script, path))
        if SYSTEMD_DIR in dirs:
            unit = f"sbctune-tuning-{session_id}.service"
            path = f"/etc/systemd/system/{unit}"
            changes.append(Change("file", path, None, scripts.unit_file(session_id), path))
            link = f"/etc/systemd/system/multi-user.target.wants/{unit}"
            changes.append(Change("service", f"enable {unit}", "disabled", "enabled", link))
        if nic and "/etc/udev/rules.d" in dirs:
            path = f"/etc/udev/rules.d/90-sbctune-{session_id}.rules"
            rule = scripts.udev_rule(session_id, safe_name(nic, "interface"))
            changes.append(Change("file", path, None, rule, path))
        if nic and nm_link is not None and nm_persist.DISPATCHER_DIR in dirs:
            # NM brings the link up after the boot unit ran: the IRQs exist only then.
            path = nm_persist.dispatcher_path(session_id)
            iface = safe_name(nic, "interface")
            hook = nm_persist.dispatcher_script(iface, f"{directory}/at-boot.sh")
            changes.append(Change("file", path, None, hook, path))
        elif nic:  # dhcpcd's or ifupdown's hook where NM does not bring the NIC up
            iface = safe_name(nic, "interface")
            for folder in (d for d in link_hooks.DIRS if d in dirs):
                path = link_hooks.hook_path(folder, session_id)
                hook = link_hooks.hook_script(folder, iface, f"{directory}/at-boot.sh")
                changes.append(Change("file", path, None, hook, path))
    return changes
