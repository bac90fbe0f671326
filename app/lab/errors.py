"""Errors of the virtual Pi lab, each with a message a user can act on."""

from __future__ import annotations

from sbctune.errors import UserError


class LabError(UserError):
    """The lab could not be brought up, inspected or taken down."""


class ProfileError(LabError):
    """A lab profile (lab.toml or its bundle) is missing or malformed."""
