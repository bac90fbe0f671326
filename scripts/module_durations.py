#!/usr/bin/env python3
"""Regenerate tests/module_durations.json, the seconds each slow test module took, from the
JUnit XML of a real pytest run (scripts/test.sh's full run writes tests/output/junit.xml).

    python scripts/module_durations.py tests/output/junit.xml

tests/conftest.py runs the modules it lists slowest first (tests/module_order.py), so that
pytest's two processes end together. A module's time is the sum of its tests' times as the
XML gives them (setup, call and teardown: a module's shared lab is in its first test's setup).
Only modules of at least --min seconds are kept: the order of the short ones does not matter.
"""

from __future__ import annotations

import argparse
import json
import sys
import xml.etree.ElementTree as ET
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "module_durations.json"


def module_seconds(junit: Path) -> dict[str, float]:
    """Module path as pytest's node ids write it ("tests/unit/test_x.py") -> its seconds."""
    totals: dict[str, float] = defaultdict(float)
    # S314: the XML is our own pytest run's output, not text from a Pi or a bundle
    for case in ET.parse(junit).getroot().iter("testcase"):  # noqa: S314
        # classname "tests.unit.test_x" or "tests.unit.test_x.TestClass": the module is the
        # longest prefix that is a file of the tree
        parts = case.get("classname", "").split(".")
        for end in range(len(parts), 0, -1):
            rel = "/".join(parts[:end]) + ".py"
            if (ROOT / rel).is_file():
                totals[rel] += float(case.get("time", "0") or 0)
                break
    return dict(totals)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("junit", type=Path, help="pytest's --junitxml output of a full run")
    parser.add_argument("--min", type=float, default=10.0, help="seconds a module must take")
    args = parser.parse_args(argv)
    seconds = module_seconds(args.junit)
    kept = {m: round(s, 1) for m, s in sorted(seconds.items()) if s >= args.min}
    data = {
        "generated": datetime.now(UTC).date().isoformat(),
        "script": "scripts/module_durations.py",
        "from": args.junit.name,
        "seconds": kept,
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{len(kept)} of {len(seconds)} modules took {args.min:g} s or more: {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
