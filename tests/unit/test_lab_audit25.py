"""Issue 21, audit 25 (resources/tuning/driver_caps_audit25.md): one tweak's driver call against
another tweak's setting.

Row 1 (high): r8169's MTU change. `rtl8169_change_mtu` calls `rtl_jumbo_config`, which for an
MTU above ETH_DATA_LEN clears Pause and Asym_Pause from the PHY's advertisement and calls
`phy_start_aneg` (drivers/net/ethernet/realtek/r8169_main.c, Debian 6.1 and 6.12): the jumbo
frames tweak drops the link for seconds (on the NIC that may carry the SSH session), and the
partner then resolves no flow control. Going back to 1500 neither renegotiates nor advertises
pause again (`phy_support_asym_pause` only at probe, `r8169_mdio_register`). The table said
nothing (audit 6b: "no restart"): apply read the MTU back at once, the plan did not hold it
for the user's consent, and the lab's MTU change kept the link and the pause up.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool, ip_front, load_profile
from sbctune.remote import batch
from sbctune.remote.batch import Step, StepResult
from sbctune.resources import resource_root
from sbctune.tuning import (
    catalog,
    driver_caps,
    link_wait,
    persist_gaps,
    reopen_order,
    revert_link,
)
from sbctune.tuning.changes import run_changes
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.probe import Facts, Read
from sbctune.tuning.scripts import revert_script
from tests.fake_ethtool_support import LINK_UP, ethtool, lab_state, root, with_link

TABLE = json.loads(
    Path(str(resource_root())).joinpath("tuning", "driver_caps.json").read_text(encoding="utf-8")
)
KERNEL = "6.1.0-31-arm64"
CHIP = "RTL8125B"  # the cm4-rtl8125b-r8169 lab's card (seed 003)
SESSION = "20261130T230000Z-a25a25"
DIRECTORY = f"/var/lib/sbctune/tuning/{SESSION}"
JUMBO = Change("mtu", "eth0", "1500", "9000")


def _jumbo_fact() -> dict[str, Any]:
    return next(f for f in TABLE["hand"]["r8169"] if f["fact"] == "mtu_renegotiates_above")


def test_the_jumbo_renegotiation_is_a_fact_of_both_series_cited_in_rtl_jumbo_config() -> None:
    fact = _jumbo_fact()
    assert fact["kernels"] == ["6.1", "6.12"]
    assert (fact["symbol"], fact["contains"]) == ("rtl_jumbo_config", "phy_start_aneg(tp->phydev);")
    assert fact["value"] == {"above": 1500, "link": "renegotiation", "clears": ["pause"]}
    for kernel in ("6.1.0-31-arm64", "6.12.25+rpt-rpi-v8"):
        caps = driver_caps.caps("r8169", kernel, CHIP)
        assert driver_caps.mtu_renegotiates(caps) == (1500, "renegotiation")
        assert not caps.restarts("mtu")  # not a close/open: coalescing is not set back by it
    assert driver_caps.mtu_renegotiates(driver_caps.caps("igb", KERNEL, "I210")) is None


# ------------------------------------------------ the product: apply waits, revert does not


class _Pi:
    """Stands for the SSH session: records the steps; the link wait answers `back`."""

    def __init__(self) -> None:
        self.steps = list[Step]()

    async def run_script(self, steps: Sequence[Step], **_: Any) -> list[StepResult]:
        self.steps = list(steps)
        out = []
        for step in steps:
            text = b"sbctune-link back 3 22 254\n" if step.key.startswith("l") else b"9000\n"
            out.append(StepResult(step, 0, text, b""))
        return out


def _kinds(steps: Sequence[Step]) -> list[str]:
    return [s.key[0] for s in steps]  # m(ark), w(rite), l(ink wait), r(ead back)


async def test_jumbo_frames_on_r8169_are_read_back_after_the_link_is_back() -> None:
    link = link_wait.link_facts("r8169", "eth0", KERNEL, CHIP)
    pi = _Pi()
    written = await run_changes(pi, [JUMBO], DIRECTORY, link=link)  # type: ignore[arg-type]
    assert _kinds(pi.steps) == ["m", "w", "l", "r"]
    assert written[0].link_waited
    assert link_wait.words(written[0].link, "eth0") == (
        "the link of eth0 dropped and came back within 2.5 s"
    )


@pytest.mark.parametrize(
    ("before", "after", "drops"),
    [("1500", "9000", "renegotiation"), ("1400", "1501", "renegotiation"),
     ("9000", "4000", None), ("4000", "9000", None), ("1500", "1400", None),
     ("9000", "1500", None), ("", "9000", None), ("1500", "٩٠٠٠", None)],
)  # fmt: skip
def test_only_an_mtu_change_across_1500_upwards_drops_r8169s_link(
    before: str, after: str, drops: str | None
) -> None:
    """Above 1500 already, pause is no longer advertised: phy_start_aneg finds the same
    advertisement and does not restart (genphy_config_advert); back at 1500 nothing runs."""
    link = link_wait.link_facts("r8169", "eth0", KERNEL, CHIP)
    assert link_wait.drops(Change("mtu", "eth0", before, after), link) == drops


def test_the_revert_to_1500_on_r8169_waits_for_no_link_but_igbs_does() -> None:
    r8169 = link_wait.link_facts("r8169", "eth0", KERNEL, CHIP)
    assert "link.before" not in revert_script(SESSION, [JUMBO], link=r8169)
    assert revert_script(SESSION, [JUMBO], link=r8169).count("step ip link set dev eth0 mtu 1500")
    igb = link_wait.link_facts("igb", "eth0", KERNEL, "I210")  # igb_change_mtu: down, up
    assert f"sh eth0 {DIRECTORY}/link.before\n" in revert_script(SESSION, [JUMBO], link=igb)


def test_tune_revert_says_r8169_did_not_advertise_pause_again() -> None:
    r8169 = link_wait.link_facts("r8169", "eth0", KERNEL, CHIP)
    assert revert_link.left_words(r8169, [JUMBO]) == (
        "the r8169 driver stopped advertising flow control (pause frames) on eth0 when its MTU "
        "went above 1500 and does not advertise it again now that the MTU is back "
        "(drivers/net/ethernet/realtek/r8169_main.c: rtl_jumbo_config): `ethtool -A eth0 rx on "
        "tx on` turns it back on"
    )
    assert revert_link.left_words(r8169, [Change("mtu", "eth0", "9000", "4000")]) is None
    igb = link_wait.link_facts("igb", "eth0", KERNEL, "I210")
    assert revert_link.left_words(igb, [JUMBO]) is None


# ------------------------------------------------------- the product: the plan says it, holds it


def _plan(ssh_dev: str, **options: Any) -> PlannedTweak:
    nic = Nic("eth0", driver="r8169", chip=CHIP, mtu=1500)
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    route = json.dumps([{"dst": "198.18.0.1", "dev": ssh_dev}]).encode()
    found.steps["ssh-route"] = StepResult(batch.Step(("true",), "ssh-route"), 0, route, b"")
    tweak = catalog.tweak("mtu-jumbo")
    inventory = Inventory(board=Board(kernel=KERNEL), nics=[nic])
    ctx = Context(tweak, found, inventory, nic, {"path_supports_jumbo": True, **options}, {},
                  ("mtu-jumbo",))  # fmt: skip
    return PLANNERS[tweak.kind](ctx)


def test_jumbo_frames_on_r8169_over_the_ssh_nic_wait_for_the_users_word() -> None:
    held = _plan("eth0")
    assert not held.applicable and held.needs_link_consent, held.reason
    assert "an MTU above 1500 on r8169 renegotiates the link" in held.reason
    assert "r8169_main.c: rtl_jumbo_config" in held.reason
    agreed = _plan("eth0", allow_link_restart=True)
    assert agreed.applicable and agreed.restarts_link, agreed.reason


def test_jumbo_frames_on_r8169_say_the_link_drops_and_pause_stays_off_after_undoing() -> None:
    item = _plan("wlan0")
    assert item.applicable and item.restarts_link, item.reason
    assert "above an MTU of 1500 r8169 renegotiates the link for it" in item.reason
    assert "stops advertising flow control (pause frames)" in item.reason
    assert "`ethtool -A eth0 rx on tx on`" in item.reason


# ---------------------------------------------------------------------------------- the lab


def test_the_labs_ip_drops_the_link_where_the_drivers_mtu_change_does() -> None:
    model = "/lab/.ethtool-model"
    r8169 = ip_front.limits(load_profile("cm4-rtl8125b-r8169"), [model, "-R"])
    assert r8169["eth1"]["link_drop"] == {
        "above": 1500,
        "run": [model, fake_ethtool.MTU_LINK_DROP, "eth1"],
    }
    assert "link_drop" not in r8169["eth0"]  # bcmgenet: no ndo_change_mtu of its own
    igb = ip_front.limits(load_profile("cm4-i340-igb"), [model, "-R"])
    # igb_change_mtu: igb_down/igb_up at every change of a running interface
    assert igb["eth1"]["link_drop"] == {
        "above": None,
        "run": [model, fake_ethtool.MTU_LINK_DROP, "eth1"],
    }


def _pause(state: str) -> tuple[str, str]:
    """RX and TX as `ethtool -a eth0` shows them."""
    lines = dict(line.split(":", 1) for line in ethtool(state, "-a", "eth0")[0].splitlines()[1:])
    return lines["RX"].strip(), lines["TX"].strip()


@root
def test_the_labs_r8169_stops_pause_above_1500_and_does_not_take_it_back(tmp_path: Path) -> None:
    state = with_link(lab_state(tmp_path, "r8169", CHIP, KERNEL), **LINK_UP)
    assert _pause(state) == ("on", "on")
    assert fake_ethtool.mtu_link_dropped(state, "eth0") == 0
    assert _pause(state) == ("off", "off")
    # at 1500 again the driver takes a pause request, and only that advertises it again
    data = json.loads(Path(state).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["mtu"] = 1500
    Path(state).write_text(json.dumps(data), encoding="utf-8")
    assert _pause(state) == ("off", "off")
    assert ethtool(state, "-A", "eth0", "rx", "on", "tx", "on")[2] == 0
    assert _pause(state) == ("on", "on")


# ------------------------------ row 2: stmmac's per-queue vectors get their affinity back at open

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
MULTI_MSI = CAPTURES / "proc_interrupts/intel_stmmac_netdev_2021_multi_msi_eth0.txt"
RINGS = Change("ethtool", "eth0 -G rx", "512", "1024")


def _irq_change(name: str) -> Change:
    """The irq-affinity tweak's change for the interrupt of that name in the real capture (an
    Intel mGbE, dwmac-intel, per-queue MSI vectors), or eth0's own line of a platform glue."""
    lines = MULTI_MSI.read_text(encoding="utf-8").splitlines()
    number = next((ln.split(":")[0].strip() for ln in lines if ln.split()[-1] == name), "38")
    path = f"/proc/irq/{number}/smp_affinity"
    return Change("irq_affinity", path, "f", "2", path, name, 0)


