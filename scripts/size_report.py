"""Prints the largest modules and functions of sbctune and their cyclomatic complexity.

`python scripts/size_report.py [--top N]`. A report to watch the trend (scripts/test.sh prints
it); it never fails. The bar it is read against (README, "Layers and code size"): no module
over 500 lines outside generated data, no function over 80 lines or above complexity 25
outside the parsers.

Complexity is radon's (a well-kept implementation of McCabe's measure that also counts each
extra operand of `and`/`or` and each comprehension's `if`, which ruff's C901 does not); lines
are a function's span in the source, docstring and comments included, from `ast`.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parent.parent
# Folders of the shipped code and the import names they map to (setup.py).
SOURCES = {"app": "sbctune", "ui": "sbctune.ui"}
MODULE_LINES = 500
FUNCTION_LINES = 80
COMPLEXITY = 25


@dataclass(frozen=True)
class Func:
    path: str
    name: str
    line: int
    lines: int
    complexity: int

    @property
    def is_parser(self) -> bool:
        # The bar exempts parsers: their branches follow the formats they read.
        return "/parsers/" in self.path

    @property
    def over(self) -> bool:
        return not self.is_parser and (self.lines > FUNCTION_LINES or self.complexity > COMPLEXITY)


def source_files(root: Path = ROOT) -> Iterator[Path]:
    for folder in SOURCES:
        for path in sorted((root / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                yield path


def _spans(tree: ast.AST) -> dict[tuple[str, int], int]:
    """Line count of every function, keyed by (name, first line)."""
    spans: dict[tuple[str, int], int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans[(node.name, node.lineno)] = (node.end_lineno or node.lineno) - first + 1
    return spans


def _blocks(blocks: list[Function | Class]) -> Iterator[Function]:
    # radon lists methods both in their class and on their own: take the functions only.
    for block in blocks:
        if isinstance(block, Function):
            yield block
            yield from _blocks(list(block.closures))


def functions(path: Path, text: str) -> Iterator[Func]:
    rel = path.relative_to(ROOT).as_posix()
    spans = _spans(ast.parse(text))
    for block in _blocks(cc_visit(text)):
        name = f"{block.classname}.{block.name}" if block.classname else block.name
        lines = spans.get((block.name, block.lineno), block.endline - block.lineno + 1)
        yield Func(rel, name, block.lineno, lines, block.complexity)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=15, help="rows per table (default 15)")
    args = parser.parse_args(argv)

    modules: list[tuple[int, str]] = []
    funcs: list[Func] = []
    for path in source_files():
        text = path.read_text(encoding="utf-8")
        modules.append((len(text.splitlines()), path.relative_to(ROOT).as_posix()))
        try:
            funcs.extend(functions(path, text))
        except SyntaxError as exc:  # a report: say it and go on
            print(f"  (cannot parse {path.relative_to(ROOT)}: {exc})")

    modules.sort(reverse=True)
    print(f"== size report: {len(modules)} modules, {len(funcs)} functions")
    print(f"-- largest modules (bar: {MODULE_LINES} lines)")
    for lines, rel in modules[: args.top]:
        print(f"  {lines:5d}  {rel}{'  OVER' if lines > MODULE_LINES else ''}")
    print(f"-- longest functions (bar: {FUNCTION_LINES} lines; parsers exempt)")
    for f in sorted(funcs, key=lambda f: (-f.lines, f.path))[: args.top]:
        print(f"  {f.lines:5d}  {f.path}:{f.line} {f.name}{'  OVER' if f.over else ''}")
    print(f"-- most complex functions (bar: {COMPLEXITY}; parsers exempt)")
    for f in sorted(funcs, key=lambda f: (-f.complexity, f.path))[: args.top]:
        tag = "  (parser)" if f.is_parser else "  OVER" if f.over else ""
        print(f"  {f.complexity:5d}  {f.path}:{f.line} {f.name}{tag}")
    over_400 = sum(1 for lines, _ in modules if lines > 400)
    over_500 = sum(1 for lines, _ in modules if lines > MODULE_LINES)
    long_f = sum(1 for f in funcs if f.lines > FUNCTION_LINES and not f.is_parser)
    complex_f = sum(1 for f in funcs if f.complexity > COMPLEXITY and not f.is_parser)
    print(
        f"-- totals: {over_500} modules over {MODULE_LINES} lines ({over_400} over 400); "
        f"outside parsers {long_f} functions over {FUNCTION_LINES} lines, "
        f"{complex_f} over complexity {COMPLEXITY}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
