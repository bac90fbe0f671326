"""Audit 35 (resources/tuning/driver_caps_audit35.md): what the user is told, read against the
kernel's source for the 13 drivers.

Row 1: a tweak held back on the NIC that carries the SSH session said "changing X on D restarts
the interface (FUNCTION)" for every restart fact, also where the cited function only restarts
autonegotiation (the fact's kind "renegotiation"): rtl8169_set_eee, bcmgenet_set_eee,
macb_set_eee, lan78xx_set_eee all reach phy_ethtool_set_eee, which writes the EEE advertisement
and calls phy_restart_aneg (drivers/net/phy/phy.c 6.1; genphy_c45_ethtool_set_eee in 6.12); the
interface is neither closed nor reset. The same plan, with the user's consent, already said
"renegotiates the link for it". A ring change that closes and reopens (macb_set_ringparam) or an
igb reset (igb_set_eee: igb_reinit_locked) still restarts the interface.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, root, with_link
from tests.plan_one import plan_one

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
CAPTURES = Path(__file__).resolve().parents[1] / "captures"
# a real --show-eee with EEE enabled (systemd issue 32032), as audits 30, 31 and 34a use it
EEE_ON = (CAPTURES / "ethtool_eee" / "pi_end0_enabled_inactive_systemd_32032.txt").read_text(
    encoding="utf-8"
)


def _planned(
    tweak_id: str, step: str, text: str, driver: str, chip: str, kernel: str
) -> PlannedTweak:
    found = Facts("eth0")  # no ssh-route step: the NIC counts as the one SSH runs over
    found.steps[step] = StepResult(batch.Step(("true",), step), 0, text.encode(), b"")
    nic = Nic("eth0", driver=driver, chip=chip)
    return plan_one(tweak_id, found, nic, kernel)


@pytest.mark.parametrize(
    ("driver", "chip", "kernel", "where"),
    [
        ("r8169", "RTL8168h/8111h", "6.1.0-27-arm64", "rtl8169_set_eee"),
        ("r8169", "RTL8168h/8111h", "6.12.57+deb13-arm64", "rtl8169_set_eee"),
        ("bcmgenet", "GENET v5", "6.12.57+deb13-arm64", "bcmgenet_set_eee"),
        ("macb", "Cadence GEM in RP1", "7.2.0-1-arm64", "macb_set_eee"),
        ("lan78xx", "LAN7515", "6.12.57+deb13-arm64", "lan78xx_set_eee"),
    ],
)
def test_eee_held_back_says_the_link_renegotiates(
    driver: str, chip: str, kernel: str, where: str
) -> None:
    """What `tune plan` shows for eee-off on the SSH NIC: the link renegotiates (the cited
    function restarts autonegotiation only), not "restarts the interface"."""
    item = _planned("eee-off", "ethtool --show-eee", EEE_ON, driver, chip, kernel)
    assert not item.applicable and item.needs_link_consent, item.reason
    assert item.reason.startswith(
        f"changing Energy-Efficient Ethernet on {driver} renegotiates the link ("
    ), item.reason
    assert f"{where})" in item.reason and "restarts the interface" not in item.reason


@root
def test_flow_control_held_back_on_lan78xx_says_the_link_renegotiates(tmp_path: Path) -> None:
    """lan78xx_set_pause (6.1, 6.12) writes the advertisement and calls phy_start_aneg: the
    lab's `-a` after `-A eth0 rx off tx off`, planned on the SSH NIC."""
    state = with_link(lab_state(tmp_path, "lan78xx", "LAN7515", "6.12.57+deb13-arm64"), **LINK_UP)
    assert ethtool(state, "-A", "eth0", "rx", "off", "tx", "off")[2] == 0
    text, err, code = ethtool(state, "-a", "eth0")
    assert (err, code) == ([], 0) and "RX:\t\toff" in text
    item = _planned("flow-control", "ethtool -a", text, "lan78xx", "LAN7515", "6.12.57+deb13-arm64")
    assert not item.applicable and item.needs_link_consent, item.reason
    assert item.reason.startswith("changing flow control on lan78xx renegotiates the link ("), (
        item.reason
    )


def test_a_ring_change_that_reopens_still_restarts_the_interface(tmp_path: Path) -> None:
    """The control: macb_set_ringparam closes and reopens a running interface (the lab's `-g`)."""
    state = lab_state(tmp_path, "macb", "Cadence GEM in RP1", "6.12.57+deb13-arm64")
    text, err, code = ethtool(state, "-g", "eth0")
    assert (err, code) == ([], 0)
    item = _planned(
        "nic-rings", "ethtool -g", text, "macb", "Cadence GEM in RP1", "6.12.57+deb13-arm64"
    )
    assert not item.applicable and item.needs_link_consent, item.reason
    assert item.reason.startswith("changing rings on macb restarts the interface ("), item.reason


