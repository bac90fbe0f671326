"""What Inspect could not read, named by what it tells (found walking the app: the page listed
bare command lines, "Could not read: “ethtool -g eth0”: …")."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.inventory.parsers.common import ParseWarning
from sbctune.inventory.warning_words import not_offered_line, warning_words


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


def test_a_file_of_the_pi_is_named_with_what_its_absence_means() -> None:
    """Walk 14: Inspect said `Could not read "/proc/cpuinfo": the output is empty`, with no word
    of what that file tells or whether to act (the lab's Pi has it empty)."""
    warning = str(ParseWarning("/proc/cpuinfo", "the output is empty"))
    assert warning_words(warning) == (
        "the processor's description (/proc/cpuinfo): the Pi gave nothing. So the board's model "
        "and processor show as unknown; measuring and tuning do not need them."
    )
    odd = str(ParseWarning("/proc/interrupts", "3 lines could not be read"))
    assert warning_words(odd).startswith("the interrupt counts (/proc/interrupts): 3 lines")


def test_anything_else_is_left_as_it_is() -> None:
    for text in ("“lsusb -v”: a line could not be read", "“ethtool -X eth0”: odd", "plain",
                 "“/proc/net/dev”: the output is empty"):  # fmt: skip
        assert warning_words(text) == text


@given(st.text(max_size=200))
def test_any_text_gives_text(text: str) -> None:
    assert isinstance(warning_words(text), str)


def test_what_drivers_do_not_offer_is_one_plain_sentence() -> None:
    """The s10 walk met five "Could not read ... (netlink error: Operation not supported)"
    lines under "Other findings": what a driver does not offer is said once, per NIC."""

    def unoffered(source: str) -> str:
        return str(ParseWarning(source, "the driver does not offer this (netlink error: "
                                        "Operation not supported)"))  # fmt: skip

    other = str(ParseWarning("ethtool -S eth1", "a line could not be read"))
    warnings = [unoffered("ethtool -g eth0"), unoffered("ethtool -l eth0"), other,
                unoffered("ethtool -g eth1"), unoffered("ethtool -l eth1"),
                unoffered("ethtool -c eth1")]  # fmt: skip
    line, rest = not_offered_line(warnings)
    assert line == (
        "Not offered by the driver, so not shown: eth0's ring buffer sizes and queue count "
        "limits; eth1's ring buffer sizes, queue count limits and interrupt coalescing."
    )
    assert rest == [other]
    assert not_offered_line([other]) == ("", [other])


@given(st.lists(st.text(max_size=80), max_size=5))
def test_any_warnings_give_a_line_and_the_rest(warnings: list[str]) -> None:
    line, rest = not_offered_line(warnings)
    assert isinstance(line, str) and all(w in warnings for w in rest)
