"""The lab's queues and channels held to the driver capability table
(resources/tuning/driver_caps.json): the TX/RX queues a driver gives its net_device, those it is
allocated with, ``ethtool -l``'s maxima and counts, and igb/igc's queue pairs (split from
ethtool_table.py)."""

from __future__ import annotations

from typing import Any

from sbctune.tuning import driver_caps
from sbctune.tuning.driver_caps import DriverCaps


def single_queue(driver: str, chip: str = "", queues: int | None = None) -> bool:
    """Whether the kernel gives the driver's net_device one transmit queue (xps_cpus: ENOENT):
    a single-queue allocation, or macb with one queue in use (`queues`: the profile's count;
    else the table's for the chip, RP1: 1)."""
    caps = driver_caps.caps(driver, None, chip) if driver else None
    return caps is not None and caps.single_tx_queue(chip, queues)


def driver_queues(
    driver: str,
    chip: str = "",
    cpus: int | None = None,
    queues: int | None = None,
    msix: bool = True,
) -> tuple[int, int] | None:
    """(TX, RX) queues the driver gives its net_device: 1 and 1 for a single-queue one, the
    hand-read counts where the source sets them (bcmgenet on GENET v5: 5 TX, 1 RX), one pair per
    CPU up to the MAC's maximum where the source says so (igb: I211 2, I210 4, else 8; igc 4),
    the board's where the device tree or the hardware decides (`queues`, the profile's count;
    else the table's: macb on RP1 1, stmmac without snps,tx-queues-to-use 1), None where the
    lab cannot know them and keeps veth's. `msix` False: the PCIe host gives no MSI-X
    (irq_model.pcie_msix), so igb and igc run one queue pair."""
    caps = driver_caps.caps(driver, None, chip) if driver else None
    if caps is None:
        return None
    vectors = caps.facts.get("irq_vectors") or {}
    if not msix and vectors.get("style") == "msix_link_then_queues":
        return 1, 1  # igb/igc_set_interrupt_capability without MSI-X: one MSI, one queue pair
    if queues and caps.facts.get("queues_allocated"):
        return queues, queues
    counts = caps.facts.get("queues")
    if counts:
        return int(counts["tx"]), int(counts["rx"])
    top = _rss_max(caps, chip)
    if top and caps.facts.get("rss_queues_per_cpu") and cpus:
        pairs = max(1, min(top, cpus))
        if caps.facts.get("rss_queues_pow2"):  # atlantic: rounddown_pow_of_two
            pairs = 1 << (pairs.bit_length() - 1)
        return pairs, pairs
    in_use = caps.queues_in_use(chip)
    if in_use:
        return in_use
    return (1, 1) if caps.multiqueue is False else None


def _rss_max(caps: DriverCaps, chip: str) -> int | None:
    """The MAC's most RSS queues (igb_get_max_rss_queues: I211 2, 82575/I210 4, else 8)."""
    maxima = caps.facts.get("rss_queues_max")
    if not maxima:
        return None
    squeezed = chip.lower().replace(" ", "")
    return next((int(n) for name, n in maxima.items() if name != "default"
                 and name.lower() in squeezed), int(maxima["default"]))  # fmt: skip


def channels_state(
    driver: str, chip: str, kernel: str, in_use: tuple[int, int] | None, msix: bool = True
) -> dict[str, Any] | None:
    """``ethtool -l``'s maxima and counts as the driver's get_channels gives them (None: no
    get_channels). igb/igc: combined = rss_queues (one per CPU up to the MAC's maximum), other
    = NON_Q_VECTORS (the MSI-X link vector), 0 without MSI-X (`msix` False), while their
    set_channels still asks for NON_Q_VECTORS ("other_required": so every -L is EINVAL there);
    stmmac: RX and TX in use, their maximum the hardware's (dma_cap), which the lab takes as
    the count in use."""
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    if caps is None or not caps.has("get_channels"):
        return None
    fact = caps.facts.get("channels", {})
    tx, rx = in_use or (1, 1)
    zero = dict.fromkeys(("rx", "tx", "other", "combined"), 0)
    required = caps.facts.get("channels_other_required")
    if fact.get("style") == "combined":
        other = int(fact.get("other", 0))
        if not msix and caps.facts.get("channels_other_needs_msix"):
            other = 0  # igb/igc_get_channels: other only with IGB/IGC_FLAG_HAS_MSIX
        top = _rss_max(caps, chip) or rx
        maxima, cur = (
            {**zero, "other": other, "combined": top},
            {**zero, "other": other, "combined": rx},
        )
    elif fact.get("style") == "separate":
        maxima = cur = {**zero, "rx": rx, "tx": tx}
        if caps.refuses_on("channels_max_zero_chips", chip):  # stmmac without dma_cap's counts
            maxima = dict(zero)
    else:  # get_channels without a hand-read fact: the lab cannot say, so claims nothing
        return None
    settable, restarts = caps.has("set_channels"), caps.restarts("channels")
    out = {"max": maxima, "cur": dict(cur), "style": fact["style"],
           "settable": settable, "restarts": restarts}  # fmt: skip
    if required is not None:
        out["other_required"] = int(required)
    return out


def driver_queues_allocated(
    driver: str, chip: str = "", cpus: int | None = None, queues: int | None = None
) -> tuple[int, int] | None:
    """(TX, RX) queues the net_device is allocated with, where more than those in use (stmmac:
    MTL_MAX_TX_QUEUES, 8, whatever the device tree uses: so XPS works on one queue in use;
    igb 8, igc 4 whatever the MAC, so ``ethtool -L`` can use more)."""
    caps = driver_caps.caps(driver, None, chip) if driver else None
    allocated = caps.facts.get("queues_allocated") if caps else None
    if caps and not isinstance(allocated, dict):  # igb/igc: room for ethtool -L's counts
        allocated = caps.facts.get("netdev_queues_allocated")
    if isinstance(allocated, dict):
        return int(allocated["tx"]), int(allocated["rx"])
    return driver_queues(driver, chip, cpus, queues)


def queue_pairs(state: dict[str, Any], driver: str, chip: str = "", kernel: str = "") -> None:
    """igb/igc: whether one vector serves a TX and an RX queue (igb/igc_set_flag_queue_pairs:
    more RSS queues than half the MAC's maximum, never on the 82575 or I211), which changes
    what -c shows and -C accepts for tx-usecs; `state` is the interface's, its channels set."""
    caps = driver_caps.caps(driver, kernel or None, chip) if driver else None
    rule = caps.facts.get("coalesce_queue_pairs") if caps else None
    co, ch = state.get("coalesce"), state.get("channels")
    if not rule or co is None or ch is None:
        return
    squeezed = chip.lower().replace(" ", "")
    exempt = any(name.lower() in squeezed for name in rule.get("unpaired_chips", []) if squeezed)
    paired = not exempt and int(ch["cur"]["combined"]) > int(ch["max"]["combined"]) // 2
    co["pairs"] = {"tx-usecs": rule["tx-usecs"], "paired": paired, "exempt": exempt}
