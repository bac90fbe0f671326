"""The lab's network: a namespace joined to the host by one veth pair per NIC.

Addresses come only from 198.18.0.0/15 (RFC 2544 benchmarking): lab ``i``'s NIC ``j`` gets
the /24 number ``4*i + j`` (198.18.0.0/24, 198.18.1.0/24 ... then 198.19.x), host ``.1``,
Pi ``.2``. The namespace gets no default route, so the Pi can reach nothing but its host ends.
IPv6 address generation is off on both ends, so no link-local traffic either.
"""

from __future__ import annotations

import ipaddress
import json
import re

from sbctune.lab import veth_channels
from sbctune.lab.errors import LabError
from sbctune.lab.system import run, tool

BENCH_NET = ipaddress.ip_network("198.18.0.0/15")
NICS_PER_LAB = 4
MAX_LABS = BENCH_NET.num_addresses // 256 // NICS_PER_LAB
# Host links by kind: the veth (n), its peer before it moves (p), its IFB (i), a shared
# limit's IFB (s, shaping_shared).
LINK_KINDS = "npis"
HOST_LINK = re.compile(r"^sbct\d+[npis]\d$")


def subnet(index: int, nic: int) -> ipaddress.IPv4Network:
    if not 0 <= index < MAX_LABS or not 0 <= nic < NICS_PER_LAB:
        raise LabError(f"no address block for lab {index} NIC {nic}")
    base = int(BENCH_NET.network_address) + (index * NICS_PER_LAB + nic) * 256
    return ipaddress.IPv4Network((base, 24))


def addresses(index: int, nic: int) -> tuple[str, str]:
    """(host address, Pi address) of a lab's NIC."""
    net = subnet(index, nic)
    return str(net.network_address + 1), str(net.network_address + 2)


def host_veth(index: int, nic: int) -> str:
    return f"sbct{index}n{nic}"


def peer_temp(index: int, nic: int) -> str:
    return f"sbct{index}p{nic}"


def ifb_name(index: int, nic: int) -> str:
    return f"sbct{index}i{nic}"


def _ip() -> str:
    return str(tool("ip"))


def list_netns() -> list[str]:
    result = run([_ip(), "-j", "netns", "list"], check=False)
    try:
        entries = json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        entries = [{"name": line.split()[0]} for line in result.stdout.splitlines() if line]
    return [str(e.get("name")) for e in entries if isinstance(e, dict) and e.get("name")]


def netns_exists(netns: str) -> bool:
    return netns in list_netns()


def host_links() -> list[str]:
    """Host interfaces that look like ours (sbct<lab>{n,p,i}<nic>, sbct<lab>s<n>)."""
    result = run([_ip(), "-j", "link", "show"], check=False)
    try:
        links = json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        return []
    return [str(x["ifname"]) for x in links if HOST_LINK.match(str(x.get("ifname", "")))]


def used_bench_subnets() -> set[int]:
    """Indexes of /24s in 198.18.0.0/15 already configured on the host (by anyone)."""
    result = run([_ip(), "-j", "-4", "addr", "show"], check=False)
    used: set[int] = set()
    try:
        links = json.loads(result.stdout or "[]")
    except json.JSONDecodeError:
        return used
    for link in links:
        for addr in link.get("addr_info", []):
            try:
                ip = ipaddress.ip_address(addr.get("local", ""))
            except ValueError:
                continue
            if ip in BENCH_NET:
                used.add((int(ip) - int(BENCH_NET.network_address)) // 256)
    return used


def create(
    netns: str,
    index: int,
    nics: list[tuple[str, str | None]],
    queues: list[tuple[int, int] | None] | None = None,
    allocated: list[tuple[int, int] | None] | None = None,
) -> None:
    """Create ``netns`` and one veth pair per (inner name, MAC) in ``nics``; the Pi's end
    gets the (TX, RX) queue counts of ``queues`` where given (its driver's, from the kernel
    source), else veth's one of each; allocated with ``allocated``'s where more (stmmac)."""
    ip = _ip()
    run([ip, "netns", "add", netns], what="creating the lab's network namespace")
    run([ip, "-n", netns, "link", "set", "lo", "up"])
    for j, (inner, mac) in enumerate(nics):
        host, peer = host_veth(index, j), peer_temp(index, j)
        host_addr, pi_addr = addresses(index, j)
        counts = queues[j] if queues and j < len(queues) else None
        room = allocated[j] if allocated and j < len(allocated) else None
        room = room if room and counts and room != counts else counts
        peer_args = ["numtxqueues", str(room[0]), "numrxqueues", str(room[1])] if room else []
        run(
            [ip, "link", "add", host, "type", "veth", "peer", "name", peer, *peer_args],
            what="creating a veth pair",
        )
        # veth_newlink's veth_init_queues (drivers/net/veth.c, 6.1 and on) puts the peer at one
        # queue of each whatever it was allocated with (it reads the first end's attributes):
        # the driver's counts in use are set here, as stmmac's device-tree count always was
        if counts and (room != counts or tuple(counts) != (1, 1)):
            veth_channels.set_channels(peer, *counts)
        run([ip, "link", "set", peer, "netns", netns])
        args = [ip, "-n", netns, "link", "set", peer, "name", inner, "addrgenmode", "none"]
        if mac:
            args += ["address", mac]
        run(args)
        run([ip, "link", "set", host, "addrgenmode", "none"])
        run([ip, "-n", netns, "addr", "add", f"{pi_addr}/24", "dev", inner])
        run([ip, "addr", "add", f"{host_addr}/24", "dev", host])
        run([ip, "-n", netns, "link", "set", inner, "up"])
        _default_qdisc(netns, inner, room[0] if room else 1)
        run([ip, "link", "set", host, "up"])


def _default_qdisc(netns: str, inner: str, tx_queues: int) -> None:
    """The root qdisc the kernel gives the driver's device, not veth's "noqueue" (veth sets
    IFF_NO_QUEUE): net/sched/sch_generic.c attach_default_qdiscs, 6.1 and 6.12: "mq" where the
    device was allocated more than one TX queue (netif_is_multiqueue: bcmgenet's 5), else the
    kernel's default qdisc (net.core.default_qdisc, the one the lab's kernel has)."""
    name = "mq" if tx_queues > 1 else _kernel_default_qdisc()
    run([tool("tc"), "-n", netns, "qdisc", "replace", "dev", inner, "root", name], check=False)


def _kernel_default_qdisc() -> str:
    try:  # posix-only: /proc (the lab runs on Linux)
        with open("/proc/sys/net/core/default_qdisc", encoding="utf-8") as handle:
            name = handle.read(64).strip()
    except OSError:
        name = ""
    return name if re.fullmatch(r"[a-z_]{1,32}", name) else "pfifo_fast"


def set_gso_max_size(netns: str, sizes: dict[str, int]) -> None:
    """Give each interface the gso_max_size its driver's netif_set_tso_max_size leaves
    (net/core/dev.c: lowered to a TSO maximum under 65536; ax88179 16384), so the lab's stack
    builds GSO packets no larger than the kernel would for that driver."""
    for name, size in sizes.items():
        run([_ip(), "-n", netns, "link", "set", "dev", name, "gso_max_size", str(int(size))])


def pids(netns: str) -> list[int]:
    result = run([_ip(), "netns", "pids", netns], check=False)
    return [int(p) for p in result.stdout.split() if (p.isascii() and p.isdigit())]


def delete(netns: str) -> None:
    if netns_exists(netns):
        run([_ip(), "netns", "del", netns], check=False)


def delete_link(name: str) -> None:
    run([_ip(), "link", "del", name], check=False)
