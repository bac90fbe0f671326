"""One rule for "can this NIC take this tweak here": what settles it without reading the Pi.

The kernel's source (driver_caps.json, for the inventory's kernel and chip), the tweak
catalogue and the inventory (board, cores, MTU, interrupts, queues) settle many answers before
anything is read: no set_ringparam, RTL8125 coalescing, one transmit queue, one CPU core, an MTU
above the driver's maximum, a boot tweak for another board. The Tune page's planners ask this
rule first (kinds.PLANNERS) and keep only what the Pi tells (values read back, mode codes, the
SSH route); the advice asks it before it names a tweak, so Results never recommends what Tune
calls not applicable (issue 21; walk 17: rings recommended for lan78xx).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sbctune.errors import UserError
from sbctune.inventory.model import Inventory, Nic
from sbctune.tuning import boot_rules, catalog, driver_caps
from sbctune.tuning.board_names import names_board
from sbctune.tuning.driver_caps import DriverCaps
from sbctune.tuning.model import NotNeeded, Tweak


@dataclass(frozen=True)
class Ask:
    """What the rule reads: the tweak, the inventory, its NIC (None: board-level) and the
    user's options (an MTU, a board named on the command line)."""

    tweak: Tweak
    inventory: Inventory
    nic: Nic | None
    options: Mapping[str, Any]

    @property
    def caps(self) -> DriverCaps | None:
        nic = self.nic
        return driver_caps.caps(
            nic.driver if nic else None, self.inventory.board.kernel, nic.chip if nic else None
        )

    @property
    def chip(self) -> str | None:
        return self.nic.chip if self.nic else None

    def one_core(self) -> bool:
        return self.inventory.board.cpu_cores == 1

    def one_core_words(self) -> str:
        """The words "the Pi has one CPU core", with what gave the count (read, or assumed)."""
        source = self.inventory.board.cpu_cores_source
        return f"the Pi has one CPU core ({source})" if source else "the Pi has one CPU core"


def out_of_reach(
    tweak: Tweak | str,
    inventory: Inventory,
    nic: Nic | None,
    options: Mapping[str, Any] | None = None,
) -> str | None:
    """Why the planner marks `tweak` not applicable (or not possible) on `nic`, from the
    kernel's source, the tweak catalogue and the inventory alone; None where it may apply
    (the planner then reads the Pi to decide). An id this sbctune does not know: None."""
    if isinstance(tweak, str):
        try:
            tweak = catalog.tweak(tweak)
        except UserError:
            return None
    rule = _RULES.get(tweak.kind)
    return rule(Ask(tweak, inventory, nic, options or {})) if rule else None


def lacks(caps: DriverCaps | None, op: str) -> str | None:
    """Why the driver cannot do `op` (an ethtool_ops callback), from the kernel's source; None
    where it has it, may have it (unsure: tried and read back) or is not in the table."""
    if caps is None or caps.has(op) or op in caps.unsure:
        return None
    later = caps.facts.get("ops_not_yet", {}).get(op)
    if later:  # in 6.1 and 6.12, but this kernel predates the commit that added it
        return (f"the {caps.driver} driver has {op} only from Linux {later['release']} (commit "
                f"{later['commit']}, \"{later['title']}\"); this kernel is older: it answers "
                '"Operation not supported"')  # fmt: skip
    kernels = " and ".join(f"Linux {s}" for s in caps.series)
    return (f"the {caps.driver} driver has no {op} in {kernels} (its ethtool_ops, kernel "
            'source): the kernel answers "Operation not supported"')  # fmt: skip


def refused_chip(caps: DriverCaps | None, chip: str | None, fact: str, what: str) -> str | None:
    """The driver's refusal of `what` on this chip (RTL8125 coalescing, EEE before the I350),
    with the kernel source that says so."""
    found = caps.refuses_on(fact, chip) if caps else None
    if caps is None or found is None:
        return None
    # a chip a later tree added to the list is cited there (driver_caps_build._extend)
    where = caps.cite(f"{fact}:{found}") or caps.cite(fact)
    return f"{caps.driver} refuses {what} on the {found} (EOPNOTSUPP; {where})"


# The reads a driver has the callback for but answers "not supported" on some chips: the
# ethtool option, the table's list of those chips, what it is, and the callback (audit 36b row 1)
_READ_REFUSED_ON = {
    "-c": ("coalesce_refused_chips", "coalescing", "get_coalesce"),
    "--show-eee": ("eee_refused_chips", "Energy-Efficient Ethernet", "get_eee"),
}
# ... and those that have it on the listed chips alone: every other chip refuses
_READ_ONLY_ON = {"--show-eee": ("eee_chips_only", "Energy-Efficient Ethernet", "get_eee")}


