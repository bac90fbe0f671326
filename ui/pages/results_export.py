"""The Results page's export: asking before replacing files, the lines each export wrote, opening
the last file or its folder, and saying so when nothing could open them (split from
results_page.py; ResultsPage builds the card and its widgets)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QFileDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QWidget,
)

from sbctune.ui.controllers.exporting import ExportController
from sbctune.ui.controllers.records import RunRecord
from sbctune.ui.pages.base import Page
from sbctune.ui.widgets.common import Card, ProblemPanel
from sbctune.ui.widgets.desktop_open import DesktopOpener
from sbctune.workflow import Problem

FORMAT_TITLE = {
    "csv": "CSV",
    "json": "JSON",
    "md": "Markdown",
    "html": "HTML report",
    "svg": "SVG chart",
    "png": "PNG chart",
    "ansible": "Ansible playbook",
    "bundle": "Diagnostics bundle",
}


def nearest_folder(path: Path) -> Path:
    """The folder itself, or its nearest parent that exists: the default folder is made at the
    first export, and Qt's dialog given a folder not there (nor its parent) opens in the app's
    working folder (walk ux29, a new home without Documents: Browse showed sbctune's own)."""
    for folder in (path, *path.parents):
        if folder.is_dir():
            return folder
    return Path.home()


class ResultsExporting(Page):
    """The export half of the Results page; the widgets are made by ResultsPage.__init__."""

    _exporter: ExportController
    _opener: DesktopOpener
    problem: ProblemPanel
    export_card: Card
    folder: QLineEdit
    export_log: QLabel
    export_problem: ProblemPanel
    opened: QWidget
    open_button: QPushButton
    show_folder_button: QPushButton
    _last_export: Path
    _follow_export: bool
    replace_question: QMessageBox | None

    def runs(self) -> list[RunRecord]:
        raise NotImplementedError

    def export_ids(self) -> list[int]:
        """The runs compared, and what else the report's tables are made of."""
        return [r.id for r in self.runs() if r.id is not None]

    def _browse(self) -> None:
        start = nearest_folder(Path(self.folder.text().strip() or "~").expanduser())
        folder = QFileDialog.getExistingDirectory(self, "Export to", str(start))
        if folder:
            self.folder.setText(folder)

    def export(self, formats: list[str]) -> None:
        """Export; files already there are replaced only once the user said so (asked
        without blocking the event loop: the answer starts the export)."""
        ids = self.export_ids()
        folder = Path(self.folder.text()).expanduser()
        existing = self._exporter.existing(formats, ids, folder)
        if not existing:
            self._start_export(formats, ids, folder, overwrite=False)
            return
        names = "\n".join(p.name for p in existing)
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Replace files?",
            f"These files are already in {folder}:\n{names}\n\nReplace them?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)

        def answered(button: QAbstractButton) -> None:
            if box.standardButton(button) == QMessageBox.StandardButton.Yes:
                self._start_export(formats, ids, folder, overwrite=True)

        box.buttonClicked.connect(answered)
        self.replace_question = box
        box.open()

    def _start_export(
        self, formats: list[str], ids: list[int], folder: Path, *, overwrite: bool
    ) -> None:
        self.export_log.setText("Exporting…")
        self.problem.clear()
        self.export_problem.clear()
        self._exporter.export(formats, ids, folder, overwrite=overwrite)

    def _exported(self, fmt: str, path: str) -> None:
        lines = [t for t in self.export_log.text().splitlines() if t != "Exporting…"]
        self.export_log.setText("\n".join([*lines, f"{FORMAT_TITLE.get(fmt, fmt)}: {path}"]))
        self._last_export = Path(path)
        self.open_button.setToolTip(f"Open {path}")
        self.show_folder_button.setToolTip(f"Open the folder {self._last_export.parent}")
        self.opened.setVisible(True)
        self._show_export_log()

    def _show_export_log(self) -> None:
        """Scroll to the lines the export wrote and the buttons that open them (the s13 walk:
        after "Export all" they stayed below a small window's edge)."""
        # Once laid out (the label's new height), and after a problem panel's own scroll.
        QTimer.singleShot(0, self._scroll_to_export)

    def _scroll_to_export(self) -> None:
        self.content.activate()  # the card's new height, then its lines' places in it
        card = self.export_card.layout()
        if card is not None:
            card.activate()
        for widget in (self.opened, self.export_problem, self.export_log):  # last, first in view
            if widget.isVisible():
                self.ensureWidgetVisible(widget, 0, 10)
        # The card's labels take their wrapped heights a pass later (the view stopped a line
        # short): the page follows its growing range until the user scrolls or leaves.
        self._follow_export = True

    def _range_changed(self) -> None:
        if self._follow_export and self.isVisible():
            self._scroll_to_export()

    def _stop_following(self) -> None:
        self._follow_export = False

    def _open(self, path: Path) -> None:
        self.export_problem.clear()
        self._opener.open(path)

    def _not_opened(self, path: str) -> None:
        """Said next to the buttons, with the path to go to by hand (walk 14: "Show in folder"
        on a desktop without a file manager did nothing and said nothing)."""
        what = "the folder" if Path(path).is_dir() else "the file"
        self.export_problem.show_problem(
            f"No program on this computer could open {what} {path}.",
            "Open it from your file manager: the button "
            "\u201cCopy the folder's path\u201d puts that folder's path on the clipboard.",
        )
        self._show_export_log()

    def _copy_folder_path(self) -> None:
        folder = str(self._last_export.parent)
        QApplication.clipboard().setText(folder)
        lines = [t for t in self.export_log.text().splitlines() if not t.startswith("Copied: ")]
        self.export_log.setText("\n".join([*lines, f"Copied: {folder}"]))

    def _failed(self, problem: Problem) -> None:
        lines = [t for t in self.export_log.text().splitlines() if t != "Exporting…"]
        self.export_log.setText("\n".join(lines))
        self.export_problem.show_problem(problem.message, problem.hint)
        self._show_export_log()
