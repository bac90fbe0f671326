"""firmware_chips.json "macros" is what scripts/regen_firmware_chips.py's macro scan
(scripts/firmware_defines.py) gives from the pinned Debian source, and each row's macro is
#defined beside the driver with that file as its value. Fetches linux-source-6.1 and -6.12
once, as tests/test_firmware_macros_source.py does."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
KS = ROOT / "resources" / "kernel_source"
sys.path.insert(0, str(ROOT / "scripts"))

from firmware_defines import firmware_macros_of  # noqa: E402
from regen_firmware_chips import GLOBS, macro_rows, struct_rows  # noqa: E402

from tests.kernel_trees import kernel_trees  # noqa: E402


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_macro_rows_are_what_the_source_says() -> None:
    shipped = json.loads((KS / "firmware_chips.json").read_text(encoding="utf-8"))
    table = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))
    rows = shipped["macros"]
    assert rows["htc_9271.fw"]["chip"] == "AR9271"
    assert "rt2870.bin" not in rows  # rt2800usb's file serves more chips than its macro's
    packages = {f"linux-source-{s}": v for s, v in (
        (k.removeprefix("linux-source-"), v) for k, v in shipped["packages"].items()
    )}  # fmt: skip
    generated: dict[str, dict[str, object]] = {}
    for series, root in kernel_trees(GLOBS, packages=packages).items():
        for firmware, item in macro_rows(root, series, table).items():
            generated.setdefault(firmware, {**item, "series": []})["series"].append(series)  # type: ignore[attr-defined]
            main = root / item["file"]
            macros = firmware_macros_of(main.parent, main.read_text(encoding="utf-8"))
            assert macros[item["macro"]] == firmware, (series, firmware)
            defined = "".join(p.read_text(encoding="utf-8") for p in main.parent.glob("*.[ch]"))
            assert re.search(rf"#define\s+{item['macro']}\b", defined), item
    assert generated == rows


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_struct_rows_are_what_the_source_says() -> None:
    """firmware_chips.json "structs": each row's struct is pointed to by an ID entry of the
    driver's main file and initialises a field to the row's macro, #defined as the file."""
    shipped = json.loads((KS / "firmware_chips.json").read_text(encoding="utf-8"))
    table = json.loads((KS / "drivers.json").read_text(encoding="utf-8"))
    rows = shipped["structs"]
    assert rows["mrvl/sd8887_uapsta.bin"]["chip"] == "SD8887"
    generated: dict[str, dict[str, object]] = {}
    for series, root in kernel_trees(GLOBS, packages=shipped["packages"]).items():
        for firmware, item in struct_rows(root, table).items():
            generated.setdefault(firmware, {**item, "series": []})["series"].append(series)  # type: ignore[attr-defined]
            main = (root / item["file"]).read_text(encoding="utf-8")
            assert re.search(rf"\.driver_data\s*=\s*\([^)]*\)\s*&{item['struct']}\b", main)
            assert re.search(rf"{item['struct']}\s*=\s*\{{[^;]*\.\w+\s*=\s*{item['macro']},", main)
            defined = "".join(
                p.read_text(encoding="utf-8") for p in (root / item["file"]).parent.glob("*.[ch]")
            )
            assert re.search(rf'#define\s+{item["macro"]}\s+"{re.escape(firmware)}"', defined)
    assert generated == rows
