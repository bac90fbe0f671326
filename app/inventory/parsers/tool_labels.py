"""The English word of a tool's translated word, from the tools' own catalogs.

resources/catalog/tool_labels.json (scripts/regen_tool_labels.py, from the .mo files of
Debian's net-tools, network-manager and lshw packages) maps each translation of a word the
parsers read back to its msgid: ifconfig's flags (net-tools lib/interface.c ife_print_long()
prints each through ``_("RUNNING ")``), nmcli's device states (nmc_device_state_to_string():
``verbunden``, ``nicht verfügbar``, ``connecté``) and lshw's labels (src/core/print.cc:
``information bus``, ``NON-RÉCLAMÉ``). Pasted text is only looked up in these tables (bounded
length, a dict key), never made a pattern."""

from __future__ import annotations

import functools
import json

# the longest translation in the table is a few words; a longer cell is not one of them
_MAX_WORDS = 8
_MAX_CHARS = 160


_NAMES = ("ifconfig_flags", "nmcli_states", "lshw_labels", "netstat_i_headers")


@functools.cache
def _doc() -> dict[str, tuple[dict[str, str], frozenset[str]]]:
    """Each table: (translation casefolded -> English msgid, the English msgids)."""
    from sbctune.resources import resource_root

    try:
        path = resource_root().joinpath("catalog", "tool_labels.json")
        doc = json.loads(path.read_text(encoding="utf-8"))
        return {
            name: (
                {str(k).casefold(): str(v) for k, v in doc[name]["words"].items()},
                frozenset(str(e) for e in doc[name]["english"]),
            )
            for name in _NAMES
        }
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {name: ({}, frozenset()) for name in _NAMES}


def _tables() -> dict[str, dict[str, str]]:
    return {name: table[0] for name, table in _doc().items()}


def _english(table: str, text: str) -> str | None:
    if len(text) > _MAX_CHARS:
        return None
    return _tables()[table].get(" ".join(text.split()).casefold())


def ifconfig_flag(word: str) -> str | None:
    """ifconfig's flag in English: the word itself when it is one of net-tools' flags, its
    msgid when a catalog translates it so, else None (a word no catalog has: Ubuntu's Spanish
    "FUNCIONANDO" is RUNNING, but no Debian package ships that catalog)."""
    if word in _doc()["ifconfig_flags"][1]:
        return word
    return _english("ifconfig_flags", word)


def ifconfig_flags(words: list[str]) -> list[str] | None:
    """A flags line's words in English; None when one is no flag a catalog names: the unread
    one may be RUNNING, so the others alone would say "no carrier"."""
    english = [ifconfig_flag(w) for w in words]
    return [f for f in english if f] if english and all(english) else None


def nmcli_state(cell: str) -> str | None:
    """nmcli's device state in English, read from the start of a row's rest: the longest run
    of leading words that is a state (English or a catalog's translation), whatever follows
    (the CONNECTION column, a Markdown pipe); None when no leading words are one."""
    words = cell.split()[:_MAX_WORDS]
    for n in range(len(words), 0, -1):
        head = " ".join(words[:n])
        english = head.lower() if head.isascii() else None
        if english and _is_english_state(english):
            return english
        if found := _english("nmcli_states", head):
            return found
    return None


def _is_english_state(text: str) -> bool:
    return text in _ENGLISH_STATES or (
        text.startswith("connecting (") and text.endswith(")") and len(text) < 60
    )


# nmc_device_state_to_string()'s English words without a parenthesis
_ENGLISH_STATES = frozenset(
    {"unknown", "unmanaged", "unavailable", "disconnected", "connected", "deactivating",
     "connected (externally)", "connection failed", "failed"}
)  # fmt: skip


def lshw_label(label: str) -> str | None:
    """lshw's English label of a translated one (``nom logique`` -> ``logical name``)."""
    return _english("lshw_labels", label.strip().rstrip(":"))


def netstat_i_header(line: str) -> list[str] | None:
    """The English words of ``ifconfig -s`` / ``netstat -i``'s header in another language
    (net-tools' cs, et, ja, pt_BR catalogs translate it column by column: "Rozhr MTU Met PŘ-OK
    ..."), or None when the line is no catalog's header."""
    if "MTU" not in line:  # every catalog keeps the MTU column's word
        return None
    english = _english("netstat_i_headers", line)
    return english.split() if english else None
