"""Light and dark themes: Fusion with a palette, following the OS unless the user chose one.

Colours that mean something (directions, severities, CPU states) live here too, so every
widget and plot draws them the same way in both themes.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from sbctune.resources import resource_root

ThemeChoice = Literal["system", "light", "dark"]
THEME_CHOICES: tuple[ThemeChoice, ...] = ("system", "light", "dark")


@dataclass(frozen=True)
class Colors:
    """Semantic colours of one theme."""

    dark: bool
    background: str
    foreground: str
    muted: str
    card: str
    card_border: str
    accent: str
    pi_to_pc: str
    pc_to_pi: str
    omitted: str
    line_rate: str
    cpu_user: str
    cpu_system: str
    cpu_irq: str
    cpu_softirq: str
    info: str
    warning: str
    problem: str
    good: str


LIGHT = Colors(
    dark=False,
    background="#ffffff",
    foreground="#1d1d1f",
    muted="#6b6b70",
    card="#f6f7f9",
    card_border="#d5d8de",
    accent="#2563eb",
    # Data series: the Okabe-Ito palette, told apart with colour-blindness too
    pi_to_pc="#0072b2",
    pc_to_pi="#d55e00",
    omitted="#9aa0a6",
    line_rate="#009e73",
    cpu_user="#56b4e9",
    cpu_system="#cc79a7",
    cpu_irq="#f0e442",
    cpu_softirq="#d55e00",
    info="#2563eb",
    warning="#b45309",
    problem="#b91c1c",
    good="#15803d",
)

DARK = Colors(
    dark=True,
    background="#1e1f22",
    foreground="#e8e8ea",
    muted="#a0a3a8",
    card="#2a2c30",
    card_border="#3c3f45",
    accent="#60a5fa",
    pi_to_pc="#56b4e9",
    pc_to_pi="#e69f00",
    omitted="#6b7280",
    line_rate="#009e73",
    cpu_user="#56b4e9",
    cpu_system="#cc79a7",
    cpu_irq="#f0e442",
    cpu_softirq="#d55e00",
    info="#60a5fa",
    warning="#fbbf24",
    problem="#f87171",
    good="#4ade80",
)


_R = QPalette.ColorRole
# Each theme's colours by role; then the text of disabled widgets (window, field and button
# text alike).
_DARK = {
    _R.Window: "#26282b", _R.WindowText: "#e8e8ea", _R.Base: "#1e1f22",
    _R.AlternateBase: "#2a2c30", _R.ToolTipBase: "#2a2c30", _R.ToolTipText: "#e8e8ea",
    _R.PlaceholderText: "#7a7d82", _R.Text: "#e8e8ea", _R.Button: "#303236",
    _R.ButtonText: "#e8e8ea", _R.BrightText: "#ff6b6b", _R.Link: "#60a5fa",
    _R.Highlight: "#3b6fd6", _R.HighlightedText: "#ffffff", _R.Mid: "#3c3f45",
    _R.Dark: "#17181a", _R.Light: "#3c3f45",
}  # fmt: skip
_DARK_DISABLED = "#7a7d82"
_LIGHT = {
    _R.Window: "#efeff2", _R.WindowText: "#1d1d1f", _R.Base: "#ffffff",
    _R.AlternateBase: "#f4f5f7", _R.ToolTipBase: "#ffffe1", _R.ToolTipText: "#1d1d1f",
    _R.PlaceholderText: "#8a8a90", _R.Text: "#1d1d1f", _R.Button: "#f6f6f8",
    _R.ButtonText: "#1d1d1f", _R.Link: "#2563eb", _R.Highlight: "#2563eb",
    _R.HighlightedText: "#ffffff",
}  # fmt: skip
_LIGHT_DISABLED = "#9a9aa0"


def _palette(colors: dict[QPalette.ColorRole, str], disabled: str) -> QPalette:
    p = QPalette()
    for role, color in colors.items():
        p.setColor(role, QColor(color))
    for role in (_R.WindowText, _R.Text, _R.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled))
    return p


def _dark_palette() -> QPalette:
    return _palette(_DARK, _DARK_DISABLED)


def _light_palette() -> QPalette:
    return _palette(_LIGHT, _LIGHT_DISABLED)


def os_prefers_dark() -> bool:
    hints = QGuiApplication.styleHints()
    return bool(hints.colorScheme() == Qt.ColorScheme.Dark)


class ThemeManager(QObject):
    """Applies the chosen theme and tells the plots when the colours change."""

    changed = Signal(object)  # Colors

    def __init__(self, app: QApplication, choice: ThemeChoice = "system") -> None:
        super().__init__(app)
        self._app = app
        self._choice: ThemeChoice = choice
        self.colors = LIGHT
        app.setStyle("Fusion")  # the same look on every OS, and it honours the palette
        QGuiApplication.styleHints().colorSchemeChanged.connect(self._os_changed)
        self.apply(choice)

    @property
    def choice(self) -> ThemeChoice:
        return self._choice

    def apply(self, choice: ThemeChoice) -> None:
        self._choice = choice
        dark = choice == "dark" or (choice == "system" and os_prefers_dark())
        self.colors = DARK if dark else LIGHT
        self._app.setPalette(_dark_palette() if dark else _light_palette())
        self._app.setStyleSheet(stylesheet(self.colors))
        self.changed.emit(self.colors)

    def _os_changed(self, _scheme: Qt.ColorScheme) -> None:
        if self._choice == "system":
            self.apply("system")


def _check_icon() -> str:
    """The tick of a checked box, as a path Qt's style sheets accept (forward slashes)."""
    return Path(str(resource_root() / "ui" / "check.svg")).as_posix()


