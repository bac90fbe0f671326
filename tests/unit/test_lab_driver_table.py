"""The lab's stateful ethtool answers as the kernel's source says (driver_caps.json)
for each of the 13 drivers met in real pastes, and the planner reads those answers the same way.

Sets need root, as the real ethtool does; the lab itself runs as root.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool, load_profile
from sbctune.lab.ethtool_state import interface_state
from sbctune.lab.ethtool_table import single_queue
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.rpi_branches import CARRYING_KERNEL, carrying

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle  # the seed captured nothing
PASTED = driver_caps.table()["pasted"]
NOT_SUPPORTED = "netlink error: Operation not supported"
INVALID = "netlink error: Invalid argument"
# getattr: Windows has no geteuid, and this line runs when the module is collected.
root = pytest.mark.skipif(
    getattr(os, "geteuid", lambda: -1)() != 0, reason="ethtool's sets need root, as on a Pi"
)


def lab(tmp_path: Path, driver: str, chip: str = "", kernel: str = "") -> str:
    path = tmp_path / "state.json"
    iface = interface_state(driver, EMPTY, "eth0", chip, kernel)
    state = {"schema": 1, "interfaces": {"eth0": iface}}
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path)


def ethtool(state: str, *argv: str) -> tuple[str, list[str], int]:
    result = fake_ethtool.run(list(argv), state)
    assert result is not None
    return result


def planned(tweak_id: str, driver: str, option: str, text: str, chip: str = "") -> PlannedTweak:
    found = Facts("eth0")
    found.steps[f"ethtool {option}"] = StepResult(
        batch.Step(("true",), f"ethtool {option}"), 0, text.encode(), b""
    )
    nic = Nic("eth0", driver=driver, chip=chip or None)
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel="6.1.0"), nics=[nic])
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, {}, {}, (tweak_id,)))


@pytest.mark.parametrize("driver", PASTED)
def test_the_lab_offers_exactly_the_drivers_ethtool_ops(tmp_path: Path, driver: str) -> None:
    caps = driver_caps.caps(driver)
    assert caps is not None
    state = lab(tmp_path, driver)
    for show, op in (("-g", "get_ringparam"), ("-c", "get_coalesce"), ("-a", "get_pauseparam"),
                     ("--show-eee", "get_eee")):  # fmt: skip
        _out, err, code = ethtool(state, show, "eth0")
        assert (code == 0) == caps.has(op), (driver, show)
        if not caps.has(op):
            assert err == [NOT_SUPPORTED]
    rings, _, code = ethtool(state, "-g", "eth0")
    if code == 0:
        for param, top in caps.ring_maxima().items():
            assert f"{param.upper()}:\t\t{top}\n" in rings.split("Current")[0]
    # the planner reading the lab: rings planned only where the driver can set them
    if code == 0:
        item = planned("nic-rings", driver, "-g", rings)
        if caps.has("set_ringparam"):  # planned, or held back as the SSH NIC's link restart
            assert item.applicable or item.needs_link_consent
        else:
            assert not item.applicable and "no set_ringparam" in item.reason


@root
@pytest.mark.parametrize("driver", PASTED)
def test_the_lab_refuses_the_sets_the_driver_has_no_op_for(tmp_path: Path, driver: str) -> None:
    caps = driver_caps.caps(driver)
    assert caps is not None
    state = lab(tmp_path, driver)
    _, err, code = ethtool(state, "-G", "eth0", "rx", "64")
    if not caps.has("set_ringparam"):
        assert code != 0 and err == [NOT_SUPPORTED]
    _, err, code = ethtool(state, "-A", "eth0", "rx", "on")
    assert (code == 0) == caps.has("set_pauseparam")


def test_rtl8125_coalescing_is_not_supported_but_rtl8111_is(tmp_path: Path) -> None:
    assert ethtool(lab(tmp_path, "r8169", "RTL8125B"), "-c", "eth0")[1] == [NOT_SUPPORTED]
    assert ethtool(lab(tmp_path, "r8169", "RTL8111H"), "-c", "eth0")[2] == 0


def test_igb_eee_only_from_the_i350_on(tmp_path: Path) -> None:
    assert ethtool(lab(tmp_path, "igb", "82580"), "--show-eee", "eth0")[1] == [NOT_SUPPORTED]
    assert ethtool(lab(tmp_path, "igb", "I350"), "--show-eee", "eth0")[2] == 0
    i350 = ethtool(lab(tmp_path, "igb", "I350"), "--show-eee", "eth0")[0]
    item = planned("eee-off", "igb", "--show-eee", i350, chip="82580 Gigabit Network Connection")
    assert not item.applicable and "refuses Energy-Efficient Ethernet on the 82580" in item.reason


@root
def test_bcmgenet_coalescing_limits_refusals_and_rounding(tmp_path: Path) -> None:
    state = lab(tmp_path, "bcmgenet")
    assert ethtool(state, "-C", "eth0", "rx-frames", "511")[2] == 0  # 0x1FF, not 255
    assert ethtool(state, "-C", "eth0", "rx-frames", "512")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "tx-frames", "0")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "0", "rx-frames", "0")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert "rx-usecs: 57\n" in ethtool(state, "-c", "eth0")[0]


def test_igc_offloads_are_the_drivers_not_all_fixed_off(tmp_path: Path) -> None:
    """igc_probe turns SG, TSO/TSO6, RXHASH, RXCSUM and HW_CSUM on (hw_features = features);
    VLAN offloads and NTUPLE join hw_features only (driver_caps_audit2.md row 16)."""
    shown = ethtool(lab(tmp_path, "igc"), "-k", "eth0")[0]
    for line in ("tcp-segmentation-offload: on\n", "scatter-gather: on\n",
                 "receive-hashing: on\n", "rx-checksumming: on\n", "rx-vlan-offload: off\n",
                 "ntuple-filters: off\n"):  # fmt: skip
        assert line in shown, line


def test_bcmgenet_coalescing_defaults_are_the_drivers(tmp_path: Path) -> None:
    """bcmgenet_init_tx_ring writes 1 to DMA_MBUF_DONE_THRESH (tx-frames 1), bcmgenet_probe sets
    rx_max_coalesced_frames 1, rx-usecs starts at 0, DIM off (driver_caps_audit2.md row 7)."""
    shown = ethtool(lab(tmp_path, "bcmgenet"), "-c", "eth0")[0]
    for line in ("tx-frames: 1\n", "rx-frames: 1\n", "rx-usecs: 0\n", "Adaptive RX: off"):
        assert line in shown


@root
@pytest.mark.parametrize("driver", ["igb", "igc"])
def test_intel_rx_usecs_mode_codes(tmp_path: Path, driver: str) -> None:
    state = lab(tmp_path, driver)
    assert "rx-usecs: 3\n" in ethtool(state, "-c", "eth0")[0]  # IGB_DEFAULT_ITR: dynamic
    for refused in ("2", "5", "9", "10001"):
        assert ethtool(state, "-C", "eth0", "rx-usecs", refused)[1] == [INVALID], refused
    assert ethtool(state, "-C", "eth0", "rx-usecs", "1")[2] == 0


@pytest.mark.parametrize("driver", ["ax88179_178a", "r8152", "r8169"])
def test_mangleid_segmentation_is_off_until_asked_for(tmp_path: Path, driver: str) -> None:
    shown = ethtool(lab(tmp_path, driver), "-k", "eth0")[0]
    assert "\ttx-tcp-mangleid-segmentation: off\n" in shown


@root
def test_offloads_on_r8169_turn_sg_on_so_that_tso_holds(tmp_path: Path) -> None:
    state = lab(tmp_path, "r8169")
    shown = ethtool(state, "-k", "eth0")[0]
    assert "scatter-gather: off\n" in shown and "tcp-segmentation-offload: off\n" in shown
    item = planned("offloads-on", "r8169", "-k", shown)
    wanted = [c.target.split()[-1] for c in item.changes if c.needed]
    assert wanted.index("sg") < wanted.index("tso")
    # what the apply step runs, in that order, and what the lab (as the kernel) keeps
    for name in wanted:
        ethtool(state, "-K", "eth0", name, "on")
    assert "tcp-segmentation-offload: on\n" in ethtool(state, "-k", "eth0")[0]
    lone = lab(tmp_path, "r8169")
    ethtool(lone, "-K", "eth0", "tso", "on")  # today's plan: TSO alone
    assert "tcp-segmentation-offload: off\n" in ethtool(lone, "-k", "eth0")[0]


@root
def test_a_ring_change_on_macb_is_a_link_restart(tmp_path: Path) -> None:
    state = lab(tmp_path, "macb")
    assert ethtool(state, "-G", "eth0", "rx", "1024")[2] == 0
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    assert data["interfaces"]["eth0"]["rings"]["bounces"] == 1
    assert "bounce_links" not in data  # outside a lab no real interface is touched


def test_single_queue_drivers_have_no_xps_in_the_lab() -> None:
    r8169 = load_profile("cm4-rtl8125b-r8169").test_interface
    assert r8169.driver == "r8169" and r8169.xps_enoent


@root
@pytest.mark.parametrize("driver", PASTED)
def test_offloads_the_planner_asks_for_hold_in_the_lab(tmp_path: Path, driver: str) -> None:
    """For each driver: what offloads-on plans from the lab's `ethtool -k` is what the lab (as
    the kernel's netdev_fix_features) then shows on; a single-queue driver has no XPS."""
    state = lab(tmp_path, driver)
    item = planned("offloads-on", driver, "-k", ethtool(state, "-k", "eth0")[0])
    for change in item.changes:
        _, option, name = change.target.split()
        assert ethtool(state, option, "eth0", name, "on")[2] in (0, 1)
    shown = ethtool(state, "-k", "eth0")[0]
    legacy = {"sg": "scatter-gather", "tso": "tcp-segmentation-offload",
              "gso": "generic-segmentation-offload", "gro": "generic-receive-offload"}  # fmt: skip
    for change in item.changes:
        assert f"{legacy[change.target.split()[-1]]}: on" in shown, (driver, change.target)
    caps = driver_caps.caps(driver)
    assert caps is not None
    assert single_queue(driver) == caps.single_tx_queue()


