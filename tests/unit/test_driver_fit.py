"""Tweaks that fit the real driver (issue 21): each misfire the kernel's source shows, planned from
real ethtool captures (tests/captures) with the NIC's driver named as on a real Pi.

The driver facts come from resources/tuning/driver_caps.json (tests/test_driver_caps_source.py
checks them against the kernel source).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.cli.tune_plan_text import _item_lines, plan_lines
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.changes import refused
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak, TuningPlan
from sbctune.tuning.probe import Facts, Read

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
RINGS = (CAPTURES / "ethtool_g/ifupdown2_255_max.txt").read_text(encoding="utf-8")
COALESCE_3 = (CAPTURES / "ethtool_c/tuned_726_enp1s0.txt").read_text(encoding="utf-8")  # rx-usecs 3
PAUSE_ON = (CAPTURES / "ethtool_a/pi3bplus_lan78xx_switch_fc_on_2449.txt").read_text(
    encoding="utf-8"
)
PASTED = json.loads(
    (Path(__file__).resolve().parents[2] / "resources/tuning/driver_caps.json").read_text(
        encoding="utf-8"
    )
)["pasted"]


def result(key: str, stdout: str = "", code: int = 0) -> StepResult:
    return StepResult(batch.Step(("true",), key), code, stdout.encode(), b"")


def ssh_over(dev: str) -> StepResult:
    # `ip -j route get CLIENT` as iproute2 prints it (its JSON keys), for the client's address
    return result("ssh-route", json.dumps([{"dst": "198.18.0.1", "dev": dev}]))


def planned(
    tweak_id: str, nic: Nic, *steps: StepResult, kernel: str = "6.1.0-rpi", **options: Any
) -> PlannedTweak:
    found = Facts(nic.name)
    for step in steps:
        found.steps[step.step.name] = step
    tweak = catalog.tweak(tweak_id)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    ctx = Context(tweak, found, inventory, nic, dict(options), {}, (tweak_id,))
    return PLANNERS[tweak.kind](ctx)


# ----------------------------------------------------------------- rings that restart the link


@pytest.mark.parametrize("driver", ["macb", "atlantic", "stmmac", "igb", "igc"])
def test_a_ring_change_that_restarts_the_ssh_nic_needs_consent(driver: str) -> None:
    nic = Nic("eth0", driver=driver)
    item = planned("nic-rings", nic, result("ethtool -g", RINGS), ssh_over("eth0"))
    assert not item.applicable
    assert "restarts the interface" in item.reason and item.needs_link_consent
    # The planner's words are the app's too: no command-line flag in them; the CLI adds its own.
    assert "--" not in item.reason and "unless you agree" in item.reason
    cli = plan_lines(TuningPlan("eth0", [item]))
    assert "  (to allow it: run again with the flag --allow-link-restart)" in cli
    assert cli[2].endswith(": held back (restarts the link you are connected over)  [low risk]")
    assert "not possible" not in cli[2]
    agreed = planned("nic-rings", nic, result("ethtool -g", RINGS), ssh_over("eth0"),
                     allow_link_restart=True)  # fmt: skip
    assert agreed.applicable and agreed.restarts_link
    other = planned("nic-rings", nic, result("ethtool -g", RINGS), ssh_over("wlan0"))
    assert other.applicable and other.restarts_link


def test_an_unknown_ssh_route_counts_as_the_ssh_nic() -> None:
    item = planned("nic-rings", Nic("eth0", driver="macb"), result("ethtool -g", RINGS))
    assert not item.applicable and item.needs_link_consent


def test_rings_on_a_driver_without_set_ringparam_are_not_planned() -> None:
    """r8169 has get_ringparam only (6.1 and 6.12): `-G` would be EOPNOTSUPP."""
    item = planned("nic-rings", Nic("eth0", driver="r8169"), result("ethtool -g", RINGS))
    assert not item.applicable and "no set_ringparam" in item.reason


def test_rings_on_a_driver_that_does_not_restart_are_planned_as_before() -> None:
    item = planned("nic-rings", Nic("eth1", driver="r8152"), result("ethtool -g", RINGS),
                   ssh_over("eth1"))  # fmt: skip
    assert item.applicable and not item.restarts_link


# ----------------------------------------------------------------- coalescing


@pytest.mark.parametrize("driver", ["igb", "igc"])
def test_intel_rx_usecs_3_is_adaptive_moderation_not_3_microseconds(driver: str) -> None:
    item = planned("irq-coalescing", Nic("eth0", driver=driver), result("ethtool -c", COALESCE_3))
    assert not item.applicable
    assert "rx-usecs 3" in item.reason and "adaptive" in item.reason
    assert not any(c.after == "50" for c in item.changes)


def test_coalescing_on_an_rtl8125_is_not_planned() -> None:
    nic = Nic("eth1", driver="r8169", chip="RTL8125 2.5GbE Controller")
    item = planned("irq-coalescing", nic, result("ethtool -c", COALESCE_3))
    assert not item.applicable and "RTL8125" in item.reason and "EOPNOTSUPP" in item.reason
    older = planned("irq-coalescing", Nic("eth1", driver="r8169", chip="RTL8111/8168/8411"),
                    result("ethtool -c", COALESCE_3))  # fmt: skip
    assert older.applicable


def test_bcmgenet_rx_usecs_is_planned_as_the_value_it_reads_back() -> None:
    """50 us is stored as 7 ticks of 8.192 us and reads back 57 (bcmgenet_set_rx_coalesce)."""
    item = planned("irq-coalescing", Nic("eth0", driver="bcmgenet"),
                   result("ethtool -c", COALESCE_3))  # fmt: skip
    assert [(c.target, c.after) for c in item.changes] == [("eth0 -C rx-usecs", "57")]


# ----------------------------------------------------------------- pause, refusals


def test_flow_control_on_lan78xx_is_already_the_drivers_default() -> None:
    """Audit 6a row 8: the plan said "not possible here" for a setting that is simply on
    already; it says "already set", with the driver's source as the reason, and changes
    nothing (no renegotiation asked for)."""
    item = planned("flow-control", Nic("eth0", driver="lan78xx"), result("ethtool -a", PAUSE_ON))
    assert item.already and "lan78xx_phy_init" in item.reason
    assert not any(c.needed for c in item.changes) and not item.restarts_link
    shown = _item_lines(item, False)
    assert ": already set" in shown[0] and "not possible" not in "\n".join(shown)


@pytest.mark.parametrize(
    "stderr",
    [
        "tee: /proc/irq/62/smp_affinity: Input/output error",  # coreutils, kernels before 6.12
        "tee: /proc/irq/62/smp_affinity: I/O error",  # busybox on musl
    ],
)
def test_an_irq_the_chip_cannot_steer_is_not_possible_not_failed(stderr: str) -> None:
    assert refused(stderr) is not None


# ----------------------------------------------------------------- the table itself


@pytest.mark.parametrize("driver", PASTED)
def test_every_pasted_driver_has_its_kernel_facts(driver: str) -> None:
    """For each of the 13 drivers: the planner's view of the table (ops, queues, restarts)
    agrees with the table's own entries for both kernel series."""
    for kernel in ("6.1.0-27-arm64", "6.12.25+rpt-rpi-2712", "6.1.0-rpi7-rpi-v8"):
        caps = driver_caps.caps(driver, kernel)
        assert caps is not None
        entry = driver_caps.table()["drivers"][driver][caps.series[0]]
        tree = driver_caps.tree_of(kernel)
        hand = driver_caps.table()["hand"].get(driver, [])
        added = {op for f in hand if f["fact"] == "ops_added" and f.get("tree") == tree
                 and driver_caps.rpi_carried(f, kernel) for op in f["value"]}  # fmt: skip
        assert caps.ops == frozenset(entry["ops"]) | added
        assert caps.multiqueue == any(a["multiqueue"] for a in entry["netdev"])
        ring_planned = planned("nic-rings", Nic("eth9", driver=driver), result("ethtool -g", RINGS),
                               ssh_over("wlan0"), kernel=kernel)  # fmt: skip
        assert ring_planned.applicable == caps.has("set_ringparam")
        coalesce = planned("irq-coalescing", Nic("eth9", driver=driver),
                           result("ethtool -c", COALESCE_3), kernel=kernel)  # fmt: skip
        if "set_coalesce" in caps.unsure:  # macb on RP1: no rpi-N.y branch known to carry it
            assert coalesce.applicable and "may not support interrupt coalescing" in coalesce.reason
        elif not caps.has("set_coalesce"):
            assert not coalesce.applicable and "no set_coalesce" in coalesce.reason


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=100, deadline=None)
@given(st.one_of(st.text(max_size=200), _JSON.map(json.dumps)))
def test_garbage_from_ip_route_get_counts_as_the_ssh_nic_never_a_crash(text: str) -> None:
    """The Pi's answer is untrusted: anything but a route naming another device holds the
    restarting change back."""
    item = planned("nic-rings", Nic("eth0", driver="macb"), result("ethtool -g", RINGS),
                   result("ssh-route", text))  # fmt: skip
    try:
        other = json.loads(text)[0]["dev"] not in (None, "eth0")
    except (ValueError, TypeError, KeyError, IndexError, AttributeError):
        other = False
    assert item.applicable == (other is True)


