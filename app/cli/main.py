"""`sbctune` command line: one subcommand per step of the user's path.

Each command module offers ``register(subparsers)``; the parser's ``func`` receives the parsed
arguments and returns the exit code. Errors that carry a user-facing message (``UserError``)
are printed with their hint instead of a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys
import time
import traceback
from collections.abc import Sequence

import sbctune
import sbctune.cli
from sbctune.cli.console import make_console_safe
from sbctune.cli.dataclass_code import dataclass_code_kept
from sbctune.cli.dataclass_docs import dataclass_docs_later
from sbctune.cli.exit_gc import freeze_at_exit, imports_unwatched
from sbctune.cli.log_warnings import warnings_on_stderr
from sbctune.cli.regex_code import regex_code_kept
from sbctune.errors import UserError
from sbctune.paths import data_dir
from sbctune.textsafe import guard_terminal

# Every module named ``*_cmd`` in this package adds its subcommands (``register``), so a new
# command needs no edit here.
_COMMAND_SUFFIX = "_cmd"
# A command line that names its command imports only the module that registers it (issue 22:
# `sbctune inspect BUNDLE` does not load the SSH, tuning and measuring code of the others).
# `NAME_cmd` registers `NAME`, or a command is listed here; a module that turns out not to
# register the command named falls back to every module (as `--help` and a typo do).
_REGISTERED_BY = {"collect": "inspect_cmd"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of `command` alone when its module is known."""
    modules = [
        info.name
        for info in sorted(pkgutil.iter_modules(sbctune.cli.__path__), key=lambda m: m.name)
        if info.name.endswith(_COMMAND_SUFFIX)
    ]
    module = _REGISTERED_BY.get(command, f"{command}{_COMMAND_SUFFIX}") if command else None
    if module in modules:
        parser, sub = _empty_parser()
        importlib.import_module(f"sbctune.cli.{module}").register(sub)
        if command in sub.choices:
            return _described(parser)
    parser, sub = _empty_parser()
    for name in modules:
        importlib.import_module(f"sbctune.cli.{name}").register(sub)
    return _described(parser)


