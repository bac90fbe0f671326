"""A line without a "/" is not matched against the %pOF format table: what %pOF prints, a
device-tree node's full path, starts with one (issue 24: on a long log, each distinct line on
an interface whose device it does not name cost a table match that could find nothing)."""

from __future__ import annotations

import pytest

from sbctune.catalog import of_node_formats
from tests.captured_dmesg import captured_logs
from tests.table_matches import counted_matches


def _reference(text: str) -> str | None:
    """of_node_named() as it was: every line matched against the table."""
    message = of_node_formats._table().match(text)
    if message is None:
        return None
    found = of_node_formats._node_regex(message.format).search(text[:400])
    node = found.group("node") if found and "node" in found.re.groupindex else None
    if node is None or len(node) > 256 or of_node_formats._NODE_RE.fullmatch(node) is None:
        return None
    return node


def test_a_line_without_a_path_is_not_matched(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = counted_matches(monkeypatch, of_node_formats._table())
    lines = [f"eth0: EMAC-{n} registered, MAC 00:01:73:01:23:41" for n in range(30)]
    assert [of_node_formats.of_node_named(line) for line in lines] == [None] * 30
    assert asked == []  # 30 matches before
    line = "eth0: EMAC-0 /plb/opb/ethernet@ef600c00, MAC 00:01:73:01:23:41"  # emac_probe()
    assert of_node_formats.of_node_named(line) == "/plb/opb/ethernet@ef600c00"
    assert asked == [line]


def test_the_same_node_as_matching_every_line() -> None:
    """Every line of the captured logs, and each of the table's formats filled in."""
    texts: list[str] = []
    for _name, parsed in captured_logs(400):
        texts += [e.text for e in parsed.events]
    for rows in of_node_formats._table()._by_word.values():
        for row in rows:
            fmt = row.split("\t", 3)[-1]
            texts.append("eth0: " + fmt.replace("%pOF", "/soc/ethernet@1c30000").replace("%s", "x"))
    assert len(texts) > 1000
    for text in texts:
        assert of_node_formats.of_node_named(text) == _reference(text), text


def test_a_line_of_a_node_name_format_names_no_node() -> None:
    """%pOFn prints the node's name, not its path (lib/vsprintf.c device_node_string()):
    netcp_ethss.c's format, filled as it prints, matched the table and raised IndexError (no
    "node" group in its regex)."""
    line = "eth0: Failed to initialize secondary port(/soc/netcp/port@1), skipping..."
    assert of_node_formats.of_node_named(line) is None
