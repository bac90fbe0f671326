"""Audit 44 (resources/tuning/driver_caps_audit44.md): MTU and link settings.

Row 1: a driver's restart keeps the interface administratively up and drops only its carrier.
None of the 13 drivers calls dev_close for one: macb_set_ringparam, aq_set_ringparam and
stmmac_change_mtu call their own ndo_stop/ndo_open, igb/igc_change_mtu igb_down/igb_up (and
igc_down/igc_up), r8169's rtl_jumbo_config and every renegotiation phy_start_aneg or
mii_nway_restart. So while the link is away `ip link` shows UP, NO-CARRIER, and the ethtool ops
that refuse a down interface (r8169's phy_ethtool_get_link_ksettings: ENODEV once
rtl8169_close disconnected the PHY; bcmgenet_get_link_ksettings: EINVAL without
netif_running) still answer. The lab set the interface down and up (`ip link set dev eth1
down`): for link_down_seconds it showed no UP flag and `ethtool eth1` on an r8169 said "No such
device". Now the lab's shaper on the host takes the veth's host end down instead
(sbctune.lab.carrier_drop), which drops this end's carrier only.

Row 2: the jumbo frames advice on a driver whose ndo_fix_features drops offloads above an MTU
(r8169) says so, from the table's `mtu_drops_features`, as the tuning step's plan did.
"""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab import carrier_drop, fake_ethtool_driver
from tests import fake_ethtool_support as fake_support


class FakeLink:
    """A veth pair as sysfs shows it: the Pi's end's carrier follows the host end's flag."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.pi = root / "eth1"
        self.host = root / "sbct1n0"
        for end in (self.pi, self.host):
            end.mkdir(parents=True)
        (self.pi / "carrier").write_text("1\n", encoding="utf-8")
        (self.pi / "carrier_changes").write_text("2\n", encoding="utf-8")
        (self.host / "flags").write_text("0x1003\n", encoding="utf-8")
        self.ran: list[list[str]] = []
        self.routes: list[tuple[int, list[str]]] = []

    def run(self, args: list[str]) -> None:  # the host's `ip`, as the shaper runs it
        if args[0] != "link":
            self.routes.append((len(self.ran), args))  # the guard route, before ran[n]
            return
        self.ran.append(args)
        up = args[-1] == "up"
        (self.host / "flags").write_text("0x1003\n" if up else "0x1002\n", encoding="utf-8")
        (self.pi / "carrier").write_text("1\n" if up else "0\n", encoding="utf-8")
        changes = int((self.pi / "carrier_changes").read_text(encoding="utf-8")) + 1
        (self.pi / "carrier_changes").write_text(f"{changes}\n", encoding="utf-8")


@pytest.fixture
def link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeLink:
    fake = FakeLink(tmp_path / "net")
    monkeypatch.setattr(fake_ethtool_driver, "SYSFS_NET", str(fake.root))
    return fake


@pytest.fixture
def pi_commands(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """What the fake ethtool runs on the Pi's side (`ip link set dev eth1 down` before)."""
    import subprocess

    ran: list[list[str]] = []

    def record(args: list[str], *a: Any, **k: Any) -> None:
        ran.append([str(x) for x in args])

    monkeypatch.setattr(subprocess, "run", record)
    monkeypatch.setattr(subprocess, "Popen", record)
    return ran


def test_a_restart_drops_the_carrier_and_keeps_the_interface_up(
    link: FakeLink, pi_commands: list[list[str]], tmp_path: Path
) -> None:
    requests = tmp_path / "carrier"
    requests.mkdir()
    shaper = carrier_drop.CarrierDrops(requests, {"eth1": "sbct1n0"}, link.run, str(link.root))
    stop = threading.Event()

    def serve() -> None:  # the host's shaper, polling as the controller does
        clock = 0.0
        while not stop.is_set():
            shaper.poll(clock)
            stop.wait(0.01)

    thread = threading.Thread(target=serve)
    thread.start()
    try:
        fake_ethtool_driver.bounce_link("eth1", 2.5, str(requests))
    finally:
        stop.set()
        thread.join(timeout=10)
    # the Pi's side never set its interface down: no `ip link set dev eth1 down`
    assert not any("down" in c for c in pi_commands), pi_commands
    assert link.ran == [["link", "set", "dev", "sbct1n0", "down"]]
    assert (link.pi / "carrier").read_text(encoding="utf-8").strip() == "0"
    assert shaper.pending == {"sbct1n0": 2.5}  # back after the profile's link_down_seconds
    shaper.poll(2.5)
    assert link.ran[-1] == ["link", "set", "dev", "sbct1n0", "up"]
    assert (link.pi / "carrier").read_text(encoding="utf-8").strip() == "1" and not shaper.pending
    assert list(requests.iterdir()) == []