# ----------------------------------------------------------------- macb: upstream vs the RPi tree


def test_macb_coalescing_is_planned_only_on_the_raspberry_pi_tree() -> None:
    """Debian's macb has no coalesce ops; the Raspberry Pi tree's gem_set_coalesce stores
    rx-usecs in 0.8 us ticks rounded down twice (50 reads back 49): the plan asks for 52,
    the next value that reads back as written (65 ticks)."""
    upstream = planned("irq-coalescing", Nic("eth0", driver="macb"),
                       result("ethtool -c", COALESCE_3), kernel="6.12.0-1-arm64")  # fmt: skip
    assert not upstream.applicable and "no set_coalesce" in upstream.reason
    rpi = planned("irq-coalescing", Nic("eth0", driver="macb"),
                  result("ethtool -c", COALESCE_3), kernel="6.12.25+rpt-rpi-2712")  # fmt: skip
    assert rpi.applicable
    assert [(c.target, c.after) for c in rpi.changes] == [("eth0 -C rx-usecs", "52")]
    caps = driver_caps.caps("macb", "6.12.25+rpt-rpi-2712")
    assert caps is not None and "raspberrypi/linux" in caps.cite("set_coalesce")


def test_the_pi5s_rp1_chip_means_the_raspberry_pi_tree_whatever_the_kernel_string() -> None:
    caps = driver_caps.caps("macb", None, "Cadence GEM in RP1 (Pi 5 Ethernet MAC)")
    # no rpi-N.y branch is known to carry gem_set_coalesce: tried, never claimed (issue 21)
    assert caps is not None and not caps.has("set_coalesce") and "set_coalesce" in caps.unsure
    assert caps.facts["coalesce_max"] == {"rx-usecs": 204, "tx-usecs": 204}
    plain = driver_caps.caps("macb", "6.1.0-27-arm64")
    assert plain is not None and not plain.has("set_coalesce")
    assert "coalesce_max" not in plain.facts


