"""A tweak's words on the Tune page and in `tune plan` quote as the rest of the app does, with
typographic marks (app/wording.py): the walk of ux30 read the published test's title as
"Raspberry PI 4B USB Network Performance" in straight quotes on every Pi 4 tweak."""

from __future__ import annotations

import json

from sbctune.resources import resource_root


def test_tweak_words_have_no_straight_quotes() -> None:
    data = json.loads((resource_root() / "tuning" / "tweaks.json").read_text(encoding="utf-8"))
    shown = []
    for tweak in data["tweaks"]:
        shown += [tweak["title"], tweak["why"]]
        shown += [e["text"] for e in tweak.get("evidence", [])]
    assert len(shown) > 30
    straight = [text for text in shown if '"' in text]
    assert not straight, straight
