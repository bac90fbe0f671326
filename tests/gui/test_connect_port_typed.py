"""A port typed in the host field wins over the Port field, `:22` included (walk19: with
"198.18.4.2:22" typed and 2222 left in Port, the app connected to 2222 and said no SSH server
listens there: a typed 22 could not be told from no port typed)."""

from __future__ import annotations

import pytest

from sbctune.ui.controllers.connect_request import ConnectRequest
from sbctune.ui.controllers.connection import target_from


@pytest.mark.parametrize(
    ("host", "port_field", "expected"),
    [
        ("198.18.4.2:22", 2222, 22),  # the typed 22 wins
        ("198.18.4.2:2200", 22, 2200),
        ("198.18.4.2", 2222, 2222),  # none typed: the Port field
        ("[fe80::1]:22", 2222, 22),
        ("fe80::1", 2222, 2222),
        ("pi@198.18.4.2", 22, 22),
    ],
)
def test_the_port_typed_with_the_host_wins(host: str, port_field: int, expected: int) -> None:
    target = target_from(ConnectRequest(host=host, port=port_field, user="pi", password="x"))
    assert target.port == expected
