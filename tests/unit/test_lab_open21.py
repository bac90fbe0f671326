"""Issue 21, open21: one rule for "can this NIC take this tweak".

Results' advice asked driver_caps.tweak_out_of_reach (only: does the driver have the ethtool
op?) while the Tune page's planners decided from the driver table's ranges, the chip, the board
and the inventory. Where they disagreed, Results recommended a tweak the Tune page called "not
applicable": XPS on every single-queue driver (r8169, r8152, smsc95xx, lan78xx ...), RPS, XPS
and IRQ moves on a one-core Pi 1, flow control beyond lan78xx, the over-clock on a Pi 1, MTU 9000
above the driver's max_mtu, r8169 coalescing on the PCI RTL8169 that never reads back as
written. Here every lab profile and every driver of driver_caps.json (each chip the table names,
three boards, MTU 1500 and 9000) is planned against a Pi that refuses nothing (real captures
below), and what the advice recommends is held against what the planner refuses.
"""

from __future__ import annotations

import datetime as dt
import json
from functools import lru_cache
from pathlib import Path

import pytest

from sbctune.advice import advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.knowledge import load_knowledge
from sbctune.advice.measured_base import Measured, NicAdvisorBase
from sbctune.advice.nic_label import label
from sbctune.advice.runs import NicRuns
from sbctune.catalog import load_catalog
from sbctune.history.records import RunRecord, TestRecord
from sbctune.inventory.model import Board, Inventory, Nic, Recommendation
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak, TuningPlan
from sbctune.tuning.probe import Facts, Read, sysctl_path
from tests.plan_one import pi_answer
from tests.unit.test_advice_in_force import LOSSY

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "resources" / "lab" / "profiles"
CAPTURES = ROOT / "tests" / "captures"
# What the Pi answers, each a real capture (its .source.md beside it names the thread):
SHOWN = {
    # igb, rings below their maxima: github.com/CumulusNetworks/ifupdown2/pull/256
    "ethtool -g": "ethtool_g/ifupdown2_255_max.txt",
    # rx-usecs 3: github.com/redhat-performance/tuned/issues/726
    "ethtool -c": "ethtool_c/tuned_726_enp1s0.txt",
    # every offload on and changeable: github.com/firewalla/firerouter/pull/649
    "ethtool -k": "ethtool_k/firewalla_purple_eth1.txt",
    # pause: github.com/raspberrypi/linux/issues/2449
    "ethtool -a": "ethtool_a/pi3bplus_lan78xx_switch_fc_off_2449.txt",
    # EEE enabled and active: github.com/raspberrypi/linux/issues/2882
    "ethtool --show-eee": "ethtool_eee/pi3bplus_lan78xx_enabled_active_2882.txt",
}
# What only the Pi can tell, which the planner keeps (each a class, not a case): the
# coalescing mode code igb/igc read back ("rx-usecs 3 is igb's adaptive ... already"), the
# interrupts /proc/interrupts shows for the NIC (a bundle without it shows none), and the board
# a bundle without /proc/device-tree/model does not name.
PI_TELLS = ("adaptive interrupt moderation", "no interrupt of this NIC was found",
            "(this board: not recognised)")  # fmt: skip
BOARDS = (
    Board(model="Raspberry Pi 4 Model B Rev 1.5", kernel="6.1.0-rpi7-rpi-v8", cpu_cores=4,
          catalog_id="pi4b"),
    Board(model="Raspberry Pi 5 Model B Rev 1.0", kernel="6.12.25+rpt-rpi-2712", cpu_cores=4,
          catalog_id="pi5"),
    Board(model="Raspberry Pi Model B Rev 2", kernel="6.1.21+", cpu_cores=1, catalog_id="pi1b"),
)  # fmt: skip