@root
def test_macb_on_the_rp1_answers_as_the_raspberry_pi_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gem_set_coalesce (raspberrypi/linux): 0.8 us ticks rounded down on the way in and out,
    at most 204 us; every set stores both values again, so an untouched 49 becomes 48.
    macb_set_ringparam: sizes rounded up to a power of two (1000 reads back 1024). Which
    rpi-N.y branch carries the coalescing is unknown: the shipped table's Pi 5 refuses -c
    (never kinder), so the model is read on a kernel a test table says carries it."""
    upstream = lab(tmp_path, "macb")
    assert ethtool(upstream, "-c", "eth0")[1] == [NOT_SUPPORTED]
    assert ethtool(lab(tmp_path, "macb", "Cadence GEM in RP1"), "-c", "eth0")[1] == [NOT_SUPPORTED]
    carrying(monkeypatch)
    state = lab(tmp_path, "macb", "Cadence GEM in RP1", CARRYING_KERNEL)
    shown = ethtool(state, "-c", "eth0")[0]
    assert "rx-usecs: 49\n" in shown and "tx-usecs: 49\n" in shown  # gem_init_intmod's 50
    assert "rx-frames: n/a\n" in shown
    assert ethtool(state, "-C", "eth0", "rx-usecs", "205")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    shown = ethtool(state, "-c", "eth0")[0]
    assert "rx-usecs: 49\n" in shown and "tx-usecs: 48\n" in shown
    item = planned("irq-coalescing", "macb", "-c", shown, chip="Cadence GEM in RP1")
    (change,) = item.changes
    assert ethtool(state, "-C", "eth0", "rx-usecs", change.after)[2] == 0
    assert f"rx-usecs: {change.after}\n" in ethtool(state, "-c", "eth0")[0]  # it verifies
    assert ethtool(state, "-G", "eth0", "rx", "1000", "tx", "10")[2] == 0
    rings = ethtool(state, "-g", "eth0")[0].split("Current")[1]
    assert "RX:\t\t1024\n" in rings and "TX:\t\t64\n" in rings


def test_the_pi5_profile_names_its_rp1() -> None:
    """The RP1 chip means the Raspberry Pi tree: its coalescing is tried (unsure), never
    claimed, since the profile names no kernel (carried from rpi-6.18.y on); RP1's one queue is
    the tree's."""
    spec = load_profile("pi5-macb").test_interface
    caps = driver_caps.caps(spec.driver, None, spec.chip)
    assert caps is not None and "set_coalesce" in caps.unsure and not caps.has("set_coalesce")
    assert caps.queues_in_use(spec.chip) == (1, 1)