def refused_read(caps: DriverCaps | None, option: str, said: str) -> str | None:
    """Why `ethtool OPTION` answered "not supported" (`said`, the Pi's words) where the driver
    has the callback but refuses it on the chips the table lists: the refusal with its source,
    never "the driver does not offer this setting" (igb_get_eee on an 82580, rtl_get_coalesce
    on an RTL8125, read where sbctune could not name the chip, so the source rule could not
    refuse it first)."""
    only = _READ_ONLY_ON.get(option)
    if caps is not None and only is not None and caps.has(only[2]) and caps.facts.get(only[0]):
        fact, what, _ = only  # macb from 7.1: EEE on MACB_CAPS_EEE's MACs alone (audit 47)
        among = _and([str(c) for c in caps.facts[fact]])
        return (f"{caps.driver} has {what} only on the {among} and answers \"not supported\" "
                f"on every other chip ({caps.cite(fact)}), as it did here ({said})")  # fmt: skip
    rule = _READ_REFUSED_ON.get(option)
    if caps is None or rule is None or not caps.has(rule[2]):
        return None
    fact, what, _ = rule
    chips = [str(c) for c in caps.facts.get(fact, [])]
    if not chips:
        return None
    return (f"{caps.driver} has this setting but refuses {what} on some chips, the "
            f"{', '.join(chips)} among them (EOPNOTSUPP; {caps.cite(fact)}), and refused it "
            f"here ({said})")  # fmt: skip


def _and(names: list[str]) -> str:
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def chip_without(caps: DriverCaps | None, chip: str | None, fact: str, what: str) -> str | None:
    """Why a driver that has `what` only on the chips `fact` lists (macb's EEE from 7.1: the
    MACs with MACB_CAPS_EEE) cannot do it on this named chip; None for one of them, or a chip
    the inventory could not name (the planner reads the Pi's answer)."""
    only = [str(c) for c in caps.facts.get(fact, [])] if caps else []
    if caps is None or not only or not chip or caps.refuses_on(fact, chip):
        return None
    return (f"{caps.driver} has {what} only on the {_and(only)}, not on the {chip} "
            f"(EOPNOTSUPP; {caps.cite(fact)})")  # fmt: skip


def single_queue(
    caps: DriverCaps | None,
    iface: str | None,
    kernel: str | None,
    chip: str | None,
    seen: int | None,
) -> str | None:
    """Why XPS is not possible on a net_device with one transmit queue (the kernel answers
    ENOENT to xps_cpus: net/core/net-sysfs.c xps_cpus_store), from the driver's source: a
    single-queue allocation, or one queue in use where the driver allocates only those (macb:
    the hardware's, one on the Pi 5's RP1). `seen`: the transmit queues counted (the Pi's
    xps_cpus files, or the inventory's), None where not known."""
    if caps is None or not caps.single_tx_queue(chip, seen):
        return None
    fact = driver_caps.kernel_fact("xps_single_queue_errno", kernel)
    errno_name, where = fact if fact else ("ENOENT", "net/core/net-sysfs.c: xps_cpus_store")
    why = caps.cite("netdev")
    if caps.multiqueue is not False:  # allocated as the hardware has them: say where from
        known = caps.cite("queues_by_chip") if caps.queues_in_use(chip) and not seen else ""
        why = "; ".join(w for w in (caps.cite("queues_allocated"), known) if w)
    return (
        f"the {caps.driver} driver gives {iface or 'this NIC'} one transmit queue ({why}): "
        f'the kernel has no transmit queue map for it and answers "No such file or directory" '
        f"({errno_name}, {where})"
    )


def pause_refused_for_mtu(caps: DriverCaps | None, mtu: int | None) -> str | None:
    """r8169 refuses every pause change while the MTU is above 1500 (rtl8169_set_pauseparam:
    EOPNOTSUPP with jumbo frames)."""
    above = caps.facts.get("pause_refused_above_mtu") if caps else None
    if caps is None or not above or not mtu or mtu <= int(above):
        return None
    return (f"{caps.driver} refuses pause changes while the MTU is above {above} (it is {mtu}, "
            f"jumbo frames): the kernel answers \"Operation not supported\" (not possible; "
            f"{caps.cite('pause_refused_above_mtu')})")  # fmt: skip


