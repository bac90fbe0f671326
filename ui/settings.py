"""The user's preferences and the window state, kept in QSettings.

When SBCTUNE_DATA_DIR is set (tests, portable use) the settings live in an INI file there, so
a test never reads or changes the user's real preferences.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QByteArray, QObject, QSettings, Signal

from sbctune import paths
from sbctune.ui.theme import THEME_CHOICES, ThemeChoice

if TYPE_CHECKING:  # the first window does without the measuring code
    from sbctune.measure.pc_endpoint import EndpointKind

Units = Literal["Mbit/s", "Gbit/s"]
UNITS: tuple[Units, ...] = ("Mbit/s", "Gbit/s")
ENDPOINT_KINDS: tuple[EndpointKind, ...] = ("builtin", "iperf3")
#: The UDP test's pacing rate (Mbit/s): the range `sbctune measure --udp` accepts.
UDP_MIN_MBPS, UDP_MAX_MBPS = 0.0, 100_000.0
UDP_DEFAULT_MBPS = 50.0


def udp_rate_of(text: str) -> float | None:
    """A rate typed or stored as text, in range (above 0, at most 100 000), else None."""
    try:
        value = float(text.strip().replace(",", "."))
    except ValueError:
        return None
    return value if UDP_MIN_MBPS < value <= UDP_MAX_MBPS else None  # NaN fails both


def _open() -> QSettings:
    if os.environ.get("SBCTUNE_DATA_DIR"):
        path = Path(paths.data_dir()) / "gui.ini"
        return QSettings(str(path), QSettings.Format.IniFormat)
    return QSettings("sbctune", "sbctune")


class AppSettings(QObject):
    """Typed access to the preferences; `changed` fires with the key that changed."""

    changed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._s = _open()

    def _text(self, key: str, default: str) -> str:
        value = self._s.value(key, default)
        return str(value) if value is not None else default

    def _set(self, key: str, value: object) -> None:
        if self._s.value(key) != value:
            self._s.setValue(key, value)
            self._s.sync()
            self.changed.emit(key)

    # ------------------------------------------------------------------ preferences
    @property
    def endpoint_kind(self) -> EndpointKind:
        value = self._text("measure/endpoint", "builtin")
        return value if value in ENDPOINT_KINDS else "builtin"

    @endpoint_kind.setter
    def endpoint_kind(self, value: EndpointKind) -> None:
        self._set("measure/endpoint", value)

    @property
    def iperf3_path(self) -> str | None:
        return self._text("measure/iperf3_path", "") or None

    @iperf3_path.setter
    def iperf3_path(self, value: str | None) -> None:
        self._set("measure/iperf3_path", value or "")

    @property
    def default_plan(self) -> str:
        return self._text("measure/plan", "quick")

    @default_plan.setter
    def default_plan(self, value: str) -> None:
        self._set("measure/plan", value)

    @property
    def calibrate_flow(self) -> bool:
        """Tune & Measure measures the baseline twice first (A/A calibration)."""
        return self._text("measure/calibrate_flow", "false") == "true"

    @calibrate_flow.setter
    def calibrate_flow(self, value: bool) -> None:
        self._set("measure/calibrate_flow", "true" if value else "false")

    @property
    def udp_enabled(self) -> bool:
        """A UDP test per direction after the plan's TCP tests (off unless chosen)."""
        return self._text("measure/udp", "false").lower() in ("true", "1")

    @udp_enabled.setter
    def udp_enabled(self, value: bool) -> None:
        self._set("measure/udp", "true" if value else "false")

    @property
    def udp_mbps(self) -> float:
        """The UDP test's rate; a stored value out of range (a hand-edited file) reads as the
        default, so a run never starts with a rate `Plan.with_udp` refuses."""
        return udp_rate_of(self._text("measure/udp_mbps", "")) or UDP_DEFAULT_MBPS

    @udp_mbps.setter
    def udp_mbps(self, value: float) -> None:
        self._set("measure/udp_mbps", repr(float(value)))

    def udp_rate(self) -> float | None:
        """The rate a measurement adds its UDP tests at, or None when the test is off."""
        return self.udp_mbps if self.udp_enabled else None

    @property
    def units(self) -> Units:
        value = self._text("view/units", "Mbit/s")
        return value if value in UNITS else "Mbit/s"

    @units.setter
    def units(self, value: Units) -> None:
        self._set("view/units", value)

    @property
    def theme(self) -> ThemeChoice:
        value = self._text("view/theme", "system")
        return value if value in THEME_CHOICES else "system"

    @theme.setter
    def theme(self, value: ThemeChoice) -> None:
        self._set("view/theme", value)

    # ------------------------------------------------------------------ last connection
    def last_connection(self) -> dict[str, str]:
        """Host, port, user, auth method and key file of the last successful connection."""
        keys = ("host", "port", "user", "auth", "key_file")
        return {k: self._text(f"connect/{k}", "") for k in keys}

    def remember_connection(self, values: dict[str, str]) -> None:
        for key, value in values.items():
            self._s.setValue(f"connect/{key}", value)  # never a password: see ui/secrets.py
        self._s.sync()

    # ------------------------------------------------------------------ window state
    def window_state(self) -> tuple[QByteArray | None, QByteArray | None]:
        geometry = self._s.value("window/geometry")
        state = self._s.value("window/state")
        return (
            geometry if isinstance(geometry, QByteArray) else None,
            state if isinstance(state, QByteArray) else None,
        )

    def save_window_state(self, geometry: QByteArray, state: QByteArray) -> None:
        self._s.setValue("window/geometry", geometry)
        self._s.setValue("window/state", state)
        self._s.sync()