def test_cdc_ncm_has_no_set_link_ksettings() -> None:
    """cdc_ncm_ethtool_ops: `.set_link_ksettings = NULL` is no callback (the generator took the
    word NULL for a function before)."""
    caps = driver_caps.caps("cdc_ncm")
    assert caps is not None and caps.has("get_link_ksettings")
    assert not caps.has("set_link_ksettings")


def test_asix_pause_only_on_the_ax88772_family(tmp_path: Path) -> None:
    """asix_devices.c: ax88772_ethtool_ops has get/set_pauseparam, the AX88172's and the
    AX88178's ops have none."""
    assert ethtool(lab(tmp_path, "asix", "ASIX AX88772B"), "-a", "eth0")[2] == 0
    assert ethtool(lab(tmp_path, "asix", "ASIX AX88178"), "-a", "eth0")[1] == [NOT_SUPPORTED]


def test_igc_and_atlantic_request_full_flow_control_by_default(tmp_path: Path) -> None:
    """igc_setup_link: igc_fc_default becomes igc_fc_full; atlantic: cfg->fc.req =
    AQ_CFG_FC_MODE (AQ_NIC_FC_FULL), pause autoneg always shown off."""
    igc = ethtool(lab(tmp_path, "igc"), "-a", "eth0")[0]
    assert "RX:\t\ton\n" in igc and "TX:\t\ton\n" in igc
    aq = ethtool(lab(tmp_path, "atlantic"), "-a", "eth0")[0]
    assert "Autonegotiate:\toff\n" in aq and "RX:\t\ton\n" in aq and "TX:\t\ton\n" in aq