def kind_pi(inventory: Inventory, nic: Nic) -> Facts:
    """A Pi that refuses nothing: every knob readable, two queues each way, the SSH session
    over another NIC, a config.txt, the captures above for ethtool."""
    found = Facts(nic.name)
    cores = inventory.board.cpu_cores or 4
    knobs = {
        "/sys/devices/system/cpu/online": "0" if cores == 1 else f"0-{cores - 1}",
        "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor": "ondemand",
        "/sys/devices/system/cpu/cpufreq/policy0/scaling_available_governors": "ondemand "
        "performance",
        sysctl_path("net.core.rps_sock_flow_entries"): "0",
        f"/sys/class/net/{nic.name}/mtu": str(nic.mtu or 1500),
        **{f"/proc/irq/{irq}/smp_affinity": "1" for irq in nic.irqs},
        **{
            sysctl_path(k): "4096\t16384\t16384" if k.endswith("mem") and "ipv4" in k else "1000"
            for k in catalog.tweak("socket-buffers").params["values"]
        },
    }
    for queue in range(2):
        for name in ("rx-{q}/rps_cpus", "rx-{q}/rps_flow_cnt", "tx-{q}/xps_cpus"):
            knobs[f"/sys/class/net/{nic.name}/queues/{name.format(q=queue)}"] = "0"
    found.knobs = {path: Read(True, value) for path, value in knobs.items()}
    for key, path in SHOWN.items():
        found.steps[key] = pi_answer(key, (CAPTURES / path).read_text(encoding="utf-8"))
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": "wlan9"}]))
    found.steps["ip-link"] = pi_answer("ip-link", "[{}]")
    found.steps["systemd"] = pi_answer("systemd", "")
    found.steps["/boot/firmware/config.txt"] = pi_answer("/boot/firmware/config.txt", "[all]\n")
    cmdline = "/boot/firmware/cmdline.txt"
    found.steps[cmdline] = pi_answer(cmdline, "console=tty1 root=/dev/mmcblk0p2\n")
    return found


def not_applicable(inventory: Inventory, nic: Nic) -> dict[str, str]:
    """What the Tune page marks not applicable or not possible (never a change held for the
    user's consent): tweak id -> the planner's reason."""
    found = kind_pi(inventory, nic)
    tweaks = catalog.load_tweaks()
    selected = tuple(t.id for t in tweaks)
    options = {"path_supports_jumbo": True}
    out = {}
    for tweak in tweaks:
        ctx = Context(tweak, found, inventory, nic, dict(options), {}, selected)
        item = PLANNERS[tweak.kind](ctx)
        if not item.applicable and not item.needs_link_consent:
            out[tweak.id] = item.reason
    return out


def recommended(inventory: Inventory, nic: Nic) -> set[str]:
    """Every tweak the advice could name for this NIC: each measured bottleneck's tweaks, and
    each tweak in a recommendation of its own (the static, measured and aggregate checks that
    name fixed tweaks: RPS, the over-clock, the governor, jumbo frames ...), through advise()'s
    last step."""
    from sbctune.advice.reach import within_reach

    knowledge, shop = load_knowledge(), load_catalog()
    out = Measured()
    advisor = NicAdvisorBase(inventory, nic, NicRuns(nic.name), shop, knowledge, out)
    for bottleneck in knowledge.tweaks_for:
        advisor.tweaks(bottleneck, [])
    alone = [Recommendation("tweak", label(nic), f"Tune the Pi: {t.id}", "", "", tweak_ids=[t.id])
             for t in catalog.load_tweaks()]  # fmt: skip
    recs = within_reach([*out.recommendations, *alone], inventory)
    return {t for rec in recs if rec.kind == "tweak" for t in rec.tweak_ids}


@lru_cache(maxsize=1)
def _chips() -> dict[str, list[str]]:
    """Each chip the table names for a driver (its by-chip facts and chip lists)."""
    found: dict[str, set[str]] = {}
    for driver, facts in driver_caps.table()["hand"].items():
        chips = found.setdefault(driver, set())
        for fact in facts:
            name, value = fact["fact"], fact["value"]
            if name.endswith(("_chips", "_chips_except", "_chips_only")):
                chips |= set(value.get("chips", []) if isinstance(value, dict) else value)
            if name.endswith("_by_chip") or name == "mtu_max":
                chips |= set(value) if isinstance(value, dict) else set()
    return {d: sorted(c - {"default"}) for d, c in found.items()}


def driver_cases(driver: str) -> list[tuple[Inventory, Nic]]:
    cases = []
    for board in BOARDS:
        for chip in (None, *_chips().get(driver, [])):
            for mtu in (1500, 9000):
                nic = Nic("eth0", driver=driver, chip=chip, mtu=mtu, link_speed_mbps=1000,
                          irqs=[40])  # fmt: skip
                cases.append((Inventory(board=board, nics=[nic]), nic))
    return cases


def profile_cases(name: str) -> list[tuple[Inventory, Nic]]:
    inventory = inspect_bundle(PROFILES / name)
    return [(inventory, nic) for nic in inventory.nics if nic.name]


def _clashes(cases: list[tuple[Inventory, Nic]]) -> list[str]:
    found = []
    for inventory, nic in cases:
        refused = not_applicable(inventory, nic)
        for tweak_id in sorted(recommended(inventory, nic)):
            why = refused.get(tweak_id)
            if why is not None and not any(words in why for words in PI_TELLS):
                found.append(f"{nic.driver} {nic.chip} MTU {nic.mtu} on "
                             f"{inventory.board.catalog_id}: {tweak_id}: {why[:120]}")  # fmt: skip
    return found