# ----------------------------------------------------------------- EEE renegotiates the link

EEE_ON = (CAPTURES / "ethtool_eee/pi3bplus_lan78xx_enabled_active_2882.txt").read_text(
    encoding="utf-8"
)  # a real Pi 3 B+ (lan78xx) with EEE enabled and active


@pytest.mark.parametrize(
    "driver", ["lan78xx", "bcmgenet", "r8169", "ax88179_178a", "r8152", "igb", "igc", "stmmac"]
)
def test_eee_off_renegotiates_the_link_so_the_ssh_nic_needs_consent(driver: str) -> None:
    """phy_ethtool_set_eee (6.1) / genphy_c45_ethtool_set_eee (6.12) restart autonegotiation
    when the advertisement changes; ax88179/r8152 call mii_nway_restart; igb/igc reset the
    NIC: turning EEE off drops the link for seconds."""
    nic = Nic("eth0", driver=driver)
    # lan78xx renegotiates on turning EEE off from 6.12 only (see the 6.1 test below)
    kernel = "6.12.25+rpt-rpi-v8" if driver == "lan78xx" else "6.1.0-rpi"
    eee = result("ethtool --show-eee", EEE_ON)
    held = planned("eee-off", nic, eee, ssh_over("eth0"), kernel=kernel)
    assert not held.applicable and held.needs_link_consent
    assert "Energy-Efficient Ethernet" in held.reason
    agreed = planned("eee-off", nic, eee, ssh_over("eth0"), kernel=kernel, allow_link_restart=True)
    assert agreed.applicable and agreed.restarts_link
    other = planned("eee-off", nic, eee, ssh_over("wlan0"), kernel=kernel)
    assert other.applicable and other.restarts_link