@root
def test_atlantic_refuses_pause_autonegotiation(tmp_path: Path) -> None:
    state = lab(tmp_path, "atlantic")
    assert ethtool(state, "-A", "eth0", "autoneg", "on")[1] == [NOT_SUPPORTED]
    assert ethtool(state, "-A", "eth0", "rx", "off")[2] == 0


@root
def test_stmmac_coalescing_defaults_and_refusals(tmp_path: Path) -> None:
    """stmmac_init_coalesce: tx-usecs STMMAC_COAL_TX_TIMER (1000 in 6.1), tx-frames 25;
    __stmmac_set_coalesce: tx-usecs 0 with tx-frames 0, tx-usecs over 100000 and tx-frames
    over 256 are EINVAL."""
    state = lab(tmp_path, "stmmac")
    shown = ethtool(state, "-c", "eth0")[0]
    assert "tx-usecs: 1000\n" in shown and "tx-frames: 25\n" in shown
    assert ethtool(state, "-C", "eth0", "tx-usecs", "0", "tx-frames", "0")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "tx-usecs", "100001")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "tx-frames", "257")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "tx-usecs", "0")[2] == 0  # frames still 25
    six12 = driver_caps.caps("stmmac", "6.12.25+rpt-rpi-2712")
    assert six12 is not None and six12.facts["coalesce_defaults"]["tx-usecs"] == 5000


def test_r8152_coalescing_is_refused_on_the_rtl8152(tmp_path: Path) -> None:
    """rtl8152_get/set_coalesce: RTL_VER_01/02/07 (RTL8152, RTL8152B) -> EOPNOTSUPP."""
    assert ethtool(lab(tmp_path, "r8152", "RTL8152B"), "-c", "eth0")[1] == [NOT_SUPPORTED]
    assert "rx-usecs: 85000\n" in ethtool(lab(tmp_path, "r8152", "RTL8153"), "-c", "eth0")[0]
    text = ethtool(lab(tmp_path, "r8152", "RTL8153"), "-c", "eth0")[0]
    item = planned("irq-coalescing", "r8152", "-c", text, chip="RTL8152B")
    assert not item.applicable and "RTL8152" in item.reason


@root
@pytest.mark.parametrize(
    ("driver", "asked", "kept"),
    [
        ("igb", "1001", "1008"),  # igb_set_ringparam: ALIGN(.., REQ_RX_DESCRIPTOR_MULTIPLE)
        ("igb", "8", "64"),  # IGB_MIN_RXD
        ("igc", "1001", "1008"),
        ("atlantic", "8", "40"),  # HW_ATL_B0_MIN_RXD
        ("atlantic", "1001", "1008"),
        ("stmmac", "512", "512"),
        ("macb", "1000", "1024"),
    ],
)
def test_ring_sizes_read_back_as_the_driver_keeps_them(
    tmp_path: Path, driver: str, asked: str, kept: str
) -> None:
    state = lab(tmp_path, driver)
    assert ethtool(state, "-G", "eth0", "rx", asked)[2] == 0
    assert f"RX:\t\t{kept}\n" in ethtool(state, "-g", "eth0")[0].split("Current")[1]


@root
def test_stmmac_refuses_a_ring_size_that_is_not_a_power_of_two(tmp_path: Path) -> None:
    """stmmac_set_ringparam: !is_power_of_2(ring->rx_pending) or under 64 -> EINVAL."""
    state = lab(tmp_path, "stmmac")
    assert ethtool(state, "-G", "eth0", "rx", "1000")[1] == [INVALID]
    assert ethtool(state, "-G", "eth0", "rx", "32")[1] == [INVALID]


@root
def test_eee_off_bounces_the_link_in_the_lab(tmp_path: Path) -> None:
    """r8152 (rtl_ethtool_set_eee: mii_nway_restart): the lab's model has EEE on; turning
    it off renegotiates the link, shown as a bounce; setting it to what it is does not."""
    state = lab(tmp_path, "r8152", "RTL8153")
    assert ethtool(state, "--set-eee", "eth0", "eee", "on")[2] == 0
    assert ethtool(state, "--set-eee", "eth0", "eee", "off")[2] == 0
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    assert data["interfaces"]["eth0"]["eee"]["bounces"] == 1


