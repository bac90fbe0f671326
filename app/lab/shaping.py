"""Per-direction rate shaping with tc, so iperf3's TCP goodput matches the real hardware.

PC->Pi: an HTB class on the egress of the host-side veth. Pi->PC: the host-side veth's ingress
is redirected to an IFB device with the same HTB set-up, so the Pi's own qdisc stays what a
tweak expects to find and change.

Rates: the profile gives iperf3 goodput G. A full 1500-MTU frame carries 1448 bytes of TCP
payload (timestamps on) and costs 1538 bytes on the wire (preamble+SFD 8, header 14, FCS 4,
IFG 12), so the wire rate is G*1538/1448. tc counts the 1514 bytes it sees per frame (for GSO
packets too, per segment), so the HTB rate is G*1514/1448, which is the same wire rate.
The burst is sized to ~0.25 ms of traffic (min 16 KiB): HTB's default burst at gigabit rates
loses several percent to timer granularity.
"""

from __future__ import annotations

from dataclasses import dataclass

from sbctune.lab.errors import LabError
from sbctune.lab.profile import TCP_PAYLOAD_BYTES, LinkModel
from sbctune.lab.system import run, tool

TC_FRAME_BYTES = 1514  # what tc counts for a full frame: IP packet + 14-byte Ethernet header
MIN_BURST = 16 * 1024
# The queue in front of the shaped link: a tail-drop FIFO holding what a Pi's NIC queue holds,
# txqueuelen 1000 full frames (seeds 001 and 004 show `txqueuelen:1000` / `qlen 1000` on their
# Pis' NICs; it is the kernel's default for Ethernet). Counted in bytes, because GSO packets
# through the lab's veths carry up to 64 KiB each: a 1000-packet pfifo would hold ~40 times
# more than the hardware's queue. At the pi4-ax88179 profile's 947 Mbit/s PC->Pi it holds
# ~13 ms; at a Pi 1's 94 Mbit/s, ~130 ms. Used on PC->Pi (the host veth); see apply() for Pi->PC.
QUEUE_BYTES = 1000 * TC_FRAME_BYTES


@dataclass(frozen=True)
class Shape:
    rate_kbit: int
    burst_bytes: int
    delay_ms: float = 0.0
    loss_pct: float = 0.0


def shape_for(goodput_mbps: float, link: LinkModel) -> Shape:
    rate_kbit = round(goodput_mbps * TC_FRAME_BYTES / TCP_PAYLOAD_BYTES * 1000)
    burst = max(MIN_BURST, round(rate_kbit * 1000 / 8 / 4000))
    return Shape(rate_kbit, burst, link.delay_ms, link.loss_pct)


def class_argv(tc: str, verb: str, dev: str, shape: Shape) -> list[str]:
    """``tc class replace|change`` of the one HTB class that carries all traffic."""
    rate = f"{shape.rate_kbit}kbit"
    burst = str(shape.burst_bytes)
    return [
        tc,
        "class",
        verb,
        "dev",
        dev,
        "parent",
        "1:",
        "classid",
        "1:10",
        "htb",
        "rate",
        rate,
        "ceil",
        rate,
        "burst",
        burst,
        "cburst",
        burst,
        "quantum",
        "60000",
    ]


def change_rate(dev: str, shape: Shape) -> bool:
    """Re-rate a shaped device in place (no qdisc reset, queued packets stay)."""
    return run(class_argv(tool("tc"), "change", dev, shape), check=False, timeout=5).ok


