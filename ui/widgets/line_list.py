"""Lines that wrap under their own start: each line a list item, so a line that wraps is
indented under its first words and the next line begins at the margin (walk ux29 at 800 x 600:
the guard card's "Receive packet steering (RPS) with flow steering (RFS): applied — receive
work of" went on "eth1 on CPUs 0, 1, 2, 3" at the margin, where the next tweak's line began,
and the reader could not tell one tweak's line from the next)."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget

INDENT_PX = 14
# A list of numbers ("CPUs 0, 1, 2, 3") is not broken: at 150 % a lone "3" began a line.
_NUMBER_LIST = re.compile(r"(?<=\d), (?=\d)")
LEAD_PX = 4  # per leading space of a line (HTML would drop them)


class LineList(QLabel):
    """A label of lines (each escaped: a tweak's detail can hold the Pi's own words) drawn as
    paragraphs with a hanging indent; `text()` is the lines as set, one per line."""

    def __init__(
        self, parent: QWidget | None = None, *, hangs: Callable[[str], bool] = lambda _: True
    ) -> None:
        """`hangs`: which lines are items (a heading such as "Until then:", a sentence of
        where the tuning stands, stays a plain paragraph)."""
        super().__init__(parent)
        self._plain = ""
        self._hangs = hangs
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def setText(self, text: str) -> None:
        self._plain = text
        paragraphs = []
        for line in text.splitlines():
            if not line.strip():
                continue
            indent = INDENT_PX if self._hangs(line) else 0
            lead = (len(line) - len(line.lstrip(" "))) * LEAD_PX  # a line's own indent kept
            paragraphs.append(
                f'<p style="margin:0 0 3px 0; margin-left:{lead + indent}px; '
                f'text-indent:-{indent}px">{_kept_together(line.strip())}</p>'
            )
        super().setText("".join(paragraphs))
        self.setAccessibleName(text.replace("\n", " "))

    def text(self) -> str:
        return self._plain


def _kept_together(line: str) -> str:
    return _NUMBER_LIST.sub(",&nbsp;", escape(line))