@root
def test_a_pause_change_on_lan78xx_bounces_the_link(tmp_path: Path) -> None:
    """lan78xx_set_pause: with pause autonegotiation the advertisement goes through
    phy_ethtool_ksettings_set, which restarts autonegotiation; r8152 only writes MII_ADVERTISE."""
    state = lab(tmp_path, "lan78xx", "LAN7515")
    assert ethtool(state, "-A", "eth0", "rx", "off")[2] == 0
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    assert data["interfaces"]["eth0"]["pause"]["bounces"] == 1
    quiet = lab(tmp_path, "r8152", "RTL8153")
    assert ethtool(quiet, "-A", "eth0", "rx", "off")[2] == 0
    data = json.loads(Path(quiet).read_text(encoding="utf-8"))
    assert "bounces" not in data["interfaces"]["eth0"]["pause"]


@root
@pytest.mark.parametrize(("driver", "chip"), [("stmmac", ""), ("asix", "AX88772B")])
def test_a_pause_change_through_phylink_bounces_the_link(tmp_path: Path, driver: str, chip: str
                                                         ) -> None:  # fmt: skip
    """stmmac_set_pauseparam and ax88772_ethtool_set_pauseparam hand the change to
    phylink_ethtool_set_pauseparam -> phy_set_asym_pause, which renegotiates when the
    advertisement changes (driver_caps_audit2.md)."""
    state = lab(tmp_path, driver, chip)
    assert ethtool(state, "-A", "eth0", "rx", "on")[2] == 0
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    assert data["interfaces"]["eth0"]["pause"]["bounces"] == 1


@root
@pytest.mark.parametrize("driver", PASTED)
def test_the_lab_bounces_the_link_exactly_where_the_table_says(tmp_path: Path, driver: str) -> None:
    """For each of the 13 drivers: a ring, EEE or pause change bounces the lab's link iff the
    table says the driver's setter restarts the interface or autonegotiation."""
    caps = driver_caps.caps(driver)
    assert caps is not None
    state = lab(tmp_path, driver)
    before = json.loads(Path(state).read_text(encoding="utf-8"))["interfaces"]["eth0"]
    eee_on = bool((before.get("eee") or {}).get("enabled"))
    # what -a shows (get_pauseparam: r8169's resolution), which ethnl_set_pause starts from
    rx_on = "RX:\t\ton" in ethtool(state, "-a", "eth0")[0]
    changes = {  # each one a real change from what the lab shows
        "rings": ("-G", "eth0", "rx", "128"),
        "eee": ("--set-eee", "eth0", "eee", "off" if eee_on else "on"),
        # r8169 with no link shows RX/TX off; `rx on` alone would keep phy_set_asym_pause's
        # Pause + Asym advertisement (no renegotiation): both on advertise Pause alone
        "pause": ("-A", "eth0", "rx", "off") if rx_on else ("-A", "eth0", "rx", "on", "tx", "on"),
    }
    for setting, argv in changes.items():
        if ethtool(state, *argv)[2] != 0:
            continue  # the driver has no such setter, or refuses this value: nothing to bounce
        data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
        dev = data["interfaces"]["eth0"]
        block = dev["rings"] if setting == "rings" else dev[setting]
        assert bool(block.get("bounces")) == caps.restarts(setting), (driver, setting)


@root
def test_atlantic_refuses_frame_counting_as_not_supported(tmp_path: Path) -> None:
    """aq_ethtool_set_coalesce: frames over 1, and frames not 1 exactly when usecs is 0, are
    EOPNOTSUPP (checked first); only usecs over 1022 is EINVAL."""
    state = lab(tmp_path, "atlantic")
    assert ethtool(state, "-C", "eth0", "rx-frames", "2")[1] == [NOT_SUPPORTED]
    assert ethtool(state, "-C", "eth0", "rx-frames", "1")[1] == [NOT_SUPPORTED]  # usecs 256
    assert ethtool(state, "-C", "eth0", "rx-usecs", "0")[1] == [NOT_SUPPORTED]  # frames 0
    assert ethtool(state, "-C", "eth0", "rx-usecs", "1023")[1] == [INVALID]
    assert ethtool(state, "-C", "eth0", "rx-usecs", "0", "rx-frames", "1")[2] == 0
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50", "rx-frames", "0")[2] == 0


@root
def test_r8169_refuses_pause_changes_with_jumbo_frames(tmp_path: Path) -> None:
    """rtl8169_set_pauseparam: EOPNOTSUPP while dev->mtu > ETH_DATA_LEN."""
    state = lab(tmp_path, "r8169")
    assert ethtool(state, "-A", "eth0", "rx", "on", "tx", "on")[2] == 0  # no such NIC: 1500
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["mtu"] = 9000
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    # -a shows RX off (no link: phy_get_pause), so `rx on` is a change the driver is asked for
    assert ethtool(state, "-A", "eth0", "rx", "on")[1] == [NOT_SUPPORTED]


def stmmac_lab(tmp_path: Path, kernel: str, clock_mhz: int | None = None) -> str:
    path = tmp_path / f"stmmac-{kernel or 'any'}-{clock_mhz}.json"
    dev = interface_state("stmmac", EMPTY, "eth0", "", kernel, None, clock_mhz)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": dev}}), encoding="utf-8")
    return str(path)