def test_lan78xx_eee_off_on_6_1_leaves_the_link_up() -> None:
    """6.1's lan78xx_set_eee only clears MAC_CR_EEE_EN_ when EEE goes off (phy_ethtool_set_eee
    is on the enable branch alone): nothing to hold back, nor on a 6.6 kernel (6.1's code until
    a00bbd15a5af, 6.10; audit 26). A kernel that says no version still counts 6.12's
    renegotiation."""
    nic = Nic("eth0", driver="lan78xx")
    eee = result("ethtool --show-eee", EEE_ON)
    item = planned("eee-off", nic, eee, ssh_over("eth0"), kernel="6.1.0-rpi7-rpi-v8")
    assert item.applicable and not item.restarts_link and not item.needs_link_consent
    between = planned("eee-off", nic, eee, ssh_over("eth0"), kernel="6.6.51+rpt-rpi-v8")
    assert between.applicable and not between.restarts_link and not between.needs_link_consent
    unknown = planned("eee-off", nic, eee, ssh_over("eth0"), kernel="")
    assert not unknown.applicable and unknown.needs_link_consent


def test_eee_off_on_a_driver_whose_firmware_takes_it_is_not_held_back() -> None:
    """atlantic hands EEE to its firmware (aq_ethtool_set_eee): no restart in the source."""
    nic = Nic("eth0", driver="atlantic")
    item = planned("eee-off", nic, result("ethtool --show-eee", EEE_ON), ssh_over("eth0"))
    assert item.applicable and not item.restarts_link


# ------------------------------------------------- second audit (driver_caps_audit2.md)

# A real `ethtool -c` with rx-usecs 0, rx-frames 1, tx-usecs 0, tx-frames 1 (e1000e in the dev VM),
# which is also what atlantic shows with its interrupt moderation off (aq_ethtool_get_coalesce).
COALESCE_OFF = (
    CAPTURES / "dev_vm/bundles/qemu_bookworm_four_nics/commands/013-ethtool_-c_enp0s2.txt"
).read_text(encoding="utf-8")


def test_r8152_counts_rx_usecs_in_nanoseconds() -> None:
    """tp->coalesce is nanoseconds (COALESCE_SUPER 85000 = 85 us; r8153b_init: 15000 /* 15 us */):
    the tweak's 50 us is 50000 there, not 50 (which would be 50 ns)."""
    item = planned("irq-coalescing", Nic("eth1", driver="r8152"),
                   result("ethtool -c", COALESCE_OFF))  # fmt: skip
    assert item.applicable
    assert [(c.target, c.after) for c in item.changes] == [("eth1 -C rx-usecs", "50000")]
    assert "nanoseconds" in item.reason
    usual = planned("irq-coalescing", Nic("eth0", driver="bcmgenet"),
                    result("ethtool -c", COALESCE_OFF))  # fmt: skip
    assert [(c.target, c.after) for c in usual.changes] == [("eth0 -C rx-usecs", "57")]


