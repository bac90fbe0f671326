"""Measured-advice checks about the link itself: the figures against the negotiated link
speed, direction asymmetry, full duplex on a shared bus, and traffic that took another route."""

from __future__ import annotations

from sbctune.advice import thresholds as th
from sbctune.advice.faster_board import faster_board
from sbctune.advice.measured_base import NicAdvisorBase
from sbctune.advice.runs import LABEL, Figure
from sbctune.wording import percent


def _dipped(figure: Figure) -> bool:
    """A trial fell below the best one: the figure and its best trial read differently."""
    return round(figure.best_mbps) != round(figure.mbps)


def _best_words(figure: Figure) -> str:
    words = f"{figure.best_mbps:.0f} Mbit/s {LABEL[figure.direction]}"
    if not _dipped(figure):
        return words
    trials = len(figure.trial_means)
    return f"{words} (the best of {trials} trials; {figure.mbps:.0f} on average)"


def _best_cite(figure: Figure) -> str:
    if not _dipped(figure):
        return figure.cite()
    return f"{figure.cite()}; best trial {figure.best_mbps:.0f} Mbit/s"


class LinkChecks(NicAdvisorBase):
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
        # Each direction by its best trial: a busy PC or network only ever lowers a trial, so
        # one that dipped must not hide that the link carried its maximum in the others.
        at = [f for f in self.half if f.best_mbps >= th.AT_LIMIT_SHARE * link]
        if not at or len(at) < len(self.half):
            return
        figures = ", ".join(_best_words(f) for f in at)
        self.finding(
            "at-physical-limit",
            "info",
            f"{self.label} runs at the physical limit of its {link} Mbit/s link: {figures}. "
            f"{limit:.1f} Mbit/s is the most TCP can carry over {link} Mbit/s Ethernet at MTU "
            f"{self.nic.mtu or 1500}: headers (Ethernet, IP, TCP), preamble and inter-frame gap "
            "take the rest. No tuning makes it faster.",
            [_best_cite(f) + f" = {percent(f.best_mbps, link)} of {link} Mbit/s" for f in at]
            + [self.framing_line() + f" → {limit:.1f} Mbit/s at {link} Mbit/s"],
        )
        self.beyond_link(max(f.best_mbps for f in at))

    def beyond_link(self, now: float) -> None:
        """At the wire's limit: a faster link, jumbo frames, or (Pi 1-3) a faster board."""
        chip, link = self.chip, self.link or 0
        if self.nic.builtin and self.on_usb2 and chip is not None:
            basis = faster_board(self.catalog, chip)
            target = basis.target_mbps
            self.recommend(
                "board",
                # The wire's ceiling, not the figure measured: a reading can sit a little
                # above it (rounding, shaping), and the seed's conclusion is about the ceiling.
                f"{self.limit or now:.0f} Mbit/s is the maximum of {link} Mbit/s Ethernet: "
                "for more, use a Pi 4 or 5",
                f"This board's Ethernet ({chip.name}) is a {link} Mbit/s USB 2.0 device: the link "
                "is full, and the USB 2.0 controller behind it is the bottleneck of every faster "
                "option (a USB gigabit adapter shares the same 480 Mbit/s bus with it). No tuning "
                "changes that. A Pi 4 or 5 has native gigabit Ethernet.",
                f"from {now:.0f} to ~{target:.0f} Mbit/s (a different board)",
                target - now,
                target - now,
                basis.sources,
                [
                    f"measured {now:.0f} Mbit/s on a {link} Mbit/s link",
                    self.framing_line(),
                    *basis.evidence,
                ],
            )
            return
        fits, live = self._jumbo_allowed()
        if (self.nic.mtu or 1500) < 9000 and link >= 1000 and fits:
            jumbo = self.catalog.tcp_goodput_mbps(link, 9000)
            self.recommend(
                "setting",
                "Use jumbo frames (MTU 9000) if the whole path supports them",
                "Fewer, larger frames carry less header overhead and cost the CPU fewer "
                "interrupts. Only if the PC, every switch and this NIC accept MTU 9000; "
                "otherwise large packets are dropped."
                + self._jumbo_offloads()
                + (
                    ""
                    if live
                    else " This NIC's driver takes a new MTU only while its link is "
                    "down, so the tuning step does not change it: set it in the Pi's network "
                    "configuration (for example the connection's MTU in NetworkManager)."
                ),
                f"up to ~{jumbo - now:.0f} Mbit/s (to ~{jumbo:.0f}) on the same link",
                0.0,
                jumbo - now,
                ["derived-ethernet-framing", *self.fitting_sources("at-physical-limit")],
                [f"{now:.0f} Mbit/s now at MTU {self.nic.mtu or 1500}"],
                tweaks=["mtu-jumbo"] if live else [],
            )
        self.faster_adapter(now)

    def _jumbo_allowed(self) -> tuple[bool, bool]:
        """(advised, offered as the tuning step's tweak): MTU 9000 is within the driver's
        max_mtu for this chip (driver_caps.json `mtu_max`, from the kernel's source): not on
        bcmgenet or smsc95xx (1500), ax88179_178a (4088, or 1500 from the stable backport that
        caps it in usbnet_probe: 6.1.162, 6.12.68), nor where the table does not know the chip's
        maximum (macb off RP1, r8152 without a chip, a kernel string without its patch level
        where a backport changed it); and the Tune page's own rule
        (source_rule) lets the tweak set it, or refuses only a change on a running link (macb:
        EBUSY), which the Pi's network configuration makes before the link comes up."""
        from sbctune.tuning.driver_caps import caps
        from sbctune.tuning.source_rule import out_of_reach, refused_while_up

        found = caps(self.nic.driver, self.inv.board.kernel, self.nic.chip)
        top = found.mtu_max(self.nic.chip) if found is not None else None
        why = out_of_reach("mtu-jumbo", self.inv, self.nic)
        up = refused_while_up(found, str(self.nic.mtu or 1500), 9000)
        fits = top is not None and top >= 9000 and (why is None or why == up)
        return fits, why is None

    def _jumbo_offloads(self) -> str:
        """What the driver's ndo_fix_features takes away at MTU 9000 (driver_caps.json
        `mtu_drops_features`; r8169's rtl8169_fix_features: TX checksums and TSO above 1500 but
        on the PCI RTL8169, TSO above 2047): the CPU then does that work, so a CPU-bound Pi can
        lose more than the framing wins."""
        from sbctune.tuning.driver_caps import caps, mtu_drops

        found = caps(self.nic.driver, self.inv.board.kernel, self.nic.chip)
        rules = [r for r in mtu_drops(found, self.nic.chip) if r["above"] < 9000] if found else []
        if found is None or not rules:
            return ""
        names = {n for r in rules for n in r["drop"]}
        what = "TX checksum offload and TSO" if any("checksum" in n for n in names) else "TSO"
        return (
            f" On {found.driver} an MTU above {min(r['above'] for r in rules)} also turns {what} "
            f"off ({found.cite('mtu_drops_features')}): the CPU then computes what the NIC did, "
            "so measure before keeping it."
        )

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
            # The heading names the driver it was measured with; the source's set-up notes
            # (commands, quotations) go in the evidence (the s12 walk).
            with_driver = f"with the {best.driver} driver" if best and best.driver else "measured"
            gain = (
                f"from {now:.0f} to ~{best.value_mbps:.0f} Mbit/s ({with_driver})"
                if best
                else f"beyond {now:.0f} Mbit/s, up to the {hint.link_mbps} Mbit/s link "
                "(not measured on a Pi by a cited source)"
            )
            self.recommend(
                "adapter",
                f"For more than {self.link} Mbit/s: "
                f"a {chip.name}-based {hint.link_mbps / 1000:g}G NIC",
                hint.why + " It needs a switch port and a PC that do more than gigabit too.",
                gain,
                low,
                low,
                list(hint.sources),
                [f"now {now:.0f} Mbit/s at the {self.link} Mbit/s link's limit"]
                + ([f"measured: {best.conditions}"] if best and best.conditions else []),
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
            f"{LABEL[fast.direction]} ({fast.mbps:.0f} Mbit/s): {percent(slow.mbps, fast.mbps)}.",
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
            f"together {both:.0f} Mbit/s vs {alone:.0f} one at a time ({percent(both, alone)})"
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
