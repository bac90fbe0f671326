"""Data files (catalog, lab profiles, templates), shipped with the package."""

from importlib.resources import files
from importlib.resources.abc import Traversable


def resource_root() -> Traversable:
    """The folder that holds every shipped data file."""
    return files(__name__)
