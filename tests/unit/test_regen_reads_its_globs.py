"""A generator reads only the files its own globs extract, whatever else the shared cache holds.

The kernel-source cache is shared: other generators and the tests' trees (SBCTUNE_KERNEL_SRC_WITH)
extract more of each tree than one generator asks for. regen_kernel_source walked drivers/base
for dd.c's and firmware_loader's messages and, in a cache that also held drivers/*, took every
drivers/base/*.c's: a regeneration gave 243 formats the shipped messages.tsv had never held.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from kernel_source import asked  # noqa: E402
from regen_kernel_source import GLOBS, _messages  # noqa: E402


def _tree(root: Path) -> Path:
    for rel, fmt in (
        ("drivers/base/dd.c", "probe of %s returned %d after %lld usecs"),
        ("drivers/base/firmware_loader/main.c", "Direct firmware load for %s failed"),
        ("drivers/base/arch_topology.c", "cpu_capacity: capacity of CPU%d is out of range"),
        ("net/sched/sch_htb.c", "htb: too many events!"),
    ):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f'void f(struct device *dev) {{ dev_err(dev, "{fmt}\\n"); }}\n', encoding="utf-8"
        )
    return root


def test_messages_come_only_from_the_files_its_globs_name(tmp_path: Path) -> None:
    found = _messages(_tree(tmp_path))
    files = {f for _level, names in found.values() for f in names}
    assert files == {"drivers/base/dd.c", "drivers/base/firmware_loader/main.c"}


def test_asked_is_tars_wildcard_match() -> None:
    # tar --wildcards: '*' crosses '/', as fnmatch's does
    assert asked("drivers/base/firmware_loader/sysfs/x.c", ["drivers/base/firmware_loader/*"])
    assert asked("drivers/base/dd.c", GLOBS)
    assert not asked("drivers/base/core.c", GLOBS)
    assert asked("net/sched/sch_generic.c", ["/net/sched/sch_generic.c/"])
