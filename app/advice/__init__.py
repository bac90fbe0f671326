"""Findings (bottlenecks with evidence) and recommendations, from inventory, results and catalog.

>>> from sbctune.advice import advise  # advise(inventory, runs, catalog, tuning=None) -> Advice
"""

from sbctune.advice.advise import Advice, advise

__all__ = ["Advice", "advise"]