def test_atlantic_refuses_rx_usecs_while_moderation_is_off() -> None:
    """aq_ethtool_set_coalesce: frames must be 1 exactly when usecs is 0; `-C rx-usecs 50` with
    rx-frames reading 1 is EOPNOTSUPP, so it is not planned (today's plan would fail)."""
    item = planned("irq-coalescing", Nic("eth0", driver="atlantic"),
                   result("ethtool -c", COALESCE_OFF))  # fmt: skip
    assert not item.applicable and not item.changes
    assert "rx-frames is 1" in item.reason and "aq_ethtool_set_coalesce" in item.reason


def test_atlantic_refuses_a_change_that_leaves_a_pair_at_zero() -> None:
    """rx-usecs 3 / tx-usecs 3 with no frames shown (a real capture): the 50 us change leaves
    both pairs consistent, so it is planned; the refused pairs are the table's."""
    item = planned("irq-coalescing", Nic("eth0", driver="atlantic"),
                   result("ethtool -c", COALESCE_3))  # fmt: skip
    assert item.applicable and [c.after for c in item.changes] == ["50"]
    caps = driver_caps.caps("atlantic", "6.12.0-1-arm64")
    assert caps is not None
    assert {"tx-usecs": 0, "tx-frames": 0} in caps.facts["coalesce_refuses"]
    assert caps.facts["coalesce_max"]["rx-usecs"] == 1022


@pytest.mark.parametrize(("speed", "after"), [(1000, "50"), (None, "50"), (100, None)])
def test_r8169_coalescing_is_planned_only_where_it_reads_back(speed: int | None, after: str | None
                                                              ) -> None:  # fmt: skip
    """rtl_set_coalesce keeps up to 15 units of a speed-dependent scale, rounded up in and out:
    at 1 Gbit/s (or an unknown speed, the kernel's first row) 50 us is 10 units of 5 us; at
    100 Mbit/s a unit is 20.48 us and 50 reads back 62, so no value verifies: not planned."""
    nic = Nic("eth0", driver="r8169", chip="RTL8111/8168/8411", link_speed_mbps=speed)
    item = planned("irq-coalescing", nic, result("ethtool -c", COALESCE_OFF))
    if after is None:
        assert not item.applicable and "read back 62" in item.reason
        assert "rtl_coalesce_choose_scale" in item.reason
    else:
        assert [(c.target, c.after) for c in item.changes] == [("eth0 -C rx-usecs", after)]


# ----------------------------------------------------------------- MTU: restarts and EBUSY


def mtu_planned(driver: str, route_dev: str, **options: Any) -> PlannedTweak:
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    found.steps["ssh-route"] = ssh_over(route_dev)
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver=driver)
    inventory = Inventory(board=Board(kernel="6.12.25+rpt-rpi-2712"), nics=[nic])
    ctx = Context(tweak, found, inventory, nic, {"path_supports_jumbo": True, **options}, {},
                  ("mtu-jumbo",))  # fmt: skip
    return PLANNERS[tweak.kind](ctx)


def test_macb_refuses_a_new_mtu_while_the_interface_is_up() -> None:
    """macb_change_mtu: `if (netif_running(dev)) return -EBUSY;` (6.1 and 6.12): the Pi 5's
    port cannot take jumbo frames while up, so the tweak is not possible, not a failure."""
    item = mtu_planned("macb", "wlan0")
    assert not item.applicable and "EBUSY" in item.reason and "macb_change_mtu" in item.reason


