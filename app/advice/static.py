"""Findings that need no measurement: what the inventory alone shows to be wrong or limiting.

Every figure quoted comes from the catalog (with its source); every finding quotes the output
lines it rests on.
"""

from __future__ import annotations

import re

from sbctune.advice.advisor import Advisor
from sbctune.advice.advisor import label as _label
from sbctune.advice.chips import chips_said, usb3_only_chips
from sbctune.advice.counters import cable_recommendation
from sbctune.advice.driver_binding import (
    driver_from_tables,
    generic_driver,
    newer_kernel_driver,
    usb_no_driver,
)
from sbctune.advice.driver_figures import PortFigures, install_detail
from sbctune.advice.drivers import driver_steps
from sbctune.advice.evidence import lines_with
from sbctune.advice.faster_board import faster_board
from sbctune.advice.knowledge import load_knowledge
from sbctune.advice.logs import log_findings
from sbctune.advice.static_board import (
    best_figure as _best,
)
from sbctune.advice.static_board import (
    better_adapter,
    power,
    unowned_phy_failures,
    usb3_named_at_usb2,
    usb_below_top_speed,
    usb_device_resets,
    usb_over_current,
)
from sbctune.advice.static_duplex import unreported_duplex
from sbctune.advice.static_pcie import pcie_links_down
from sbctune.advice.static_vectors import open_without_vectors
from sbctune.advice.unowned_irqs import network_irqs_on_cpu0
from sbctune.advice.usb3_wifi import usb3_wifi_at_usb2
from sbctune.advice.usb_host_died import usb_controllers_died
from sbctune.catalog import Catalog, Chip, load_catalog
from sbctune.inventory.model import (
    Inventory,
    Nic,
)
from sbctune.inventory.raw import Parsed

_USB2_MAX = 480


def _usb_line(parsed: Parsed, nic: Nic) -> list[str]:
    """The output lines that show the NIC's USB speed (plain text search, never a regex)."""
    if nic.driver and parsed.lsusb_tree_text:
        found = lines_with(parsed.lsusb_tree_text, f"Driver={nic.driver},", 2)
        if found:
            return found
    shown = [e.split(": ", 1)[-1] for e in nic.evidence if "480" in e or "high-speed" in e]
    return (shown[:1] + nic.log.get("not_top_speed", [])[:1]) or shown[:2]


def _usb3_by_name(nic: Nic) -> bool:
    """A USB NIC whose name says 2.5G/5G/10G can only be a USB 3 device."""
    return bool(re.search(r"\b(?:2\.5|5|10)\s?G(?:bE|b?/s|BASE|\b)", nic.chip or ""))


def _below_why(nic: Nic) -> str:
    """What holds a link below the NIC's best mode, where the other end's advertisement says
    (the partner's modes: phylib's and mii's lp_advertising once autonegotiation completed;
    igb, igc and cdc_ncm never fill them): the other end offers no more, or both ends offer
    more and the link came up lower (a downshift: a pair of the cable missing); audit 22 row 6."""
    partner, link = nic.partner_max_mbps, nic.link_speed_mbps or 0
    best = min(partner or 0, nic.max_link_speed_mbps or 0)
    if partner and partner <= link:
        return (
            f"the other end advertises at most {partner} Mbit/s, so its port (the switch "
            "or the device there) sets this speed, not the cable."
        )
    if partner and best > link:
        return (
            f"both ends advertise {best} Mbit/s, yet the link came up at {link}: a cable or "
            "socket with a broken pair (a gigabit link needs all four) is the usual cause."
        )
    return "the cable or the switch port limits it."


