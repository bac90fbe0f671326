"""Every `--help` of the command line reads in plain words (tests/plain_words.py): no
backticks, seed numbers, raw statuses or `[user@]host[:port]` grammar in sentences. Tweak ids
appear only where the user types them: in the help of `--tweak`, the option that takes them,
and after "--tweak" elsewhere. Core messages mark commands with backticks; what the user is
shown has quotation marks instead (sbctune.wording.spoken, applied by problem_from)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

from hypothesis import given
from hypothesis import strategies as st

from sbctune.cli.main import build_parser
from sbctune.errors import UserError
from sbctune.wording import spoken
from sbctune.workflow.problems import problem_from
from tests.plain_words import jargon

TAKES_TWEAK_IDS = {"tweak"}  # the dest of the options whose values are tweak ids


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def _without_tweak_lists(parser: argparse.ArgumentParser) -> str:
    """The parser's help as printed, but the help of `--tweak` (which lists the ids a user
    types) replaced by a placeholder."""
    saved = [(a, a.help) for a in parser._actions if a.dest in TAKES_TWEAK_IDS]
    try:
        for action, _help in saved:
            action.help = "(the tweak names)"
        return parser.format_help()
    finally:
        for action, help_text in saved:
            action.help = help_text


def test_every_help_speaks_plainly() -> None:
    found = {}
    parsers = list(_parsers(build_parser()))
    assert len(parsers) > 20, "every command and sub-command is walked"
    for parser in parsers:
        if hits := jargon(_without_tweak_lists(parser)):
            found[parser.prog] = hits
    assert not found, "\n".join(f"{k}: {h}" for k, hs in found.items() for h in hs)


def test_the_tweak_option_names_what_to_type() -> None:
    tune = next(p for p in _parsers(build_parser()) if p.prog.endswith("tune plan"))
    text = tune.format_help()
    assert "NAME is one of: rps-rfs, xps," in text
    assert "cpu-governor-performance" in text, "a name is never broken at its hyphens"
    assert "--show-commands" in text and "with the exact commands" not in text


def test_commands_in_messages_are_in_quotation_marks() -> None:
    exc = UserError("The history is empty.", "Run `sbctune history` or `sbctune measure HOST`.")
    problem = problem_from(exc, "cli")
    assert problem.hint == "Run “sbctune history” or “sbctune measure HOST”."
    assert not jargon(problem.message + problem.hint)
    assert spoken("a line from the Pi: echo `date") == "a line from the Pi: echo `date"
    assert jargon("Give the Pi as [user@]host[:port]") and not jargon("pick it: --tweak rps-rfs")


@given(st.text(alphabet=st.characters(blacklist_characters="“”"), max_size=200))
def test_spoken_never_fails_and_leaves_no_pair(text: str) -> None:
    out = spoken(text)
    assert not re.search(r"`[^`\n]+`", out), "a marked command on one line is always replaced"
    assert out.replace("“", "`").replace("”", "`") == text  # only the marks change