def mtu_above_max(caps: DriverCaps | None, chip: str | None, wanted: int, top: int) -> str:
    """The planner's words for an MTU above the driver's maximum `top` (the table's, or the
    kernel's own as `ip -d link` shows it)."""
    known = caps.mtu_max(chip) if caps else None
    if caps and known == top and caps.mtu_max_key(chip) not in (None, "default"):
        return (f"{caps.driver} allows an MTU of at most {top} on this chip "
                f"({caps.mtu_max_cite(chip)}): not possible, at most {top}")  # fmt: skip
    where = f" ({caps.cite('mtu_max')})" if caps and known == top else ""
    return f"the driver allows an MTU of at most {top}{where}"


def wanted_mtu(tweak: Tweak, options: Mapping[str, Any]) -> int:
    return int(options.get("mtu") or tweak.params.get("default_mtu", 9000))


def usb_packet_refusal(caps: DriverCaps | None, nic: Nic | None, wanted: int) -> str | None:
    """lan78xx_change_mtu / usbnet_change_mtu refuse (EDOM) an MTU whose frame is a whole
    number of the bulk endpoint's packets: 512 bytes on USB 2.0 (also when the speed is not
    known: a multiple of 1024 is one of 512), 1024 on USB 3."""
    chip = nic.chip if nic else None
    extra = driver_caps.edom_frame_extra(caps, chip) if caps else None
    if caps is None or extra is None:
        return None
    speed = nic.usb_speed_mbps if nic else None
    packet = 1024 if speed and speed >= 5000 else 512
    if (wanted + extra) % packet:
        return None
    return (f"{caps.driver} refuses an MTU of {wanted}: its frame would be a whole number of "
            f"{packet}-byte USB packets (EDOM, Numerical argument out of domain; "
            f"{caps.cite('mtu_edom_frame_extra')}): not possible, choose another MTU")  # fmt: skip


def refused_while_up(caps: DriverCaps | None, current: str, wanted: int) -> str | None:
    """macb refuses a new MTU while the interface runs (macb_change_mtu: EBUSY)."""
    if caps is None or not caps.facts.get("mtu_refused_when_up") or current == str(wanted):
        return None
    return (f"{caps.driver} refuses a new MTU while the interface is up "
            f"({caps.facts['mtu_refused_when_up']}; {caps.cite('mtu_refused_when_up')}): "
            "not possible on a running link")  # fmt: skip


def board_named(options: Mapping[str, Any], inventory: Inventory, names: list[str]) -> str | None:
    """The longest of `names` in the board's model (or the one the user named)."""
    model = str(options.get("board") or inventory.board.model or "")
    matches = [n for n in names if names_board(n, model)]
    return max(matches, key=len) if matches else None


def _rings(ask: Ask) -> str | None:
    return lacks(ask.caps, "set_ringparam")