def stylesheet(c: Colors) -> str:
    """Only what the palette cannot say: cards, badges, the sidebar, headings, and radio and
    check indicators (Fusion outlines them in a shade of the window colour: invisible on dark
    cards)."""
    return f"""
QFrame#card {{ background: {c.card}; border: 1px solid {c.card_border}; border-radius: 8px; }}
QFrame#card:focus-within {{ border-color: {c.accent}; }}
QFrame#actionCard {{ background: {c.card}; border: 2px solid {c.accent}; border-radius: 8px; }}
QLabel#cardTitle {{ font-size: 12pt; font-weight: 600; }}
QLabel#pageTitle {{ font-size: 16pt; font-weight: 600; }}
QLabel#pageIntro {{ color: {c.muted}; }}
QLabel#muted {{ color: {c.muted}; }}
QLabel#errorText {{ color: {c.problem}; font-weight: 600; }}
QLabel#hintText {{ color: {c.muted}; }}
QLabel#badge {{ border-radius: 6px; padding: 1px 6px; font-size: 9pt; font-weight: 600; }}
QLabel#readyText {{ font-size: 11pt; }}
QLabel#bigFigure {{ font-size: 20pt; font-weight: 600; }}
QLabel#sampleBanner {{ background: {c.warning}; color: #000000; padding: 4px; font-weight: 600; }}
QListWidget#sidebar {{ border: none; padding: 6px; font-size: 11pt; }}
QListWidget#sidebar::item {{ padding: 7px 8px; border-radius: 6px; color: {c.foreground}; }}
QListWidget#sidebar::item:selected {{ background: {c.accent}; color: #ffffff; }}
QListWidget#sidebar::item:disabled {{ color: {c.muted}; }}
QPushButton#primary {{ background: {c.accent}; color: #ffffff; font-size: 12pt;
    font-weight: 600; padding: 10px 22px; border-radius: 6px; border: none; }}
QPushButton#primary:disabled {{ background: {c.card_border}; color: {c.muted}; }}
QPushButton#primary:focus {{ border: 2px solid {c.foreground}; }}
QRadioButton::indicator, QCheckBox::indicator {{ width: 12px; height: 12px;
    border: 2px solid {c.muted}; background: {c.background}; }}
QRadioButton::indicator {{ border-radius: 8px; }}
QCheckBox::indicator {{ border-radius: 3px; }}
QRadioButton::indicator:hover, QCheckBox::indicator:hover {{ border-color: {c.accent}; }}
QRadioButton::indicator:checked {{ border-color: {c.accent}; background: qradialgradient(
    cx:0.5, cy:0.5, radius:0.5, fx:0.5, fy:0.5, stop:0 {c.accent}, stop:0.55 {c.accent},
    stop:0.6 {c.background}, stop:1 {c.background}); }}
QCheckBox::indicator:checked {{ border-color: {c.accent}; background: {c.accent};
    image: url({_check_icon()}); }}
QRadioButton::indicator:disabled, QCheckBox::indicator:disabled {{ border-color: {c.card_border};
    background: {c.card}; }}
QCheckBox::indicator:checked:disabled {{ background: {c.card_border}; }}
"""


def badge_style(color: str, dark: bool) -> str:
    """A filled pill in `color` with readable text."""
    text = "#000000" if dark else "#ffffff"
    return f"background: {color}; color: {text};"