@pytest.mark.parametrize("name", sorted(p.name for p in PROFILES.iterdir() if p.is_dir()))
def test_no_profile_is_recommended_a_tweak_its_tune_page_refuses(name: str) -> None:
    assert not _clashes(profile_cases(name))


@pytest.mark.parametrize("driver", sorted(driver_caps.table()["drivers"]))
def test_no_driver_is_recommended_a_tweak_its_tune_page_refuses(driver: str) -> None:
    assert not _clashes(driver_cases(driver))


@pytest.mark.parametrize("driver", sorted(driver_caps.table()["pasted"]))
def test_the_planner_refuses_in_the_rules_own_words(driver: str) -> None:
    """One rule: where the source rule settles it, the planner's reason is the rule's."""
    from sbctune.tuning.source_rule import out_of_reach

    for inventory, nic in driver_cases(driver):
        refused = not_applicable(inventory, nic)
        for tweak in catalog.load_tweaks():
            why = out_of_reach(tweak.id, inventory, nic, {"path_supports_jumbo": True})
            if why is not None:
                assert refused.get(tweak.id) == why, (driver, nic.chip, tweak.id)


# --- what a user sees: Results after a measured run ---------------------------------------


def test_losing_segments_on_a_pi5_is_not_told_to_turn_on_flow_control() -> None:
    """flow-control is planned only for lan78xx (tweaks.json); Results named it for macb."""
    nic = Nic(name="eth0", driver="macb", bus="platform", link_speed_mbps=1000)
    inventory = Inventory(board=BOARDS[1], nics=[nic])
    recs = advise(inventory, [LOSSY], load_catalog()).recommendations
    named = {t for r in recs if r.kind == "tweak" for t in r.tweak_ids}
    assert "socket-buffers" in named and "flow-control" not in named
    card = next(r for r in recs if "for this bottleneck" in r.title)
    assert "flow control" not in (card.title + card.detail).lower(), card
    assert "only for NICs known to need it" in not_applicable(inventory, nic)["flow-control"]


def test_inspect_of_a_one_core_pi_does_not_offer_rps() -> None:
    """The static advice (inspect) passes the same rule: a Pi 1 has one core to spread to."""
    nic = Nic(name="eth0", driver="smsc95xx", bus="usb", irqs=[40])
    inventory = Inventory(board=BOARDS[2], nics=[nic])
    from sbctune.advice.reach import within_reach

    rps = Recommendation("tweak", "eth0", "Spread receive processing over all cores (RPS)", "",
                         "", tweak_ids=["rps-rfs"])  # fmt: skip
    assert within_reach([rps], inventory) == []
    assert "one CPU core" in not_applicable(inventory, nic)["rps-rfs"]


def test_jumbo_frames_on_a_pi5_are_advised_without_the_tweak_tune_refuses() -> None:
    """macb takes a new MTU only while down (macb_change_mtu: EBUSY when running): the Tune
    page refuses mtu-jumbo on the running link, so Results advises the setting without it."""
    nic = Nic("eth0", driver="macb", chip="Cadence GEM in RP1 (Pi 5 Ethernet MAC)",
              bus="platform", link_speed_mbps=1000, mtu=1500)  # fmt: skip
    inventory = Inventory(board=BOARDS[1], nics=[nic])
    run = RunRecord(
        1, dt.datetime(2026, 11, 29, tzinfo=dt.timezone.utc), "quick", nic="eth0", id=1,
        complete=True,
        tests=[TestRecord(direction=d, mode="half", mean_mbps=940.0)
               for d in ("pi_to_pc", "pc_to_pi")],
    )  # fmt: skip
    recs = advise(inventory, [run], load_catalog()).recommendations
    (jumbo,) = [r for r in recs if r.title.startswith("Use jumbo frames")]
    assert jumbo.tweak_ids == [] and "network configuration" in jumbo.detail
    assert "running link" in not_applicable(inventory, nic)["mtu-jumbo"]


# --- audit rows closed by a source (resources/tuning/driver_caps_audit10.md, s18-open21) ---


