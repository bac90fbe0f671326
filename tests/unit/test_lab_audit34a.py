"""Audit 34a (resources/tuning/driver_caps_audit34a.md): the bar's check of bcmgenet, macb,
lan78xx, smsc95xx, ax88179_178a, r8152 and cdc_ncm in Debian's 6.1, 6.12 and 7.2 source.

Row 1: rtl8152_probe_once (drivers/net/usb/r8152.c, 6.1, 6.12 and 7.2) sets
`tp->mii.phy_id = R8152_PHY_ID` (32), which mii_ethtool_get_link_ksettings writes as the
link's phy_address: `ethtool IFACE` prints "PHYAD: 32", as a real gigabit r8152 adapter does
(tests/captures/ethtool/r8152_gigabit_netdev_2024_ethtool_phyad_32.txt). Before, the lab
printed "PHYAD: 0" (audit 9a row 1 read "never phy_id").
Row 2: from 6.17 lan78xx's EEE is phylink's (7.2: lan78xx_phylink_setup's lpi_timer_default
50 and eee_enabled_default, put in the PHY's eee_cfg by phylink_bringup_phy): `--show-eee`
shows "Tx LPI: 50 (us)" from the start, as a real Pi 3 B+ on 6.18.33+rpt does
(tests/captures/ethtool_eee/pi3bplus_lan78xx_6_18_enabled_active_7436.txt; the Raspberry Pi
tree's 600 us DT timer was reverted by raspberrypi/linux #7295). Before, the lab applied 6.12's
"the MAC's LPI timer reads 0 until a link negotiated EEE" to every later kernel.
Row 3: bcmgenet_probe calls netdev_sw_irq_coalesce_default_on from 6.17 (078bb22cfc65).
Row 4: mainline macb gains EEE in 7.1 (61332b78761c; 7.2: gem_ethtool_ops .get_eee/.set_eee
through phylink, EEE on at start for MACB_CAPS_EEE, the Pi 5's RP1): the table had these ops
and their link renegotiation only for the Raspberry Pi tree, so on a Pi 5 running a mainline
7.x kernel (Debian's 7.2) eee-off was planned on the NIC that carries the SSH session with no
consent asked, and phy_ethtool_set_eee renegotiates the link; the lab answered "Operation not
supported".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, with_link

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")
CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "ethtool"
SERIES = ["6.1.0-27-arm64", "6.12.57+deb13-arm64", "7.2.12+deb14-arm64"]


def _linkinfo(text: str) -> list[str]:
    """The lines ethtool's linkinfo_reply_cb prints (Port, PHYAD, Transceiver), unindented."""
    keys = ("Port:", "PHYAD:", "Transceiver:")
    return [line.strip() for line in text.splitlines() if line.strip().startswith(keys)]


@pytest.mark.parametrize("kernel", SERIES)
def test_an_r8152_shows_phy_address_32_as_a_real_adapter_does(tmp_path: Path, kernel: str) -> None:
    real = (CAPTURES / "r8152_gigabit_netdev_2024_ethtool_phyad_32.txt").read_text(encoding="utf-8")
    assert _linkinfo(real) == ["Port: MII", "PHYAD: 32", "Transceiver: internal"]
    state = with_link(lab_state(tmp_path, "r8152", "RTL8153", kernel), **LINK_UP)
    out, err, code = ethtool(state, "eth0")
    assert (err, code) == ([], 0)
    assert _linkinfo(out) == _linkinfo(real)
    # the capture's other mii lines, which the lab already showed
    for label in ("Supported pause frame use", "Advertised pause frame use"):
        shown = next(line.strip() for line in out.splitlines() if label in line)
        assert shown in real


@pytest.mark.parametrize("kernel", SERIES[:2])
def test_setting_the_r8152s_own_phy_address_calls_no_driver(tmp_path: Path, kernel: str) -> None:
    """ethnl_set_linkinfo (ethnl_update_u8): `-s phyad 32` changes nothing, so
    rtl8152_set_link_ksettings (which would restart autonegotiation) is not called; the lab's
    state keeps its autonegotiation and its advertisement."""
    state = with_link(lab_state(tmp_path, "r8152", "RTL8153", kernel), **LINK_UP)
    before = ethtool(state, "eth0")[0]
    assert ethtool(state, "-s", "eth0", "phyad", "32") == ("", [], 0)
    assert ethtool(state, "eth0")[0] == before


