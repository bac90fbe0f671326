"""What the Connect form holds: kept apart from the connection controller (SSH and the core), so
the Connect page can be made before those are imported (issue 22)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

AuthMethod = Literal["key", "password"]


@dataclass(frozen=True)
class ConnectRequest:
    """What the Connect form holds (the password never leaves memory unless `remember`)."""

    host: str
    port: int = 22
    user: str = ""
    auth: AuthMethod = "password"
    key_file: str = ""
    password: str = field(default="", repr=False)  # never in a log line or an error's repr
    remember: bool = False
    connect_timeout: float = 10.0
