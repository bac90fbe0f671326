"""`ethtool --json IFACE` (app/inventory/parsers/ethtool_json.py): read as the settings
`ethtool IFACE` prints, also quoted in a reply and re-wrapped inside a JSON string."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.dispatch import parse_command, resolve_command
from sbctune.inventory.parsers.ethtool import EthtoolSettings
from sbctune.inventory.parsers.ethtool_json import parse_settings_json

from .conftest import read_capture

_QUOTED = "ethtool/x86_lunn_kselftest_2024_ethtool_json_quoted_rewrapped_link_down.txt"


def test_ethtool_json_quoted_and_rewrapped_inside_a_string() -> None:
    """linux-kselftest 2024: `> > ethtool --json enp2s0`, sudo's prompt, then the array with
    `"1000baseT/` / `Full" ],` broken by a mail client: the settings are read."""
    parsed = parse_command("ethtool --json enp2s0", read_capture(_QUOTED))
    result = parsed.result
    assert isinstance(result, EthtoolSettings) and not parsed.warnings
    assert (result.interface, result.link_detected, result.autoneg, result.port) == (
        "enp2s0",
        False,
        False,
        "Twisted Pair",
    )
    assert result.max_supported_mbps == 1000
    assert result.supported_link_modes[-1] == "1000baseT/Full"


def test_only_the_settings_are_read_as_json() -> None:
    assert resolve_command("ethtool -j eth0") == ("ethtool", "eth0")
    assert resolve_command("ethtool --json -i eth0") == (None, None)  # another JSON document


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from('[]{}":,\n ifnamespeduxtrl0123456789-'), max_size=300))
def test_garbage_never_raises(text: str) -> None:
    found = parse_settings_json(text)
    assert found is None or isinstance(found, EthtoolSettings)
    parse_command("ethtool --json eth0", '"ifname"\n' + text)
