"""For every seed, the top recommendation is the seed author's own conclusion, with its figures.

Inventories come from the real captures (the lab profile bundles, tests/captures/bundles);
RunRecords hold the seed's own measured figures, each marked with the table it comes from.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sbctune.advice import Advice, advise
from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog import load_catalog
from sbctune.catalog.kernel_drivers import chip_by_speed
from sbctune.history.records import Direction, Mode, RunRecord, TestRecord
from sbctune.inventory.model import Inventory, Nic
from tests.lab_profiles import served_bundle

ROOT = Path(__file__).resolve().parents[2]
PROFILES = ROOT / "resources" / "lab" / "profiles"
BUNDLES = ROOT / "tests" / "captures" / "bundles"


def _run(nic: str, figures: dict[tuple[Direction, Mode], float], run_id: int = 1) -> RunRecord:
    return RunRecord(
        device_id=1,
        started_at=dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc),
        plan_name="thorough",
        nic=nic,
        complete=True,
        id=run_id,
        tests=[TestRecord(direction=d, mode=m, mean_mbps=v) for (d, m), v in figures.items()],
    )


def _advise(inventory: Inventory, *runs: RunRecord) -> Advice:
    return advise(inventory, list(runs), load_catalog())


def _ids(advice: Advice) -> list[str]:
    return [f.id for f in advice.findings]


def test_seed_000_ax88179_on_a_pi4_gets_the_rtl8153() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-ax88179")
    inventory.nic("eth1").link_speed_mbps = 1000  # type: ignore[union-attr]  # UGREEN, gigabit
    # Seed 000, "ASIX ax88179" results table, 1500 Mhz row: half 736 / 949, full 163 / 902.
    run = _run(
        "eth1",
        {
            ("pi_to_pc", "half"): 736,
            ("pc_to_pi", "half"): 949,
            ("pi_to_pc", "full"): 163,
            ("pc_to_pi", "full"): 902,
        },
    )
    advice = _advise(inventory, run)
    top = advice.top
    assert top is not None and top.kind == "adapter"
    assert "RTL8153" in top.title
    assert "736" in top.expected_gain and "949" in top.expected_gain
    assert "much better suited" in top.detail and "163" in top.detail
    assert {"asymmetric", "full-duplex-collapse"} <= set(_ids(advice))
    collapse = next(f for f in advice.findings if f.id == "full-duplex-collapse")
    assert any("1065" in line and "1685" in line for line in collapse.evidence)
    # The over-clock the seed measured (736 -> 834) is offered, below the adapter.
    titles = [r.title for r in advice.recommendations]
    assert titles.index("Raise the CPU clock (over-clock)") > 0


def test_seed_000_rtl8153_is_not_told_to_change_adapter() -> None:
    inventory = inspect_bundle(PROFILES / "pi4-rtl8153")
    inventory.nic("eth1").link_speed_mbps = 1000  # type: ignore[union-attr]
    # Seed 000, "Realtek rtl8153a-4" table, 2000 row: half 949 / 949, full 743 / 908.
    run = _run(
        "eth1",
        {
            ("pi_to_pc", "half"): 949,
            ("pc_to_pi", "half"): 949,
            ("pi_to_pc", "full"): 743,
            ("pc_to_pi", "full"): 908,
        },
    )
    advice = _advise(inventory, run)
    assert "at-physical-limit" in _ids(advice)
    assert "full-duplex-collapse" not in _ids(advice)  # 1651 of 1898: a drop, not a collapse
    assert all("RTL8153" not in r.title for r in advice.recommendations)


def test_seed_001_pi1_is_at_the_limit_of_100m_ethernet() -> None:
    inventory = inspect_bundle(PROFILES / "pi1b-smsc95xx")
    # Seed 001, "Peak LAN transfer rate 11.2 MiB/sec (94Mbps)": the LAN wget, PC -> Pi only.
    advice = _advise(inventory, _run("eth0", {("pc_to_pi", "half"): 94}))
    top = advice.top
    assert top is not None and top.kind == "board"
    assert "94 Mbit/s is the maximum of 100 Mbit/s Ethernet" in top.title
    assert "USB 2.0 controller behind it is the bottleneck" in top.detail
    assert "No tuning" in top.detail
    limit = next(f for f in advice.findings if f.id == "at-physical-limit")
    assert "94.1 Mbit/s is the most TCP can carry over 100 Mbit/s" in limit.summary
    assert any("1448/1538" in line for line in limit.evidence)


def _trials(nic: str, trials: dict[Direction, list[float]]) -> RunRecord:
    """A run whose one-way tests hold these trial means (the figure is their mean)."""
    tests = [
        TestRecord(direction=d, mode="half", mean_mbps=sum(t) / len(t), trial_means=list(t))
        for d, t in trials.items()
    ]
    return RunRecord(
        device_id=1,
        started_at=dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc),
        plan_name="quick",
        nic=nic,
        complete=True,
        id=1,
        tests=tests,
    )


def test_seed_001_one_dipped_trial_keeps_the_limit_of_100m_ethernet() -> None:
    """A busy PC lowers a trial, never raises one: two trials at seed 001's 94 Mbit/s and one
    that dipped to 80 (a mean of 89, under 91 % of the link) still show the link full."""
    inventory = inspect_bundle(PROFILES / "pi1b-smsc95xx")
    run = _trials("eth0", {"pi_to_pc": [94.0, 80.0, 94.0], "pc_to_pi": [94.0, 93.8, 94.1]})
    mean = run.tests[0].mean_mbps
    assert mean is not None and mean < 91  # the mean alone is under the limit
    advice = _advise(inventory, run)
    top = advice.top
    assert top is not None and top.kind == "board"
    assert "94 Mbit/s is the maximum of 100 Mbit/s Ethernet" in top.title
    limit = next(f for f in advice.findings if f.id == "at-physical-limit")
    assert "94 Mbit/s Pi → PC (the best of 3 trials; 89 on average)" in limit.summary
    assert any("best trial 94 Mbit/s = 94 % of 100 Mbit/s" in line for line in limit.evidence)


def test_seed_001_every_trial_below_the_limit_is_not_called_full() -> None:
    """Only the best trial counts, so when every trial stays under the limit the link is not
    called full: the board's own advice (a Pi 4 or 5 for more) stands, with no 'maximum'."""
    inventory = inspect_bundle(PROFILES / "pi1b-smsc95xx")
    run = _trials("eth0", {"pi_to_pc": [84.0, 80.0, 86.0], "pc_to_pi": [94.0, 93.8, 94.1]})
    advice = _advise(inventory, run)
    assert "at-physical-limit" not in _ids(advice)
    top = advice.top
    assert top is not None and top.kind == "board"
    assert top.title == "For more speed, use a Pi 4 or Pi 5"


