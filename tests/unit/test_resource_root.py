"""resource_root() is the folder importlib.resources.files() gives for the package."""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from sbctune.resources import resource_root


def test_resource_root_is_the_folder_files_gives() -> None:
    root = resource_root()
    assert isinstance(root, Path)
    assert root == files("sbctune.resources")
    table = root.joinpath("kernel_source", "messages.tsv")
    assert (
        table.read_bytes()
        == files("sbctune.resources").joinpath("kernel_source", "messages.tsv").read_bytes()
    )