def _tx_lpi(state: str) -> str:
    out, err, code = ethtool(state, "--show-eee", "eth0")
    assert (err, code) == ([], 0)
    return next(line.split(":", 1)[1].strip() for line in out.splitlines() if "Tx LPI" in line)


@pytest.mark.parametrize(
    ("chip", "kernel"),
    [
        ("LAN7800", "6.18.1-1-arm64"),
        ("LAN7800", "7.2.12+deb14-arm64"),
        ("LAN7515", "6.18.33+rpt-rpi-v7"),  # the real Pi 3 B+ of raspberrypi/linux #7436
    ],
)
def test_lan78xx_from_617_shows_phylinks_50_us_tx_lpi_timer(
    tmp_path: Path, chip: str, kernel: str
) -> None:
    real = (
        Path(__file__).resolve().parents[1] / "captures" / "ethtool_eee"
        / "pi3bplus_lan78xx_6_18_enabled_active_7436.txt"
    ).read_text(encoding="utf-8")  # fmt: skip
    assert "Tx LPI: 50 (us)" in real
    # no link partner in this state: EEE enabled, not active, and the timer is shown anyway
    state = with_link(lab_state(tmp_path, "lan78xx", chip, kernel), **LINK_UP)
    assert _tx_lpi(state) == "50 (us)"


@pytest.mark.parametrize(
    ("kernel", "tx_lpi"),
    [("6.12.57+deb13-arm64", "0 (us)"), ("6.1.0-27-arm64", "disabled")],
)
def test_lan78xx_before_617_keeps_its_own_timer(tmp_path: Path, kernel: str, tx_lpi: str) -> None:
    """The control: 6.12's lan78xx_get_eee reads EEE_TX_LPI_REQ_DLY only while the MAC's
    MAC_CR_EEE_EN_ is on (after a link that negotiated EEE), else 0; 6.1 leaves EEE off."""
    state = with_link(lab_state(tmp_path, "lan78xx", "LAN7800", kernel), **LINK_UP)
    assert _tx_lpi(state) == tx_lpi


@pytest.mark.parametrize(
    ("kernel", "claimed"),
    [("6.12.47+rpt-rpi-v8", False), ("6.1.0-27-arm64", False), ("6.18.1-1-arm64", True),
     ("7.2.12+deb14-arm64", True)],
)  # fmt: skip
def test_genet_software_irq_coalescing_by_default_from_617(kernel: str, claimed: bool) -> None:
    """Row 3: bcmgenet_probe calls netdev_sw_irq_coalesce_default_on from 6.17 (078bb22cfc65):
    gro_flush_timeout 20000 and napi_defer_hard_irqs 1, as macb's from 6.12."""
    caps = driver_caps.caps("bcmgenet", kernel)
    assert caps is not None
    default = caps.facts.get("sw_irq_coalesce_default")
    assert default == ({"gro_flush_timeout": 20000, "napi_defer_hard_irqs": 1} if claimed else None)


RP1 = "Cadence GEM in RP1"  # the Pi 5's NIC, as test_lab_audit31 names it
DEBIAN_72 = "7.2.0-1-arm64"  # Debian trixie-backports: mainline's macb on RP1
# a real --show-eee with EEE enabled (systemd issue 32032), as audits 30 and 31 use it
EEE_ON = (CAPTURES.parent / "ethtool_eee" / "pi_end0_enabled_inactive_systemd_32032.txt").read_text(
    encoding="utf-8"
)


def _planned_eee_off(kernel: str, **options: bool) -> PlannedTweak:
    found = Facts("eth0")  # no ssh-route step: the NIC counts as the one SSH runs over
    found.steps["ethtool --show-eee"] = StepResult(
        batch.Step(("true",), "ethtool --show-eee"), 0, EEE_ON.encode(), b""
    )
    nic = Nic("eth0", driver="macb", chip=RP1)
    tweak = catalog.tweak("eee-off")
    inventory = Inventory(board=Board(kernel=kernel), nics=[nic])
    return PLANNERS[tweak.kind](
        Context(tweak, found, inventory, nic, dict(options), {}, ("eee-off",))
    )