def test_seed_002_bidirectional_traffic_shares_one_usb2_bus() -> None:
    # A USB 3 RTL8153 that enumerated at 480M (real capture, t2linux issue 191).
    inventory = inspect_bundle(BUNDLES / "t2linux_191_rtl8153_480m")
    nic = inventory.nics[0]
    nic.link_speed_mbps = 1000
    # Seed 002, Linux 16k rows: 32 MB/s one way (256 Mbit/s); 36.57 MB/s read+write in total
    # (292.6 Mbit/s), "divided between transmit and receive" (an even split is assumed here).
    run = _run(
        nic.name or "",
        {
            ("pi_to_pc", "half"): 256,
            ("pc_to_pi", "half"): 256,
            ("pi_to_pc", "full"): 146.3,
            ("pc_to_pi", "full"): 146.3,
        },
    )
    advice = _advise(inventory, run)
    top = advice.top
    assert top is not None and top.title == "Move the adapter to a USB 3 port"
    assert "Bidirectional traffic shares one bus" in top.detail
    assert "293" in top.detail and "256" in top.detail
    assert "bidirectional-shares-bus" in _ids(advice)


def test_seed_003_rtl8125b_on_r8169_gets_the_vendor_driver() -> None:
    inventory = inspect_bundle(PROFILES / "cm4-rtl8125b-r8169")  # the seed captured nothing
    # Seed 003's prose: a CM4 with an RTL8125B on the in-kernel r8169 (2.5 Gb/s link).
    inventory.nics.append(
        Nic(
            name="eth1",
            driver="r8169",
            bus="pci",
            chip="Realtek RTL8125/RTL8125B",
            catalog_id="realtek-rtl8125",
            link_speed_mbps=2500,
        )
    )
    # Seed 003: "The maximum throughput was eerily similar, just under 1.9 Gbps".
    advice = _advise(inventory, _run("eth1", {("pi_to_pc", "half"): 1880}))
    top = advice.top
    assert top is not None and top.kind == "driver" and "r8125" in top.title
    assert top.expected_gain == "from 1880 to ~2350 Mbit/s"
    assert "1900" in top.detail
    assert any("autorun.sh" in step for step in top.steps)
    assert "driver-bound" in _ids(advice)