@pytest.mark.parametrize("name", ["eth0:rx-0", "eth0:tx-1"])
def test_a_ring_change_on_multi_msi_stmmac_goes_before_the_queue_interrupts_masks(
    name: str,
) -> None:
    """stmmac_request_irq_multi_msi (both series) sets queue N's vector to CPU N mod the CPUs
    at every open, and a ring change closes and opens: the masks are written after it and read
    back after every write, as atlantic's are."""
    facts = reopen_order.open_facts("stmmac", "eth0", KERNEL)
    irq = _irq_change(name)
    assert reopen_order.apply_order([irq, RINGS], facts) == [1, 0]
    assert reopen_order.read_last([irq, RINGS], facts) == {0}
    caps = driver_caps.caps("stmmac", KERNEL)
    assert persist_gaps.why_lost(irq, caps, facts, "eth0") == (
        "the stmmac driver sets it back each time eth0 is opened (drivers/net/ethernet/"
        "stmicro/stmmac/stmmac_main.c: stmmac_request_irq_multi_msi)"
    )


def test_a_platform_stmmacs_single_interrupt_keeps_its_mask_and_its_order() -> None:
    """stmmac_request_irq_single: request_irq only; kernel/irq/manage.c irq_setup_affinity
    keeps a mask the user set (IRQD_AFFINITY_SET) across free_irq and request_irq."""
    facts = reopen_order.open_facts("stmmac", "eth0", KERNEL)
    irq = _irq_change("eth0")
    assert reopen_order.apply_order([irq, RINGS], facts) == [0, 1]
    assert reopen_order.read_last([irq, RINGS], facts) == set()
    atlantic = reopen_order.open_facts("atlantic", "eth0", KERNEL)  # every vector, as before
    assert reopen_order.apply_order([irq, RINGS], atlantic) == [1, 0]