@pytest.mark.parametrize("driver", ["igb", "igc", "stmmac"])
def test_an_mtu_change_that_restarts_the_ssh_nic_needs_consent(driver: str) -> None:
    """igb/igc_change_mtu take a running interface down and up; stmmac_change_mtu releases and
    reopens it: on the SSH NIC only with the user's consent, and marked as a link restart."""
    held = mtu_planned(driver, "eth0")
    assert not held.applicable and held.needs_link_consent and "the MTU" in held.reason
    agreed = mtu_planned(driver, "eth0", allow_link_restart=True)
    assert agreed.applicable and agreed.restarts_link
    quiet = mtu_planned("r8152", "eth0")
    assert quiet.applicable and not quiet.restarts_link


def test_r8169_refuses_pause_changes_with_jumbo_frames() -> None:
    """rtl8169_set_pauseparam: `if (dev->mtu > ETH_DATA_LEN) return -EOPNOTSUPP;` (6.1, 6.12):
    flow control is not possible on an r8169 with jumbo frames, said in the kernel's words."""
    jumbo = planned("flow-control", Nic("eth0", driver="r8169", mtu=9000))
    assert not jumbo.applicable
    assert "Operation not supported" in jumbo.reason and "not possible" in jumbo.reason
    assert "rtl8169_set_pauseparam" in jumbo.reason and "9000" in jumbo.reason
    plain = planned("flow-control", Nic("eth0", driver="r8169", mtu=1500))
    assert "Operation not supported" not in plain.reason


# ------------------------------------------ macb EEE on the Raspberry Pi tree (audit2 row 4)

PI5_EEE_REFUSED = (CAPTURES / "ethtool_eee/pi5_macb_6_12_not_supported_7115.txt").read_text(
    encoding="utf-8"
)  # a real Pi 5 (macb, 6.12): --show-eee answers "Operation not supported"
PI5 = "Cadence GEM in RP1"


def test_macb_eee_is_carried_by_the_rpi_tree_from_6_18_only() -> None:
    """raspberrypi/linux #7270 (rpi-6.18.y) backports Linux 7.1's macb EEE (macb_get_eee /
    macb_set_eee through phylink, in gem_ethtool_ops at the stored commit); Pi 5 pastes on 6.12
    answer --show-eee with EOPNOTSUPP; a branch no paste covers (6.6) is unknown: not claimed,
    not denied."""
    on_618 = driver_caps.caps("macb", "6.18.39+rpt-rpi-2712", PI5)
    assert on_618 is not None and on_618.has("set_eee") and on_618.restarts("eee")
    assert "raspberrypi/linux" in on_618.cite("set_eee")
    on_612 = driver_caps.caps("macb", "6.12.55+rpt-rpi-2712", PI5)
    assert on_612 is not None and not on_612.has("set_eee") and "set_eee" not in on_612.unsure
    assert not on_612.restarts("eee")
    on_66 = driver_caps.caps("macb", "6.6.51+rpt-rpi-2712", PI5)
    assert on_66 is not None and not on_66.has("set_eee") and "set_eee" in on_66.unsure
    upstream = driver_caps.caps("macb", "6.12.0-1-arm64")  # Debian's macb: no RP1, no EEE
    assert upstream is not None and not upstream.has("set_eee") and not upstream.unsure


def test_pi5_eee_off_on_618_renegotiates_so_the_ssh_nic_needs_consent() -> None:
    """macb_set_eee -> phylink_ethtool_set_eee -> phy_ethtool_set_eee: a changed advertisement
    restarts autonegotiation. Before, the table knew no EEE on macb and the plan dropped the
    Pi 5's SSH link without asking."""
    nic = Nic("eth0", driver="macb", chip=PI5)
    eee = result("ethtool --show-eee", EEE_ON)  # the --show-eee format (a real Pi 3 B+ paste)
    held = planned("eee-off", nic, eee, ssh_over("eth0"), kernel="6.18.39+rpt-rpi-2712")
    assert not held.applicable and held.needs_link_consent
    assert "macb_set_eee" in held.reason
    # a branch nobody has shown either way: the read answered, so the op is there: held too
    unknown = planned("eee-off", nic, eee, ssh_over("eth0"), kernel="6.6.51+rpt-rpi-2712")
    assert not unknown.applicable and unknown.needs_link_consent
    agreed = planned("eee-off", nic, eee, ssh_over("eth0"), kernel="6.18.39+rpt-rpi-2712",
                     allow_link_restart=True)  # fmt: skip
    assert agreed.applicable and agreed.restarts_link


