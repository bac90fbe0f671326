"""How a test sends, in the words a first-time user reads on screen (issue 22 walk): "one way"
and "both ways", with the precise term ("half duplex", the seed write-ups' word) for a
tooltip. The command line and the exports keep the write-ups' terms next to their tables."""

from __future__ import annotations

MODE_WORDS: dict[str, str] = {
    "half": "One way",
    "full": "Both ways",
    "full_throttled": "Both ways, PC held back",
}

MODE_TERMS: dict[str, str] = {
    "half": "Half duplex: one direction at a time",
    "full": "Full duplex: both directions at once",
    "full_throttled": "Full duplex with this PC's sending limited, so the Pi's side is measured",
}


def mode_words(mode: str) -> str:
    return MODE_WORDS.get(mode, mode.replace("_", " "))


def mode_term(mode: str) -> str:
    return MODE_TERMS.get(mode, "")
