"""Latency under load: while a TCP test runs (and for a few seconds idle before it), the Pi
sends small UDP probes to a responder on this PC and reports each round-trip time.

- `program`: the Pi-side probe (a resource run as `python3 -`) and its configuration.
- `responder`: the asyncio UDP echo on this PC; it answers only datagrams with the run's token.
- `parse`: the probe's output (untrusted text from the Pi), parsed with bounds.
- `stats`: percentiles, the added latency and a verdict in words.
- `during`: the hook the runner calls around each test.
"""
