"""Found walking the app at 800×600: the Baseline page's plan list, closed, cut its title
("Quick (3 trials × 5 s per direction" without its end; the thorough plan's far more). The
whole title is in its tooltip, for whichever plan is chosen; so for every such list."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication

from sbctune.ui.main_window import MainWindow


def test_the_chosen_plan_s_whole_title_is_in_the_tooltip(
    window: MainWindow, gui_app: QApplication
) -> None:
    window.resize(800, 600)
    for key in ("baseline", "again", "settings"):
        page = window.page(key)
        combo = page.plan  # type: ignore[attr-defined]
        assert combo.count() >= 2
        for index in range(combo.count()):
            combo.setCurrentIndex(index)
            gui_app.processEvents()
            assert combo.toolTip() == combo.itemText(index)
    theme = window.page("settings").theme  # type: ignore[attr-defined]
    assert theme.toolTip() == theme.currentText() != ""
