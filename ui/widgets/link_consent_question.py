"""Before Tune & Measure or "Find what helps": the tweaks its plan holds back because they would
briefly drop the link this app reaches the Pi through, said in plain words, with the same
consent box as the Tune page (sbctune.workflow.link_consent words both). Shown with open(), not
exec(): the event loop keeps running."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QCheckBox, QMessageBox, QWidget

from sbctune.workflow.link_consent import CONSENT_LABEL, consent_effect, consent_text, held_text


class LinkConsentQuestion(QMessageBox):
    def __init__(
        self, parent: QWidget, what: str, titles: list[str], answered: Callable[[bool], None]
    ) -> None:
        """`what`: the flow asked for ("Tune & Measure"); `answered(allow)` when the user starts
        it (with or without the consent); nothing when they cancel."""
        super().__init__(parent)
        self.setIcon(QMessageBox.Icon.Question)
        self.setWindowTitle(what)
        self.setText(held_text(titles))
        self.setInformativeText(
            f"{consent_effect(len(titles))} Without your consent the rest of the tuning goes "
            "ahead, and the results say what was held back."
        )
        self.consent_box = QCheckBox(CONSENT_LABEL.replace("apply", "appl&y"))
        self.consent_box.setObjectName("link-consent")
        self.consent_box.setAccessibleName(consent_text())
        self.consent_box.setToolTip(consent_text())
        self.setCheckBox(self.consent_box)
        start = f"&Start {what.replace('&', '&&')}"  # "Tune & Measure": a literal ampersand
        self.start_button = self.addButton(start, QMessageBox.ButtonRole.AcceptRole)
        self.cancel_button = self.addButton("&Cancel", QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.start_button)

        def clicked(button: object) -> None:
            if button is self.start_button:
                answered(self.consent_box.isChecked())

        self.buttonClicked.connect(clicked)
