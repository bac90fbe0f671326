"""Same outputs: `inspect --json` of every bundle, this tree against another checkout.

A speed change must not change what a user gets. This prints, for every bundle under
tests/captures and resources/lab (a directory with a manifest.json) and for both big dmesg
bundles of bench_inventory.py (repeated and distinct lines), whether the JSON that
`sbctune inspect BUNDLE --json` prints (json.dumps(inventory.to_json(), indent=2)) is
byte-identical between this tree and the other (each run by its own .venv, one process per
tree for all bundles):

    .venv/bin/python tests/bench/same_outputs.py --other /work/wt/speedref

Exit status 1 when any output differs (the first differing bundles are named).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))

# Under the start-up caches the command line uses in its own process, where a tree has them
# (cli/regex_code.py: the regexes' code from the cache); run twice on one cache folder, the
# first run compiles and keeps, the second reads what was kept.
_DIGESTS = """
import contextlib, hashlib, json, sys
try:
    from sbctune.advice.inspect import inspect_bundle
except ImportError:
    from sbctune.inventory.inspect import inspect_bundle
try:
    from sbctune.cli.regex_code import regex_code_kept
except ImportError:
    regex_code_kept = lambda own_process: contextlib.nullcontext()
out = {}
with regex_code_kept(own_process=True):
    for path in sys.stdin.read().splitlines():
        text = json.dumps(inspect_bundle(path).to_json(), indent=2)
        out[path] = hashlib.sha256(text.encode("utf-8")).hexdigest()
print(json.dumps(out))
"""


def bundles() -> list[Path]:
    found = [
        manifest.parent
        for top in (ROOT / "tests" / "captures", ROOT / "resources" / "lab")
        for manifest in top.rglob("manifest.json")
    ]
    return sorted(found)


def digests(tree: Path, paths: list[Path], cache: Path) -> dict[str, str]:
    env = dict(os.environ, SBCTUNE_CACHE_DIR=str(cache))
    out = subprocess.run(
        [str(tree / ".venv" / "bin" / "python"), "-c", _DIGESTS],
        input="\n".join(str(p) for p in paths),
        check=True,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=1800,
    ).stdout
    result: dict[str, str] = json.loads(out)
    return result


def main() -> int:
    from bench_inventory import big_dmesg_bundle

    parser = argparse.ArgumentParser()
    parser.add_argument("--other", type=Path, required=True, help="another checkout")
    parser.add_argument("--lines", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = bundles()
        for distinct in (False, True):
            where = Path(tmp) / ("distinct" if distinct else "repeated")
            where.mkdir()
            paths.append(big_dmesg_bundle(where, "pi4-ax88179", args.lines, distinct))
        mine = digests(ROOT, paths, Path(tmp) / "cache-mine")
        again = digests(ROOT, paths, Path(tmp) / "cache-mine")  # the caches read back
        theirs = digests(args.other, paths, Path(tmp) / "cache-other")
    differ = [p for p in mine if mine[p] != theirs.get(p) or again.get(p) != theirs.get(p)]
    print(
        f"{len(paths)} bundles ({len(paths) - 2} in the trees, 2 big dmesg): "
        f"{len(paths) - len(differ)} byte-identical, {len(differ)} differ"
    )
    for path in differ[:20]:
        print(f"  differs: {path}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
