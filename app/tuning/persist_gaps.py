"""What `--persist` cannot hold where nothing runs the session's values again once the NIC is
open (audit 12, driver_caps_audit12.md row 1).

sbctune's own files run at-boot.sh from a systemd unit ordered before the network
(`After=network-pre.target`) and from a udev rule on the NIC's `add`: both before anything opens
the interface. A hook runs it again once the NIC is up: NetworkManager's dispatcher, or dhcpcd's
or ifupdown's (link_hooks) where that program manages the NIC. Where none does
(systemd-networkd, a NIC set up by hand), a value the driver refuses while the interface is down
(`ops_refused_when_down`, `ethtool_refused_when_down`) or sets back when it opens
(`coalesce_reset_on_open`, `eee_reset_on_open`, `irq_affinity_reset_on_open`), and the affinity
of an interrupt it requests only then (`irq_requested_at_open`: at-boot.sh finds none of that
name), is not in force after a reboot, a replug or a network restart. The table's facts decide
which, never the driver's name; the plan says so for each such tweak.

Where nothing runs at-boot.sh at all (audit 45: no systemd as PID 1, so no unit; no udev rules
folder, as on OpenWrt's procd/hotplug or Alpine's mdev; no hook), no value it holds is in force
after a reboot, whatever the driver: the plan says so for every tweak it would hold (the sysctls
go to /etc/sysctl.d, which OpenRC's, procd's and procps' boot scripts read as well).
"""

from __future__ import annotations

from collections.abc import Sequence

from sbctune.tuning import driver_caps, link_hooks, nm_persist, reopen_order
from sbctune.tuning.model import Change, TuningPlan

SYSTEMD_DIR = "/etc/systemd/system"  # written only where systemd runs (planning.persist_dirs)
UDEV_DIR = "/etc/udev/rules.d"
# ethtool's set option -> the driver's ethtool op that `ops_refused_when_down` names
_OPS = {"--set-eee": "set_eee", "-A": "set_pauseparam", "-C": "set_coalesce",
        "-G": "set_ringparam", "-L": "set_channels", "-K": "set_features"}  # fmt: skip


def nm_hooked(nic: str | None, nm_link: object, dirs: Sequence[str]) -> bool:
    """Whether `--persist` writes NetworkManager's dispatcher hook (run on the NIC's `up`)."""
    return bool(nic and nm_link is not None and nm_persist.DISPATCHER_DIR in dirs)


def hooked(nic: str | None, nm_link: object, dirs: Sequence[str]) -> bool:
    """Whether `--persist` writes a hook that runs at-boot.sh once the NIC is up: NM's
    dispatcher, or dhcpcd's or ifupdown's where that program manages the NIC (link_hooks)."""
    return nm_hooked(nic, nm_link, dirs) or bool(nic and set(link_hooks.DIRS) & set(dirs))


def boot_runner(nic: str | None, nm_link: object, dirs: Sequence[str]) -> bool:
    """Whether anything on the Pi runs at-boot.sh after a reboot: the unit, the udev rule
    (udev's coldplug replays every NIC's `add` at boot) or a hook on the NIC's `up`."""
    return SYSTEMD_DIR in dirs or (bool(nic) and UDEV_DIR in dirs) or hooked(nic, nm_link, dirs)


def _held_by_at_boot(change: Change, nm_link: nm_persist.NmLink | None) -> bool:
    """A change only at-boot.sh keeps (not a sysctl.d line, a boot file, nor NM's property)."""
    if not change.needed or change.kind in ("sysctl", "boot"):
        return False
    in_nm, _rest = nm_persist.split([change], nm_link)
    return not in_nm


def no_runner_words(iface: str) -> str:
    return (f"; --persist cannot keep it here: nothing on this Pi runs sbctune's at-boot.sh "
            "after a reboot (systemd does not run here, there is no udev rules folder, and "
            f"neither NetworkManager, dhcpcd nor ifupdown brings {iface} up), so after a reboot "
            "it is not in force")  # fmt: skip


def _option(change: Change, iface: str) -> str | None:
    words = change.target.split(" ")
    if change.kind != "ethtool" or len(words) != 3 or words[0] != iface:
        return None
    return words[1]


def why_lost(
    change: Change, caps: driver_caps.DriverCaps | None, facts: reopen_order.OpenFacts | None,
    iface: str,
) -> str:  # fmt: skip
    """Why a value at-boot.sh writes before the interface is open is not in force once it is
    (the driver's words and the cited function), or "" where it is."""
    if facts is not None and reopen_order.reset_by_open(change, facts):
        where = reopen_order.where_reset(facts, change)
        eee_if = f" {facts.eee_if}" if facts.eee_if and where == facts.eee_where else ""
        return (f"the {facts.driver} driver sets it back each time {iface} is opened{eee_if} "
                f"({where})")  # fmt: skip
    if (
        caps is not None
        and change.kind == "irq_affinity"
        and caps.facts.get("irq_requested_at_open")
    ):
        return (f"the {caps.driver} driver requests its interrupts only when {iface} opens "
                f"({caps.cite('irq_requested_at_open')}), so before that there is none to "
                "set")  # fmt: skip
    option = _option(change, iface)
    if caps is None or option is None:
        return ""
    if caps.facts.get("ethtool_refused_when_down"):
        errno = caps.facts["ethtool_refused_when_down"]
        return (f"the {caps.driver} driver refuses every ethtool change while {iface} is down "
                f"({errno}; {caps.cite('ethtool_refused_when_down')})")  # fmt: skip
    down = caps.facts.get("ops_refused_when_down")
    op = _OPS.get(option, "")
    if isinstance(down, dict) and op in down:
        return (f"the {caps.driver} driver refuses it while {iface} is down ({down[op]}; "
                f"{caps.cite(f'ops_refused_when_down:{op}')})")  # fmt: skip
    return ""


def lost_words(
    changes: Sequence[Change], caps: driver_caps.DriverCaps | None,
    facts: reopen_order.OpenFacts | None, iface: str,
) -> str:  # fmt: skip
    """The plan's words for one tweak's `changes` kept with no hook on `up`, or ""."""
    reasons = []
    for change in changes:
        why = why_lost(change, caps, facts, iface) if change.needed else ""
        if why and why not in reasons:
            reasons.append(why)
    if not reasons:
        return ""
    return (f"; --persist cannot keep it here: neither NetworkManager, dhcpcd nor ifupdown brings "
            f"{iface} up, so sbctune sets it again only at boot and when {iface} appears, both "
            f"before {iface} "
            f"is opened, and {'; '.join(reasons)}: after a reboot, a replug or a network "
            "restart it is not in force")  # fmt: skip


def note_plan(plan: TuningPlan) -> None:
    """Adds the words to each planned tweak `--persist` cannot keep on the plan's NIC."""
    inventory, nic = plan.inventory, plan.nic
    if not plan.options.get("persist") or nic is None or inventory is None:
        return
    if hooked(nic, plan.nm_link, plan.persist_dirs):
        return
    if not boot_runner(nic, plan.nm_link, plan.persist_dirs):
        for item in plan.items:
            if item.applicable and any(_held_by_at_boot(c, plan.nm_link) for c in item.changes):
                item.reason += no_runner_words(nic)
        return
    nic_obj = inventory.nic(nic)
    if nic_obj is None:
        return
    caps = driver_caps.caps(nic_obj.driver, inventory.board.kernel, nic_obj.chip)
    facts = reopen_order.for_plan(plan)
    for item in plan.items:
        if item.applicable:
            item.reason += lost_words(item.changes, caps, facts, nic)
