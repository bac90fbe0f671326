"""`sbctune` command line: one subcommand per step of the user's path.

Each command module offers ``register(subparsers)``; the parser's ``func`` receives the parsed
arguments and returns the exit code. Errors that carry a user-facing message (``UserError``)
are printed with their hint instead of a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import sbctune
import sbctune.cli
from sbctune.errors import UserError

# Every module named ``*_cmd`` in this package adds its subcommands (``register``), so a new
# command needs no edit here.
_COMMAND_SUFFIX = "_cmd"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sbctune",
        description="Measure and tune the network of a Raspberry Pi or other Linux SBC. "
        "Run with no arguments to open the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"sbctune {sbctune.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(sbctune.cli.__path__), key=lambda m: m.name):
        if info.name.endswith(_COMMAND_SUFFIX):
            importlib.import_module(f"sbctune.cli.{info.name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args))
    except UserError as exc:
        print(f"sbctune: {exc.message}", file=sys.stderr)
        if exc.hint:
            print(f"  hint: {exc.hint}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("sbctune: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