def test_seed_003_unidentified_25g_nic_at_19_gbits_is_told_to_check_the_driver() -> None:
    # What the lab's live inspect shows of that profile: eth1, a 2.5 Gb/s link, no chip/driver.
    inventory = inspect_bundle(PROFILES / "cm4-rtl8125b-r8169")
    inventory.nics.append(Nic(name="eth1", link_speed_mbps=2500))
    advice = _advise(inventory, _run("eth1", {("pi_to_pc", "half"): 1880}))
    top = advice.top
    assert top is not None and top.kind == "driver" and "r8125" in top.title
    assert "if this NIC is that chip" in top.detail
    finding = next(f for f in advice.findings if f.id == "driver-bound")
    assert "ethtool -i eth1" in finding.summary


def test_seed_003_chip_family_inspect_names_is_the_chip_the_advice_names() -> None:
    """walk18, the lab's cm4-rtl8125b-r8169: Inspect named eth1 "RTL8125/RTL8126" from r8169
    and its 2.5 Gbit/s link; the driver finding said it "could not identify this NIC's chip"."""
    inventory = inspect_bundle(PROFILES / "cm4-rtl8125b-r8169")
    family = chip_by_speed("r8169", 2500)  # the rule Inspect's chip comes from
    assert family is not None and family.startswith("RTL8125/RTL8126")
    nic = Nic(name="eth1", driver="r8169", bus="pci", chip=family, link_speed_mbps=2500)
    inventory.nics.append(nic)
    advice = _advise(inventory, _run("eth1", {("pi_to_pc", "half"): 1880}))
    finding = next(f for f in advice.findings if f.id == "driver-bound")
    assert "could not identify" not in finding.summary
    assert f"the {family} with the in-kernel r8169" in finding.summary
    top = advice.top
    assert top is not None and top.kind == "driver" and "r8125" in top.title
    assert "if this NIC is that chip" not in top.detail


def test_seed_004_i340_without_driver_build_igb_bus_caps_near_3g(tmp_path: Path) -> None:
    # as the lab serves it: no sysfs driver link on the four functions (SOURCE.md)
    inventory = inspect_bundle(served_bundle(tmp_path, "cm4-i340-nodriver"))
    eth0 = Nic(name="eth0", link_speed_mbps=1000)  # the CM4's own port (seed: ~940)
    inventory.nics.append(eth0)
    # Seed 004: "I've already tested the built-in ethernet controller at around 940 Mbps".
    run = _run("eth0", {("pi_to_pc", "half"): 940, ("pc_to_pi", "half"): 940})
    advice = _advise(inventory, run)
    top = advice.top
    assert top is not None and top.kind == "driver" and top.title == "Install the igb driver"
    assert "caps the ports together near 3.1 Gbit/s (3060 Mbit/s" in top.detail
    assert "940" in top.expected_gain and "3060" in top.expected_gain
    assert any("linux/ctype.h" in step for step in top.steps)
    assert any("full-upgrade" in step for step in top.steps)
    assert "at-physical-limit" in _ids(advice)


