"""Findings (bottlenecks with evidence) and recommendations, from inventory, results and catalog.

>>> from sbctune.advice import advise  # advise(inventory, runs, catalog, tuning=None) -> Advice

The names load on first use (PEP 562, `sbctune.lazy`): inspecting a bundle (`advice.inspect`,
`advice.static`) does not load the advice on measured runs (issue 22).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sbctune.lazy import exports, keep_names_over_submodules, names_in

if TYPE_CHECKING:
    from sbctune.advice.advise import Advice, advise

__all__ = ["Advice", "advise"]

if not TYPE_CHECKING:  # mypy sees the imports above, and a typo stays an error
    __getattr__, __dir__ = exports(__name__, names_in("advise", ("Advice", "advise")))
    keep_names_over_submodules(__name__, ("advise",))