def test_without_a_shaper_the_lab_still_bounces_by_setting_the_interface_down(
    link: FakeLink, pi_commands: list[list[str]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lab whose shaper is gone: the old bounce, and no request left behind for later."""
    import time

    requests = tmp_path / "carrier"
    requests.mkdir()
    monkeypatch.setattr(time, "sleep", lambda s: None)  # the 400 polls, by count
    monkeypatch.setattr("shutil.which", lambda *a, **k: "/usr/sbin/ip")
    fake_ethtool_driver.bounce_link("eth1", 0.0, str(requests))
    assert pi_commands[0] == ["/usr/sbin/ip", "link", "set", "dev", "eth1", "down"]
    assert list(requests.iterdir()) == []


def test_a_nic_without_carrier_has_no_link_to_drop(
    link: FakeLink, pi_commands: list[list[str]], tmp_path: Path
) -> None:
    (link.pi / "carrier").write_text(
        "0\n", encoding="utf-8"
    )  # no partner (the host end down: a pulled cable)
    requests = tmp_path / "carrier"
    requests.mkdir()
    fake_ethtool_driver.bounce_link("eth1", 2.0, str(requests))
    assert pi_commands == [] and list(requests.iterdir()) == []


def test_the_shaper_reads_requests_as_untrusted_text(link: FakeLink, tmp_path: Path) -> None:
    requests = tmp_path / "carrier"
    requests.mkdir()
    (requests / "eth9").write_text("2\n", encoding="utf-8")  # not a lab interface
    (requests / "eth1").write_text("1e9\n", encoding="utf-8")  # not a number of seconds it takes
    shaper = carrier_drop.CarrierDrops(requests, {"eth1": "sbct1n0"}, link.run, str(link.root))
    shaper.poll(0.0)
    assert link.ran == [] and list(requests.iterdir()) == []


def test_the_shaper_leaves_a_host_end_someone_else_set_down(link: FakeLink, tmp_path: Path) -> None:
    """A test's pulled cable (audit 22: the host end set down) is not plugged back in."""
    (link.host / "flags").write_text("0x1002\n", encoding="utf-8")
    requests = tmp_path / "carrier"
    requests.mkdir()
    (requests / "eth1").write_text("2\n", encoding="utf-8")
    shaper = carrier_drop.CarrierDrops(requests, {"eth1": "sbct1n0"}, link.run, str(link.root))
    shaper.poll(0.0)
    shaper.poll(5.0)
    shaper.release()
    assert link.ran == []


def test_the_shaper_brings_back_what_it_holds_when_it_stops(link: FakeLink, tmp_path: Path) -> None:
    requests = tmp_path / "carrier"
    requests.mkdir()
    (requests / "eth1").write_text("10\n", encoding="utf-8")
    shaper = carrier_drop.CarrierDrops(requests, {"eth1": "sbct1n0"}, link.run, str(link.root))
    shaper.poll(0.0)
    shaper.release()
    assert link.ran == [
        ["link", "set", "dev", "sbct1n0", "down"],
        ["link", "set", "dev", "sbct1n0", "up"],
    ]


def test_a_lab_state_names_the_folder_its_shaper_watches(tmp_path: Path) -> None:
    from sbctune.lab import ethtool_state
    from sbctune.lab.profile import load_profile
    from tests.lab_profiles import find_profile

    profile = load_profile(find_profile("cm4-rtl8125b-r8169"))
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    assert ethtool_state.install(profile, tmp_path, bin_dir)
    data = json.loads((tmp_path / ethtool_state.STATE_FILE).read_text(encoding="utf-8"))
    assert data["carrier_requests"] == str(tmp_path / carrier_drop.FOLDER)
    assert (tmp_path / carrier_drop.FOLDER).is_dir()


# Row 2: the jumbo frames advice and the offloads a driver drops with it.

JUMBO = "Use jumbo frames (MTU 9000) if the whole path supports them"


def _jumbo_words(driver: str, chip: str, bus: str = "pci") -> str:
    """The jumbo recommendation's text for a NIC measured at its gigabit wire's limit."""
    import datetime as dt

    from sbctune.advice import advise
    from sbctune.catalog import load_catalog
    from sbctune.history.records import RunRecord, TestRecord
    from sbctune.inventory.model import Board, Inventory, Nic

    nic = Nic("eth1", driver=driver, chip=chip, bus=bus, link_speed_mbps=1000, mtu=1500)
    inventory = Inventory(board=Board(catalog_id="cm4"), nics=[nic])
    run = RunRecord(
        1, dt.datetime(2026, 12, 2, tzinfo=dt.timezone.utc), "quick", nic="eth1", id=1,
        complete=True,
        tests=[TestRecord(direction=d, mode="half", mean_mbps=940.0)
               for d in ("pi_to_pc", "pc_to_pi")],
    )  # fmt: skip
    advice = advise(inventory, [run], load_catalog())
    found = [r for r in advice.recommendations if r.title == JUMBO]
    assert found, [r.title for r in advice.recommendations]
    return found[0].detail


def test_jumbo_advice_on_r8169_says_the_offloads_it_turns_off() -> None:
    """rtl8169_fix_features (r8169_main.c 6.1 line 1551, 6.12 1688, 7.2 1812): above 1500 every
    chip after the PCI RTL8169 loses TX checksum offload and TSO; the tuning step said so, the
    advice that sends the user there promised the framing's gain alone."""
    words = _jumbo_words("r8169", "Realtek RTL8125/RTL8125B")
    assert "an MTU above 1500 also turns TX checksum offload and TSO off" in words, words
    assert "r8169_main.c: rtl8169_fix_features" in words, words


def test_jumbo_advice_on_igb_names_no_offload_cost() -> None:
    words = _jumbo_words("igb", "Intel 82580")
    assert "also turns" not in words, words


# Row 5: lan78xx's forced link settings drop the link even where phylib refuses them.


@fake_support.root
@pytest.mark.parametrize(
    ("kernel", "bounced"),
    [("6.1.0-27-arm64", True), ("6.12.47+rpt-rpi-v8", True), ("7.2.12+deb13-arm64", False)],
)
def test_a_refused_forced_speed_on_lan78xx_still_drops_the_link_before_617(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kernel: str, bounced: bool
) -> None:
    """lan78xx_set_link_ksettings (lan78xx.c 6.1 line 1977-1983, 6.12 1957-1963) toggles
    BMCR_LOOPBACK whenever autonegotiation is off, after phy_ethtool_ksettings_set refused a
    2500 Mb/s force (EINVAL); 7.2's phylink_ethtool_ksettings_set does not. Before, the lab
    refused it and kept the link up on every kernel."""
    state = fake_support.in_lab(
        fake_support.lab_state(tmp_path, "lan78xx", "Microchip LAN7515", kernel, speed=1000)
    )
    fake_support.with_link(state, **fake_support.LINK_UP)
    seen = fake_support.record_bounces(monkeypatch)
    _, err, code = fake_support.ethtool(
        state, "-s", "eth0", "speed", "2500", "duplex", "full", "autoneg", "off"
    )
    assert (err, code) == (["netlink error: Invalid argument"], 75)
    assert seen == (["eth0"] if bounced else [])
    settings = fake_support.ethtool(state, "eth0")[0]
    assert "Auto-negotiation: on" in settings, settings  # nothing was forced


@fake_support.root
def test_a_refused_forced_speed_on_phylib_keeps_the_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = fake_support.in_lab(
        fake_support.lab_state(tmp_path, "r8169", "Realtek RTL8125/RTL8125B", "6.12.47", speed=1000)
    )
    fake_support.with_link(state, **fake_support.LINK_UP)
    seen = fake_support.record_bounces(monkeypatch)
    _, err, _ = fake_support.ethtool(
        state, "-s", "eth0", "speed", "2500", "duplex", "full", "autoneg", "off"
    )
    assert err == ["netlink error: Invalid argument"] and seen == []


def test_an_end_taken_down_never_sends_the_labs_traffic_off_the_machine(
    link: FakeLink, tmp_path: Path
) -> None:
    """A host end set down loses its connected route: before it goes down, the shaper makes
    sure 198.18.0.0/15 without a lab route is unreachable, not the default route's."""
    requests = tmp_path / "carrier"
    requests.mkdir()
    shaper = carrier_drop.CarrierDrops(requests, {"eth1": "sbct1n0"}, link.run, str(link.root))
    (requests / "eth1").write_text("2\n", encoding="utf-8")
    shaper.poll(0.0)
    assert link.ran == [["link", "set", "dev", "sbct1n0", "down"]]
    assert link.routes == [(0, carrier_drop.GUARD_ROUTE)]  # before the end went down
    assert carrier_drop.GUARD_ROUTE[2:4] == ["unreachable", "198.18.0.0/15"]