def test_lan78xx_tso_and_eee_branches_follow_the_openwrt_exports() -> None:
    """OpenWrt's bcm27xx patch folders are the Raspberry Pi branches' commits as patches:
    'net: lan78xx: Disable TCP Segmentation Offload (TSO)' is patches-6.6 950-0125
    (https://github.com/openwrt/openwrt/blob/3a52ed5d1457cc101a3ecb879365270c2c00d67f/target/linux/bcm27xx/patches-6.6/950-0125-net-lan78xx-Disable-TCP-Segmentation-Offload-TSO.patch)
    and patches-6.12 950-0094 (openwrt/openwrt@30e4d76b); the device-tree EEE start is
    patches-6.6 950-0120, 0127 and 0134. rpi-6.1.y, and EEE on rpi-6.12.y, stay unknown."""
    facts = {f["fact"]: f for f in driver_caps.table()["hand"]["lan78xx"]
             if f.get("tree") == driver_caps.RPI_TREE}  # fmt: skip
    tso, eee = facts["features_fixed_off"], facts["eee_by_chip"]
    assert tso["rpi_series"]["branches"] == {
        "rpi-6.1.y": "unknown", "rpi-6.6.y": "carried", "rpi-6.12.y": "carried"}  # fmt: skip
    assert eee["rpi_series"]["branches"] == {
        "rpi-6.1.y": "unknown", "rpi-6.6.y": "carried", "rpi-6.12.y": "unknown",
        "rpi-6.18.y": "not carried"}  # fmt: skip
    # rpi-6.18.y: reverted by raspberrypi/linux #7295 (a 6.18.33+rpt Pi 3 B+ shows 50 us: audit 34a)
    assert driver_caps.rpi_carried(eee, "6.18.33+rpt-rpi-v7") is False
    assert driver_caps.rpi_carried(tso, "6.12.25+rpt-rpi-v8") is True
    assert driver_caps.rpi_carried(eee, "6.6.51+rpt-rpi-v8") is True
    assert driver_caps.rpi_carried(eee, "6.12.25+rpt-rpi-v8") is None  # never denied
    assert any("patches-6.12/950-0094" in s for s in tso["rpi_series"]["sources"])
    assert any("patches-6.6/950-0127" in s for s in eee["rpi_series"]["sources"])


@pytest.mark.parametrize("cores_known", [True, False])
def test_a_one_core_pi_without_nic_interrupts_is_told_one_core(cores_known: bool) -> None:
    """walk18, pi1b-smsc95xx: the IRQ row said "no interrupt found in /proc/interrupts" where
    the one core settles it (the source rule's, or the Pi's own online CPUs when the inventory
    does not count them)."""
    nic = Nic(name="eth0", driver="smsc95xx", bus="usb")  # no interrupt of its own seen
    board = BOARDS[2] if cores_known else Board(model=BOARDS[2].model, kernel=BOARDS[2].kernel)
    inventory = Inventory(board=board, nics=[nic])
    found = kind_pi(Inventory(board=BOARDS[2], nics=[nic]), nic)  # the Pi: CPU 0 online
    tweak = catalog.tweak("irq-affinity")
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak.id,)))
    # the words say what gave the count (audit15): the inventory's (this Board names no
    # source) or the Pi's online list, read by the planner
    online = "online (CPU 0, from /sys/devices/system/cpu/online)"
    words = "the Pi has one CPU core" + ("" if cores_known else f" {online}")
    assert not item.applicable and item.reason == words, item.reason


def _planned(inventory: Inventory, nic: Nic, tweak_id: str) -> PlannedTweak:
    tweak = catalog.tweak(tweak_id)
    found = kind_pi(inventory, nic)
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak_id,)))


@pytest.mark.parametrize(
    ("driver", "tweak_id", "words"),
    [
        ("macb", "flow-control", "only for NICs known to need it"),
        ("igb", "irq-coalescing", "adaptive interrupt moderation"),  # the capture: rx-usecs 3
    ],
)
def test_a_tweak_not_needed_here_is_not_called_impossible(
    driver: str, tweak_id: str, words: str
) -> None:
    """walk18: flow control on macb ("only for NICs known to need it") and igb's coalescing
    ("rx-usecs 3 is adaptive already") were badged "not possible here": the Pi could take
    them, they are not needed. The planner says which (not_needed), tune plan and its --json
    alike; a refusal stays "not possible here"."""
    from sbctune.cli.tune_plan_text import plan_lines

    nic = Nic(name="eth0", driver=driver, link_speed_mbps=1000, irqs=[40])
    inventory = Inventory(board=BOARDS[1], nics=[nic])
    item = _planned(inventory, nic, tweak_id)
    assert not item.applicable and words in item.reason, item.reason
    assert item.not_needed and item.to_json()["not_needed"] is True
    line = next(x for x in plan_lines(TuningPlan("eth0", [item])) if x.startswith(item.tweak.title))
    assert ": not needed here  [" in line, line
    refused = _planned(inventory, Nic("eth0", driver="r8169", link_speed_mbps=1000), "xps")
    assert not refused.applicable and not refused.not_needed
    line = next(x for x in plan_lines(TuningPlan("eth0", [refused])) if x.startswith("Transmit"))
    assert ": not possible here  [" in line, line
