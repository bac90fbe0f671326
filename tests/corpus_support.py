"""The public-paste corpus (tests/captures/corpus/) as the unseen-class tests read it: one
bundle's stored output, one line of it, and the inventory or dmesg events of outputs. One copy
of the helpers each test_unseen_classes*.py module had."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.model import Inventory
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.raw import RawOutputs

CORPUS = Path(__file__).resolve().parent / "captures" / "corpus"


def corpus_output(bundle: str, prefix: str = "") -> str:
    """The bundle's one stored command output whose file name starts with `prefix`."""
    (path,) = (CORPUS / bundle / "commands").glob(f"{prefix}*")
    return path.read_text(encoding="utf-8")


def corpus_output_named(bundle: str, part: str = "") -> str:
    """The last (by file name) of the bundle's stored outputs whose name holds `part` (any
    output where `part` is empty): a bundle that stored one command twice answers its last."""
    paths = sorted((CORPUS / bundle / "commands").glob(f"*{part}*.txt" if part else "*.txt"))
    return paths[-1].read_text(encoding="utf-8")


def corpus_line(bundle: str, needle: str, command: str = "000-dmesg.txt") -> str:
    """The first line of the bundle's stored `command` output that holds `needle`."""
    text = (CORPUS / bundle / "commands" / command).read_text(encoding="utf-8")
    return next(line for line in text.splitlines() if needle in line)


def inventory_of(commands: dict[str, str]) -> Inventory:
    """The inventory of these command outputs, as `sbctune inspect` makes it."""
    inv = inventory_from_raw(RawOutputs(commands=commands))
    assert isinstance(inv, Inventory)
    return inv


def dmesg_inventory(*lines: str, command: str = "dmesg") -> Inventory:
    """The inventory of these kernel lines, given as the output of `command`."""
    return inventory_of({command: "\n".join(lines) + "\n"})


def dmesg_events(text: str) -> list[tuple[str, dict[str, str]]]:
    """(kind, fields) of each kernel line the dmesg parser reads in `text`."""
    result, _warnings = parse_dmesg(text)
    return [(e.kind, e.fields) for e in result.events]


def findings_of(inv: Inventory, id_: str) -> list[str]:
    """The summaries of the inventory's findings with this id."""
    return [f.summary for f in inv.findings if f.id == id_]
