"""The errors tuning raises: each says what happened on the Pi and what to do."""

from __future__ import annotations

from sbctune.errors import UserError


class TuningError(UserError):
    pass


class SessionBusy(TuningError):
    """Another tuning session holds the Pi's one-session lock."""


class SessionFormatError(TuningError):
    """A session record that this sbctune cannot read (damaged, or from a newer sbctune)."""
