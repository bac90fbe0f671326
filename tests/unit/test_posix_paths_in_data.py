"""A relative path written into data or a report is `path.relative_to(root).as_posix()`, never
`str(path.relative_to(root))`: on Windows str() gives backslashes, so a table regenerated or
checked there differs from the one shipped (the Windows lane's unit run caught
scripts/regen_driver_caps.py's "ops_bound_in" files as 'drivers\\net\\usb\\...', s19)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
STR_OF_RELATIVE = re.compile(r"\bstr\(\s*[^()\n]*(?:\([^()\n]*\))?\.relative_to\(")


def unposix_sites(text: str) -> list[int]:
    """Line numbers where a relative path is made a string with str()."""
    return [n for n, line in enumerate(text.splitlines(), 1) if STR_OF_RELATIVE.search(line)]


def test_no_relative_path_is_made_a_string_with_str() -> None:
    found = [
        f"{path.relative_to(ROOT).as_posix()}:{n}"
        for folder in ("app", "ui", "scripts")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n in unposix_sites(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_check_sees_both_shapes() -> None:
    assert unposix_sites("rel = str(path.relative_to(root))") == [1]
    assert unposix_sites("x = str(Path(p).relative_to(root))") == [1]
    assert unposix_sites("rel = path.relative_to(root).as_posix()") == []