def test_an_igb_reset_still_restarts_the_interface() -> None:
    """The control: igb_set_eee resets the NIC (igb_reinit_locked: igb_down, igb_up)."""
    item = _planned("eee-off", "ethtool --show-eee", EEE_ON, "igb", "I350", "6.12.57+deb13-arm64")
    assert not item.applicable and item.needs_link_consent, item.reason
    assert "on igb restarts the interface (" in item.reason


# Row 2: the XPS tweak's why said the map's file "is missing" on a USB adapter. Every transmit
# queue has an xps_cpus file (net/core/net-sysfs.c netdev_queue_default_attrs, no is_visible:
# 6.1, 6.12, 7.2); on a net_device with one transmit queue xps_cpus_show and xps_cpus_store
# answer ENOENT (`!netif_is_multiqueue(dev)`), which the shell prints as "No such file or
# directory" for a file `ls` lists (seed 000's `echo f > .../tx-0/xps_cpus`).


def test_the_xps_why_says_the_file_is_there_but_answers_enoent() -> None:
    """`tune plan` for XPS on a USB adapter: the why no longer says the file is missing."""
    from sbctune.cli.tune_plan_text import plan_lines
    from sbctune.tuning.model import TuningPlan
    from sbctune.tuning.why_words import why_for

    nic = Nic("eth0", driver="ax88179_178a", chip="AX88179")
    tweak = catalog.tweak("xps")
    inventory = Inventory(board=Board(kernel="6.12.57+deb13-arm64", cpu_cores=4), nics=[nic])
    item = PLANNERS[tweak.kind](Context(tweak, Facts("eth0"), inventory, nic, {}, {}, ("xps",)))
    assert not item.applicable and "ENOENT" in item.reason, item.reason
    item.why, item.sources = why_for(tweak, inventory, nic)  # as planning.plan gives it
    text = "\n".join(plan_lines(TuningPlan("eth0", [item])))
    why = next(line for line in text.splitlines() if line.startswith("  Why: "))
    assert "the file is missing" not in why, why
    assert "one transmit queue" in why and "“No such file or directory”" in why, why


# Row 3: atlantic with interrupt moderation off (aq_itr=0: aq_ethtool_get_coalesce shows usecs 0,
# frames 1) was told "both would have to change at once (not possible ...)", which reads as if
# `-C rx-usecs 50 rx-frames 0` would do; the kernel takes that one, but aq_ethtool_set_coalesce
# always sets AQ_CFG_INTERRUPT_MODERATION_ON, whose get shows frames 0, so the off mode (frames
# 1) could never be put back: that is why it is not possible.
COALESCE_OFF = (
    CAPTURES / "dev_vm/bundles/qemu_bookworm_four_nics/commands/013-ethtool_-c_enp0s2.txt"
).read_text(encoding="utf-8")  # a real -c with 0/1/0/1, as test_driver_fit uses it for atlantic


@pytest.mark.parametrize("kernel", ["6.1.0-27-amd64", "6.12.57+deb13-amd64"])
def test_atlantic_with_moderation_off_says_why_both_at_once_will_not_do(kernel: str) -> None:
    item = _planned("irq-coalescing", "ethtool -c", COALESCE_OFF, "atlantic", "AQC107", kernel)
    assert not item.applicable and not item.changes, item.reason
    assert "rx-frames is 1" in item.reason
    assert "with rx-frames 0 the driver would take it" in item.reason, item.reason
    assert "rx-frames reads 0 (" in item.reason and "aq_ethtool_get_coalesce)" in item.reason
    assert "rx-frames 1 could not be put back" in item.reason


# Row 4: on the NIC that carries the SSH session, r8169's jumbo MTU is held back (rtl_jumbo_config
# renegotiates the link; no consent), yet offloads-on said TSO was "not possible" because "the
# jumbo frames tweak planned with it sets 9000". rtl8169_fix_features drops TSO only while
# dev->mtu is above 1500 (TD_MSS_MAX / ETH_DATA_LEN, 6.1 and 6.12): at the MTU the held-back plan
# leaves, `-K tso on` is taken.
R8169_612 = "6.12.57+deb13-arm64"


def _offloads(tmp_path: Path, **options: bool) -> PlannedTweak:
    state = with_link(lab_state(tmp_path, "r8169", "RTL8125B", R8169_612), **LINK_UP)
    text, err, code = ethtool(state, "-k", "eth0")  # the lab's -k: SG and TSO off on 6.12
    assert (err, code) == ([], 0)
    found = Facts("eth0")  # no ssh-route step: the NIC counts as the one SSH runs over
    found.steps["ethtool -k"] = StepResult(
        batch.Step(("true",), "ethtool -k"), 0, text.encode(), b""
    )
    nic = Nic("eth0", driver="r8169", chip="RTL8125B", mtu=1500)
    tweak = catalog.tweak("offloads-on")
    inventory = Inventory(board=Board(kernel=R8169_612), nics=[nic])
    opts = {"path_supports_jumbo": True, **options}
    selected = ("offloads-on", "mtu-jumbo")
    return PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, opts, {}, selected))