def test_pi5_on_612_cannot_turn_eee_off_with_ethtool() -> None:
    """The kernel's own answer (a real Pi 5 paste on 6.12) is what the plan says: not offered."""
    nic = Nic("eth0", driver="macb", chip=PI5)
    refused = result("ethtool --show-eee", "", code=1)
    refused = StepResult(refused.step, 1, b"", PI5_EEE_REFUSED.encode())
    item = planned("eee-off", nic, refused, ssh_over("eth0"), kernel="6.12.55+rpt-rpi-2712")
    assert not item.applicable and not item.needs_link_consent
    assert "Operation not supported" in item.reason


def test_an_rpi_only_op_of_unknown_carriage_is_tried_not_refused() -> None:
    """Where nothing shows whether the running branch carries an op, the planner does not say
    the driver lacks it: it reads the kernel first and verifies by read-back."""
    caps = driver_caps.caps("macb", "6.6.51+rpt-rpi-2712", PI5)
    assert caps is not None
    nic = Nic("eth0", driver="macb", chip=PI5)
    ctx = Context(catalog.tweak("eee-off"), Facts("eth0"),
                  Inventory(board=Board(kernel="6.6.51+rpt-rpi-2712"), nics=[nic]), nic, {}, {},
                  ("eee-off",))  # fmt: skip
    from sbctune.tuning.kinds_ethtool import _driver_lacks

    assert _driver_lacks(ctx, "set_eee") is None
    assert _driver_lacks(ctx, "set_pauseparam") is not None


# ax88179 names its kernel's patch level: usbnet_probe caps ax88179_bind's 4088 at 1500 from
# the stable backport of c7159e960f14 (6.1.162), and "6.1.0-rpi7-rpi-v8" does not say its level,
# so the table claims neither there (test_lab_mtu17.py; audit 17 row 2)
@pytest.mark.parametrize(("driver", "chip", "top", "kernel"),
                         [("smsc95xx", "", 1500, "6.1.0-rpi7-rpi-v8"),
                          ("bcmgenet", "", 1500, "6.1.0-rpi7-rpi-v8"),
                          ("ax88179_178a", "", 4088, "6.1.140"),
                          ("ax88179_178a", "", 1500, "6.1.170"),
                          ("r8152", "RTL8152B", 1500, "6.1.0-rpi7-rpi-v8")])  # fmt: skip
def test_jumbo_frames_stop_at_the_drivers_max_mtu(
    driver: str, chip: str, top: int, kernel: str
) -> None:
    """max_mtu (driver_caps_audit3a.md row 3): smsc95xx_bind ETH_DATA_LEN, bcmgenet ether_setup's
    1500, ax88179_bind 4088 (1500 from 6.1.162: usbnet_probe), r8152 by chip
    (rtl8152_probe_once): where `ip -d link` does not say it, the table does, and MTU 9000 is not
    planned (before: planned)."""
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    found.steps["ssh-route"] = ssh_over("wlan0")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver=driver, chip=chip or None)
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    ctx = Context(tweak, found, inventory, nic, {"path_supports_jumbo": True}, {}, ("mtu-jumbo",))
    item = PLANNERS[tweak.kind](ctx)
    assert not item.applicable and f"at most {top}" in item.reason
    lan78xx = mtu_planned("lan78xx", "wlan0")  # 9000 is its MAX_SINGLE_PACKET_SIZE: allowed
    assert lan78xx.applicable


