# sbctune's latency probe: run on the Pi as `python3 -` (this text on stdin, nothing else).
#
# sbctune prepends one line, `CONFIG = {...}`, built from validated values (addresses, numbers
# and the run's random token). The program sends small UDP datagrams to this PC's responder at
# a fixed interval, and prints one line per probe: "r SEQ T_MS RTT_MS" for an answer, "l SEQ
# T_MS" for a probe that got none within the timeout. It is bounded in count and time, needs
# only Python 3's standard library (Raspberry Pi OS ships python3), and stops when its output
# goes away (sbctune cancelled).
import os
import select
import socket
import sys
import time

CONFIG: dict = globals().get("CONFIG", {})  # type: ignore[type-arg]
MAGIC = b"SBCTL1"


def say(line: str) -> None:
    try:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    except (BrokenPipeError, OSError):
        os._exit(0)


def main() -> None:
    host, port = str(CONFIG["host"]), int(CONFIG["port"])
    token = str(CONFIG["token"]).encode("ascii")
    interval = min(max(float(CONFIG["interval"]), 0.01), 1.0)
    count = min(max(int(CONFIG["count"]), 1), 20000)
    limit = min(max(float(CONFIG["seconds"]), 1.0), 3600.0)
    wait = min(max(float(CONFIG["timeout"]), 0.1), 5.0)
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_DGRAM)
    if CONFIG.get("bind"):
        sock.bind((str(CONFIG["bind"]), 0))
    sock.connect((host, port))
    sock.setblocking(False)
    say("sbctune-latency 1")
    start = time.monotonic()
    pending: dict[int, float] = {}
    seq = 0
    next_send = start
    while True:
        now = time.monotonic()
        if now - start > limit or (seq >= count and not pending):
            break
        if seq < count and now >= next_send:
            body = MAGIC + b" " + token + b" " + str(seq).encode("ascii") + b" "
            try:
                sock.send(body.ljust(64, b"."))
                pending[seq] = now
            except OSError as exc:  # no route yet, buffer full: count it lost, go on
                say(f"l {seq} {(now - start) * 1000:.1f} {type(exc).__name__}")
            seq += 1
            next_send += interval
        for old, sent in list(pending.items()):
            if now - sent > wait:
                del pending[old]
                say(f"l {old} {(sent - start) * 1000:.1f}")
        timeout = max(0.0, min(next_send if seq < count else now + 0.05, now + 0.05) - now)
        ready, _, _ = select.select([sock], [], [], timeout)
        if not ready:
            continue
        for _ in range(64):  # drain what arrived, bounded
            try:
                data = sock.recv(512)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                break  # e.g. ECONNREFUSED from an ICMP port unreachable: the probe is lost
            got = time.monotonic()
            parts = data.split(b" ")
            if len(parts) < 3 or parts[0] != MAGIC or parts[1] != token:
                continue
            try:
                n = int(parts[2])
            except ValueError:
                continue
            sent_at = pending.pop(n, None)
            if sent_at is not None:
                say(f"r {n} {(sent_at - start) * 1000:.1f} {(got - sent_at) * 1000:.3f}")
    say(f"end {seq}")


main()