class _Advisor(Advisor):
    # ------------------------------------------------------------------ per NIC
    def nic(self, nic: Nic) -> None:
        chip = self.catalog.chip(nic.catalog_id) if nic.catalog_id else None
        self.no_driver(nic, chip)
        self.usb3_at_usb2(nic, chip)
        self.builtin_behind_usb2(nic, chip)
        self.link(nic)
        self.pcie(nic)
        open_without_vectors(self, nic)
        self.slow_pair(nic, chip)
        self.irqs(nic)

    def no_driver(self, nic: Nic, chip: Chip | None) -> None:
        if nic.bus != "pci" or nic.driver or nic.name or nic.driver_state is None:
            return
        # the listing, and the sysfs link that proves no driver is bound (pci_driver_links)
        evidence = [e for e in nic.evidence if e.startswith(("lspci", "sysfs pci: "))]
        if nic.driver_state == "unknown":
            self.finding(
                "driver-unknown",
                "info",
                nic,
                f"The outputs do not show whether a driver is bound to the "
                f"{nic.chip or 'network controller'} (run “lspci -nnk” to see).",
                evidence,
            )
            return
        self.finding(
            "no-driver",
            "problem",
            nic,
            f"No driver is bound to the {nic.chip or 'network controller'}: "
            "the card is seen on the bus but gives no network interface.",
            evidence,
        )
        if chip is None:
            hint = driver_from_tables(nic)
            if hint is not None and not any(
                r.title == hint.title for r in self.inv.recommendations
            ):
                self.inv.recommendations.append(hint)
            return
        self.driver_for_chip(nic, chip)

    def driver_for_chip(self, nic: Nic, chip: Chip) -> None:
        """The catalog's driver advice for a chip with no driver bound, with measured figures."""
        drivers = ", ".join(dict.fromkeys(chip.drivers.in_tree + chip.drivers.vendor))
        fig = PortFigures.of(chip)
        ports = sum(1 for n in self.inv.nics if n.catalog_id == chip.id and not n.name)
        shared = fig.together is not None and ports > 1
        detail = install_detail(chip, drivers) + (fig.shared_text(nic) if shared else "")
        gain = fig.gain_text(ports if shared else 0)
        recipe = load_knowledge().driver_for_chip(chip.id)
        steps = driver_steps(recipe, self.inv, _label(nic)) if recipe else []
        low = fig.single.value_mbps if fig.single else None
        self.recommend(
            "driver",
            nic,
            f"Install the {drivers} driver",
            detail,
            gain,
            [chip.driver_source]
            + [p.source for p in chip.problems]
            + ([fig.single.source] if fig.single else [])
            + [m.source for m in fig.multi]
            + list(recipe.sources if recipe else ()),
            low,
            fig.together if shared else low,
            evidence=[e for e in nic.evidence if e.startswith("lspci")][:1] + fig.evidence(),
            steps=steps,
        )

    def usb3_at_usb2(self, nic: Nic, chip: Chip | None) -> None:
        said = chip.name if chip is not None else None
        if chip is None and (by_driver := usb3_only_chips(self.catalog, nic)):
            chip, said = by_driver[0], chips_said(by_driver)  # figures from the slowest
        if nic.bus != "usb" or nic.usb_speed_mbps is None:
            return
        if chip is None:
            if _usb3_by_name(nic) and nic.usb_speed_mbps <= _USB2_MAX:
                usb3_named_at_usb2(self, nic)
            return
        if not (chip.usb_generation or "").startswith("3") or nic.usb_speed_mbps > _USB2_MAX:
            return
        if chip.builtin or nic.builtin:
            return  # a 3B+'s LAN7515 sits on USB 2.0 by design: see builtin_behind_usb2
        usb2 = self.catalog.bus("usb2")
        practical = usb2.figure("practical_ethernet_mbps") if usb2 else None
        self.finding(
            "usb3-adapter-at-usb2",
            "problem",
            nic,
            f"The {said or chip.name} is a USB 3 adapter but runs at {nic.usb_speed_mbps} Mbit/s "
            "(USB 2.0): it is in a USB 2.0 port or behind a USB 2.0 hub.",
            _usb_line(self.parsed, nic),
        )
        ceiling = chip.ceiling_mbps(None)
        gain = (
            f"from at most ~{practical.value:g} Mbit/s (USB 2.0) to ~{ceiling.value_mbps:g} Mbit/s"
            if practical and ceiling
            else "up to the adapter's full speed"
        )
        has_usb3 = self.board is None or any(e.bus == "usb3" for e in self.board.expansion)
        low = ceiling.value_mbps - practical.value if practical and ceiling else None
        self.recommend(
            "cable",
            nic,
            "Move the adapter to a USB 3 port",
            "Plug it straight into a blue USB 3 port (not through a USB 2.0 hub or "
            "extension)." + ("" if has_usb3 else " This board has no USB 3 port."),
            gain,
            [chip.id_source]
            + ([practical.source] if practical else [])
            + ([ceiling.source] if ceiling else []),
            low,
            low,
            evidence=_usb_line(self.parsed, nic),
        )

    def builtin_behind_usb2(self, nic: Nic, chip: Chip | None) -> None:
        if not (nic.builtin and nic.bus == "usb" and chip is not None):
            return
        usb2 = self.catalog.bus("usb2")
        practical = usb2.figure("practical_ethernet_mbps") if usb2 else None
        self.finding(
            "builtin-nic-on-usb2",
            "info",
            nic,
            f"The built-in Ethernet ({nic.chip or chip.name}) is a USB 2.0 device sharing the "
            "board's single USB 2.0 connection with every USB port.",
            _usb_line(self.parsed, nic),
        )
        limit = min(filter(None, [chip.line_rate_mbps, practical.value if practical else None]))
        basis = faster_board(self.catalog, chip)
        target = basis.target_mbps
        self.recommend(
            "board",
            nic,
            "For more speed, use a Pi 4 or Pi 5",
            f"This board's Ethernet is capped near {limit:g} Mbit/s by its design; no "
            "tuning changes that. A Pi 4 or 5 has native gigabit Ethernet.",
            f"from ~{limit:g} to ~{target:g} Mbit/s",
            basis.sources,
            target - limit,
            target - limit,
            evidence=basis.evidence,
        )

    def link(self, nic: Nic) -> None:
        unreported = unreported_duplex(nic.driver, self.inv.board.kernel) if nic.duplex else None
        if nic.duplex == "half" and unreported:
            # the zeroed settings' DUPLEX_HALF, not the link's (audit 22 row 1); the link's
            # words say so too (walk 24: the report and card said "half duplex" beside this)
            nic.duplex_not_reported = True
            self.finding(
                "duplex-not-reported",
                "info",
                nic,
                f"{nic.name}'s driver ({nic.driver}) does not report the duplex: the "
                '"Duplex: Half" that ethtool and /sys/class/net show for it is a placeholder on '
                "every link, not a half-duplex link. Its measured rates in both directions at "
                "once tell whether the link is full duplex.",
                [f"Duplex: Half ({nic.name})", f"{unreported} writes no duplex"],
            )
        elif nic.duplex == "half":
            self.finding(
                "half-duplex",
                "problem",
                nic,
                f"{nic.name} negotiated half duplex: sending and receiving cannot overlap.",
                [f"Duplex: Half ({nic.name})"],
            )
            self.recommend(
                "cable",
                nic,
                "Fix the half-duplex link",
                "Half duplex usually means a bad cable, an old hub, or a switch port "
                "forced to a fixed speed. Use auto-negotiation on both ends and a "
                "Cat5e or better cable.",
                "up to twice the throughput with both directions at once",
                [],
                tweaks=[],
            )
        if (
            nic.link_speed_mbps
            and nic.max_link_speed_mbps
            and nic.link_speed_mbps < nic.max_link_speed_mbps
            and nic.link_detected is not False
        ):
            goodput = self.catalog.tcp_goodput_mbps(nic.max_link_speed_mbps)
            now = self.catalog.tcp_goodput_mbps(nic.link_speed_mbps)
            self.finding(
                "link-below-capability",
                "warning",
                nic,
                f"{nic.name} linked at {nic.link_speed_mbps} Mbit/s although it can do "
                f"{nic.max_link_speed_mbps} Mbit/s: {_below_why(nic)}",
                [f"Speed: {nic.link_speed_mbps}Mb/s ({nic.name})"]
                + (
                    [f"Link partner advertised up to {nic.partner_max_mbps}Mb/s ({nic.name})"]
                    if nic.partner_max_mbps
                    else []
                ),
            )
            self.recommend(
                "cable",
                nic,
                f"Get a {nic.max_link_speed_mbps} Mbit/s link",
                "Check the cable (Cat5e or better, all 8 wires) and that the switch "
                f"port supports {nic.max_link_speed_mbps} Mbit/s.",
                f"from ~{now:.0f} to ~{goodput:.0f} Mbit/s",
                ["derived-ethernet-framing"],
                goodput - now,
                goodput - now,
            )

    def pcie(self, nic: Nic) -> None:
        link = nic.pcie
        if link is None or not link.downgraded:
            return
        self.finding(
            "pcie-downgraded",
            "warning",
            nic,
            f"The PCIe link runs at {link.speed_gts} GT/s x{link.width}, below the card's "
            f"{link.max_speed_gts} GT/s x{link.max_width}.",
            link.evidence,  # lspci's LnkCap/LnkSta or the kernel's bandwidth line, as printed
        )

    def slow_pair(self, nic: Nic, chip: Chip | None) -> None:
        if chip is None or not nic.driver:
            return
        board = self.inv.board.catalog_id
        # Transmit far below receive on the same board: the AX88179 case of seed 000.
        tx = _best(chip, board, "pi_to_peer")
        rx = _best(chip, board, "peer_to_pi")
        if tx and rx and tx < 0.9 * rx:
            source = next(m.source for m in chip.measurements if m.value_mbps == tx)
            # the board unknown, the figures are another board's: do not call it this one's
            where = (
                "on this board"
                if board
                else "on the board it was measured on (this one is not known)"
            )
            self.finding(
                "chip-slow-transmit",
                "warning",
                nic,
                f"The {chip.name} with {nic.driver} is known to send slower than it "
                f"receives {where}: {tx:g} vs {rx:g} Mbit/s measured.",
                [
                    *_usb_line(self.parsed, nic),
                    *self.registration(nic),
                    f"catalog: {chip.name} with {nic.driver}: {tx:g} Mbit/s sending, "
                    f"{rx:g} receiving",
                ],
            )
            better_adapter(self, nic, chip, board, tx, source)
        # In-tree driver measured below the vendor's on the same board: seed 003's RTL8125B.
        if nic.driver in chip.drivers.in_tree and chip.drivers.vendor:
            mine = [m for m in chip.measurements if m.driver == nic.driver]
            vendor = [m for m in chip.measurements if m.driver in chip.drivers.vendor]
            if mine and vendor:
                best_mine = max(mine, key=lambda m: m.value_mbps)
                best_vendor = max(vendor, key=lambda m: m.value_mbps)
                if best_mine.value_mbps < 0.9 * best_vendor.value_mbps:
                    self.finding(
                        "driver-slower-than-vendor",
                        "warning",
                        nic,
                        f"With the in-kernel {nic.driver} driver the {chip.name} is known "
                        f"to top out near {best_mine.value_mbps:g} Mbit/s; the vendor's "
                        f"{best_vendor.driver} reached {best_vendor.value_mbps:g}.",
                        [f"driver: {nic.driver}"],
                    )
                    recipe = load_knowledge().driver_for_chip(chip.id)
                    gain = best_vendor.value_mbps - best_mine.value_mbps
                    self.recommend(
                        "driver",
                        nic,
                        recipe.title if recipe else f"Use the vendor {best_vendor.driver} driver",
                        f"The in-kernel {nic.driver} driver tops out near "
                        f"{best_mine.value_mbps:g} Mbit/s with this chip; the vendor's "
                        f"{best_vendor.driver} {best_vendor.driver_version or ''} reached "
                        f"{best_vendor.value_mbps:g}."
                        + (f" {recipe.note}" if recipe and recipe.note else ""),
                        f"from ~{best_mine.value_mbps:g} to ~{best_vendor.value_mbps:g} Mbit/s",
                        [best_mine.source, best_vendor.source, *(recipe.sources if recipe else ())],
                        gain,
                        gain,
                        steps=driver_steps(recipe, self.inv, _label(nic)) if recipe else [],
                    )

    def irqs(self, nic: Nic) -> None:
        interrupts = self.parsed.interrupts
        if interrupts is None or not nic.irqs:
            return
        for number in nic.irqs:
            irq = interrupts.get(number)
            if irq is None or len(irq.counts) < 2 or not irq.counts[0]:
                continue
            if any(irq.counts[1:]):
                continue
            shared = any(n in ("xhci_hcd", "dwc_otg") for n in irq.names)
            # the inventory's fact, from the interrupt chip (the tuning planner reads the same)
            fixed = number in nic.fixed_irqs
            line = [irq.line.rstrip()] if irq.line else []  # not a rescan of the file per IRQ
            if fixed and nic.fixed_irqs_why:
                line.append(f"cannot be moved: {nic.fixed_irqs_why}")
            through = f" through the shared {irq.names[-1]} interrupt" if shared else ""
            self.finding(
                "irq-on-cpu0",
                "warning" if shared or fixed else "info",
                nic,
                f"All of {_label(nic)}'s interrupts land on CPU0{through}"
                + (
                    "; the kernel cannot move this interrupt to another CPU on this hardware."
                    if fixed
                    else "."
                ),
                line,
            )
            self.recommend(
                "tweak",
                nic,
                "Spread receive processing over all cores (RPS)",
                "Receive Packet Steering moves the protocol work off the core that "
                "takes the interrupt"
                + (
                    "; the interrupt itself cannot move."
                    if fixed
                    else ", and the IRQ can be moved off CPU0."
                ),
                "less CPU0 saturation; gains depend on the load (measure)",
                ["seed-000"] if self._pi4_test_fits("rps-rfs", nic) else [],
                0.0,
                None,
                tweaks=["rps-rfs"],
            )
            return

    def _pi4_test_fits(self, tweak_id: str, nic: Nic) -> bool:
        """Whether the tweak's why cites the Pi 4 test (seed 000) for this board and NIC
        (tuning/why_words.py): on a Pi 5 or a Pi 1 it is no source."""
        from sbctune.tuning import catalog  # the tweak catalogue, only when needed
        from sbctune.tuning.why_words import why_for

        _, sources = why_for(catalog.tweak(tweak_id), self.inv, nic)
        return any(source.startswith("seed 000 ") for source in sources)

    def registration(self, nic: Nic) -> list[str]:
        if not self.parsed.dmesg_text or not nic.name:
            return []
        lines = lines_with(self.parsed.dmesg_text, f"{nic.name}: ", 20)
        return [ln for ln in lines if ": register" in ln or f"{nic.name}: v" in ln][:1]

    # ------------------------------------------------------------------ board