def shape_dev(dev: str, shape: Shape, *, byte_fifo: bool = True) -> None:
    """An HTB root on ``dev`` whose class 1:10 carries all traffic at ``shape`` (ACKs aside)."""
    tc = tool("tc")
    run(
        [tc, "qdisc", "replace", "dev", dev, "root", "handle", "1:", "htb", "default", "10"],
        what="shaping the lab link",
    )
    run(class_argv(tc, "replace", dev, shape), what="shaping the lab link")
    # Small TCP packets (pure ACKs, IPv4 total length < 128) get their own class, so in full
    # duplex the ACKs of one direction do not queue behind the other direction's data in a
    # class shaped far below it (seed 000's 163 Mbit/s Pi->PC would otherwise starve the
    # 902 Mbit/s PC->Pi stream of ACKs). ACKs are ~2% of the data they acknowledge. Only TCP:
    # small UDP (sbctune's latency probes) must wait in the data's queue, as on a real NIC.
    ack = Shape(max(1000, shape.rate_kbit // 10), MIN_BURST)
    argv = class_argv(tc, "replace", dev, ack)
    argv[argv.index("1:10")] = "1:20"
    run(argv, what="shaping the lab link")
    run(
        [
            tc,
            "filter",
            "replace",
            "dev",
            dev,
            "parent",
            "1:",
            "protocol",
            "ip",
            "prio",
            "1",
            "u32",
            "match",
            "ip",
            "protocol",
            "6",
            "0xff",
            "match",
            "u16",
            "0x0000",
            "0xff80",
            "at",
            "2",
            "flowid",
            "1:20",
        ],
        what="shaping the lab link (needs cls_u32)",
    )
    netem = bool(shape.delay_ms or shape.loss_pct)
    if byte_fifo and not netem:
        run(
            [tc, "qdisc", "replace", "dev", dev, "parent", "1:10", "handle", "10:", "bfifo",
             "limit", str(QUEUE_BYTES)],
            what="giving the lab link its queue",
        )  # fmt: skip
    elif netem:
        args = [
            tc,
            "qdisc",
            "replace",
            "dev",
            dev,
            "parent",
            "1:10",
            "handle",
            "10:",
            "netem",
            "limit",
            "10000",
        ]
        if shape.delay_ms:
            args += ["delay", f"{shape.delay_ms}ms"]
        if shape.loss_pct:
            args += ["loss", f"{shape.loss_pct}%"]
        if not run(args, check=False).ok:
            raise LabError(
                "the profile asks for delay/loss but this kernel has no netem qdisc",
                "load sch_netem (modprobe sch_netem) or set delay_ms/loss_pct to 0",
            )


def apply(host_veth: str, ifb: str, link: LinkModel) -> tuple[Shape, Shape]:
    """Shape both directions of one NIC; returns (pi_to_pc, pc_to_pi) shapes."""
    tc = tool("tc")
    up_mbps, down_mbps = link.goodput_mbps("pi_to_pc"), link.goodput_mbps("pc_to_pi")
    assert up_mbps is not None and down_mbps is not None  # the profile parser checked
    pi_to_pc, pc_to_pi = shape_for(up_mbps, link), shape_for(down_mbps, link)
    shape_dev(host_veth, pc_to_pi)
    make_ifb(ifb)
    run(
        [tc, "qdisc", "replace", "dev", host_veth, "handle", "ffff:", "ingress"],
        what="shaping the Pi->PC direction",
    )
    run(
        [
            tc,
            "filter",
            "replace",
            "dev",
            host_veth,
            "parent",
            "ffff:",
            "protocol",
            "all",
            "prio",
            "1",
            "u32",
            "match",
            "u32",
            "0",
            "0",
            "action",
            "mirred",
            "egress",
            "redirect",
            "dev",
            ifb,
        ],
        what="redirecting Pi->PC traffic to the shaper (needs cls_u32 and act_mirred)",
    )
    # Pi->PC keeps HTB's default leaf, a pfifo of the IFB's 32 packets: TCP's GSO packets
    # (up to 64 KiB each) still queue there under load, and a UDP sender paced above the
    # shaped rate still loses datagrams (a byte FIFO bigger than the Pi-side socket's send
    # buffer held the sender back instead: the lab's skbs keep their socket across the veth).
    shape_dev(ifb, pi_to_pc, byte_fifo=False)
    return pi_to_pc, pc_to_pi


def make_ifb(ifb: str) -> None:
    ip = tool("ip")
    if not run([ip, "link", "add", ifb, "type", "ifb"], check=False).ok:
        raise LabError(
            "cannot create an IFB device to shape the Pi->PC direction",
            "load the ifb module (modprobe ifb)",
        )
    run([ip, "link", "set", ifb, "up"])
