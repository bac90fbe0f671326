"""The code of each tweak kind: from the facts read on the Pi, the changes it would make.

A planner never writes anything; it decides whether the tweak applies to this Pi and NIC
(from the inventory and the values read), and lists each value's before and after. Values
that the kernel already refuses to read (ENOENT on a USB NIC's xps_cpus) are listed as not
possible with the kernel's reason.

The planners live by kind: `kinds_kernel` (RPS/RFS, XPS, IRQs, governor, sysctls),
`kinds_ethtool` (rings, offloads), `kinds_coalesce` (coalescing), `kinds_negotiated` (EEE,
pause frames), `kinds_mtu` (the MTU), `kinds_boot` (boot files); what they share is
`plan_context`. This module is the table from a tweak's kind to its planner, each behind the
one rule of what needs no Pi (source_rule): the advice asks the same rule, so Results never
recommends a tweak the Tune page calls not applicable.
"""

from __future__ import annotations

from sbctune.tuning.kinds_boot import (
    marker_begin,
    marker_end,
    plan_boot_cmdline,
    plan_boot_config,
)
from sbctune.tuning.kinds_coalesce import plan_coalescing
from sbctune.tuning.kinds_ethtool import plan_offloads, plan_rings
from sbctune.tuning.kinds_kernel import (
    _raise_only,
    plan_governor,
    plan_irq_affinity,
    plan_rps,
    plan_sysctls,
    plan_xps,
)
from sbctune.tuning.kinds_mtu import plan_mtu
from sbctune.tuning.kinds_negotiated import plan_eee, plan_pause
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.plan_context import Context, Planner, not_applicable
from sbctune.tuning.source_rule import out_of_reach


def _ruled(planner: Planner) -> Planner:
    """The planner behind the source rule: what the kernel's source, the catalogue and the
    inventory settle is refused before anything the Pi said is looked at."""

    def plan(ctx: Context) -> PlannedTweak:
        why = out_of_reach(ctx.tweak, ctx.inventory, ctx.nic, ctx.options)
        return not_applicable(ctx, why) if why else planner(ctx)

    plan.__name__ = planner.__name__
    plan.__doc__ = planner.__doc__
    return plan


_PLANNERS: dict[str, Planner] = {
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
PLANNERS: dict[str, Planner] = {kind: _ruled(p) for kind, p in _PLANNERS.items()}

__all__ = ["PLANNERS", "Context", "Planner", "_raise_only", "marker_begin", "marker_end"]
