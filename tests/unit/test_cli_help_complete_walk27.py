"""Walk 27, read as a new user at 80 columns: `sbctune inspect --help` listed its one argument,
"[USER@]HOST[:PORT]|BUNDLE", with nothing beside it; `advise`'s and `collect`'s likewise;
`demo --plan` had no words; `collect --help` and every `lab up/down/list/status/profiles
--help` began at "usage:" with no line saying what the command does. Every command's help
now says what it does, and every argument and option says what it takes."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from sbctune.cli.main import build_parser


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_command_says_what_it_does() -> None:
    parsers = list(_parsers(build_parser()))
    assert len(parsers) > 20
    missing = [p.prog for p in parsers if not (p.description or "").strip()]
    assert not missing, missing


def test_every_argument_and_option_has_words() -> None:
    missing = [
        f"{p.prog} {'/'.join(a.option_strings) or a.metavar or a.dest}"
        for p in _parsers(build_parser())
        for a in p._actions
        if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)
        and a.help != argparse.SUPPRESS
        and not (a.help or "").strip()
    ]
    assert not missing, missing


def test_a_command_built_alone_is_described_too() -> None:
    parser = build_parser("lab")
    lab = next(p for p in _parsers(parser) if p.prog.endswith("lab status"))
    assert lab.description == "Show a lab's health and login."
    assert "Show a lab's health and login." in lab.format_help()
