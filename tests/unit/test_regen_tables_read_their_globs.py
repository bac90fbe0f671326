"""More generators read only the files their own globs extract (the model:
test_regen_reads_its_globs.py): the kernel-source cache is shared, and a table must not depend
on what other generators or the tests' trees extracted before it ran."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from kernel_source import asked  # noqa: E402

_FORMAT = "%s: new device [%04x:%04x]"


def _c(root: Path, rel: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        f'void f(struct device *dev) {{ dev_info(dev, "{_FORMAT}\\n", "x", 1, 2); }}\n',
        encoding="utf-8",
    )


def test_id_formats_come_only_from_the_files_its_globs_name(tmp_path: Path) -> None:
    # regen_id_formats walks regen_kernel_source's folders (drivers/base, net/core ...): in a
    # cache that held them, their files' formats would be read too
    from regen_id_formats import formats

    for rel in ("drivers/net/usb/pegasus.c", "drivers/base/core.c", "net/core/dev.c"):
        _c(tmp_path, rel)
    _level, files, _where = formats(tmp_path)[_FORMAT]
    assert files == {"drivers/net/usb/pegasus.c"}


@pytest.mark.parametrize("script", ["regen_firmware_chips", "regen_usb_probe_resets"])
def test_a_script_asks_for_every_file_of_the_drivers_it_reads(script: str) -> None:
    # each reads every drivers.json driver's file; staging's (vt6656, gdm724x ...) were read
    # only when another caller had extracted drivers/staging
    globs = importlib.import_module(script).GLOBS
    table = json.loads((ROOT / "resources/kernel_source/drivers.json").read_text(encoding="utf-8"))
    files = {str(d["file"]) for d in table["drivers"].values()}
    assert [f for f in sorted(files) if not asked(f, globs)] == []


def test_the_audit_lists_the_files_read_beyond_the_globs(tmp_path: Path) -> None:
    from audit_regen_reads import unasked

    root = tmp_path / "linux-source-6.1_6.1.192-3" / "linux-source-6.1"
    opened = {str(root / "drivers/net/usb/r8152.c"), str(root / "drivers/base/core.c")}
    found = unasked(opened, {str(root): ["drivers/net/*"]})
    assert found == ["linux-source-6.1_6.1.192-3/drivers/base/core.c"]


def test_the_audit_lists_a_folder_walked_beyond_the_globs(tmp_path: Path) -> None:
    from audit_regen_reads import unasked

    root = tmp_path / "linux-source-6.1_6.1.192-3" / "linux-source-6.1"
    listed = frozenset(str(root / d) for d in ("drivers", "drivers/net/usb", "drivers/base"))
    found = unasked(set(), {str(root): ["drivers/net/*"]}, listed)
    assert found == ["linux-source-6.1_6.1.192-3/drivers/base/"]