@pytest.mark.parametrize(
    ("os_name", "kernel", "headers"),
    [
        ("Debian GNU/Linux 12 (bookworm)", "6.6.51+rpt-rpi-v8", "linux-headers-rpi-v8"),
        ("Raspbian GNU/Linux 11 (bullseye)", "5.15.84-v7l+", "raspberrypi-kernel-headers"),
    ],
)
def test_driver_steps_follow_the_os(os_name: str, kernel: str, headers: str) -> None:
    inventory = Inventory()
    inventory.board.os, inventory.board.kernel = os_name, kernel
    inventory.nics.append(
        Nic(name="eth1", driver="r8169", catalog_id="realtek-rtl8125", link_speed_mbps=2500)
    )
    advice = _advise(inventory, _run("eth1", {("pi_to_pc", "half"): 1880}))
    assert advice.top is not None
    assert any(headers in step for step in advice.top.steps)


@pytest.mark.parametrize("measured", [1000.0, 1400.0, 1700.0, 1880.0, 1990.0])
def test_seed_003_advice_holds_for_a_range_of_measured_rates(measured: float) -> None:
    """A slower result (a busy PC, a loaded lab) is more reason to recommend, not less: the
    r8125 advice must not disappear when the measurement comes out below the catalog's 1.9."""
    inventory = inspect_bundle(PROFILES / "cm4-rtl8125b-r8169")
    inventory.nics.append(Nic(name="eth1", link_speed_mbps=2500))
    advice = _advise(inventory, _run("eth1", {("pi_to_pc", "half"): measured}))
    top = advice.top
    assert top is not None and top.kind == "driver" and "r8125" in top.title, measured
    assert top.expected_gain == f"from {measured:.0f} to ~2350 Mbit/s"


def test_seed_003_advice_is_not_given_beyond_what_the_vendor_driver_reaches() -> None:
    inventory = inspect_bundle(PROFILES / "cm4-rtl8125b-r8169")
    inventory.nics.append(Nic(name="eth1", link_speed_mbps=2500))
    advice = _advise(inventory, _run("eth1", {("pi_to_pc", "half"): 2340}))
    assert advice.top is None or advice.top.kind != "driver"


# The s13 walk: "use a Pi 4 or 5" on a Pi 1 B cited a CM3 carrier board's smsc95xx error report
# and an article about an Intel I340 card, with nothing saying what they support.
_FASTER_BOARD_SOURCES = {"rpi-doc-hardware", "seed-001", "rpi-doc-usb", "seed-004"}


def _titles(*ids: str) -> set[str]:
    catalog = load_catalog()
    return {s.title for i in ids if (s := catalog.source(i)) is not None}


def test_faster_board_advice_cites_only_what_supports_it() -> None:
    inventory = inspect_bundle(PROFILES / "pi1b-smsc95xx")
    static = next(r for r in inventory.recommendations if r.kind == "board")
    measured = _advise(inventory, _run("eth0", {("pc_to_pi", "half"): 94})).top
    assert measured is not None and measured.kind == "board"
    for rec in (static, measured):
        cited = {t for t in _titles(*_FASTER_BOARD_SOURCES) if any(t in s for s in rec.sources)}
        assert len(cited) == len(rec.sources) == 4, rec.sources
        assert not any("3088" in s or "MII is busy" in s for s in rec.sources)
        # The I340 article is cited for one line of it: the CM4's built-in Ethernet at ~940.
        cm4 = [line for line in rec.evidence if "Compute Module 4" in line]
        assert cm4 and "~940 Mbit/s: its author's own test of the built-in Ethernet" in cm4[0]
