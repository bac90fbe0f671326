"""Mutation testing of the safety modules with cosmic-ray (README: "Mutation testing").

    .venv/bin/python scripts/mutation.py                  # all four modules, every mutant
    .venv/bin/python scripts/mutation.py textsafe limits  # some of them
    .venv/bin/python scripts/mutation.py --sample 40      # 40 mutants per module (seeded)

Each module is mutated with its own unit tests as the judge (MODULES below). The mutants are
made in a copy of the checkout, so the working tree is never left mutated (an interrupted run
leaves only a temporary folder). Not part of CI: every mutant is one pytest run (2-3 s here);
the unit tests it uses are. Prints each module's killed share and every survivor's diff.
"""

from __future__ import annotations

import argparse
import ast
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# module -> (its file, the unit tests that judge its mutants)
MODULES: dict[str, tuple[str, list[str]]] = {
    "textsafe": ("app/textsafe.py", ["tests/unit/safety/test_textsafe.py"]),
    "limits": ("app/limits.py", ["tests/unit/safety/test_limits.py"]),
    "safefiles": ("app/safefiles.py", ["tests/unit/safety/test_safefiles.py"]),
    "bundle": (
        "app/inventory/bundle.py",
        ["tests/unit/safety/test_bundle_reader.py", "tests/unit/test_bundle.py"],
    ),
}
CONFIG = """[cosmic-ray]
module-path = "{module}"
timeout = 60.0
excluded-modules = []
test-command = "{python} -m pytest -x -q -p no:cacheprovider {tests}"

[cosmic-ray.distributor]
name = "local"
"""


def copy_checkout(work: Path) -> None:
    """The package, its data and tests, importable as ``sbctune`` from ``work`` first."""
    for name in ("app", "resources", "tests"):
        shutil.copytree(ROOT / name, work / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md"):  # tests check the documented limits
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, work / name)
    (work / "sbctune").symlink_to("app")


def annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where the annotations are: with ``from __future__ import annotations`` they are never
    evaluated, so a mutant inside one (``int | str`` -> ``int - str``) is equivalent."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        found: list[ast.expr | None] = []
        if isinstance(node, ast.arg | ast.AnnAssign):
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        for ann in found:
            if ann is not None and ann.end_lineno is not None and ann.end_col_offset is not None:
                spans.append(((ann.lineno, ann.col_offset), (ann.end_lineno, ann.end_col_offset)))
    return spans


def drop_annotation_mutants(session: Path, source: Path) -> int:
    spans = annotation_spans(source.read_text(encoding="utf-8"))
    with sqlite3.connect(session) as db:
        rows = db.execute("SELECT job_id, start_pos_row, start_pos_col FROM mutation_specs")
        dropped = [
            (job,) for job, row, col in rows.fetchall()
            if any(start <= (row, col) < end for start, end in spans)
        ]  # fmt: skip
        db.executemany("DELETE FROM mutation_specs WHERE job_id = ?", dropped)
        db.executemany("DELETE FROM work_items WHERE job_id = ?", dropped)
    return len(dropped)


def keep_sample(session: Path, size: int, seed: int) -> None:
    """Drop all but ``size`` mutants, chosen with a fixed seed (the same sample each run)."""
    with sqlite3.connect(session) as db:
        # In source order (job ids are random): the same seed picks the same mutants.
        jobs = [row[0] for row in db.execute(
            "SELECT job_id FROM mutation_specs ORDER BY start_pos_row, start_pos_col,"
            " operator_name, occurrence, operator_args"
        )]  # fmt: skip
        if len(jobs) <= size:
            return
        chosen = set(random.Random(seed).sample(jobs, size))  # noqa: S311 - a sample, not a secret
        dropped = [(job,) for job in jobs if job not in chosen]
        db.executemany("DELETE FROM mutation_specs WHERE job_id = ?", dropped)
        db.executemany("DELETE FROM work_items WHERE job_id = ?", dropped)


def run_module(name: str, work: Path, sample: int | None, seed: int) -> tuple[int, int]:
    module, tests = MODULES[name]
    config, session = work / f"{name}.toml", work / f"{name}.sqlite"
    config.write_text(
        CONFIG.format(module=module, python=sys.executable, tests=" ".join(tests)),
        encoding="utf-8",
    )
    env = dict(os.environ, PYTHONPATH=str(work), PYTHONDONTWRITEBYTECODE="1")
    cosmic = [sys.executable, "-m", "cosmic_ray.cli"]
    # The unmutated module must pass its tests, or every mutant would count as killed.
    baseline = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    subprocess.run(baseline, cwd=work, env=env, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([*cosmic, "init", str(config), str(session)], cwd=work, env=env, check=True)
    skipped = drop_annotation_mutants(session, work / module)
    print(f"{name}: {skipped} mutants inside annotations skipped (never evaluated)")
    if sample:
        keep_sample(session, sample, seed)
    subprocess.run([*cosmic, "exec", str(config), str(session)], cwd=work, env=env, check=True)
    return report(name, session)


def report(name: str, session: Path) -> tuple[int, int]:
    with sqlite3.connect(session) as db:
        rows = db.execute(
            "SELECT r.test_outcome, r.diff, s.operator_name, s.start_pos_row FROM work_results r"
            " JOIN mutation_specs s ON s.job_id = r.job_id ORDER BY s.start_pos_row"
        ).fetchall()
    # cosmic-ray's outcomes: KILLED, SURVIVED, INCOMPETENT (a mutant that cannot even run)
    killed = sum(1 for outcome, *_ in rows if str(outcome).lower() != "survived")
    print(f"\n== {name}: {killed} of {len(rows)} mutants killed"
          f" ({100 * killed / max(len(rows), 1):.1f} %)")  # fmt: skip
    for outcome, diff, operator, line in rows:
        if str(outcome).lower() == "survived":
            print(f"-- survived: line {line}, {operator}")
            print("\n".join(d for d in diff.splitlines() if d[:1] in "+-" and d[:3] not in
                            ("+++", "---")))  # fmt: skip
    return killed, len(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help=f"some of: {', '.join(MODULES)}")
    parser.add_argument("--sample", type=int, help="mutants per module (default: all)")
    parser.add_argument("--seed", type=int, default=26)
    args = parser.parse_args()
    unknown = set(args.modules) - set(MODULES)
    if unknown:
        parser.error(
            f"unknown module {', '.join(sorted(unknown))}; choose from {', '.join(MODULES)}"
        )
    totals = []
    with tempfile.TemporaryDirectory(prefix="sbctune-mutation-") as folder:
        work = Path(folder)
        copy_checkout(work)
        for name in args.modules or list(MODULES):
            totals.append(run_module(name, work, args.sample, args.seed))
    killed, total = map(sum, zip(*totals, strict=True))
    print(f"\n== all: {killed} of {total} killed ({100 * killed / max(total, 1):.1f} %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