@pytest.mark.parametrize("kernel", [DEBIAN_72, "7.1.3-arm64"])
def test_eee_off_on_a_mainline_pi5_is_held_back_over_ssh(kernel: str) -> None:
    item = _planned_eee_off(kernel)
    assert not item.applicable and item.needs_link_consent, item.reason
    assert "renegotiates the link (drivers/net/ethernet/cadence/macb_main.c: macb_set_eee)" in (
        item.reason
    )
    agreed = _planned_eee_off(kernel, allow_link_restart=True)
    assert agreed.applicable and [c.after for c in agreed.changes] == ["off"], agreed.reason
    assert "may not" not in agreed.reason  # the kernel has set_eee: no "may not support"


@pytest.mark.parametrize("kernel", [DEBIAN_72, "7.1.3-arm64"])
def test_the_labs_mainline_pi5_has_eee_on_at_start(tmp_path: Path, kernel: str) -> None:
    """macb_mii_probe (7.2), MACB_CAPS_EEE: eee_enabled_default and lpi_timer_default 250000,
    lpi_capabilities 100/1000 full. Before, "Operation not supported" (exit 1)."""
    state = with_link(lab_state(tmp_path, "macb", RP1, kernel), **LINK_UP)
    out, err, code = ethtool(state, "--show-eee", "eth0")
    assert (err, code) == ([], 0)
    assert "\tEEE status: enabled - " in out and "\tTx LPI: 250000 (us)" in out
    assert "Supported EEE link modes:  100baseT/Full" in out


@pytest.mark.parametrize("kernel", ["6.18.1-1-arm64", "6.12.20-arm64"])
def test_mainline_before_71_has_no_macb_eee(tmp_path: Path, kernel: str) -> None:
    """The control: mainline 6.18's macb drives the RP1 with no EEE op (gem_ethtool_ops)."""
    caps = driver_caps.caps("macb", kernel, RP1)
    assert caps is not None and not caps.has("set_eee") and not caps.restarts("eee")
    state = with_link(lab_state(tmp_path, "macb", RP1, kernel), **LINK_UP)
    assert ethtool(state, "--show-eee", "eth0")[2] == 1


def _pause_bounces(state: str) -> int:
    return int(
        (json.loads(Path(state).read_text(encoding="utf-8"))["interfaces"]["eth0"]["pause"]).get(
            "bounces", 0
        )
    )


def test_smsc95xx_from_617_renegotiates_a_pause_change(tmp_path: Path) -> None:
    """Row 6: smsc95xx_set_pauseparam (6.17+, 7.2) -> phy_set_asym_pause -> phy_start_aneg when
    the advertisement changes over an autonegotiating link: the link drops, as bcmgenet's does.
    Over a forced link nothing renegotiates (phydev->autoneg)."""
    state = with_link(lab_state(tmp_path, "smsc95xx", "LAN9514", DEBIAN_72), **LINK_UP)
    assert ethtool(state, "-A", "eth0", "autoneg", "on", "rx", "off", "tx", "off")[1:] == ([], 0)
    assert _pause_bounces(state) == 1
    (tmp_path / "forced").mkdir()
    forced = with_link(lab_state(tmp_path / "forced", "smsc95xx", "LAN9514", DEBIAN_72), **LINK_UP)
    assert ethtool(forced, "-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off")[2] == 0
    assert ethtool(forced, "-A", "eth0", "autoneg", "off", "rx", "off", "tx", "off")[2] == 0
    assert _pause_bounces(forced) == 0


@pytest.mark.parametrize(("kernel", "bounces"), [(DEBIAN_72, 1), ("6.12.57+deb13-arm64", 0)])
def test_lan78xx_from_617_bounces_its_link_on_a_manual_pause_change(
    tmp_path: Path, kernel: str, bounces: int
) -> None:
    """Row 7: lan78xx_set_pause is phylink_ethtool_set_pauseparam from 6.17, which sets
    link_failed and resolves again (the link down and up) when the manual pause changes, even
    over a forced link; 6.12's lan78xx_set_pause stores the request there (no bounce)."""
    state = with_link(lab_state(tmp_path, "lan78xx", "LAN7800", kernel), **LINK_UP)
    assert ethtool(state, "-s", "eth0", "speed", "100", "duplex", "full", "autoneg", "off")[2] == 0
    assert ethtool(state, "-A", "eth0", "autoneg", "off", "rx", "on", "tx", "on")[1:] == ([], 0)
    assert _pause_bounces(state) == bounces