def rx_usecs(state: str) -> str:
    return ethtool(state, "-c", "eth0")[0].split("rx-usecs: ")[1].split("\n")[0]


@root
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.47+rpt-rpi-v8", ""])
def test_stmmac_rx_usecs_is_a_watchdog_in_clock_cycles(tmp_path: Path, kernel: str) -> None:
    """stmmac_usec2riwt / stmmac_riwt2usec: units of 256 cycles of the board's 125 MHz MAC clock
    (rounded down both ways); DEF_DMA_RIWT 0xa0 (stmmac_hw_setup) reads 327; a RIWT outside
    0x10..0xff is EINVAL (__stmmac_set_coalesce): rx-usecs 33..524."""
    state = stmmac_lab(tmp_path, kernel)
    assert rx_usecs(state) == "327"
    assert ethtool(state, "-C", "eth0", "rx-usecs", "50")[2] == 0
    assert rx_usecs(state) == "49"
    for refused in ("32", "525", "5000"):
        assert ethtool(state, "-C", "eth0", "rx-usecs", refused)[1] == [INVALID], refused
    assert ethtool(state, "-C", "eth0", "rx-usecs", "524")[2] == 0


@root
def test_stmmac_rx_usecs_0_by_kernel_series_and_another_clock(tmp_path: Path) -> None:
    """6.1 skips the watchdog for rx-usecs 0 (accepted, unchanged); 6.12 converts it (under
    MIN_DMA_RIWT: EINVAL), and so does the lab when the kernel is unknown. A board with a
    250 MHz MAC clock reads DEF_DMA_RIWT as 160 * 256 / 250 = 163."""
    six1 = stmmac_lab(tmp_path, "6.1.0-31-arm64")
    assert ethtool(six1, "-C", "eth0", "rx-usecs", "0")[2] == 0 and rx_usecs(six1) == "327"
    for kernel in ("6.12.47+rpt-rpi-v8", ""):
        assert ethtool(stmmac_lab(tmp_path, kernel), "-C", "eth0", "rx-usecs", "0")[1] == [INVALID]
    assert rx_usecs(stmmac_lab(tmp_path, "", 250)) == "163"


def test_atlantic_and_stmmac_offloads_are_the_drivers_probe(tmp_path: Path) -> None:
    """atlantic: aq_nic_ndev_init sets features = hw_features = the hw caps' list (SG, TSO,
    LRO, checksums, RXHASH, VLAN offloads ...), all changeable. stmmac: stmmac_dvr_probe's
    hw_features SG | IP_CSUM | IPV6_CSUM | RXCSUM on, HIGHDMA and VLAN tag parsing on but not
    changeable, TSO left off without the device tree and hardware's say (driver_caps_audit2.md
    row 16)."""
    aq = ethtool(lab(tmp_path, "atlantic"), "-k", "eth0")[0]
    for line in ("tcp-segmentation-offload: on\n", "scatter-gather: on\n",
                 "large-receive-offload: on\n", "receive-hashing: on\n",
                 "rx-checksumming: on\n", "ntuple-filters: on\n",
                 "\ttx-checksum-ip-generic: on\n"):  # fmt: skip
        assert line in aq, line
    (tmp_path / "st").mkdir()
    st = ethtool(lab(tmp_path / "st", "stmmac"), "-k", "eth0")[0]
    for line in ("scatter-gather: on\n", "\ttx-checksum-ipv4: on\n", "\ttx-checksum-ipv6: on\n",
                 "rx-checksumming: on\n", "highdma: on [fixed]\n",
                 "rx-vlan-offload: on [fixed]\n",
                 # no TSO in hw_features, so no mangleid either (audit 3a row 1): all fixed
                 "tcp-segmentation-offload: off [fixed]\n"):  # fmt: skip
        assert line in st, line


@root
def test_r8152_rx_buffers_stop_at_512_and_the_lab_keeps_it(tmp_path: Path) -> None:
    """r8152's rx "ring" is its count of 16-64 KiB receive buffers (rtl_get_free_rx,
    alloc_rx_agg): the planner stops at 512, not the 4096 maximum, says why, and the lab
    (rtl8152_set_ringparam: anything from 20) keeps what it writes."""
    state = lab(tmp_path, "r8152", "RTL8153")
    shown = ethtool(state, "-g", "eth0")[0]
    assert "RX:\t\t4096\n" in shown.split("Current")[0]
    item = planned("nic-rings", "r8152", "-g", shown, chip="RTL8153")
    rx = next(c for c in item.changes if c.target.endswith(" rx"))
    assert item.applicable and rx.after == "512"
    assert "rtl_get_free_rx" in item.reason and "256 MiB" in item.reason
    assert ethtool(state, "-G", "eth0", "rx", rx.after)[2] == 0
    assert "RX:\t\t512\n" in ethtool(state, "-g", "eth0")[0].split("Current")[1]


