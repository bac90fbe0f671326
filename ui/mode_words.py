"""How a test sends, in the words a first-time user reads on screen (issue 22 walk): "one way"
and "both ways", with the precise term ("half duplex", the seed write-ups' word) for a
tooltip. One source for the window and the reports: sbctune.wording."""

from __future__ import annotations

from sbctune.wording import MODE_TERMS, MODE_WORDS, mode_term, mode_words

__all__ = ["MODE_TERMS", "MODE_WORDS", "mode_term", "mode_words"]
