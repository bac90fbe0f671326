"""A NIC's error, drop and pause counters judged against the traffic they were counted in.

Two sources: the driver's own counters (``ethtool -S``: CRC, alignment, missed, FIFO, pause ...,
by the driver's names) and the interface's (``ip -s link``, ``ifconfig``, sysfs statistics:
errors and dropped). Which name is an error, a drop or a pause frame, which names count the
packets, and the shares above which a count is remarked (each with why) are data:
``resources/advice/counters.json``. A finding quotes the counter lines as the output shows
them, so it never says a number that a shown line contradicts.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

from sbctune.advice.counter_totals import drop_totals
from sbctune.inventory.model import Finding, Nic, Recommendation
from sbctune.wording import grouped, percent

Kind = Literal["error", "drop", "pause", "normal"]
Side = Literal["rx", "tx"]
_QUEUE = re.compile(r"^(?:\[[^\]]{1,8}\]:?\s*|[rt]xq?\d{1,4}:\s*|queue_\d{1,4}:\s*)")
_WORD = {"rx": "received", "tx": "sent"}


@dataclass(frozen=True)
class Rules:
    classes: dict[str, list[re.Pattern[str]]]
    packets: dict[str, list[list[str]]]
    plain: list[tuple[re.Pattern[str], str]]
    limits: dict[str, float]


@cache
def rules() -> Rules:
    from sbctune.resources import resource_root

    text = resource_root().joinpath("advice").joinpath("counters.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return Rules(
        classes={k: [re.compile(p) for p in v] for k, v in data["classes"].items()},
        packets=data["packets"],
        plain=[(re.compile(p), words) for p, words in data["plain"]],
        limits={k: float(v) for k, v in data["thresholds"].items() if k != "why"},
    )


def normalize(name: str) -> str:
    """``[0]: rx_discards`` → ``rx_discards``; ``RX FCS Errors`` → ``rx_fcs_errors``."""
    bare = _QUEUE.sub("", name.strip()).strip().lower()
    return re.sub(r"[\s\-]+", "_", bare)


def classify(name: str) -> Kind:
    """error / drop / pause / normal for a counter name as any driver prints it."""
    norm = normalize(name)
    for kind in ("normal", "pause", "drop", "error"):
        if any(p.search(norm) for p in rules().classes.get(kind, [])):
            return kind
    return "normal"


def side(name: str) -> Side | None:
    norm = normalize(name)
    if re.search(r"(^|_)tx|xmit", norm):
        return "tx"
    if re.search(r"(^|_)rx|rbuf|rcv|recv", norm):
        return "rx"
    if re.search(r"align|crc|fcs|jabber|runt|missed|symbol", norm):
        return "rx"  # r8169's align_errors, a received frame's fault
    if re.search(r"collision|_col|carrier|underrun|abort", norm):
        return "tx"
    return None


def plain(name: str) -> str:
    """The counter in plain words; a total (``rx_errors``) by its direction."""
    norm = normalize(name)
    for pattern, words in rules().plain:
        if pattern.search(norm):
            which = side(norm)
            if words == "errors" and which:
                return f"{'receive' if which == 'rx' else 'transmit'} errors"
            if words == "dropped frames" and which:
                return f"{'received' if which == 'rx' else 'outgoing'} frames dropped"
            return words
    return "counted events"


def _total(norm: str) -> bool:
    """rx_errors, tx_dropped ...: a sum of the specific counters beside it."""
    return bool(re.fullmatch(r"(rx|tx)_(errors|dropped)", norm))


def _sums(stats: dict[str, int]) -> dict[str, int]:
    """Counts by normalized name: a name over queues is added; one printed twice is not."""
    out: dict[str, int] = {}
    for name, value in stats.items():
        norm = normalize(name)
        queued = bool(_QUEUE.match(name.strip()))
        out[norm] = out.get(norm, 0) + value if queued else out.get(norm, value)
    return out


def packets(stats: dict[str, int], which: Side) -> tuple[int, list[str]] | None:
    """The packets counted on one side and the names they came from, by the first rule of
    ``packets`` whose first name is present; the others add what they count (the inventory
    keeps non-zero counters only: an absent multicast count is zero)."""
    sums = _sums(stats)
    for names in rules().packets[which]:
        if names[0] in sums:
            present = [n for n in names if n in sums]
            return sum(sums[n] for n in present), present
    return None


def _share_limits(kind: Kind) -> tuple[float, float]:
    lim = rules().limits
    if kind == "error":
        return lim["error_share_info"], lim["error_share_warning"]
    if kind == "drop":
        return lim["drop_share_info"], lim["drop_share_warning"]
    return lim["pause_share_info"], float("inf")


_CAUSE = {
    ("error", "rx"): "Frames arrive damaged: a bad cable or connector, a noisy link, a failing "
    "switch port or a duplex mismatch. Try another cable and switch port.",
    ("error", "tx"): "The NIC could not send frames cleanly: a duplex mismatch or a failing "
    "adapter or port.",
    ("drop", "rx"): "Frames reached the NIC but the Pi did not take them in time: a CPU or "
    "interrupt bound, or a receive ring that is too small (ethtool -g shows its size).",
    ("drop", "tx"): "The transmit path had no room for these frames.",
    ("pause", "rx"): "The other end asked this NIC to wait: the switch or the PC cannot keep "
    "up with what the Pi sends.",
    ("pause", "tx"): "This NIC asked the other end to wait: it cannot keep up with what it "
    "receives.",
}
_ID = {"error": "counter-errors", "drop": "counter-drops", "pause": "pause-frames"}


def stats_findings(
    nic: Nic, label: str, kernel: str | None = None
) -> tuple[list[Finding], set[tuple[str, str]]]:
    """Findings from ``ethtool -S`` and the (kind, side) pairs they speak for."""
    stats = nic.ethtool_stats
    found: list[Finding] = []
    covered: set[tuple[str, str]] = set()
    if not stats:
        return found, covered
    sums = _sums(stats)
    printed = {normalize(n): n for n in reversed(list(stats))}
    # a total the driver also fills with receive drops (bcmgenet's, macb's rx_errors) is one
    totals = drop_totals(nic.driver, kernel)

    def kind_of(norm: str) -> Kind:
        return "drop" if norm in totals else classify(norm)

    def shown(norm: str, value: int) -> str:
        """The counter's line as ethtool printed it; a sum over queues says so."""
        name = printed.get(norm, norm)
        if _QUEUE.match(name.strip()):
            return f"{norm} (added over the queues): {value}"
        return f"{name}: {value}"

    min_count = rules().limits["min_count"]
    for kind in ("error", "drop", "pause"):
        for which in ("rx", "tx"):
            # Largest first; at a tie the specific counter (rx_crc_errors) before the total
            # (rx_errors) that it is part of.
            hits = sorted(
                (
                    (value, not _total(norm), norm)
                    for norm, value in sums.items()
                    if value and kind_of(norm) == kind and side(norm) == which
                ),
                reverse=True,
            )
            counted = packets(stats, which)
            if not hits or counted is None or hits[0][0] < min_count:
                continue
            total, names = counted
            count, _specific, top = hits[0]
            share = count / (total + count) if kind != "pause" else count / max(total, 1)
            info, warning = _share_limits(kind)
            if share < info:
                continue
            covered.add((kind, which))
            severity = "warning" if share >= warning else "info"
            others = sorted({plain(n) for *_v, n in hits[1:4] if not _total(n)} - {plain(top)})
            also = f"; also {', '.join(others)}" if others else ""
            summary = (
                f"{label} counted {grouped(count)} {plain(top)} against {grouped(total)} packets "
                f"{_WORD[which]} ({percent(share)}{also}). {_CAUSE[(kind, which)]}"
            )
            if top in totals:
                summary += " " + totals[top].note(top)
            evidence = [shown(n, sums[n]) for *_v, n in hits[:4]]
            evidence += [shown(n, sums[n]) for n in names if n in sums]
            found.append(Finding(_ID[kind], severity, label, summary, evidence))  # type: ignore[arg-type]
    return found, covered