_RANK = {"problem": 0, "warning": 1, "info": 2}


def add_static_advice(inventory: Inventory, parsed: Parsed, catalog: Catalog | None = None) -> None:
    """Append the inventory's findings and recommendations (most severe first)."""
    advisor = _Advisor(inventory, parsed, catalog or load_catalog())
    for nic in inventory.nics:
        if not nic.wireless:
            advisor.nic(nic)
        else:  # a Wi-Fi card lspci shows unbound gives no interface either (not a wired check)
            advisor.no_driver(nic, advisor.catalog.chip(nic.catalog_id) if nic.catalog_id else None)
        usb3_wifi_at_usb2(advisor, nic)  # a Wi-Fi chip the kernel switches to USB 3 mode
    for nic in inventory.nics:
        for found in log_findings(nic, inventory.board.kernel):
            if found.id == "link-down" and nic.wireless:
                continue
            inventory.findings.append(found)
            if cable := cable_recommendation(found):
                inventory.recommendations.append(cable)
        for pair in (generic_driver(nic, inventory.board.kernel), usb_no_driver(nic)):
            if pair is not None:
                inventory.findings.append(pair[0])
                inventory.recommendations += [pair[1]] if pair[1] is not None else []
        if newer := newer_kernel_driver(nic, inventory.board.kernel):
            inventory.recommendations.append(newer)
    network_irqs_on_cpu0(advisor)  # after every NIC's own irq-on-cpu0
    usb_below_top_speed(advisor)
    usb_device_resets(advisor)
    usb_over_current(advisor)
    usb_controllers_died(advisor)
    unowned_phy_failures(advisor)
    pcie_links_down(advisor)
    power(advisor)
    inventory.findings.sort(key=lambda f: _RANK[f.severity])
