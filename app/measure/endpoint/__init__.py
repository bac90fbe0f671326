"""The built-in iperf3-compatible endpoint: an iperf3 server inside sbctune.

An unmodified ``iperf3 -c`` (3.9 and later) runs its tests against it and prints both sides'
results, exactly as against ``iperf3 -s``: normal, ``-R`` (the endpoint sends), ``--bidir``,
``-P 1..128``, ``-t``, ``-n``/``-k``, ``-O``, ``-b`` (the client paces; in ``-R`` the endpoint
paces each stream), ``-l``, ``-w``, ``-N``, ``-C``, ``-S``, ``--fq-rate``, ``-J`` and
``--get-server-output``. A second client during a test is told the server is busy; a client
that vanishes mid-test leaves the endpoint ready for the next one.

**UDP** (``-u``, ``udp.py``, ``udp_stats.py``): both directions and ``--bidir``. The endpoint
answers iperf3's UDP "connect" datagrams, reads the per-datagram header (send time and a 32- or
64-bit sequence number, ``udp_counters_64bit``), counts loss, out-of-order datagrams and
RFC 1889 jitter exactly as ``iperf_udp_recv`` does, and returns them in the results exchange
(``jitter``, ``errors``, ``packets`` and their ``omitted_`` parts), so the client prints the
receiver's "Jitter  Lost/Total" line as it does against ``iperf3 -s``. With ``-R`` the
endpoint paces its datagrams at the client's ``-b`` on a ~1 ms timer (``--pacing-timer``),
never as line-rate bursts. Datagram size: the client's ``-l`` (iperf3's default is the path's
TCP MSS, so no IP fragmentation). Socket buffers: ``-w`` if given, else a 4 MiB receive
buffer, so a pause of the Python data thread is not reported as network loss; the send buffer
stays the OS default, as the C server's. Arrival times are the kernel's (``SO_TIMESTAMPNS`` on
Linux), not when the thread got to a datagram. Details in ``udp.py``.

Not supported:

* SCTP: the client is answered with iperf3's own ``SERVER_ERROR`` code and prints "no SCTP
  support available".
* ``-M`` (MSS) is not applied (the C server sets it on its listening socket), RSA
  authentication (``--username``) is not checked, ``-Z`` sends with ``send()``, not
  ``sendfile()``. UDP's ``--udp-64bit-counters`` is followed, but not ``sendmmsg`` batching.

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
    TestStart,
    UdpFigures,
    format_summary,
)
from .server import DEFAULT_PORT, IperfEndpoint
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
    "UdpFigures",
    "format_summary",
]
