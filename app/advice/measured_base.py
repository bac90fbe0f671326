"""The common part of the measured-advice checks: what they write (``Measured``), the NIC's
facts they read, and the tweak recommendation several checks end with."""

from __future__ import annotations

from dataclasses import dataclass, field

from sbctune.advice.chips import chip_of
from sbctune.advice.evidence import cite
from sbctune.advice.knowledge import Knowledge
from sbctune.advice.nic_label import label
from sbctune.advice.runs import Figure, NicRuns
from sbctune.catalog import Catalog
from sbctune.inventory.model import (
    Finding,
    Inventory,
    Nic,
    Recommendation,
    RecommendationKind,
    Severity,
)
from sbctune.wording import percent

USB2_MBPS = 480


@dataclass
class Measured:
    """What the measurements add: findings, and recommendations with numeric gains."""

    findings: list[Finding] = field(default_factory=list)
    recommendations: list[Recommendation] = field(default_factory=list)
    invalid: set[str | None] = field(default_factory=set)  # NICs whose figures mislead
    # Tweaks in force on the Pi now (read back by the tuning session, on trial or kept): never
    # recommended again, nor named in a recommendation's title (the s17 walk: "Larger socket
    # buffers" while they were on trial)
    in_force: set[str] = field(default_factory=set)


class NicAdvisorBase:
    """One measured NIC's facts and the output the checks write to (findings and
    recommendations); the checks are in measured_link and measured_host."""

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
            return self.nic.usb_speed_mbps <= USB2_MBPS
        return self.chip is not None and self.chip.builtin and self.chip.usb_generation == "2.0"

    @property
    def half(self) -> list[Figure]:
        return self.runs.mode("half")

    def framing_line(self) -> str:
        f = self.catalog.ethernet_framing
        return (
            f"TCP/IP framing: each {f.wire_bytes}-byte frame on the wire carries "
            f"{f.tcp_payload_bytes} bytes of data at MTU {f.mtu} "
            f"({f.tcp_payload_bytes}/{f.wire_bytes} = {percent(f.efficiency, places=1)})"
        )

    # ------------------------------------------------------------------ checks

    def fitting_sources(self, bottleneck: str) -> tuple[str, ...]:
        """The bottleneck's advice sources (advice.json) where their published tests fit this
        board and NIC (`sources_when`), else none: an Aquantia on a CM4 is no source for a
        Pi 5's macb (the s17 walk)."""
        from sbctune.tuning.why_words import fits

        found = self.knowledge.tweaks_for.get(bottleneck)
        if found is None:
            return ()
        board = self.inv.board.catalog_id
        fit = not found.sources_when or any(fits(w, board, self.nic) for w in found.sources_when)
        return found.sources if fit else ()

    def tweaks(self, bottleneck: str, evidence: list[str], ceiling: float | None = None) -> None:
        found = self.knowledge.tweaks_for.get(bottleneck)
        if found is None:
            return
        from sbctune.tuning.source_rule import out_of_reach  # the Tune page's own rule
        from sbctune.tuning.words import tweak_title  # the tweak catalogue, only when needed

        within = [t for t in found.tweaks if t not in self.out.in_force
                  and out_of_reach(t, self.inv, self.nic) is None]  # fmt: skip
        if not within:
            return
        sources = self.fitting_sources(bottleneck)

        self.recommend(
            "tweak",
            "Tune the Pi for this bottleneck: " + ", ".join(tweak_title(t) for t in within),
            found.why_for(within)
            # "it" for one tweak (the ux30 walk: "Energy-Efficient Ethernet off … Apply them")
            + f" Apply {'it' if len(within) == 1 else 'them'} with the tuning step (auto-revert "
            "guard) and measure again.",
            "unknown until measured"
            + (f" (at most ~{ceiling:.0f} Mbit/s: the link's limit)" if ceiling else ""),
            0.0,
            None,
            list(sources),
            evidence,
            tweaks=within,
        )
