"""Findings from measurements, each with the figures it rests on, and what they call for.

One `_NicAdvisor` per measured NIC: it reads the run's figures against the NIC's link, bus,
chip and the catalog's measured figures, appends findings, and appends recommendations with a
numeric gain (Mbit/s) so that `sbctune.advice.rank` can order them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.advice import thresholds as th
from sbctune.advice.chips import chip_of
from sbctune.advice.cpu import irq_bound_core
from sbctune.advice.drivers import driver_steps
from sbctune.advice.evidence import cite
from sbctune.advice.knowledge import Knowledge
from sbctune.advice.power import power_advice
from sbctune.advice.runs import LABEL, Figure, NicRuns
from sbctune.catalog import Catalog, Chip
from sbctune.inventory.model import (
    Finding,
    Inventory,
    Nic,
    Recommendation,
    RecommendationKind,
    Severity,
)

_USB2_MBPS = 480


@dataclass
class Measured:
    """What the measurements add: findings, and recommendations with numeric gains."""

    findings: list[Finding] = field(default_factory=list)
    recommendations: list[Recommendation] = field(default_factory=list)
    invalid: set[str | None] = field(default_factory=set)  # NICs whose figures mislead


def label(nic: Nic) -> str:
    return nic.name or f"{nic.chip or 'NIC'} at {nic.bus_path or '?'}"


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "?"


class _NicAdvisor:
    def __init__(
        self,
        inventory: Inventory,
        nic: Nic,
        runs: NicRuns,
        catalog: Catalog,
        knowledge: Knowledge,
        out: Measured,
    ) -> None:
        self.inv = inventory
        self.nic = nic
        self.runs = runs
        self.catalog = catalog
        self.knowledge = knowledge
        self.out = out
        self.chip, self.identified = chip_of(catalog, nic)
        self.label = label(nic)
        self.found: set[str] = set()

    # ------------------------------------------------------------------ output
    def finding(self, id_: str, severity: Severity, summary: str, evidence: list[str]) -> None:
        self.found.add(id_)
        self.out.findings.append(Finding(id_, severity, self.label, summary, evidence))

    def recommend(
        self,
        kind: RecommendationKind,
        title: str,
        detail: str,
        gain: str,
        low: float | None,
        high: float | None,
        sources: list[str],
        evidence: list[str],
        *,
        tweaks: tuple[str, ...] | list[str] = (),
        steps: tuple[str, ...] | list[str] = (),
    ) -> None:
        self.out.recommendations.append(
            Recommendation(
                kind,
                self.label,
                title,
                detail,
                gain,
                cite(self.catalog, sources),
                gain_low_mbps=low,
                gain_high_mbps=high,
                evidence=evidence,
                tweak_ids=list(tweaks),
                steps=list(steps),
            )
        )

    # ------------------------------------------------------------------ facts
    @property
    def link(self) -> int | None:
        return self.nic.link_speed_mbps

    @property
    def limit(self) -> float | None:
        """The best TCP goodput the negotiated link can carry (framing overhead taken off)."""
        return self.catalog.tcp_goodput_mbps(self.link, self.nic.mtu) if self.link else None

    @property
    def on_usb2(self) -> bool:
        if self.nic.bus != "usb":
            return False
        if self.nic.usb_speed_mbps is not None:
            return self.nic.usb_speed_mbps <= _USB2_MBPS
        return self.chip is not None and self.chip.builtin and self.chip.usb_generation == "2.0"

    @property
    def half(self) -> list[Figure]:
        return self.runs.mode("half")

    def framing_line(self) -> str:
        f = self.catalog.ethernet_framing
        return (
            f"TCP/IP framing: each {f.wire_bytes}-byte frame on the wire carries "
            f"{f.tcp_payload_bytes} bytes of data at MTU {f.mtu} "
            f"({f.tcp_payload_bytes}/{f.wire_bytes} = {100 * f.efficiency:.1f}%)"
        )

    # ------------------------------------------------------------------ checks
    def run(self) -> None:
        if self.runs.notes:
            self.routed_elsewhere()
            return  # the figures are not this NIC's: nothing else can be concluded
        self.at_limit()
        self.asymmetric()
        self.full_duplex()
        self.usb2_bound()
        self.pcie_bound()
        self.cpu_bound()
        self.retransmits()
        self.driver_bound()
        self.slower_chip()
        self.below_limit()

    def routed_elsewhere(self) -> None:
        self.out.invalid.add(self.nic.name)
        self.finding(
            "traffic-routed-elsewhere",
            "problem",
            "The test traffic did not go over this NIC, so its figures say nothing about it.",
            list(self.runs.notes),
        )
        self.recommend(
            "setting",
            f"Measure again over {self.label}",
            f"Give this PC an address on {self.label}'s network (or connect it to that port) so "
            "the route from the Pi to the PC leaves through the NIC under test, then measure "
            "again: every other conclusion waits for that.",
            "a measurement of the right NIC",
            None,
            None,
            [],
            list(self.runs.notes),
        )

    def at_limit(self) -> None:
        limit, link = self.limit, self.link
        if not limit or not link or not self.half:
            return
        at = [f for f in self.half if f.mbps >= th.AT_LIMIT_SHARE * link]
        if not at or len(at) < len(self.half):
            return
        figures = ", ".join(f"{f.mbps:.0f} Mbit/s {LABEL[f.direction]}" for f in at)
        self.finding(
            "at-physical-limit",
            "info",
            f"{self.label} runs at the physical limit of its {link} Mb/s link: {figures}. "
            f"{limit:.1f} Mbit/s is the most TCP can carry over {link} Mb/s Ethernet at MTU "
            f"{self.nic.mtu or 1500}: headers (Ethernet, IP, TCP), preamble and inter-frame gap "
            "take the rest. No tuning makes it faster.",
            [f.cite() + f" = {_pct(f.mbps, link)} of {link} Mb/s" for f in at]
            + [self.framing_line() + f" → {limit:.1f} Mbit/s at {link} Mb/s"],
        )
        self.beyond_link(max(f.mbps for f in at))

    def beyond_link(self, now: float) -> None:
        """At the wire's limit: a faster link, jumbo frames, or (Pi 1-3) a faster board."""
        chip, link = self.chip, self.link or 0
        if self.nic.builtin and self.on_usb2 and chip is not None:
            pi4 = self.catalog.chip("broadcom-genet")
            best = pi4.ceiling_mbps(None) if pi4 else None
            target = best.value_mbps if best else 940.0
            self.recommend(
                "board",
                # The wire's ceiling, not the figure measured: a reading can sit a little
                # above it (rounding, shaping), and the seed's conclusion is about the ceiling.
                f"{self.limit or now:.0f} Mbit/s is the maximum of {link} Mb/s Ethernet: "
                "for more, use a Pi 4 or 5",
                f"This board's Ethernet ({chip.name}) is a {link} Mb/s USB 2.0 device: the link "
                "is full, and the USB 2.0 controller behind it is the bottleneck of every faster "
                "option (a USB gigabit adapter shares the same 480 Mbit/s bus with it). No tuning "
                "changes that. A Pi 4 or 5 has native gigabit Ethernet.",
                f"from {now:.0f} to ~{target:.0f} Mbit/s (a different board)",
                target - now,
                target - now,
                ["seed-001", "rpi-doc-usb"] + ([best.source] if best else []),
                [f"measured {now:.0f} Mbit/s on a {link} Mb/s link", self.framing_line()],
            )
            return
        if (self.nic.mtu or 1500) < 9000 and link >= 1000:
            jumbo = self.catalog.tcp_goodput_mbps(link, 9000)
            self.recommend(
                "setting",
                "Use jumbo frames (MTU 9000) if the whole path supports them",
                "Fewer, larger frames carry less header overhead and cost the CPU fewer "
                "interrupts. Only if the PC, every switch and this NIC accept MTU 9000; "
                "otherwise large packets are dropped.",
                f"up to ~{jumbo - now:.0f} Mbit/s (to ~{jumbo:.0f}) on the same link",
                0.0,
                jumbo - now,
                ["derived-ethernet-framing", "gh-pcie-15"],
                [f"{now:.0f} Mbit/s now at MTU {self.nic.mtu or 1500}"],
                tweaks=["mtu-jumbo"],
            )
        self.faster_adapter(now)

    def faster_adapter(self, now: float) -> None:
        board = self.catalog.board(self.inv.board.catalog_id) if self.inv.board.catalog_id else None
        buses = set(board.expansion_buses) if board else set()
        if self.nic.bus == "pci":
            buses.add("pcie-gen2-x1")
        if self.nic.bus == "usb" and (self.nic.usb_speed_mbps or 0) >= 5000:
            buses.add("usb3")
        for hint in self.knowledge.adapters:
            if hint.link_mbps <= (self.link or 0):
                continue
            pcie = any(b.startswith("pcie") for b in buses)
            fits = "usb3" in buses if hint.bus == "usb3" else pcie
            chip = self.catalog.chip(hint.chip)
            if not fits or chip is None:
                continue
            best = chip.ceiling_mbps(None)
            low = best.value_mbps - now if best else None
            gain = (
                f"from {now:.0f} to ~{best.value_mbps:.0f} Mbit/s ({best.conditions or 'measured'})"
                if best
                else f"beyond {now:.0f} Mbit/s, up to the {hint.link_mbps} Mb/s link "
                "(not measured on a Pi by a cited source)"
            )
            self.recommend(
                "adapter",
                f"For more than {self.link} Mb/s: "
                f"a {chip.name}-based {hint.link_mbps / 1000:g}G NIC",
                hint.why + " It needs a switch port and a PC that do more than gigabit too.",
                gain,
                low,
                low,
                list(hint.sources),
                [f"now {now:.0f} Mbit/s at the {self.link} Mb/s link's limit"],
            )

    def asymmetric(self) -> None:
        pair = self.runs.pair("half")
        if pair is None:
            return
        slow, fast = sorted(pair, key=lambda f: f.mbps)
        if slow.mbps >= th.ASYMMETRY_RATIO * fast.mbps:
            return
        self.finding(
            "asymmetric",
            "warning",
            f"{self.label} is much slower {LABEL[slow.direction]} ({slow.mbps:.0f} Mbit/s) than "
            f"{LABEL[fast.direction]} ({fast.mbps:.0f} Mbit/s): {_pct(slow.mbps, fast.mbps)}.",
            [slow.cite(), fast.cite()],
        )

    def full_duplex(self) -> None:
        half, full = self.runs.pair("half"), self.runs.pair("full")
        if half is None or full is None:
            return
        alone = half[0].mbps + half[1].mbps
        both = full[0].mbps + full[1].mbps
        if both >= th.FULL_DUPLEX_COLLAPSE_RATIO * alone:
            return
        evidence = [f.cite() for f in (*half, *full)] + [
            f"together {both:.0f} Mbit/s vs {alone:.0f} one at a time ({_pct(both, alone)})"
        ]
        if self.on_usb2:
            self.finding(
                "bidirectional-shares-bus",
                "problem",
                f"Both directions at once carry {both:.0f} Mbit/s in total, hardly more than one "
                f"direction alone ({max(half[0].mbps, half[1].mbps):.0f}): bidirectional traffic "
                "shares one bus. USB 2.0 is half duplex: sending and receiving take turns on the "
                "same 480 Mbit/s, so the sum is bounded.",
                evidence,
            )
            self.shared_bus_advice(both, half)
            return
        self.finding(
            "full-duplex-collapse",
            "problem",
            f"With both directions at once {self.label} collapses to {both:.0f} Mbit/s in total "
            f"({full[0].mbps:.0f} {LABEL['pi_to_pc']}, {full[1].mbps:.0f} {LABEL['pc_to_pi']}), "
            f"far below the {alone:.0f} it carries one direction at a time. The link is full "
            "duplex, so the Pi's side (driver, interrupts on one core) is the limit.",
            evidence,
        )
        self.tweaks("full-duplex-collapse", evidence)

    def shared_bus_advice(self, both: float, half: tuple[Figure, Figure]) -> None:
        one = max(half[0].mbps, half[1].mbps)
        evidence = [f"{both:.0f} Mbit/s both ways at once; {one:.0f} one way"]
        chip = self.chip
        if chip is not None and (chip.usb_generation or "").startswith("3") and not chip.builtin:
            ceiling = chip.ceiling_mbps(None)
            target = ceiling.value_mbps if ceiling else None
            self.recommend(
                "cable",
                "Move the adapter to a USB 3 port",
                f"Bidirectional traffic shares one bus: at USB 2.0 speed sending and receiving "
                f"take turns on the same 480 Mbit/s, so {self.label} carries {both:.0f} Mbit/s "
                f"both ways together, about what it does one way ({one:.0f}). The "
                f"{chip.name} is a USB 3 adapter: in a blue USB 3 port (not through a USB 2.0 "
                "hub or extension) each direction has its own lanes.",
                f"from {both:.0f} Mbit/s in total to ~{2 * target:.0f} (both directions at once)"
                if target
                else "both directions at full speed at once",
                target - one if target else None,
                2 * target - both if target else None,
                ["seed-002", "rpi-doc-usb", chip.id_source] + ([ceiling.source] if ceiling else []),
                evidence,
            )
            return
        pi4 = self.catalog.chip("broadcom-genet")
        best = pi4.ceiling_mbps(None) if pi4 else None
        target = best.value_mbps if best else 940.0
        self.recommend(
            "board",
            "Bidirectional traffic shares one USB 2.0 bus: no tuning helps",
            f"Sending and receiving on {self.label} share the USB 2.0 bus (about 300 Mbit/s for "
            "Ethernet in practice, fewer when other USB devices are busy). A board whose "
            "Ethernet is not behind USB 2.0 (Pi 4, Pi 5, CM4) carries both directions at once.",
            f"from {both:.0f} Mbit/s in total to ~{2 * target:.0f} (both directions at once)",
            target - one,
            2 * target - both,
            ["seed-002", "rpi-doc-usb", "rpi-doc-hardware"] + ([best.source] if best else []),
            evidence,
        )

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
        if board == "pi5":
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
                f"{figure.retransmits} segments were sent again during {figure.label} "
                f"({100 * share:.1f}% of ~{segments:.0f}): frames are being lost between the Pi "
                "and the PC.",
                [figure.cite() + f", {figure.retransmits} retransmits in {figure.seconds:.0f} s"],
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
                [figure.cite() + f", {figure.retransmits} retransmits"],
            )
            return

    def driver_bound(self) -> None:
        best = max(self.half, key=lambda f: f.mbps, default=None)
        if best is None:
            return
        for chip, certain in self._driver_candidates(best.mbps):
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
                f"the {chip.name} with the in-kernel {self.nic.driver}"
                if certain
                else f"a {chip.name} on the in-kernel {top_mine.driver} driver (sbctune could "
                f"not identify this NIC's chip: check with `ethtool -i {self.label}`)"
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

    def _driver_candidates(self, measured: float) -> list[tuple[Chip, bool]]:
        if self.chip is not None:
            return [(self.chip, True)] if self.nic.driver in self.chip.drivers.in_tree else []
        if self.nic.driver or not self.link:
            return []
        # Unidentified NIC: a chip whose line rate matches the link and whose in-tree driver
        # is known to stop right where this one did (seed 003's RTL8125B on r8169 at ~1.9).
        found = []
        for chip in self.catalog.nics:
            if chip.line_rate_mbps != self.link:
                continue
            for m in chip.measurements:
                # At or below where the in-tree driver stops: a slower result (a busy PC, a
                # weaker board) is more reason to recommend, not less. Far below it says
                # nothing about this chip.
                low = th.FINGERPRINT_FLOOR * m.value_mbps
                close = low <= measured <= (1 + th.FINGERPRINT_TOLERANCE) * m.value_mbps
                if m.driver in chip.drivers.in_tree and close:
                    found.append((chip, False))
                    break
        return found

    def slower_chip(self) -> None:
        """A known chip/driver pair sending below what another chip did on the same bus."""
        chip, tx = self.chip, self.runs.get("pi_to_pc")
        if chip is None or tx is None or self.nic.builtin or self.on_usb2:
            return
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
        if gain and gain.chip == chip.id:
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

    def tweaks(self, bottleneck: str, evidence: list[str], ceiling: float | None = None) -> None:
        found = self.knowledge.tweaks_for.get(bottleneck)
        if found is None:
            return
        self.recommend(
            "tweak",
            "Tune the Pi for this bottleneck: " + ", ".join(found.tweaks),
            found.why + " Apply them with the tuning step (auto-revert guard) and measure again.",
            "unknown until measured"
            + (f" (at most ~{ceiling:.0f} Mbit/s: the link's limit)" if ceiling else ""),
            0.0,
            None,
            list(found.sources),
            evidence,
            tweaks=found.tweaks,
        )


def measured_advice(
    inventory: Inventory, digests: dict[str | None, NicRuns], catalog: Catalog, knowledge: Knowledge
) -> Measured:
    out = Measured()
    for name, runs in digests.items():
        nic = inventory.nic(name) if name else None
        if nic is None:
            nic = Nic(name=name)  # measured, but not in the inventory: judge from figures alone
        _NicAdvisor(inventory, nic, runs, catalog, knowledge, out).run()
    # Board level, once for all NICs: the Pi slowed down by its power or heat during a test.
    power_advice(inventory, digests, catalog, out.findings, out.recommendations)
    return out
