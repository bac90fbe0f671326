"""Measured-advice checks about what carries the link: the USB or PCIe bus, the CPU, the
driver and the chip, retransmissions, and a NIC below its link for no visible reason."""

from __future__ import annotations

from sbctune.advice import thresholds as th
from sbctune.advice.chips import speed_family
from sbctune.advice.cpu import irq_bound_core
from sbctune.advice.drivers import driver_steps
from sbctune.advice.measured_base import NicAdvisorBase
from sbctune.advice.runs import LABEL
from sbctune.catalog import Chip
from sbctune.tuning.boot_rules import pcie_x1_refusal
from sbctune.wording import counted, grouped, percent


class HostChecks(NicAdvisorBase):
    def usb2_bound(self) -> None:
        if not self.on_usb2:
            return
        usb2 = self.catalog.bus("usb2")
        practical = usb2.figure("practical_ethernet_mbps") if usb2 else None
        if practical is None:
            return
        totals = [f.mbps for f in self.half]
        full = self.runs.pair("full")
        if full:
            totals.append(full[0].mbps + full[1].mbps)
        if not totals or max(totals) < th.USB2_BOUND_SHARE * practical.value:
            return
        if "bidirectional-shares-bus" in self.found:
            return
        self.finding(
            "usb2-bound",
            "warning",
            f"{self.label} reaches {max(totals):.0f} Mbit/s, near the ~{practical.value:.0f} "
            "Mbit/s that USB 2.0 gives an Ethernet device: the bus is the limit.",
            [f.cite() for f in self.half]
            + [f"{self.label} runs at {self.nic.usb_speed_mbps or 480} Mbit/s USB"],
        )

    def pcie_bound(self) -> None:
        if self.nic.bus != "pci":
            return
        bus = self.catalog.bus("pcie-gen2-x1")
        figures = bus.figures_named("measured_aggregate_mbps") if bus else ()
        if not figures:
            return
        cap = min(f.value for f in figures)
        full = self.runs.pair("full")
        total = max(
            [f.mbps for f in self.half] + ([full[0].mbps + full[1].mbps] if full else []),
            default=0.0,
        )
        if total < th.PCIE_BOUND_SHARE * cap:
            return
        self.finding(
            "pcie-bound",
            "warning",
            f"{self.label} moves {total:.0f} Mbit/s, near the ~{cap:.0f} Mbit/s that a PCIe "
            "Gen 2 x1 link carried in total on a CM4: the bus is the limit.",
            [f.cite() for f in self.half] + [f"PCIe Gen 2 x1 measured aggregate ~{cap:.0f}"],
        )
        board = self.inv.board.catalog_id
        # Gen 3 on the x1 connector lifts only a link whose other end can train at 8 GT/s
        # (tuning.boot_rules: the NIC's own LnkCap when it sits right behind the root port)
        if board == "pi5" and pcie_x1_refusal(self.nic) is None:
            self.recommend(
                "setting",
                "Run the Pi 5's PCIe connector at Gen 3",
                "dtparam=pciex1_gen=3 in config.txt raises the link from 5 to 8 GT/s. Not "
                "certified by Raspberry Pi: keep the old config.txt to revert if it is unstable.",
                "more PCIe headroom (from 4000 to 7877 Mbit/s after encoding)",
                0.0,
                None,
                ["rpi-doc-pcie", "linux-pci-h"],
                [f"{total:.0f} Mbit/s on a 5 GT/s x1 link"],
                tweaks=["boot-pi5-pcie-gen3"],
            )

    def cpu_bound(self) -> None:
        for figure in self.half + self.runs.mode("full"):
            verdict = irq_bound_core(figure.pi_cpu)
            if verdict is None:
                continue
            self.finding(
                "cpu-bound",
                "problem",
                f"During {figure.label} one core did the network work while the others idled: "
                f"{verdict.summary}. The Pi's CPU, not the wire, limits {self.label} there.",
                [figure.cite(), *verdict.lines],
            )
            self.tweaks("cpu-bound", [figure.cite(), *verdict.lines])
            return

    def retransmits(self) -> None:
        for figure in self.half + self.runs.mode("full"):
            if not figure.retransmits or not figure.seconds:
                continue
            segments = figure.mbps * 1e6 / 8 / th.MSS_BYTES * figure.seconds
            share = figure.retransmits / segments if segments else 0.0
            if share < th.RETRANSMIT_SHARE:
                continue
            self.finding(
                "many-retransmits",
                "warning",
                # one bracket group only: the label already ends in "(one direction at a time)"
                f"{counted(figure.retransmits, 'segment')} were sent again during {figure.label}, "
                f"{percent(share)} of the ~{grouped(segments)} sent: frames are being lost "
                "between the Pi and the PC.",
                [
                    figure.cite()
                    + f", {counted(figure.retransmits, 'retransmit')} in {figure.seconds:.0f} s"
                ],
            )
            self.tweaks("retransmits", [figure.cite()])
            self.recommend(
                "cable",
                "Check the cable and the switch port",
                "Lost frames usually come from a damaged or too-long cable, a bad connector or a "
                "flaky switch port: try another cable and port, then measure again.",
                "fewer losses; TCP speeds back up when nothing is lost",
                None,
                None,
                [],
                [figure.cite() + f", {counted(figure.retransmits, 'retransmit')}"],
            )
            return

    def driver_bound(self) -> None:
        best = max(self.half, key=lambda f: f.mbps, default=None)
        if best is None:
            return
        for chip, said in self._driver_candidates(best.mbps):
            certain = said is not None
            mine = [m for m in chip.measurements if m.driver in chip.drivers.in_tree]
            vendor = [m for m in chip.measurements if m.driver in chip.drivers.vendor]
            vendor = [m for m in vendor if m.driver not in chip.drivers.in_tree]
            if not mine or not vendor:
                continue
            top_mine = max(mine, key=lambda m: m.value_mbps)
            top_vendor = max(vendor, key=lambda m: m.value_mbps)
            if top_vendor.value_mbps < th.WORTHWHILE_GAIN * best.mbps:
                continue
            if best.mbps > top_mine.value_mbps * (1 + th.FINGERPRINT_TOLERANCE):
                continue  # already beyond what the in-tree driver was seen to do
            recipe = self.knowledge.driver_for_chip(chip.id)
            who = (
                f"the {said} with the in-kernel {self.nic.driver}"
                if certain
                else f"a {chip.name} on the in-kernel {top_mine.driver} driver (sbctune could "
                f"not identify this NIC's chip: check with “ethtool -i {self.label}”)"
            )
            evidence = [
                best.cite(),
                f"catalog: {chip.name} with {top_mine.driver} ~{top_mine.value_mbps:g} Mbit/s "
                f"({top_mine.conditions})",
                f"catalog: with {top_vendor.driver} {top_vendor.driver_version or ''} "
                f"{top_vendor.value_mbps:g} Mbit/s".replace("  ", " "),
            ]
            self.finding(
                "driver-bound",
                "warning",
                f"{best.mbps:.0f} Mbit/s is where {who} is known to stop; the vendor's "
                f"{top_vendor.driver} driver reached {top_vendor.value_mbps:g} Mbit/s on the "
                "same hardware.",
                evidence,
            )
            title = recipe.title if recipe else f"Use the vendor {top_vendor.driver} driver"
            steps = driver_steps(recipe, self.inv, self.label) if recipe else []
            self.recommend(
                "driver",
                title,
                f"The in-kernel {top_mine.driver} driver tops out near {top_mine.value_mbps:g} "
                f"Mbit/s with this chip; Realtek's {top_vendor.driver} reached "
                f"{top_vendor.value_mbps:g}"
                + ("" if certain else " (if this NIC is that chip)")
                + (f". {recipe.note}" if recipe and recipe.note else "."),
                f"from {best.mbps:.0f} to ~{top_vendor.value_mbps:g} Mbit/s",
                top_vendor.value_mbps - best.mbps,
                top_vendor.value_mbps - best.mbps,
                [top_mine.source, top_vendor.source, *(recipe.sources if recipe else ())],
                evidence,
                steps=steps,
            )
            return

    def _driver_candidates(self, measured: float) -> list[tuple[Chip, str | None]]:
        """(catalog chip, the name to say it by; None: a guess from the figures alone)."""
        if self.chip is not None:
            in_tree = self.nic.driver in self.chip.drivers.in_tree
            return [(self.chip, self.chip.name)] if in_tree else []
        if (family := speed_family(self.catalog, self.nic)) is not None:
            # Inspect's chip from the driver and the link (RTL8125/RTL8126): said as that
            return [(chip, family[0]) for chip in family[1]]
        if not self.link:
            return []
        # Unidentified chip: one whose line rate matches the link and whose in-tree driver
        # (the NIC's own, where `ethtool -i` named it) is known to stop right where this one
        # did (seed 003's RTL8125B on r8169 at ~1.9).
        found: list[tuple[Chip, str | None]] = []
        for chip in self.catalog.nics:
            if chip.line_rate_mbps != self.link:
                continue
            if self.nic.driver and self.nic.driver not in chip.drivers.in_tree:
                continue
            for m in chip.measurements:
                # At or below where the in-tree driver stops: a slower result (a busy PC, a
                # weaker board) is more reason to recommend, not less. Far below it says
                # nothing about this chip.
                low = th.FINGERPRINT_FLOOR * m.value_mbps
                close = low <= measured <= (1 + th.FINGERPRINT_TOLERANCE) * m.value_mbps
                if m.driver in chip.drivers.in_tree and close:
                    found.append((chip, None))
                    break
        return found

    def slower_chip(self) -> None:
        """A known chip/driver pair sending below what another chip did on the same bus."""
        chip, tx = self.chip, self.runs.get("pi_to_pc")
        if chip is None or tx is None or self.nic.builtin or self.on_usb2:
            return
        if self.nic.bus == "usb" and self.nic.usb_speed_mbps is None:
            return  # "the same kind of port" is not known (the s12 walk: a Pi 3 B+'s LAN7515)
        limit = self.limit
        if limit is None and chip.line_rate_mbps:
            limit = self.catalog.tcp_goodput_mbps(chip.line_rate_mbps)
        if limit is None or tx.mbps >= th.BELOW_LIMIT_SHARE * limit:
            return
        better = self._better_chip(chip, tx.mbps)
        if better is None:
            return
        other, value, source = better
        full_now = self.runs.get("pi_to_pc", "full")
        full_other = [
            m.value_mbps for m in other.measurements_for(direction="pi_to_peer", test="full_duplex")
        ]
        high = value - tx.mbps
        extra = both_ways = ""
        if full_now and full_other:
            high = max(high, min(full_other) - full_now.mbps)
            both_ways = f"; both ways at once from {full_now.mbps:.0f} to ~{min(full_other):g}"
            extra = (
                f" With both directions at once it sent {min(full_other):g}-{max(full_other):g} "
                f"Mbit/s where this one sends {full_now.mbps:.0f}."
            )
        self.finding(
            "chip-driver-below-capability",
            "warning",
            f"The {chip.name} with {self.nic.driver or 'its driver'} sends {tx.mbps:.0f} Mbit/s, "
            f"below the {limit:.0f} the link allows; a {other.name} reached {value:g} on the "
            "same kind of port.",
            [tx.cite(), f"catalog: {other.name} {value:g} Mbit/s Pi→PC"],
        )
        self.recommend(
            "adapter",
            f"Use a {other.name}-based adapter instead",
            f"The {other.name} ({', '.join(other.drivers.in_tree)}) is much better suited: on a "
            f"Pi 4 it sent at {value:g} Mbit/s where the {chip.name} reached "
            f"{tx.mbps:.0f}.{extra}",
            f"{LABEL['pi_to_pc']} from {tx.mbps:.0f} to ~{value:g} Mbit/s{both_ways}",
            value - tx.mbps,
            high,
            [source, other.driver_source],
            [tx.cite()] + ([full_now.cite()] if full_now else []),
        )
        gain = self.knowledge.tweak_gains.get("boot-arm-freq")
        board = self.inv.board.catalog_id or "unknown"  # tuning/why_words.py UNKNOWN_BOARD
        if gain and gain.chip == chip.id and (not gain.boards or board in gain.boards):
            self.recommend(
                "tweak",
                "Raise the CPU clock (over-clock)",
                "This chip's sending is CPU-bound on the Pi: a faster clock moves more "
                "packets. Needs good cooling and power; the tuning keeps a backup of config.txt.",
                gain.text,
                float(gain.low),
                float(gain.high),
                [gain.source],
                [tx.cite()],
                tweaks=["boot-arm-freq", "cpu-governor-performance"],
            )

    def _better_chip(self, chip: Chip, sent: float) -> tuple[Chip, float, str] | None:
        best: tuple[Chip, float, str] | None = None
        for other in self.catalog.nics:
            if other.id == chip.id or other.bus != chip.bus or other.builtin:
                continue
            for m in other.measurements_for(direction="pi_to_peer", test="half_duplex"):
                if m.kind != "measured" or m.value_mbps < th.WORTHWHILE_GAIN * sent:
                    continue
                if best is None or m.value_mbps > best[1]:
                    best = (other, m.value_mbps, m.source)
        return best

    def below_limit(self) -> None:
        limit = self.limit
        if not limit or self.found:
            return
        low = [f for f in self.half if f.mbps < th.BELOW_LIMIT_SHARE * limit]
        if not low:
            return
        self.finding(
            "below-link-limit",
            "info",
            f"{self.label} stays below its link's limit ({limit:.0f} Mbit/s) "
            + ", ".join(f"{LABEL[f.direction]} {f.mbps:.0f}" for f in low)
            + "; nothing measured points at one cause.",
            [f.cite() for f in low],
        )
        self.tweaks("below-link", [f.cite() for f in low], ceiling=limit - min(f.mbps for f in low))