def interface_findings(
    nic: Nic, label: str, covered: set[tuple[str, str]], kernel: str | None = None
) -> list[Finding]:
    """Errors and drops in the interface's counters (ip -s link, ifconfig, sysfs), judged
    against its packets; what ``ethtool -S`` already judged is not said twice."""
    c = nic.counters
    said: list[str] = []
    notes: list[str] = []
    worst = "info"
    totals = drop_totals(nic.driver, kernel)
    for which, word in (("rx", "received"), ("tx", "sent")):
        total = c.get(f"{which}_packets") or 0
        for key, named in (("errors", "error"), ("dropped", "drop")):
            kind = "drop" if f"{which}_{key}" in totals else named
            count = c.get(f"{which}_{key}") or 0
            if (kind, which) in covered or not count or not (total or key == "errors"):
                continue
            # The stack's drops (an unknown protocol) were counted as received packets first:
            # a share of the packets. Errors are not in the packets (include/uapi/linux/if_link.h
            # rtnl_link_stats64: rx_packets "good packets", tx_packets "successfully
            # transmitted"): a share of packets and errors, so 266 failed sends and none
            # through are all of them, not "of 0".
            share = count / total if key == "dropped" else count / (total + count)
            info, warning = _share_limits(kind)  # type: ignore[arg-type]
            if count < rules().limits["min_count"] or share < info:
                continue
            shown = (
                f"{grouped(count)} of {grouped(total)} {word} packets {key}"
                if key == "dropped"
                else f"{grouped(count)} {key} against {grouped(total)} packets {word}"
            )
            said.append(f"{shown} ({percent(share)})")
            if f"{which}_{key}" in totals:
                notes.append(totals[f"{which}_{key}"].note(f"{which}_{key}"))
            if share >= warning:
                worst = "warning"
    if not said:
        return []
    return [
        Finding(
            "interface-errors",
            worst,  # type: ignore[arg-type]
            label,
            f"{label}'s counters: {'; '.join(said)}. Errors point at the cable, duplex or "
            "the driver; receive drops at a CPU or buffer that cannot keep up (IRQ "
            "affinity, RPS, ring sizes) or at frames the system does not want."
            + "".join(f" {n}" for n in notes),
            [" ".join(f"{k}={v}" for k, v in c.items())],
        )
    ]


def counter_findings(nic: Nic, label: str, kernel: str | None = None) -> list[Finding]:
    """`kernel`: the running kernel's release, where a driver's counting changed with it."""
    found, covered = stats_findings(nic, label, kernel)
    return found + interface_findings(nic, label, covered, kernel)


def cable_recommendation(found: Finding) -> Recommendation | None:
    """A warning about damaged received frames: the cable and the port are what to change."""
    if found.id != "counter-errors" or found.severity != "warning" or not found.evidence:
        return None
    if side(found.evidence[0].rsplit(":", 1)[0]) != "rx":  # the headline counter's direction
        return None
    return Recommendation(
        "cable",
        found.nic,
        "Replace the cable and try another switch port",
        "The NIC's own counters show damaged frames above one in a thousand: swap the cable "
        "(Cat5e or better, no kinks, firmly seated) and the switch port, then read the counters "
        "again; they should stay still.",
        "no damaged frames; TCP stops backing off for them",
        [
            "IEEE 802.3 clause 40: 1000BASE-T bit error ratio below 1e-10",
            "Mathis et al., The Macroscopic Behavior of the TCP Congestion Avoidance "
            "Algorithm, Computer Communication Review 27(3), 1997",
        ],
        evidence=list(found.evidence),
    )