def scaled_usecs(
    caps: DriverCaps | None, chip: str | None, speed: int | None, usecs: int, tx_usecs: int
) -> int | str:
    """r8169 (RTL8168/8111/8101): usecs are kept as up to 15 units of a scale chosen from the
    link's speed and the larger of rx/tx usecs, rounded up in and out (rtl_set_coalesce,
    rtl_get_coalesce). The first value from `usecs` up that reads back as written, or why
    there is none (at 100 Mbit/s a unit is 20.48 us: 50 reads back 62, never as written)."""
    by_speed = driver_caps.coalesce_scale_rows(caps, chip) if caps else None
    if caps is None or not by_speed:
        return usecs
    scales = caps.facts["coalesce_scale_ns"]
    driver = caps.driver
    found = by_speed.get(str(speed)) if speed else by_speed[max(by_speed, key=int)]
    if found is None:
        return f"{driver} has no coalescing at {speed} Mbit/s"
    row: list[int] = found
    top = int(scales["units_max"])

    def read_back(value: int) -> int | None:
        scale = next((s for s in row if max(value, tx_usecs) <= s * top // 1000), None)
        if scale is None:
            return None  # EINVAL: over 15 units of the largest scale
        units = -(-value * 1000 // scale)  # DIV_ROUND_UP
        return -(-units * scale // 1000)

    for value in range(usecs, usecs + 50):
        if read_back(value) == value:
            return value
    return (f"{driver} keeps rx-usecs in steps of "
            f"{row[0] / 1000:g}-{row[-1] / 1000:g} us at {speed or 'its top'} Mbit/s, so "
            f"{usecs} would read back {read_back(usecs)} and the change could not be checked "
            f"(not planned; {caps.cite('coalesce_scale_ns')})")  # fmt: skip


def _coalescing(ask: Ask) -> str | None:
    caps = ask.caps
    refused = lacks(caps, "set_coalesce") or refused_chip(
        caps, ask.chip, "coalesce_refused_chips", "coalescing"
    )
    if refused or ask.nic is None:
        return refused
    no_timer = caps.refuses_on("coalesce_riwt_off_chips", ask.chip) if caps else None
    if caps is not None and no_timer:  # stmmac without its RX watchdog: nothing to lengthen
        return (f"{caps.driver} has no receive interrupt timer on the {no_timer} (the MAC's RX "
                "watchdog is not used: rx-usecs reads 0 and a new value is not kept; not "
                f"possible; {caps.cite('coalesce_riwt_off_chips')})")  # fmt: skip
    # r8169's scales at the inventory's link speed, from the tweak's interval and TX off: no
    # value near it reads back as written (the PCI RTL8169 at 1000 Mbit/s, any chip at 10)
    target = int(ask.tweak.params.get("rx_usecs", 50))
    scaled = scaled_usecs(caps, ask.chip, ask.nic.link_speed_mbps, target, 0)
    return scaled if isinstance(scaled, str) else None


def _eee(ask: Ask) -> str | None:
    caps = ask.caps
    what = "Energy-Efficient Ethernet"
    return (
        refused_chip(caps, ask.chip, "eee_refused_chips", what)
        or chip_without(caps, ask.chip, "eee_chips_only", what)
        or lacks(caps, "set_eee")
    )


def _pause(ask: Ask) -> str | None:
    caps = ask.caps
    jumbo = pause_refused_for_mtu(caps, ask.nic.mtu if ask.nic else None)
    if jumbo:
        return jumbo
    drivers = [str(d) for d in ask.tweak.params.get("drivers", [])]
    if ask.nic is not None and drivers and ask.nic.driver not in drivers:
        return NotNeeded(f"only for NICs known to need it ({', '.join(drivers)})")
    return lacks(caps, "set_pauseparam")


def _rps(ask: Ask) -> str | None:
    return f"{ask.one_core_words()}: there is nothing to spread the work to" if (
        ask.nic is not None and ask.one_core()
    ) else None  # fmt: skip


def _xps(ask: Ask) -> str | None:
    nic, caps = ask.nic, ask.caps
    if nic is None:
        return None
    # A driver that allocates the queues in use (macb) has as many as the hardware: settled
    # by the inventory's count or the table's for the chip (RP1: one), else the Pi's to say.
    known = (
        nic.tx_queues is not None
        or driver_caps.by_chip(caps.facts.get("queues_by_chip") if caps else None, nic.chip)
        is not None
    )
    if caps is not None and caps.facts.get("queues_allocated") == "in use" and not known:
        single = None
    else:
        single = single_queue(caps, nic.name, ask.inventory.board.kernel, nic.chip, nic.tx_queues)
    return single or (ask.one_core_words() if ask.one_core() else None)


def irqs_words(irqs: list[int]) -> str:
    return f"interrupt {irqs[0]}" if len(irqs) == 1 else f"interrupts {', '.join(map(str, irqs))}"


def _irq_affinity(ask: Ask) -> str | None:
    nic = ask.nic
    if nic is None:
        return None
    # One core first: it settles the answer whatever the interrupts (walk18, a Pi 1's
    # smsc95xx showed none and was told "no interrupt found" instead)
    if ask.one_core():
        return ask.one_core_words()
    if not nic.irqs:  # none seen: a bundle without /proc/interrupts, or the Pi's (the planner's)
        return None
    avoid = int(ask.tweak.params.get("avoid_cpu", 0))
    if all(i in nic.fixed_irqs for i in nic.irqs):  # the interrupt chip's (inventory)
        return f"{irqs_words(nic.irqs)} cannot be moved off CPU {avoid}: {nic.fixed_irqs_why}"
    return None


def _mtu(ask: Ask) -> str | None:
    caps, nic = ask.caps, ask.nic
    if nic is None or caps is None:
        return None
    wanted = wanted_mtu(ask.tweak, ask.options)
    top = caps.mtu_max(nic.chip)
    if top is not None and wanted > top:
        return mtu_above_max(caps, nic.chip, wanted, top)
    refusal = usb_packet_refusal(caps, nic, wanted) or fifo_refusal(caps, nic.chip, wanted)
    if refusal:
        return refusal
    return refused_while_up(caps, str(nic.mtu), wanted) if nic.mtu else None


def fifo_refusal(caps: DriverCaps, chip: str | None, wanted: int) -> str | None:
    """stmmac_change_mtu refuses (EINVAL) an MTU its transmit FIFO cannot hold."""
    fifo = driver_caps.mtu_fifo_refused(caps, chip, wanted)
    if not fifo:
        return None
    return (f"{caps.driver} refuses an MTU of {wanted} on this chip: its transmit "
            f"FIFO holds {fifo} bytes (EINVAL, Invalid argument; stmmac_change_mtu with "
            f"the device tree's tx-fifo-depth): not possible, at most {fifo}")  # fmt: skip


def board_refusal(
    tweak: Tweak, inventory: Inventory, options: Mapping[str, Any], unknown: bool = True
) -> str | None:
    """Why a boot tweak is not for this board (its catalogue's boards); a board whose model is
    not known is refused only with `unknown` (the planner: the Pi it plans for did not say;
    the rule leaves it to the Pi, which says its model in a live inventory)."""
    boards = tweak.params.get("boards", {})
    names = list(boards) if isinstance(boards, dict) else [str(b) for b in boards]
    if board_named(options, inventory, names) is not None:
        return None
    model = options.get("board") or inventory.board.model
    if not model and not unknown:
        return None
    shown = "boards with PCIe" if tweak.kind == "boot_cmdline" else ", ".join(names)
    return f"only for {shown} (this board: {model or 'not recognised'})"


def _boot(ask: Ask) -> str | None:
    """A boot tweak: its boards, then what the kernel or firmware would change for this NIC
    (boot_rules; the Pi's own /proc/cmdline is the planner's to read)."""
    refused = board_refusal(ask.tweak, ask.inventory, ask.options, False)
    acts_on = str(ask.tweak.params.get("acts_on", ""))
    return refused or boot_rules.refusal(acts_on, ask.nic, ask.inventory, None)


_RULES: dict[str, Callable[[Ask], str | None]] = {
    "rings": _rings,
    "coalescing": _coalescing,
    "eee": _eee,
    "pause": _pause,
    "rps": _rps,
    "xps": _xps,
    "irq_affinity": _irq_affinity,
    "mtu": _mtu,
    "boot_config": lambda ask: _boot(ask),
    "boot_cmdline": lambda ask: _boot(ask),
}


def _coalescing_modes(ask: Ask) -> str | None:
    """igb/igc: rx-usecs 1 and 3 are mode codes (3 the default), so the planner (kinds_coalesce
    _plan_mode_codes) never sets a fixed interval; what it does depends on the value read."""
    caps = ask.caps
    modes = caps.facts.get("coalesce_modes") if caps else None
    if caps is None or not isinstance(modes, dict) or _coalescing(ask):
        return None
    default = modes.get("default", 3)
    names = modes.get("rx-usecs", {})
    name = names.get(str(default), "adaptive") if isinstance(names, dict) else "adaptive"
    return (f"On {caps.driver} the tuning sets no fixed interval: rx-usecs {default}, the "
            f"driver's default, is its adaptive interrupt moderation ({name}), which it leaves "
            f"as it is (\u201calready\u201d); only where the Pi reads another value does it put "
            f"back rx-usecs {default} ({caps.cite('coalesce_modes')}).")  # fmt: skip


def _pause_at_start(ask: Ask) -> str | None:
    """lan78xx, igc, atlantic ask for RX and TX pause at start (the table's pause_default): the
    planner (kinds_negotiated plan_pause) reads `ethtool -a` and changes only a direction shown off,
    so on a Pi nobody changed it does nothing (walk 24: Results recommended it on a Pi 3 B+)."""
    caps = ask.caps
    default = caps.facts.get("pause_default") if caps else None
    if (
        caps is None
        or not isinstance(default, dict)
        or not (default.get("rx") and default.get("tx"))
    ):
        return None
    if _pause(ask):
        return None
    return (f"{caps.driver} asks for RX and TX pause frames at start "
            f"({caps.cite('pause_default')}): the tuning reads the Pi's pause settings and turns "
            f"on only a direction that someone turned off; where both are on it changes nothing "
            f"(\u201calready\u201d).")  # fmt: skip


# What the planner decides only from the Pi's read-back, in words the advice adds where it names
# the tweak (advice.reach): Results then says what Tune will do there.
_READ_BACK: dict[str, Callable[[Ask], str | None]] = {
    "coalescing": _coalescing_modes,
    "pause": _pause_at_start,
}


def read_back_decides(tweak: Tweak | str, inventory: Inventory, nic: Nic | None) -> str | None:
    """Plain words for what the planner of `tweak` does on `nic` once it reads the Pi, where
    the driver's source says it may do nothing (None: nothing to add)."""
    if isinstance(tweak, str):
        try:
            tweak = catalog.tweak(tweak)
        except UserError:
            return None
    rule = _READ_BACK.get(tweak.kind)
    return rule(Ask(tweak, inventory, nic, {})) if rule else None
