"""explanations.json's ``errno_bare`` against the source it counts: in drivers/net (.c and
.h) of the pinned Debian linux-source trees, a bare `return -1;` stands more often than
`return -EPERM;` (why a -1 in a driver's line is not worded as EPERM), with the figures its
comment gives."""

from __future__ import annotations

import re
from pathlib import Path

from tests.kernel_trees import kernel_trees, pinned_packages, shipped_table


def _count(root: Path, statement: str) -> int:
    return sum(
        path.read_text(encoding="utf-8", errors="replace").count(statement)
        for path in (root / "drivers" / "net").rglob("*")
        if path.suffix in (".c", ".h")
    )


def test_a_bare_minus_one_outnumbers_eperm_in_every_tree() -> None:
    trees, versions = kernel_trees(["drivers/net/*"]), pinned_packages()
    comment = shipped_table("explanations.json")["errno_bare"]["_comment"]
    for series, root in trees.items():
        bare, eperm = _count(root, "return -1;"), _count(root, "return -EPERM;")
        assert bare > 2 * eperm, (series, bare, eperm)
        assert versions[f"linux-source-{series}"] in comment
    # the figures the comment quotes are today's counts in 6.12
    quoted = [int(n) for n in re.findall(r"(\d+) times", comment)]
    assert quoted == [_count(trees["6.12"], "return -1;"), _count(trees["6.12"], "return -EPERM;")]
