"""What Inspect could not read, named by what it tells (found walking the app: the page listed
bare command lines, "Could not read: “ethtool -g eth0”: …")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.parsers.common import ParseWarning
from sbctune.inventory.warning_words import warning_words


def test_an_ethtool_output_is_named_by_what_it_tells() -> None:
    warning = str(ParseWarning("ethtool -g eth0", "the driver does not offer this (netlink "
                               "error: Operation not supported)"))  # fmt: skip
    assert warning_words(warning) == (
        "eth0's ring buffer sizes (ethtool -g eth0): the driver does not offer this (netlink "
        "error: Operation not supported)"
    )
    assert warning_words(str(ParseWarning("ethtool end0", "no link"))).startswith(
        "end0's link settings (ethtool end0)"
    )


def test_anything_else_is_left_as_it_is() -> None:
    for text in ("“lsusb -v”: a line could not be read", "“ethtool -X eth0”: odd", "plain"):
        assert warning_words(text) == text


@given(st.text(max_size=200))
def test_any_text_gives_text(text: str) -> None:
    assert isinstance(warning_words(text), str)