def test_tso_is_planned_where_the_jumbo_mtu_is_held_back(tmp_path: Path) -> None:
    item = _offloads(tmp_path)
    assert not any("tso" in target for target, _why in item.impossible), item.impossible
    assert "eth0 -K tso" in [c.target for c in item.changes], item.reason


def test_tso_stays_off_where_the_user_agreed_to_the_jumbo_mtu(tmp_path: Path) -> None:
    """The control: with consent the MTU goes to 9000, and rtl8169_fix_features drops TSO."""
    item = _offloads(tmp_path, allow_link_restart=True)
    why = dict(item.impossible).get("eth0 -K tso", "")
    assert "the jumbo frames tweak planned with it sets 9000" in why, item.impossible


def test_an_agreed_igb_eee_change_says_the_interface_restarts() -> None:
    """With the user's consent, the plan's line for the drop follows the same kind: igb_set_eee
    resets the NIC (igb_reinit_locked, 6.1 and 6.12), r8169 renegotiates (rtl8169_set_eee)."""
    found = Facts("eth0")
    found.steps["ethtool --show-eee"] = StepResult(
        batch.Step(("true",), "ethtool --show-eee"), 0, EEE_ON.encode(), b""
    )
    for driver, chip, words in (
        ("igb", "I350", "; igb restarts the interface for it (the link drops briefly)"),
        ("r8169", "RTL8168h/8111h", "; r8169 renegotiates the link for it (it drops briefly)"),
    ):
        nic = Nic("eth0", driver=driver, chip=chip)
        tweak = catalog.tweak("eee-off")
        inventory = Inventory(board=Board(kernel=R8169_612), nics=[nic])
        options = {"allow_link_restart": True}
        item = PLANNERS[tweak.kind](
            Context(tweak, found, inventory, nic, options, {}, ("eee-off",))
        )
        assert item.applicable and item.restarts_link, item.reason
        assert words in item.reason, item.reason


# Row 5: from 6.17 lan78xx's pause is phylink's (lan78xx_get_pause/lan78xx_set_pause:
# phylink_ethtool_get/set_pauseparam, 7.2 lan78xx.c lines 1869-1882); phylink_create requests
# MLO_PAUSE_AN alone (phylink.c 7.2 line 1901) and the PHY advertises Pause and Asym_Pause, so
# `ethtool -a` shows "RX: off", "TX: off" with "RX negotiated: on", "TX negotiated: on": pause is
# in force. flow-control planned `-A rx on tx on` there, held back on the SSH NIC as a link drop
# (with consent: a renegotiation for a pause already in force).
def _pause_plan(text: str, kernel: str) -> PlannedTweak:
    return _planned("flow-control", "ethtool -a", text, "lan78xx", "LAN7515", kernel)


@pytest.mark.parametrize("kernel", ["7.2.12+deb14-arm64", "6.18.33+rpt-rpi-v8"])
def test_negotiated_pause_on_a_phylink_lan78xx_is_not_needed(tmp_path: Path, kernel: str) -> None:
    from sbctune.cli.tune_plan_text import plan_lines
    from sbctune.tuning.model import TuningPlan

    state = with_link(lab_state(tmp_path, "lan78xx", "LAN7515", kernel), **LINK_UP)
    text, err, code = ethtool(state, "-a", "eth0")
    assert (err, code) == ([], 0)
    assert "RX:\t\toff" in text and "RX negotiated: on" in text and "TX negotiated: on" in text
    item = _pause_plan(text, kernel)
    assert not item.applicable and item.not_needed and not item.needs_link_consent, item.reason
    assert "in force already" in item.reason and "phylink_bringup_phy" in item.reason
    lines = plan_lines(TuningPlan("eth0", [item]))
    assert lines[2].startswith("Ethernet flow control (pause frames) on: not needed here"), lines


def test_pause_off_on_both_ends_is_still_planned() -> None:
    """The control: a real Pi 3 B+ `-a` with the switch's flow control off (raspberrypi/linux
    #2449): RX/TX requested on, negotiated off: on already as requested (lan78xx_phy_init)."""
    text = (CAPTURES / "ethtool_a" / "pi3bplus_lan78xx_switch_fc_off_2449.txt").read_text(
        encoding="utf-8"
    )
    item = _pause_plan(text, "6.1.0-27-arm64")
    assert item.applicable and item.already and not item.not_needed, item.reason