def test_stmmac_without_the_rx_watchdog_gets_no_rx_usecs(tmp_path: Path) -> None:
    """__stmmac_get_coalesce shows rx-usecs 0 without use_riwt and __stmmac_set_coalesce then
    ignores it: writing 50 would never read back, so the planner says not possible. With the
    watchdog (327 at 125 MHz) there is nothing to raise."""
    state = lab(tmp_path, "stmmac")
    data: dict[str, Any] = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["coalesce"]["values"]["rx-usecs"] = 0  # as without use_riwt
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    item = planned("irq-coalescing", "stmmac", "-c", ethtool(state, "-c", "eth0")[0])
    assert not item.applicable and "not possible" in item.reason
    assert "stmmac_hw_init" in item.reason
    watchdog = planned(
        "irq-coalescing", "stmmac", "-c", ethtool(lab(tmp_path, "stmmac"), "-c", "eth0")[0]
    )
    assert all(not c.needed for c in watchdog.changes)


@pytest.mark.parametrize(
    ("kernel", "shown"),
    [("6.18.39+rpt-rpi-2712", True), ("6.12.55+rpt-rpi-2712", False), ("", False)],
)
def test_the_pi5s_eee_follows_the_rpi_branch(tmp_path: Path, kernel: str, shown: bool) -> None:
    """macb on RP1: rpi-6.18.y carries macb_get_eee/macb_set_eee (raspberrypi/linux #7270),
    a real Pi 5 on 6.12 answers --show-eee with EOPNOTSUPP; a profile that names no kernel gets
    the harsher answer (never kinder than a kernel it may be)."""
    chip = "Cadence GEM in RP1"
    path = tmp_path / "state.json"
    iface = interface_state("macb", EMPTY, "eth0", chip, kernel)
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    out, err, code = ethtool(str(path), "--show-eee", "eth0")
    if shown:
        assert code == 0 and "EEE status" in out
        assert iface["eee"]["restarts"]  # phylink_ethtool_set_eee renegotiates
    else:
        assert code != 0 and NOT_SUPPORTED in "\n".join(err)


@pytest.mark.parametrize("driver", ["bcmgenet", "smsc95xx", "cdc_ncm", "macb"])
def test_without_changeable_tso_mangleid_is_fixed_and_tso_is_not_planned(
    tmp_path: Path, driver: str
) -> None:
    """register_netdevice adds TSO_MANGLEID to hw_features only `if (dev->hw_features &
    NETIF_F_TSO)` (driver_caps_audit3a.md row 1): on these drivers every TSO member is fixed
    off, so offloads-on must not plan `-K tso on` (the kernel: "Could not change any device
    features"). Before, the lab showed mangleid changeable and the planner asked for TSO."""
    shown = ethtool(lab(tmp_path, driver), "-k", "eth0")[0]
    assert "\ttx-tcp-mangleid-segmentation: off [fixed]\n" in shown
    item = planned("offloads-on", driver, "-k", shown)
    assert not [c for c in item.changes if c.target.endswith(" tso")]
    assert ("eth0 -K tso", "fixed off by the driver") in item.impossible


@root
def test_tso_on_changes_nothing_where_the_driver_has_no_tso(tmp_path: Path) -> None:
    state = lab(tmp_path, "bcmgenet")
    assert ethtool(state, "-K", "eth0", "tso", "on")[2] != 0
    assert "tcp-segmentation-offload: off [fixed]\n" in ethtool(state, "-k", "eth0")[0]


@pytest.mark.parametrize("driver", ["r8152", "ax88179_178a"])
def test_r8152_and_ax88179_never_report_tx_lpi(tmp_path: Path, driver: str) -> None:
    """r8153_get_eee / ax88179_get_eee never fill tx_lpi_enabled (fact eee_tx_lpi_unreported,
    audit 3a row 2): `--show-eee` says "Tx LPI: disabled" with EEE on; the lab said "0 (us)"."""
    state = lab(tmp_path, driver)
    is_root = getattr(os, "geteuid", lambda: -1)() == 0
    if driver == "ax88179_178a" and is_root:  # off at ax88179_reset, and it stays off
        assert ethtool(state, "--set-eee", "eth0", "eee", "on")[2] != 0  # audit 8a row 3
    shown = ethtool(state, "--show-eee", "eth0")[0]
    on = driver == "r8152"
    assert ("EEE status: enabled" in shown) == on or not is_root
    assert "\tTx LPI: disabled\n" in shown
    if is_root:  # a set cannot make the driver report it either
        ethtool(state, "--set-eee", "eth0", "tx-lpi", "on")
        assert "\tTx LPI: disabled\n" in ethtool(state, "--show-eee", "eth0")[0]


