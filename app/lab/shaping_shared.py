"""A ``[[shared_limit]]`` held by the kernel: one HTB tree for all the NICs that share a bus.

Seed 004's CM4 carries ~940 Mbit/s on each port alone but ~3.06 Gbit/s on all of them together.
For each limit and each direction it caps, the lab makes ONE IFB device whose HTB tree is::

    1:    htb, default 1:ff
    1:1   the cap: rate = ceil = the limit            (the bus)
    1:1N  member N's leaf: ceil = the NIC's own rate,  (its link, tweak effects, duplex: the
          rate = its proportional share of the cap      controller re-rates it, never the cap)
    1:2N  member N's pure ACKs, outside the cap        (as shaping keeps ACKs in their own class)
    1:ff  anything else (ARP), inside the cap

Each member's host veth gets a clsact qdisc whose ingress (what the Pi sends) and egress (what
the PC sends) are redirected by u32 + mirred to the Pi->PC and PC->Pi IFBs; u32 on the
member's /24 (its source on Pi->PC, its destination on PC->Pi) picks its classes. HTB lends
the cap's unused rate to busy members up to their ceils, at the packet: no user-space poll is
late or flaps (a 100 ms re-rating loop let four igb ports carry 3198 Mbit/s against 3060).

Only u32, mirred, HTB, ingress/clsact and IFB: the lab's kernel has no act_skbedit, flower or
matchall (its /proc/config.gz). A member direction no limit caps is shaped as
``sbctune.lab.shaping`` does (its own IFB, or the host veth's own HTB); profiles without a
limit keep exactly the commands that module has always run.
"""

from __future__ import annotations

import dataclasses
import ipaddress
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sbctune.lab import shaping
from sbctune.lab.errors import LabError
from sbctune.lab.model import NicInfo
from sbctune.lab.profile import InterfaceSpec, LinkModel
from sbctune.lab.shaping import MIN_BURST, QUEUE_BYTES, Shape, shape_for
from sbctune.lab.shared_limit import SharedLimit
from sbctune.lab.system import run, tool

PI_TO_PC, PC_TO_PI = 0, 1
DIRECTIONS = ("pi_to_pc", "pc_to_pi")
CAP_CLASS = "1:1"
OTHER_CLASS = "1:ff"
# The kernel's rate estimator on the cap and leaf classes (net/core/gen_estimator.c): `tc -s
# class` shows what passes now (`lab status`) without two reads of the byte counters.
ESTIMATOR = ("estimator", "250msec", "1sec")


def leaf_class(position: int) -> str:
    return f"1:{0x10 + position:x}"


def ack_class(position: int) -> str:
    return f"1:{0x20 + position:x}"


def ifb_name(index: int, slot: int) -> str:
    """The host link of a lab's shared IFB (``sbct<lab>s<slot>``; teardown finds it by name)."""
    return f"sbct{index}s{slot}"


@dataclass(frozen=True)
class SharedIfb:
    """One direction of one shared limit: its IFB and the NICs it carries (profile order)."""

    dev: str
    direction: int  # PI_TO_PC or PC_TO_PI
    cap_mbps: float
    members: tuple[str, ...]
    source: str = ""

    def position(self, name: str) -> int:
        return self.members.index(name)


def plan(limits: Sequence[SharedLimit], names: Sequence[str], index: int) -> list[SharedIfb]:
    """The shared IFBs of a lab (index ``index``) whose NICs are ``names``, in profile order."""
    out = []
    for k, limit in enumerate(limits):
        members = tuple(n for n in names if n in limit.interfaces)
        for direction in (PI_TO_PC, PC_TO_PI):
            cap = limit.cap(direction)
            if cap is not None:
                out.append(
                    SharedIfb(ifb_name(index, 2 * k + direction), direction, cap, members,
                              limit.source)
                )  # fmt: skip
    return out


def carrier(ifbs: Sequence[SharedIfb], name: str, direction: int) -> SharedIfb | None:
    """The shared IFB that carries NIC ``name`` in ``direction``, if a limit caps it."""
    return next((i for i in ifbs if i.direction == direction and name in i.members), None)


def leaf_rates(own: Mapping[str, float], cap: float) -> dict[str, tuple[float, float]]:
    """Each member's (rate, ceil) goodput: ceil its own rate, rate its share of the cap in
    proportion to its own (never above its own). The guarantees must add up to the cap at
    most: HTB's parent class holds only what its children borrow beyond their own rates."""
    total = sum(own.values())
    scale = min(1.0, cap / total) if total > 0 else 1.0
    return {name: (mbps * scale, mbps) for name, mbps in own.items()}


def _kbit(shape: Shape) -> str:
    return f"{shape.rate_kbit}kbit"


