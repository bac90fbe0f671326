"""An old kernel's interfaces named only bare ("eth0: IBM emac, MAC 00:04:ac:e3:1b:bb"), in a
log whose one network driver speaks only without a device ("emac: IBM EMAC Ethernet driver,
version 2.0"): that driver drives them. Kernels before 3.x printed a netdev's lines by its name
alone (printk("%s: ...", dev->name)), and a SoC's MAC driver its banner by its own name, so
nothing else ties the two (issue 24, twelfth unseen set: a PPC440GP on 2.6.10).

Only a platform driver the kernel's tables know (resources/kernel_source/drivers.json: a SoC's
own MAC, no IDs to name), only when it is the one driver the log names and no NIC of the
inventory has a driver or a device, so a log that ties any driver to any device is left as it
is."""

from __future__ import annotations

from sbctune.catalog import Catalog
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.inventory.model import Inventory
from sbctune.inventory.nics import is_builtin
from sbctune.inventory.raw import Parsed


def drive_bare_interfaces(inventory: Inventory, parsed: Parsed, catalog: Catalog) -> None:
    log = parsed.dmesg
    nics = inventory.nics
    if log is None or not nics or any(n.driver or n.bus_path or n.ids or n.wireless for n in nics):
        return
    named = {e.fields.get("driver") for e in log.of_kind("driver_message")[:200]}
    known = [load_kernel_drivers().get(d) for d in named if d]
    if len(named) != 1 or len(known) != 1 or known[0] is None:
        return
    driver = known[0]
    if driver.wireless or driver.buses != ("platform",):
        return
    if not all(n.name and n.bus == "unknown" for n in nics):
        return
    for nic in nics:
        nic.driver, nic.bus, nic.driver_state = driver.name, "platform", None
        nic.evidence.append(
            f"{nic.name} is named only by itself, and {driver.name} (a driver of a SoC's own "
            f"Ethernet MAC, {driver.file}) is the one network driver this log names"
        )
        nic.builtin = is_builtin(nic, inventory.board, catalog)
