"""A shipped lab profile copied into a test's folder and changed there: the kernel it says it
runs (``[lab] kernel``), or words of its lab.toml replaced. One helper for the tests that made
the same copy-and-edit each on their own."""

from __future__ import annotations

import shutil
from collections.abc import Iterable
from pathlib import Path

from sbctune.lab.profile import find_profile


def profile_copy(
    tmp_path: Path,
    profile: str,
    folder: str,
    *,
    kernel: str | None = None,
    replace: Iterable[tuple[str, str]] = (),
) -> Path:
    """`profile` copied to ``tmp_path / folder``; its lab.toml says `kernel` where given, and
    each (old, new) of `replace` is replaced in it."""
    copy = tmp_path / folder
    shutil.copytree(find_profile(profile), copy)
    toml = copy / "lab.toml"
    text = toml.read_text(encoding="utf-8")
    if kernel is not None:
        text = text.replace("[lab]\n", f'[lab]\nkernel = "{kernel}"\n', 1)
    for old, new in replace:
        text = text.replace(old, new)
    toml.write_text(text, encoding="utf-8")
    return copy


def served_bundle(tmp_path: Path, profile: str) -> Path:
    """`profile`'s bundle with what the lab serves beside its captures and `sbctune collect`
    reads there: its PCI functions' driver links ([pci] unbound: none bound)."""
    from sbctune.inventory.bundle import write_bundle
    from sbctune.lab.pci_unbound import served_files
    from sbctune.lab.profile import load_profile

    loaded = load_profile(profile)
    bundle = loaded.bundle
    commands = {line: bundle.command(line) or "" for line in bundle.commands}
    files = {path: bundle.file(path) or "" for path in bundle.files}
    files |= served_files(loaded.pci_unbound)
    return write_bundle(tmp_path / f"{profile}-served", "lab", commands, files)