def class_argv(
    tc: str, verb: str, dev: str, parent: str, classid: str, rate: Shape, ceil: Shape,
    extra: Sequence[str] = (),
) -> list[str]:  # fmt: skip
    """``tc class replace|change`` of one HTB class of a shared IFB (burst: the ceil's);
    ``extra``: class options before the qdisc kind (the estimator)."""
    burst = str(ceil.burst_bytes)
    return [tc, "class", verb, "dev", dev, "parent", parent, "classid", classid, *extra, "htb",
            "rate", _kbit(rate), "ceil", _kbit(ceil), "burst", burst, "cburst", burst,
            "quantum", "60000"]  # fmt: skip


def leaf_argv(
    tc: str, verb: str, ifb: SharedIfb, name: str, rate_mbps: float, ceil_mbps: float,
    link: LinkModel, extra: Sequence[str] = (),
) -> list[str]:  # fmt: skip
    return class_argv(
        tc, verb, ifb.dev, CAP_CLASS, leaf_class(ifb.position(name)),
        shape_for(rate_mbps, link), shape_for(ceil_mbps, link), extra,
    )  # fmt: skip


def _subnet(addr: str, prefix: int) -> str:
    return str(ipaddress.ip_interface(f"{addr}/{prefix}").network)


def ifb_commands(
    tc: str, ip: str, ifb: SharedIfb, links: Mapping[str, LinkModel],
    own: Mapping[str, float], subnets: Mapping[str, str],
) -> list[list[str]]:  # fmt: skip
    """Every command that builds one shared IFB: the device, its HTB tree and its filters.

    ``own``: each member's own goodput in this direction; ``subnets``: each member's /24.
    """
    cap = shape_for(ifb.cap_mbps, links[ifb.members[0]])
    # Delay and loss belong to each member's own link (its leaf's netem), not to the bus.
    cap = Shape(cap.rate_kbit, cap.burst_bytes)
    dev = ifb.dev
    cmds = [
        [ip, "link", "add", dev, "type", "ifb"],
        [ip, "link", "set", dev, "up"],
        [tc, "qdisc", "replace", "dev", dev, "root", "handle", "1:", "htb", "default",
         OTHER_CLASS.split(":")[1]],
        class_argv(tc, "replace", dev, "1:", CAP_CLASS, cap, cap, ESTIMATOR),
        class_argv(tc, "replace", dev, CAP_CLASS, OTHER_CLASS, Shape(1000, MIN_BURST), cap),
    ]  # fmt: skip
    ends = "src" if ifb.direction == PI_TO_PC else "dst"
    for position, (name, (rate, ceil)) in enumerate(leaf_rates(
        {n: own[n] for n in ifb.members}, ifb.cap_mbps
    ).items()):  # fmt: skip
        link = links[name]
        own_shape = shape_for(ceil, link)
        leaf = leaf_class(position)
        cmds.append(leaf_argv(tc, "replace", ifb, name, rate, ceil, link, ESTIMATOR))
        # The NIC's pure ACKs (IPv4 TCP, total length < 128) outside the cap, at the rate
        # sbctune.lab.shaping gives them: in full duplex they must not queue behind the bus.
        ack = Shape(max(1000, own_shape.rate_kbit // 10), MIN_BURST)
        cmds.append(class_argv(tc, "replace", dev, "1:", ack_class(position), ack, ack))
        net = subnets[name]
        cmds.append(
            [tc, "filter", "add", "dev", dev, "parent", "1:", "protocol", "ip", "prio", "1",
             "u32", "match", "ip", ends, net, "match", "ip", "protocol", "6", "0xff",
             "match", "u16", "0x0000", "0xff80", "at", "2", "flowid", ack_class(position)]
        )  # fmt: skip
        cmds.append(
            [tc, "filter", "add", "dev", dev, "parent", "1:", "protocol", "ip", "prio", "2",
             "u32", "match", "ip", ends, net, "flowid", leaf]
        )  # fmt: skip
        cmds += _leaf_queue(tc, dev, leaf, ifb.direction, link)
    return cmds


def _leaf_queue(tc: str, dev: str, leaf: str, direction: int, link: LinkModel) -> list[list[str]]:
    """The queue under a member's leaf, as sbctune.lab.shaping gives each direction: PC->Pi
    a byte FIFO of the NIC's txqueuelen (or netem for delay/loss), Pi->PC HTB's default pfifo
    (netem only for delay/loss)."""
    handle = f"{int(leaf.split(':')[1], 16):x}:"
    if link.delay_ms or link.loss_pct:
        args = [tc, "qdisc", "replace", "dev", dev, "parent", leaf, "handle", handle, "netem",
                "limit", "10000"]  # fmt: skip
        if link.delay_ms:
            args += ["delay", f"{link.delay_ms}ms"]
        if link.loss_pct:
            args += ["loss", f"{link.loss_pct}%"]
        return [args]
    if direction == PC_TO_PI:
        return [[tc, "qdisc", "replace", "dev", dev, "parent", leaf, "handle", handle, "bfifo",
                 "limit", str(QUEUE_BYTES)]]  # fmt: skip
    return []


def redirect_commands(tc: str, host_veth: str, targets: Mapping[str, str]) -> list[list[str]]:
    """A member's host veth: a clsact qdisc, and its ``ingress`` (what the Pi sends) and/or
    ``egress`` (what the PC sends) redirected to the IFB named in ``targets``."""
    cmds = [[tc, "qdisc", "replace", "dev", host_veth, "clsact"]]
    for hook in ("ingress", "egress"):
        if hook in targets:
            cmds.append(
                [tc, "filter", "add", "dev", host_veth, hook, "protocol", "all", "prio", "1",
                 "u32", "match", "u32", "0", "0", "action", "mirred", "egress", "redirect",
                 "dev", targets[hook]]
            )  # fmt: skip
    return cmds


def member_shaper(ifbs: Sequence[SharedIfb], name: str, direction: int) -> str:
    """NicInfo's ``pi_to_pc_shaper`` / ``pc_to_pi_shaper`` of NIC ``name`` ("" when its own)."""
    ifb = carrier(ifbs, name, direction)
    return f"{ifb.dev} {leaf_class(ifb.position(name))}" if ifb else ""


def apply(
    ifbs: Sequence[SharedIfb], nics: Sequence[NicInfo], specs: Sequence[InterfaceSpec]
) -> None:
    """Shape the NICs that a shared limit carries (the others: ``shaping.apply``)."""
    if not ifbs:
        return
    ip, tc = tool("ip"), tool("tc")
    links = {spec.name: spec.link for spec in specs}
    subnets = {n.name: _subnet(n.host_addr, n.prefix) for n in nics}
    for ifb in ifbs:
        own = {}
        for name in ifb.members:
            mbps = links[name].goodput_mbps(DIRECTIONS[ifb.direction])
            assert mbps is not None  # the profile parser checked
            own[name] = mbps
        for argv in ifb_commands(tc, ip, ifb, links, own, subnets):
            if argv[1:3] == ["link", "add"] and not run(argv, check=False).ok:
                raise LabError(
                    "cannot create an IFB device to hold the NICs' shared limit",
                    "load the ifb module (modprobe ifb)",
                )
            if argv[1:3] != ["link", "add"]:
                run(argv, what="holding the NICs' shared limit (needs sch_htb, cls_u32)")
    for nic in nics:
        up, down = carrier(ifbs, nic.name, PI_TO_PC), carrier(ifbs, nic.name, PC_TO_PI)
        if up is None and down is None:
            continue
        link = links[nic.name]
        targets = {}
        if down is not None:
            targets["egress"] = down.dev
        else:  # PC->Pi on the host veth's own HTB, as shaping.apply does it
            mbps = link.goodput_mbps("pc_to_pi")
            assert mbps is not None
            shaping.shape_dev(nic.host_veth, shape_for(mbps, link))
        if up is not None:
            targets["ingress"] = up.dev
        else:  # Pi->PC on the NIC's own IFB
            mbps = link.goodput_mbps("pi_to_pc")
            assert mbps is not None
            shaping.make_ifb(nic.ifb)
            shaping.shape_dev(nic.ifb, shape_for(mbps, link), byte_fifo=False)
            targets["ingress"] = nic.ifb
        for argv in redirect_commands(tc, nic.host_veth, targets):
            run(argv, what="redirecting a NIC to its shared limit (needs clsact, act_mirred)")


def shape_lab(
    nics: Sequence[NicInfo], specs: Sequence[InterfaceSpec], limits: Sequence[SharedLimit],
    index: int,
) -> None:  # fmt: skip
    """Shape every NIC of a lab: those no limit carries exactly as ``shaping.apply`` always
    has, the members through their limits' IFBs (``named`` gives NicInfo their shapers)."""
    ifbs = plan(limits, [s.name for s in specs], index)
    for nic, spec in zip(nics, specs, strict=True):
        if not any(nic.name in i.members for i in ifbs):
            shaping.apply(nic.host_veth, nic.ifb, spec.link)
    apply(ifbs, nics, specs)


def named(
    nics: Sequence[NicInfo], limits: Sequence[SharedLimit], index: int
) -> tuple[NicInfo, ...]:
    """The lab's NICs with the shared limits' classes that hold their rates."""
    ifbs = plan(limits, [n.name for n in nics], index)
    return tuple(
        dataclasses.replace(
            n,
            pi_to_pc_shaper=member_shaper(ifbs, n.name, PI_TO_PC),
            pc_to_pi_shaper=member_shaper(ifbs, n.name, PC_TO_PI),
        )
        for n in nics
    )