def _described(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Every command's `--help` opens with what it does: one registered with a one-line help
    and no description ("sbctune lab status --help" began at "usage:", walk 27) gets that line
    as its description."""
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        lines = {choice.dest: choice.help for choice in action._choices_actions}
        for name, sub in action.choices.items():
            line = lines.get(name)
            if not sub.description and isinstance(line, str) and line:
                sub.description = line[0].upper() + line[1:] + "."
            _described(sub)
    return parser


_HELP = (["--help"], ["-h"])


def help_parser() -> argparse.ArgumentParser | None:
    """The parser of `sbctune --help`, each command with its one-line help, from the list in
    resources/cli/commands.json: no command module imported (~0.5 s of imports). None when
    the list cannot be read (then every module registers itself, as before)."""
    import json

    from sbctune.resources import resource_root

    try:
        text = resource_root().joinpath("cli", "commands.json").read_text(encoding="utf-8")
        rows = [(str(r["command"]), str(r["help"])) for r in json.loads(text)["commands"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    parser, sub = _empty_parser()
    for command, help_text in rows:
        sub.add_parser(command, help=help_text)
    return parser


def _empty_parser() -> tuple[
    argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]
]:
    parser = argparse.ArgumentParser(
        prog="sbctune",
        description="Measure and tune the network of a Raspberry Pi or other Linux SBC. "
        "Run with no arguments to open the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"sbctune {sbctune.__version__}")
    return parser, parser.add_subparsers(dest="command", metavar="COMMAND")


def main(argv: Sequence[str] | None = None, own_process: bool = False) -> int:
    """The command line `argv` (default: the process's); `own_process`: called as the
    process's entry point (its imports' objects are then frozen, see exit_gc)."""
    freeze_at_exit()  # after every exit handler registered later (temporary folders ...)
    if own_process or argv is None:  # the process's own: a library caller keeps its handlers
        from sbctune.cli.stop_signals import stop_like_ctrl_c

        stop_like_ctrl_c()
    make_console_safe()  # before the guard wraps the streams (it reconfigures them)
    # Pi and bundle text reaches the terminal through many printers (tables, warnings, error
    # messages, progress): one guard on stdout and stderr makes its control characters visible.
    # dataclass_code_kept, regex_code_kept: the dataclasses' methods and the regexes' code from
    # the cache, not compiled at each start; dataclass_docs_later: their made-up docstrings
    # when first read, not at each start
    with (
        guard_terminal(),
        warnings_on_stderr(),
        dataclass_code_kept(own_process),
        dataclass_docs_later(own_process),
        regex_code_kept(own_process),
    ):
        return _main(argv, own_process)


def _main(argv: Sequence[str] | None, own_process: bool = False) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    summary = help_parser() if words in _HELP else None
    command = words[0] if words and not words[0].startswith("-") else None
    with imports_unwatched(own_process):
        parser = summary or build_parser(command)
    args = parser.parse_args(words)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args))
    except (UserError, _asyncio_timeout()) as exc:  # evaluated when something is raised
        # Imported here: the mapping pulls in the SSH layer, which `--help` never needs.
        from sbctune.cli.fit import fit, terminal_width
        from sbctune.workflow.problems import problem_from

        problem = problem_from(exc, "cli")
        # fit to a terminal: the wrong-password hint ran to 163 columns at 80 (walk 24)
        width = terminal_width(sys.stderr)
        print(fit(f"sbctune: {problem.message}", width), file=sys.stderr)
        if problem.hint:
            print(fit(f"  hint: {problem.hint}", width), file=sys.stderr)
        return exc.exit_code if isinstance(exc, UserError) else 1
    except KeyboardInterrupt:
        from sbctune.cli.stop_signals import RECEIVED

        if RECEIVED:  # SIGTERM or SIGHUP, handled as Ctrl-C (stop_like_ctrl_c)
            print(f"sbctune: stopped by {RECEIVED[0].name}", file=sys.stderr)
            return 128 + int(RECEIVED[0])
        print("sbctune: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `sbctune history | head`: the reader left; not an error
        with contextlib.suppress(OSError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except Exception as exc:  # the last line of defence: never a traceback
        if os.environ.get("SBCTUNE_DEBUG"):
            raise
        return _unexpected(exc)


class _NeverRaised(Exception):
    """Stands for asyncio's timeout before asyncio is imported (then none can be raised)."""


def _asyncio_timeout() -> type[BaseException]:
    """asyncio.TimeoutError, without importing asyncio for the offline commands (~50 ms of a
    bundle's `inspect`): since Python 3.11 it is the built-in TimeoutError; before, only a
    command that imported asyncio (the SSH and measuring ones) can raise it."""
    if sys.version_info >= (3, 11):
        return TimeoutError
    asyncio = sys.modules.get("asyncio")
    return asyncio.TimeoutError if asyncio is not None else _NeverRaised


def _unexpected(exc: Exception) -> int:
    """A bug: a short message for the user, the traceback in a file for the report."""
    saved = ""
    try:
        log = data_dir() / "crash.log"
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')} sbctune {sbctune.__version__}"
                     f" {' '.join(sys.argv[1:2])}\n")  # fmt: skip
            fh.write("".join(traceback.format_exception(exc)))
        saved = f" The details are in {log}."
    except OSError:
        pass
    print(f"sbctune: an unexpected error stopped the command: {type(exc).__name__}: {exc}",
          file=sys.stderr)  # fmt: skip
    print(f"  hint: This is a bug in sbctune, not something you did.{saved} Please report it "
          "with the command you ran (set SBCTUNE_DEBUG=1 to see the traceback here).",
          file=sys.stderr)  # fmt: skip
    return 70  # EX_SOFTWARE


if __name__ == "__main__":
    sys.exit(main())
