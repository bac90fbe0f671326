"""Maps the design card's top-level folders onto the one import namespace `sbctune`.

app/ -> sbctune, ui/ -> sbctune.ui, resources/ -> sbctune.resources. Subpackages are found by
walking the folders, so a new package needs no edit here. Everything else is in pyproject.toml.
"""

from pathlib import Path

from setuptools import setup

ROOTS = {"sbctune": "app", "sbctune.ui": "ui", "sbctune.resources": "resources"}


def _packages() -> list[str]:
    found = []
    for name, folder in ROOTS.items():
        for init in sorted(Path(folder).rglob("__init__.py")):
            rel = init.parent.relative_to(folder).parts
            found.append(".".join((name, *rel)))
    # resources/ holds data folders without __init__.py; setuptools wants each one named as a
    # package (else a deprecation warning per folder at every install).
    for data in sorted(p for p in Path(ROOTS["sbctune.resources"]).rglob("*") if p.is_dir()):
        if "__pycache__" not in data.parts:
            rel = data.relative_to(ROOTS["sbctune.resources"]).parts
            found.append(".".join(("sbctune.resources", *rel)))
    return sorted(set(found))


setup(package_dir=ROOTS, packages=_packages())
