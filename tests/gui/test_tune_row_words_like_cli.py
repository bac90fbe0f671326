"""A tweak the Pi cannot take reads the same on the Tune page and in `sbctune tune plan` (walk 18
on the CM4 + RTL8125B lab: the page's badge said "not applicable" for XPS, the IRQ move and the
rings while the command line, the tweaks' own why ("sbctune says it is not possible there") and
the session records said "not possible")."""

from __future__ import annotations

from sbctune.cli.tune_plan_text import plan_lines
from sbctune.tuning.catalog import load_tweaks
from sbctune.tuning.model import PlannedTweak, TuningPlan
from sbctune.ui.main_window import MainWindow
from sbctune.ui.widgets.tweak_row import TweakRow


def test_a_tweak_that_is_not_possible_has_one_word_in_both(window: MainWindow) -> None:
    xps = next(t for t in load_tweaks() if t.id == "xps")
    reason = "the r8169 driver gives eth1 one transmit queue"
    item = PlannedTweak(xps, applicable=False, reason=reason)
    row = TweakRow(item, checked=False, colors=window.theme.colors)
    badge = row.state_badge.text()
    cli = plan_lines(TuningPlan(nic="eth1", items=[item]))
    title_line = next(line for line in cli if line.startswith(xps.title))
    assert f": {badge}  [" in title_line, (badge, title_line)
    assert badge == "not possible here"
    assert not row.check.isEnabled() and reason in row.reason.text()


def test_a_tweak_not_needed_here_says_so_in_both(window: MainWindow) -> None:
    """walk18: flow control on a NIC not known to need it was badged "not possible here"; the
    planner's NotNeeded reason reads "not needed here" on the page and in `tune plan`."""
    from sbctune.tuning.model import NotNeeded

    pause = next(t for t in load_tweaks() if t.id == "flow-control")
    reason = NotNeeded("only for NICs known to need it (lan78xx)")
    item = PlannedTweak(pause, applicable=False, reason=reason, not_needed=True)
    row = TweakRow(item, checked=False, colors=window.theme.colors)
    badge = row.state_badge.text()
    cli = plan_lines(TuningPlan(nic="eth0", items=[item]))
    title_line = next(line for line in cli if line.startswith(pause.title))
    assert badge == "not needed here" and f": {badge}  [" in title_line, (badge, title_line)
    assert not row.check.isEnabled() and reason in row.reason.text()
