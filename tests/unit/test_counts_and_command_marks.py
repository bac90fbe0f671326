"""Plain words (issue 22): counts agree with their nouns ("1 tweak", not "1 tweaks" or
"1 tweak(s)"), and no literal backticks reach a person: the core marks commands with backticks,
and every path to a user turns them into quotation marks (sbctune.wording.spoken), including
the files sbctune leaves on the Pi (its scripts' and config blocks' comments) and the errors the
front ends print themselves."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.lab.errors import LabError, ProfileError
from sbctune.tuning import scripts
from sbctune.tuning.kinds import marker_begin, marker_end
from sbctune.tuning.model import Change
from sbctune.wording import counted, spoken
from sbctune.workflow.problems import problem_from

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = [ROOT / "app", ROOT / "ui"]
PAIRED_BACKTICKS = re.compile(r"`[^`\n]+`")
SESSION = "20261128T174000Z-0a1b2c"


@pytest.mark.parametrize(
    ("count", "word", "many", "said"),
    [
        (1, "tweak", None, "1 tweak"),
        (0, "tweak", None, "0 tweaks"),
        (2, "tweak", None, "2 tweaks"),
        (1, "Raspberry Pi", None, "1 Raspberry Pi"),
        (3, "Raspberry Pi", None, "3 Raspberry Pis"),
        (1, "reset/disconnect", "resets/disconnects", "1 reset/disconnect"),
        (4, "reset/disconnect", "resets/disconnects", "4 resets/disconnects"),
    ],
)
def test_a_count_agrees_with_its_noun(count: int, word: str, many: str | None, said: str) -> None:
    assert counted(count, word, many) == said


@given(st.integers(min_value=-(10**9), max_value=10**9), st.text(min_size=1, max_size=30))
def test_counted_takes_any_count_and_word(count: int, word: str) -> None:
    said = counted(count, word)
    assert said.startswith(f"{count:,} {word}")  # grouped by thousands: "55,666 segments"
    assert said.endswith("s") or count == 1


def _product_files() -> list[Path]:
    return sorted(p for top in PRODUCT for p in top.rglob("*.py") if "__pycache__" not in p.parts)


def _string_parts(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string constant in the code, docstrings and comments left out."""
    docstrings: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docstrings.add(id(body[0].value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


# What other programs print, quoted word for word: the lab's stand-ins for ethtool (every
# app/lab/fake_ethtool*.py) print ethtool 6.1's own "bad command line argument(s)" and
# `ethtool -x`'s "with 4 RX ring(s):".
QUOTED = set((ROOT / "app" / "lab").glob("fake_ethtool*.py"))
# "(s)" after a word, and a hand-made "'s' if n != 1 else ''": counted() says it right.
HAND_PLURAL = re.compile(r"[A-Za-z]\(s\)(?![A-Za-z])")


def test_no_hand_made_plurals_in_product_code() -> None:
    found = []
    for path in _product_files():
        text = path.read_text(encoding="utf-8")
        tree = ast.parse(text)
        for line, value in _string_parts(tree):
            if HAND_PLURAL.search(value) and "http(s)" not in value and path not in QUOTED:
                found.append(f"{path.relative_to(ROOT)}:{line}: {value!r}")
        for number, source in enumerate(text.splitlines(), 1):
            code = source.split("#", 1)[0]
            if re.search(r"""['"]s['"] if [^:]*[!=]= 1 else ['"]{2}""", code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {source.strip()}")
    assert not found, "use sbctune.wording.counted:\n" + "\n".join(found)


def _changes() -> list[Change]:
    return [
        Change("sysctl", "net.core.rmem_max", "212992", "4194304", "/proc/sys/net/core/rmem_max"),
        Change("file", "/boot/firmware/tryboot.txt", None, "[all]\narm_freq=2000\n",
               "/boot/firmware/tryboot.txt"),
    ]  # fmt: skip


def test_the_files_left_on_the_pi_carry_no_backticks() -> None:
    """What a user finds on the Pi (the session's scripts, the unit, the udev rule, the sysctl
    file, the block in config.txt) says commands in quotation marks."""
    changes = _changes()
    files = {
        "revert.sh": scripts.revert_script(SESSION, changes),
        "guard.sh": scripts.guard_script(SESSION, 120),
        "at-boot.sh": scripts.apply_at_boot_script(SESSION, changes),
        "sysctl.conf": scripts.sysctl_conf(SESSION, changes),
        "unit": scripts.unit_file(SESSION),
        "udev rule": scripts.udev_rule(SESSION, "eth1"),
        "config.txt block": f"{marker_begin('boot-arm-freq')}\n{marker_end('boot-arm-freq')}",
    }
    for name, text in files.items():
        comments = [line for line in text.splitlines() if line.lstrip().startswith("#")]
        assert comments, name  # the check reads something
        marked = [line for line in comments if PAIRED_BACKTICKS.search(line)]
        assert not marked, f"{name}: {marked}"
    assert "“sbctune tune revert”" in files["revert.sh"]


@pytest.mark.parametrize("error", [LabError, ProfileError])
def test_the_labs_errors_reach_the_user_in_quotation_marks(error: type[LabError]) -> None:
    exc = error("The lab is still up: take it down with `sbctune lab down`.",
                "Or run `sbctune lab status` to see it.")  # fmt: skip
    problem = problem_from(exc, "cli")
    assert "`" not in problem.message + problem.hint
    assert "“sbctune lab down”" in problem.message


def _inside(node: ast.AST, parents: dict[int, ast.AST], names: set[str]) -> bool:
    while id(node) in parents:
        node = parents[id(node)]
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in names:
                return True
    return False


def test_front_ends_print_error_texts_through_spoken() -> None:
    """An error's message or hint that a front end shows itself (not through problem_from,
    which says it already) goes through spoken(); one raised again as a UserError reaches the
    user through the CLI's problem_from."""
    found = []
    for path in _product_files():
        rel = path.relative_to(ROOT).as_posix()
        if not (rel.startswith("app/cli/") or rel.startswith("ui/")):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        parents = {
            id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("message", "hint")
                and isinstance(node.value, ast.Name)
                and node.value.id in ("exc", "error", "err", "e")
                and not _inside(node, parents, {"spoken", "UserError", "Problem"})
            ):
                found.append(f"{rel}:{node.lineno}")
    assert not found, "shown without spoken(): " + ", ".join(found)


def test_spoken_leaves_text_without_marks_alone() -> None:
    assert spoken("no marks here; a lone ` stays") == "no marks here; a lone ` stays"
