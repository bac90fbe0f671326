"""Issue 21, audit15 (resources/tuning/driver_caps_audit15.md).

Row W: when /sys/devices/system/cpu/online could not be read, plan_rps, plan_xps and
plan_irq_affinity said "the Pi has one CPU core" as if it had been read (Context.cpus() gives []
for an unread list, and an empty list is "fewer than two"). They now say what was read: one CPU
online (which one, from where), or that the list was not read / could not be read / was not a
CPU list, and what to do. The source rule's "one CPU core" names what gave the inventory's
count (/proc/cpuinfo, /sys/devices/system/cpu/present, /proc/interrupts, or the board's
specification when nothing on the Pi said it).

Row 1 (chip variants inside stmmac): the RX watchdog (rx-usecs) is used only from core 3.50
unless the glue turns it off (stmmac_hw_init: use_riwt); the Allwinner EMAC's glue sets
synopsys_id 0 (dwmac-sun8i.c sun8i_dwmac_setup), so on the H3/H5/H6/A64/V3s/A83T/R40
__stmmac_get_coalesce shows rx-usecs 0 and __stmmac_set_coalesce does not keep a new one. The
lab modelled the watchdog on every stmmac chip (rx-usecs 327, a new value kept).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.raw import RawOutputs
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, source_rule
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.knobs import parse_cpu_list
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts, Read

ONLINE = "/sys/devices/system/cpu/online"
KERNEL_TWEAKS = ("rps-rfs", "xps", "irq-affinity")
# The shape of a Pi 1's /proc/cpuinfo (one processor block; the kernel's cpuinfo format)
PI1_CPUINFO = "processor\t: 0\nmodel name\t: ARMv6-compatible processor rev 7\nRevision\t: 000e\n"


def _facts(online: Read | None) -> Facts:
    """A Pi with two queues each way and bcmgenet's two movable lines; `online` as given
    (None: not read at all)."""
    found = Facts("eth0")
    knobs = {"/proc/irq/38/smp_affinity": "f", "/proc/irq/39/smp_affinity": "f"}
    for queue in range(2):
        for name in (f"rx-{queue}/rps_cpus", f"rx-{queue}/rps_flow_cnt", f"tx-{queue}/xps_cpus"):
            knobs[f"/sys/class/net/eth0/queues/{name}"] = "0"
    found.knobs = {path: Read(True, value) for path, value in knobs.items()}
    if online is not None:
        found.knobs[ONLINE] = online
    return found


def _plan(tweak_id: str, online: Read | None) -> PlannedTweak:
    # The inventory does not count the cores (a bundle without cpuinfo), so the source rule
    # leaves the answer to the planner, which reads the Pi's online list
    nic = Nic(name="eth0", driver="bcmgenet", bus="platform", irqs=[38, 39])
    inventory = Inventory(board=Board(model="Raspberry Pi 4 Model B Rev 1.5"), nics=[nic])
    tweak = catalog.tweak(tweak_id)
    ctx = Context(tweak, _facts(online), inventory, nic, {}, {}, (tweak_id,))
    return PLANNERS[tweak.kind](ctx)


UNREAD = [
    (Read(False, f"cat: {ONLINE}: Permission denied"), "could not be read (Permission denied)"),
    (Read(False, f"cat: {ONLINE}: No such file or directory"), "could not be read (No such"),
    (None, "was not read"),
    (Read(True, "banana"), "is not a CPU list"),
    (Read(True, ""), "is not a CPU list"),
]


@pytest.mark.parametrize("tweak_id", KERNEL_TWEAKS)
@pytest.mark.parametrize(("online", "words"), UNREAD)
def test_an_unread_cpu_list_is_not_called_one_core(
    tweak_id: str, online: Read | None, words: str
) -> None:
    item = _plan(tweak_id, online)
    assert not item.applicable, item
    assert "one CPU core" not in item.reason, item.reason
    assert words in item.reason and ONLINE in item.reason, item.reason
    assert "is not known" in item.reason and "plan again" in item.reason, item.reason


@pytest.mark.parametrize("tweak_id", KERNEL_TWEAKS)
def test_one_cpu_online_says_which_and_where_from(tweak_id: str) -> None:
    item = _plan(tweak_id, Read(True, "0"))
    assert not item.applicable
    assert item.reason.startswith(f"the Pi has one CPU core online (CPU 0, from {ONLINE})")


@pytest.mark.parametrize("tweak_id", KERNEL_TWEAKS)
def test_four_cpus_online_still_plan(tweak_id: str) -> None:
    item = _plan(tweak_id, Read(True, "0-3"))
    assert item.applicable and item.changes, item.reason


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_online_text_is_one_core_only_when_it_lists_one(text: str) -> None:
    item = _plan("rps-rfs", Read(True, text))
    cpus = parse_cpu_list(text)
    assert ("one CPU core online" in item.reason) == (len(cpus) == 1), (text, item.reason)
    if not cpus:
        assert "is not a CPU list" in item.reason and not item.applicable


@pytest.mark.parametrize(
    ("files", "source"),
    [
        ({"/proc/cpuinfo": PI1_CPUINFO}, "processors in /proc/cpuinfo"),
        ({ONLINE.replace("online", "present"): "0\n"}, "/sys/devices/system/cpu/present"),
        ({"/proc/device-tree/model": "Raspberry Pi Model B Rev 2\x00"}, "CPU list was not read"),
    ],
)
def test_the_source_rules_one_core_names_what_gave_the_count(
    files: dict[str, str], source: str
) -> None:
    inventory = inventory_from_raw(RawOutputs(files=files))
    assert inventory.board.cpu_cores == 1, inventory.board
    nic = Nic(name="eth0", driver="bcmgenet", bus="platform", irqs=[38, 39])  # five TX queues
    for tweak_id in KERNEL_TWEAKS:
        why = source_rule.out_of_reach(tweak_id, inventory, nic) or ""
        assert why.startswith("the Pi has one CPU core (") and source in why, (tweak_id, why)


# --- row 1: stmmac's RX watchdog by chip --------------------------------------------------

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
root = pytest.mark.skipif(
    getattr(os, "geteuid", lambda: -1)() != 0, reason="ethtool's sets need root, as on a Pi"
)
# each chip as the inventory names it: the device tree's compatible
SUN8I = ("allwinner,sun8i-h3-emac", "allwinner,sun50i-a64-emac", "allwinner,sun50i-h6-emac")
WATCHDOG = ("rockchip,rk3568-gmac", "RK3588")


def _lab(tmp_path: Path, chip: str, kernel: str) -> str:
    path = tmp_path / f"{chip.replace(',', '_')}-{kernel}.json"
    iface = interface_state("stmmac", EMPTY, "eth0", chip, kernel)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    return str(path)


def _coalesce(state: str) -> dict[str, str]:
    result = fake_ethtool.run(["-c", "eth0"], state)
    assert result is not None and result[2] == 0, result
    pairs = (line.split(":", 1) for line in result[0].splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.38+deb13-arm64"])
@pytest.mark.parametrize("chip", SUN8I + WATCHDOG)
def test_stmmac_rx_usecs_is_the_watchdogs_only_where_the_chip_uses_it(
    tmp_path: Path, chip: str, kernel: str
) -> None:
    shown = _coalesce(_lab(tmp_path, chip, kernel))
    if chip in SUN8I:
        assert (shown["rx-usecs"], shown["rx-frames"]) == ("0", "0"), shown
    else:  # DEF_DMA_RIWT 0xa0 at 125 MHz: 160 * 256 / 125
        assert shown["rx-usecs"] == "327", shown
    assert shown["tx-usecs"] != "0", shown  # the TX timer is every chip's


@root
@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@pytest.mark.parametrize("chip", SUN8I + WATCHDOG)
def test_a_new_rx_usecs_is_kept_only_with_the_watchdog(tmp_path: Path, chip: str) -> None:
    state = _lab(tmp_path, chip, "6.12.38+deb13-arm64")
    result = fake_ethtool.run(["-C", "eth0", "rx-usecs", "100", "rx-frames", "8"], state)
    assert result is not None and result[2] == 0, result  # accepted either way
    shown = _coalesce(state)
    if chip in SUN8I:
        assert (shown["rx-usecs"], shown["rx-frames"]) == ("0", "0"), shown
    else:  # 100 us -> RIWT 48 -> 98 us
        assert (shown["rx-usecs"], shown["rx-frames"]) == ("98", "8"), shown


@pytest.mark.parametrize("chip", SUN8I + WATCHDOG)
def test_irq_coalescing_is_not_possible_on_an_emac_without_the_watchdog(chip: str) -> None:
    nic = Nic(name="eth0", driver="stmmac", bus="platform", chip=chip, link_speed_mbps=1000)
    inventory = Inventory(board=Board(kernel="6.12.38+deb13-arm64", cpu_cores=4), nics=[nic])
    why = source_rule.out_of_reach("irq-coalescing", inventory, nic)
    if chip in SUN8I:
        assert why is not None and "no receive interrupt timer" in why, why
        assert "dwmac-sun8i.c" in why and "not possible" in why, why
    else:
        assert why is None, why


# --- row 2: r8152's coalescing default by chip -----------------------------------------------


def _r8152(tmp_path: Path, chip: str) -> str:
    path = tmp_path / f"r8152-{chip.replace('/', '_')}.json"
    iface = interface_state("r8152", EMPTY, "eth0", chip, "6.12.38+deb13-arm64")
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    return str(path)


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@pytest.mark.parametrize(
    ("chip", "rx_usecs"),
    [
        ("RTL8153", "85000"),  # r8153_init on USB 3: COALESCE_SUPER
        ("RTL8153B", "15000"),  # r8153b_init
        ("RTL8153C", "15000"),  # r8153c_init
        ("RTL8156", "15000"),  # r8156_init
        ("RTL8156B", "15000"),  # r8156b_init
        ("Realtek RTL8156B 2.5G", "15000"),
        # usb.ids' name for 0bda:8153 names both chips: neither default is claimed
        ("Realtek RTL8153/RTL8153B", "85000"),
    ],
)
def test_r8152_shows_the_coalescing_its_chips_init_writes(
    tmp_path: Path, chip: str, rx_usecs: str
) -> None:
    assert _coalesce(_r8152(tmp_path, chip))["rx-usecs"] == rx_usecs


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
def test_irq_coalescing_on_an_rtl8156_lab_changes_the_15_us_default(tmp_path: Path) -> None:
    """What the user gets: on an RTL8153 (85 us) rx-usecs is already above the tweak's 50 us,
    on an RTL8156 (15 us) it is raised to 50 us. Before, the lab showed 85000 for every chip."""
    plans = {}
    for chip in ("RTL8153", "RTL8156"):
        result = fake_ethtool.run(["-c", "eth0"], _r8152(tmp_path, chip))
        assert result is not None
        nic = Nic(name="eth0", driver="r8152", bus="usb", chip=chip, link_speed_mbps=1000)
        inventory = Inventory(board=Board(kernel="6.12.38+deb13-arm64", cpu_cores=4), nics=[nic])
        found = Facts("eth0")
        found.steps["ethtool -c"] = StepResult(batch.Step(("true",), "ethtool -c"), 0,
                                               result[0].encode(), b"")  # fmt: skip
        found.steps["ssh-route"] = StepResult(batch.Step(("true",), "ssh-route"), 0,
                                              b'[{"dev": "wlan9"}]', b"")  # fmt: skip
        tweak = catalog.tweak("irq-coalescing")
        ctx = Context(tweak, found, inventory, nic, {}, {}, (tweak.id,))
        plans[chip] = PLANNERS[tweak.kind](ctx)
    # the planner keeps a change whose value is already in place (apply calls it already set)
    assert all(c.before == c.after == "85000" for c in plans["RTL8153"].changes), plans
    (change,) = plans["RTL8156"].changes
    assert (change.before, change.after) == ("15000", "50000"), change


# --- row 3: stmmac's EEE by chip -------------------------------------------------------------


@pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
@pytest.mark.parametrize("chip", SUN8I + WATCHDOG)
def test_eee_is_not_supported_on_an_emac_without_the_hw_feature_register(
    tmp_path: Path, chip: str
) -> None:
    """stmmac_ethtool_op_get_eee/_set_eee: EOPNOTSUPP without dma_cap.eee, which the Allwinner
    EMAC (no get_hw_feature in sun8i_dwmac_dma_ops) never fills."""
    state = _lab(tmp_path, chip, "6.12.38+deb13-arm64")
    shown = fake_ethtool.run(["--show-eee", "eth0"], state)
    assert shown is not None
    nic = Nic(name="eth0", driver="stmmac", bus="platform", chip=chip, link_speed_mbps=1000)
    inventory = Inventory(board=Board(kernel="6.12.38+deb13-arm64", cpu_cores=4), nics=[nic])
    why = source_rule.out_of_reach("eee-off", inventory, nic)
    if chip in SUN8I:
        assert shown[2] != 0 and "Operation not supported" in " ".join(shown[1]), shown
        assert why is not None and "EOPNOTSUPP" in why and "dma_cap" not in why, why
        assert "stmmac_ethtool_op_get_eee" in why, why
    else:
        assert shown[2] == 0 and "EEE status" in shown[0], shown
        assert why is None, why
