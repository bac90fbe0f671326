"""DriverCaps: what the driver table says one driver can do on the running kernel (made by
driver_caps.caps), and the questions the planners and the lab ask it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# a setting -> the ethtool_ops callback that changes it (restart_unread)
_SETTERS = {"rings": "set_ringparam", "eee": "set_eee", "pause": "set_pauseparam"}


@dataclass(frozen=True)
class DriverCaps:
    driver: str
    series: tuple[str, ...]  # the kernel series these facts hold for
    ops: frozenset[str]  # ethtool_ops callbacks present in every one of those series
    coalesce_params: frozenset[str]
    ring_max: dict[str, int | None] = field(default_factory=dict)
    multiqueue: bool | None = None
    facts: dict[str, Any] = field(default_factory=dict)  # hand-written, by fact name
    cites: dict[str, str] = field(default_factory=dict)  # fact or op -> "file: function"
    # ops the Raspberry Pi tree carries from some branch on, where the running kernel's branch
    # is not known to carry them or not: neither claimed nor denied (try, verify by read-back)
    unsure: frozenset[str] = frozenset()
    # facts whose "since"/"until" release says they hold on the running kernel: known there
    # even where its series spans both of the table's (a 6.6 kernel: stmmac's EBUSY while down)
    dated: frozenset[str] = frozenset()

    def has(self, op: str) -> bool:
        return op in self.ops

    def cite(self, key: str) -> str:
        return self.cites.get(key, "")

    def restarts(self, setting: str) -> bool:
        return setting in self.facts.get("restarts_on", [])

    def restart_unread(self, setting: str) -> str | None:
        """The set callback for `setting` where no one has read whether it restarts the
        interface (a driver with no hand facts, `restarts_unread`; audit 50: twelve such
        drivers' sets did restart), else None."""
        op = _SETTERS.get(setting)
        if not op or not self.facts.get("restarts_unread") or not self.has(op):
            return None
        return None if self.restarts(setting) else op

    def refuses_on(self, fact: str, chip: str | None) -> str | None:
        """The chip named in `fact` (e.g. "coalesce_refused_chips") that `chip` is, if any; a
        chip named in `fact`_except is not (r8169: the RTL8106eus is not the RTL8106e)."""
        squeezed = (chip or "").lower().replace(" ", "")
        if any(spared.lower() in squeezed for spared in self.facts.get(f"{fact}_except", [])):
            return None
        for refused in self.facts.get(fact, []):
            if squeezed and refused.lower() in squeezed:
                return str(refused)
        return None

    def queues_in_use(self, chip: str | None = None) -> tuple[int, int] | None:
        """(TX, RX) queues the board's hardware or device tree gives, where the table knows
        them for this chip (macb on RP1: 1 and 1), else the driver's default (stmmac without
        snps,tx-queues-to-use: 1 and 1), else None."""
        by_chip = self.facts.get("queues_by_chip", {})
        squeezed = (chip or "").lower().replace(" ", "")
        for name, counts in by_chip.items():
            if squeezed and name.lower() in squeezed:
                return int(counts["tx"]), int(counts["rx"])
        default = self.facts.get("queues_default")
        return (int(default["tx"]), int(default["rx"])) if default else None

    def single_tx_queue(self, chip: str | None = None, tx_in_use: int | None = None) -> bool:
        """Whether the net_device has one transmit queue (net-sysfs.c xps_cpus_store: ENOENT
        unless netif_is_multiqueue, i.e. num_tx_queues > 1): a single-queue allocation, or a
        driver that allocates only the queues in use (macb) with one in use: `tx_in_use` (the
        count seen, or the profile's), else the table's for the chip or the driver's default."""
        if self.multiqueue is False:
            return True
        allocated = self.facts.get("queues_allocated")
        if isinstance(allocated, dict):
            return int(allocated["tx"]) == 1
        if allocated == "in use":
            known = self.queues_in_use(chip)
            count = tx_in_use if tx_in_use is not None else (known[0] if known else None)
            return count == 1
        return False

    def mtu_max(self, chip: str | None = None) -> int | None:
        """The driver's max_mtu (`ip -d link`'s maxmtu; more is EINVAL, dev_validate_mtu): the
        chip's where it differs (r8152: RTL8152 1500, RTL8156B 16362; the longest name that
        `chip` contains), else the driver's default; None where the table does not know it (r8152
        without a chip)."""
        key = self.mtu_max_key(chip)
        return None if key is None else int(self.facts["mtu_max"][key])

    def mtu_max_key(self, chip: str | None = None) -> str | None:
        """The `mtu_max` entry that holds for `chip` (atlantic "(A0)", r8152 "RTL8152"), else
        "default", else None."""
        by_chip = self.facts.get("mtu_max")
        if not by_chip:
            return None
        squeezed = (chip or "").lower().replace(" ", "")
        names = [n for n in by_chip if n != "default" and squeezed and n.lower() in squeezed]
        if names:
            return str(max(names, key=len))
        return "default" if "default" in by_chip else None

    def mtu_max_cite(self, chip: str | None = None) -> str:
        """Where the chip's maximum comes from (atlantic A0: HW_ATL_A0_MTU_JUMBO)."""
        return self.cites.get(f"mtu_max:{self.mtu_max_key(chip)}") or self.cite("mtu_max")

    def ring_maxima(self) -> dict[str, int]:
        """Ring maxima read from get_ringparam, or written by hand where it reads them from
        the hardware's capabilities (atlantic)."""
        found = {k: int(v) for k, v in self.ring_max.items() if v}
        hand = self.facts.get("ring_max", {})
        return {**{k: int(v) for k, v in hand.items()}, **found}
