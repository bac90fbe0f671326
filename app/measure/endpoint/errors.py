"""Errors of the built-in endpoint."""

from __future__ import annotations

import errno

from ...errors import UserError


class EndpointError(UserError):
    """The endpoint could not start listening."""


class PortInUseError(EndpointError):
    """Another program already listens on the port."""

    def __init__(self, host: str, port: int) -> None:
        super().__init__(
            f"port {port} on {host} is already in use",
            "stop the program that uses it (often another `iperf3 -s` or `sbctune serve`), "
            "or choose another port (--port N, or port 0 for any free port)",
        )
        self.host = host
        self.port = port


class EndpointStopped(Exception):
    """The endpoint stopped while a caller waited for a test."""


def bind_error(exc: OSError, host: str, port: int) -> EndpointError:
    """A user-facing error for a failed ``bind()``."""
    if exc.errno == errno.EADDRINUSE:
        return PortInUseError(host, port)
    if exc.errno in (errno.EACCES, errno.EPERM):
        return EndpointError(
            f"not allowed to listen on port {port}",
            "ports below 1024 need administrator rights; use a port above 1024 (iperf3 uses 5201)",
        )
    if exc.errno == errno.EADDRNOTAVAIL:
        return EndpointError(
            f"{host} is not an address of this computer",
            "pick one of this computer's addresses with --bind, or 0.0.0.0 for all of them",
        )
    return EndpointError(
        f"cannot listen on {host} port {port}: {exc.strerror or exc}",
        "check the address and port",
    )
