"""The Measure page's plots (split from measure_page.py): throughput, latency and the Pi's CPU
per core, made when first shown or used, the run's results card below them, the latency
verdicts and whose cores the CPU card shows; MeasurePage builds the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from PySide6.QtWidgets import QLabel

from sbctune.ui.controllers.live import LabCpu, latency_verdicts
from sbctune.ui.pages.base import Page
from sbctune.ui.settings import AppSettings
from sbctune.ui.theme import Colors
from sbctune.ui.widgets.common import Card, label
from sbctune.ui.widgets.lazy import Lazy, is_built
from sbctune.ui.widgets.live_fit import LiveFit
from sbctune.ui.widgets.plot_heights import CPU_HEIGHT, LATENCY_HEIGHT, THROUGHPUT_HEIGHT
from sbctune.ui.widgets.run_table import RunTable

if TYPE_CHECKING:  # imported when a plot is first made: pyqtgraph is a slow import
    from sbctune.ui.widgets.live_plots import CpuLoadPlot, LatencyPlot, ThroughputPlot

CPU_TITLE = "The Pi's CPU, per core"
CPU_NOTE = (
    "Interrupts and packet work are the network's work. One core near 100 % while the "
    "others idle means the NIC's interrupts all land on that core."
)


class MeasurePlots(Page):
    """The plots' half of the Measure page; _plots is called by MeasurePage.__init__."""

    _settings: AppSettings
    figure_cards: list[tuple[Card, QLabel]]

    # The plots are made when first shown or used (ui/widgets/lazy.py): not at start-up.
    def _throughput_plot(self) -> ThroughputPlot:
        from sbctune.ui.widgets.live_plots import ThroughputPlot

        return ThroughputPlot(self._colors, self._settings.units)

    def _latency_plot(self) -> LatencyPlot:
        from sbctune.ui.widgets.live_plots import LatencyPlot

        throughput = cast(Lazy, self.throughput).real()
        return LatencyPlot(self._colors, cast("ThroughputPlot", throughput))

    def _cpu_plot(self) -> CpuLoadPlot:
        from sbctune.ui.widgets.live_plots import CpuLoadPlot

        return CpuLoadPlot(self._colors)

    def _plots(self, colors: Colors) -> None:
        self._colors = colors
        # Before the first run: words, not empty axes. Not "press Start": Measure again with
        # nothing in force offers "Measure as it is" in its place (walk ux29).
        self.plots_empty = label(
            "Once a test starts, the throughput of every second in each direction, the "
            "latency and the Pi's CPU load per core are drawn here as they are measured.",
            name="muted",
        )
        self.content.addWidget(self.plots_empty)
        plot_card = Card("Throughput")
        self.throughput = cast("ThroughputPlot", Lazy(self._throughput_plot, THROUGHPUT_HEIGHT))
        plot_card.body.addWidget(self.throughput)
        plot_card.body.addWidget(
            label(
                "Shaded: omitted seconds (not counted). Dashed line: the link's line rate.",
                name="muted",
            )
        )
        # Latency under load: the Pi's UDP probes to this PC (sbctune.measure.latency).
        self.latency = cast("LatencyPlot", Lazy(self._latency_plot, LATENCY_HEIGHT))
        self.latency.setAccessibleName("Round-trip time of the latency probes")
        plot_card.body.addWidget(self.latency)
        self.latency_now = label("Latency: –", name="muted", wrap=False)
        self.latency_now.setAccessibleName("Latency now")
        plot_card.body.addWidget(self.latency_now)
        self.content.addWidget(plot_card)
        cpu_card = Card(CPU_TITLE)
        self.cpu_card = cpu_card
        self.cpu = cast("CpuLoadPlot", Lazy(self._cpu_plot, CPU_HEIGHT))
        cpu_card.body.addWidget(self.cpu)
        # In the legend's words (the walk of session 10 read "irq and softirq" under a legend
        # that says "interrupts" and "packet work"); the kernel's terms are in the tooltip.
        self.cpu_note = label(CPU_NOTE, name="muted")
        cpu_card.body.addWidget(self.cpu_note)
        self.content.addWidget(cpu_card)
        self.plot_cards = (plot_card, cpu_card)
        for card in self.plot_cards:
            card.hide()
        self.results_card = Card("Figures of this run")
        # How a cancelled run stopped, where its figures are (walk19: only the status bar said).
        self.results_note = label("", selectable=True)
        self.results_note.hide()
        self.results_card.body.addWidget(self.results_note)
        self.table = RunTable()
        self.table.setAccessibleName("Results of this run per direction")
        self.results_card.body.addWidget(self.table)
        self.results_card.hide()
        self.content.addWidget(self.results_card)
        self.content.addStretch(1)
        # While a test runs the throughput plot is in view, whatever the window's height.
        intro = self.findChild(QLabel, "pageIntro")
        self.live_fit = LiveFit(self, header=intro.parentWidget() if intro else None,
                                figures=self.figure_cards, plot_card=plot_card,
                                plot=self.throughput, height=THROUGHPUT_HEIGHT)  # fmt: skip

    def _cpu_words(self, lab_cpu: LabCpu | None) -> None:
        """In the virtual Pi lab the per-core figures are the lab host's (the lab says so):
        the card says whose cores they are, never "the Pi's"."""
        title = lab_cpu.heading if lab_cpu is not None else CPU_TITLE
        if self.cpu_card.title.text() != title:
            self.cpu_card.title.setText(title)
            self.cpu_note.setText(f"{lab_cpu.note} {CPU_NOTE}" if lab_cpu is not None else CPU_NOTE)

    def show_latency(self, latency: dict[str, Any] | None) -> None:
        """The run's verdicts under the latency plot ("the link queues 18 ms under upload…")."""
        lines = latency_verdicts(latency)
        if lines:
            self.latency_now.setWordWrap(True)
            self.latency_now.setText("\n".join(lines))

    def apply_theme(self, colors: Colors) -> None:
        self._colors = colors  # plots not made yet are made in these colours
        for plot in (self.throughput, self.latency, self.cpu):
            if is_built(plot):
                plot.apply_theme(colors)