@pytest.mark.parametrize(
    ("driver", "chip", "top"),
    [
        ("igb", "82580", 9216),  # igb_probe: MAX_STD_JUMBO_FRAME_SIZE
        ("igc", "I225-V", 9216),
        ("atlantic", "AQC107", 16334),  # aq_nic_ndev_init: 16352 - FCS - header
        ("stmmac", "", 9000),  # stmmac_dvr_probe: JUMBO_LEN
        ("asix", "AX88772B", 1500),  # usbnet_probe caps it at hard_mtu - header
        ("asix", "AX88178", 1500),  # ax88178_bind's 16366 is capped the same way
        ("r8169", "RTL8125B", 9194),  # rtl_jumbo_max: JUMBO_9K
        ("r8169", "RTL8168c/8111c", 6122),
        ("r8169", "RTL8168b/8111b", 4074),
        ("r8169", "RTL810xE PCI Express Fast Ethernet controller", 1500),  # no GMII: no jumbo
    ],
)
def test_audit4b_max_mtu_of_each_driver(driver: str, chip: str, top: int) -> None:
    """driver_caps_audit4b.md: the max_mtu of r8169 (by chip), igb, igc, atlantic, stmmac and
    asix were not in the table, so where `ip -d link` does not show it the planner offered any
    MTU and the lab's ip (veth: 65535) took it. An MTU one above the maximum is not planned;
    the maximum itself is."""
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    found.steps["ssh-route"] = ssh_over("wlan0")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver=driver, chip=chip or None)
    inventory = Inventory(board=Board(kernel="6.1.0-rpi7-rpi-v8"), nics=[nic])
    for mtu, planned in ((top + 1, False), (top, True)):
        options = {"path_supports_jumbo": True, "mtu": mtu}
        ctx = Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",))
        item = PLANNERS[tweak.kind](ctx)
        assert item.applicable is planned, (mtu, item.reason)
        if not planned:
            assert f"at most {top}" in item.reason


@pytest.mark.parametrize(("driver", "mtu", "refused"), [("lan78xx", 8686, True),
                                                         ("lan78xx", 9000, False),
                                                         ("smsc95xx", 998, True)])  # fmt: skip
def test_an_mtu_of_whole_usb_packets_is_not_possible(driver: str, mtu: int, refused: bool) -> None:
    """lan78xx_change_mtu (mtu + 18) and usbnet_change_mtu (smsc95xx: mtu + 26) refuse a frame
    of whole 512-byte USB packets with EDOM (driver_caps_audit3a.md row 11): not planned,
    "not possible" with the kernel's reason; 9000 (9018 % 512 = 314) is fine. Before: planned."""
    item = mtu_planned(driver, "wlan0", mtu=mtu)
    assert item.applicable is not refused
    if refused:
        assert "EDOM" in item.reason and "not possible" in item.reason


def test_stmmacs_max_mtu_is_what_a_real_rk3588_shows() -> None:
    """An Orange Pi 5's GMAC (stmmac, `ip -d link`, tests/captures/ip_link: its source.md):
    maxmtu 9000, the table's JUMBO_LEN."""
    capture = CAPTURES / "ip_link" / "opi5_orangepi_build_68_ip_d_l_prompts_rk_gmac_no_phy.txt"
    shown = re.findall(r"maxmtu (\d+)", capture.read_text(encoding="utf-8"))
    caps = driver_caps.caps("stmmac", "6.1")
    assert caps is not None and str(caps.mtu_max()) in shown


def test_the_pi5s_jumbo_frames_stop_at_rp1s_max_mtu() -> None:
    """driver_caps_audit4a.md row 2: macb on RP1 (raspberrypi_rp1_config: MACB_CAPS_JUMBO,
    jumbo_max_len 10240) has max_mtu 10222: --mtu 12000 is not possible because of the driver's
    limit (before: only 'refuses a new MTU while up', as if a downed link could take it)."""
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    found.steps["ssh-route"] = ssh_over("wlan0")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver="macb", chip=PI5)
    inventory = Inventory(board=Board(kernel="6.12.25+rpt-rpi-2712"), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": 12000}
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))
    assert not item.applicable and "at most 10222" in item.reason
    assert "macb_probe" in item.reason
