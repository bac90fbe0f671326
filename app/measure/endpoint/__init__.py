"""The built-in iperf3-compatible endpoint: an iperf3 server inside sbctune.

An unmodified ``iperf3 -c`` (3.9 and later) runs its tests against it and prints both sides'
results, exactly as against ``iperf3 -s``: normal, ``-R`` (the endpoint sends), ``--bidir``,
``-P 1..128``, ``-t``, ``-n``/``-k``, ``-O``, ``-b`` (the client paces; in ``-R`` the endpoint
paces each stream), ``-l``, ``-w``, ``-N``, ``-C``, ``-S``, ``--fq-rate``, ``-J`` and
``--get-server-output``. A second client during a test is told the server is busy; a client
that vanishes mid-test leaves the endpoint ready for the next one.

Not supported:

* **UDP** (``-u``) and SCTP: the client is answered with iperf3's own ``SERVER_ERROR`` codes
  and prints "an option you are trying to set is not implemented yet" (UDP) or "no SCTP
  support available" (SCTP). Use the system ``iperf3 -s`` for UDP tests.
* ``-M`` (MSS) is not applied (the C server sets it on its listening socket), RSA
  authentication (``--username``) is not checked, ``-Z`` sends with ``send()``, not
  ``sendfile()``, and the endpoint reports no UDP jitter/loss (there is no UDP).

The data moves on one dedicated thread per test (``streams.py``); the control protocol runs on
the caller's asyncio event loop. Nothing here imports Qt.
"""

from .errors import (
    EndpointError,
    EndpointStopped,
    PortInUseError,
)
from .protocol import TestParams
from .results import (
    DirectionSum,
    IntervalSample,
    StreamResult,
    TestResult,
    format_summary,
)
from .server import DEFAULT_PORT, IperfEndpoint
from .session import TestStart
from .streams import Direction

__all__ = [
    "DEFAULT_PORT",
    "Direction",
    "DirectionSum",
    "EndpointError",
    "EndpointStopped",
    "IntervalSample",
    "IperfEndpoint",
    "PortInUseError",
    "StreamResult",
    "TestParams",
    "TestResult",
    "TestStart",
    "format_summary",
]