@root
def test_r8152_pause_autonegotiation_is_the_links(tmp_path: Path) -> None:
    """rtl8152_get_pauseparam: `pause->autoneg = 1` whenever the link autonegotiates;
    rtl8152_set_pauseparam ignores `autoneg off` there (fact pause_autoneg_is_link, audit 3a
    row 5). Before, the lab read back "Autonegotiate: off"."""
    state = lab(tmp_path, "r8152")
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "off")[2] == 0
    shown = ethtool(state, "-a", "eth0")[0]
    assert "Autonegotiate:\ton\n" in shown and "RX:\t\toff\n" in shown


@root
def test_lan78xx_on_6_1_shows_tx_lpi_with_eee(tmp_path: Path) -> None:
    """6.1 lan78xx_get_eee: eee_enabled and tx_lpi_enabled are both MAC_CR_EEE_EN_ (fact
    eee_tx_lpi_follows, audit 3a row 7): EEE on shows Tx LPI on, off shows it disabled.
    Before, the lab kept "Tx LPI: disabled" after `--set-eee eee on`."""
    path = tmp_path / "state.json"
    state = interface_state("lan78xx", EMPTY, "eth0", "", "6.1.0-rpi7-rpi-v8")
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": state}}), encoding="utf-8")
    assert "\tTx LPI: disabled\n" in ethtool(str(path), "--show-eee", "eth0")[0]
    assert ethtool(str(path), "--set-eee", "eth0", "eee", "on")[2] == 0
    assert "\tTx LPI: 0 (us)\n" in ethtool(str(path), "--show-eee", "eth0")[0]
    assert ethtool(str(path), "--set-eee", "eth0", "eee", "off")[2] == 0
    assert "\tTx LPI: disabled\n" in ethtool(str(path), "--show-eee", "eth0")[0]


@pytest.mark.parametrize(
    "driver", ["bcmgenet", "macb", "lan78xx", "smsc95xx", "ax88179_178a", "r8152", "cdc_ncm"]
)
def test_ethtool_S_answers_as_the_drivers_get_strings(tmp_path: Path, driver: str) -> None:
    """driver_caps_audit4a.md row 9: a driver with get_ethtool_stats shows its string table's
    names (resources/kernel_source/ethtool_stats.json); one without says "no stats available".
    cdc_ncm (cdc_ncm_gstrings_stats: tx_reason_ntb_full ... rx_ntbs) was missing from the
    generated table, so its lab NIC fell through to the capture: "ethtool: command not found"."""
    caps = driver_caps.caps(driver)
    assert caps is not None
    result = fake_ethtool.run(["-S", "eth0"], lab(tmp_path, driver))
    if not caps.has("get_ethtool_stats"):
        assert result is None or "no stats available" in result[0] + "".join(result[1])
        return
    assert result is not None, f"{driver}: -S fell through to the capture"
    out, _err, code = result
    assert code == 0 and out.startswith("NIC statistics:") and out.count(": 0") >= 2
    if driver == "cdc_ncm":
        assert "     tx_reason_ntb_full: 0\n" in out and "     rx_ntbs: 0\n" in out


def test_ethtool_i_version_and_firmware_are_what_the_source_writes(tmp_path: Path) -> None:
    """driver_caps_audit4a.md row 6: ethtool_get_drvinfo pre-fills version with the running
    kernel's release and usbnet_get_drvinfo writes the driver_info's description as
    fw_version, so a Pi's smsc95xx says "firmware-version: smsc95xx USB 2.0 Ethernet" and its
    release; macb and ax88179_178a (no get_drvinfo) the release too. A driver with its own
    get_drvinfo says what it writes in the table (test_lab_drvinfo_version.py). Before: both
    lines empty everywhere."""
    kernel = "6.1.0-rpi7-rpi-v7"
    out = ethtool(lab(tmp_path, "smsc95xx", kernel=kernel), "-i", "eth0")[0]
    assert f"version: {kernel}\n" in out
    assert "firmware-version: smsc95xx USB 2.0 Ethernet\n" in out
    for driver in ("macb", "ax88179_178a"):
        shown = ethtool(lab(tmp_path, driver, kernel=kernel), "-i", "eth0")[0]
        assert f"version: {kernel}\n" in shown and "firmware-version: \n" in shown, driver
    r8152 = ethtool(lab(tmp_path, "r8152", kernel=kernel), "-i", "eth0")[0]
    assert "version: v1.12.13\n" in r8152  # rtl8152_get_drvinfo: DRIVER_VERSION
    unknown = ethtool(lab(tmp_path, "smsc95xx"), "-i", "eth0")[0]  # no kernel named: not claimed
    assert "version: \n" in unknown
