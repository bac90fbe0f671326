"""The lab's ethtool is one standalone script: every SCRIPT_MODULES module's text in one
namespace, fake_ethtool's last. A top-level name a later module defines again replaces the
earlier one for every caller, so a helper named like another module's (fake_ethtool_link's
`_read` of sysfs) would silently answer for it on the lab's Pi side."""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

from sbctune.lab import fake_ethtool
from sbctune.lab.ethtool_state import script_text

# veth_channels comes first on purpose: fake_ethtool_channels' set_channels wins (SCRIPT_MODULES)
MEANT_TWICE = {"set_channels"}


def _top_level_names(source: str) -> Counter[str]:
    names: Counter[str] = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names[node.name] += 1
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names[node.target.id] += 1
    return names


def test_the_standalone_ethtool_defines_each_name_once(tmp_path: Path) -> None:
    text = script_text(sys.executable, tmp_path / "state.json", tmp_path / "fallback")
    twice = {name for name, count in _top_level_names(text).items() if count > 1}
    assert twice == MEANT_TWICE


def test_every_module_the_script_is_made_of_is_listed() -> None:
    """A fake_ethtool module fake_ethtool imports but SCRIPT_MODULES leaves out would be missing
    from the installed script (its names undefined there)."""
    tree = ast.parse(Path(str(fake_ethtool.__file__)).read_text(encoding="utf-8"))
    imported = {
        node.module.rsplit(".", 1)[-1]
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("sbctune.lab.")
    }
    assert imported <= set(fake_ethtool.SCRIPT_MODULES)
