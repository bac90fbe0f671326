"""Audit 12 (driver_caps_audit12.md): what a kept (`--persist`) tweak becomes later.

Row 1: `--persist` ran at-boot.sh from a unit ordered before the network and a udev rule on the
NIC's `add`, both before anything opens the interface; only NetworkManager's dispatcher ran it
again on `up`. Where dhcpcd (Raspberry Pi OS bullseye) or ifupdown brings the NIC up, a value the
driver refuses while the interface is down (bcmgenet's set_eee: ENODEV, its PHY is disconnected;
stmmac on 6.1: every ethtool op EBUSY) or sets back when it opens (bcmgenet 6.12's EEE,
tx-frames; macb on RP1's, stmmac's and r8169's coalescing; atlantic's IRQ affinity) was never in
force after a reboot, and the plan said "kept across reboots". Seen in a lab (a12-g612: the Pi 4
profile naming 6.12): at-boot.sh run while eth0 was down wrote nothing ("netlink error: No such
device"), and `ip link set eth0 up` showed "EEE status: enabled - active".
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import link_hooks, nm_persist, persist_gaps, reopen_order
from sbctune.tuning.knobs import write_argvs
from sbctune.tuning.model import Change, PlannedTweak, TuningPlan
from sbctune.tuning.planning import PERSIST_DIRS, persist_changes
from sbctune.tuning.probe import steps_for
from tests.unit.test_lab_audit11a import _planned_eee_off

SESSION = "20261129T234400Z-ff38f1"
UUID = "e70c1b90-2f2d-31e4-b4e8-884f12913052"
BASE = ["/etc/systemd/system", "/etc/udev/rules.d", "/etc/sysctl.d"]
DHCPCD = link_hooks.DHCPCD_DIRS[0]
# 6.12.78: bcmgenet calls phy_support_eee from that stable release on (audit 26 row 8)
K612, K61 = "6.12.78+rpt-rpi-v8", "6.1.0-31-arm64"


def _plan(item: PlannedTweak, driver: str, kernel: str, dirs: list[str], nm: bool) -> TuningPlan:
    inventory = Inventory(board=Board(kernel=kernel), nics=[Nic("end0", driver=driver)])
    plan = TuningPlan("end0", [item], {"persist": True})
    plan.inventory = inventory
    plan.persist_dirs = dirs
    plan.nm_link = nm_persist.NmLink(UUID) if nm else None
    return plan


@pytest.mark.parametrize(
    ("kernel", "dirs", "nm", "words"),
    [
        (K612, BASE, False, "bcmgenet driver sets it back each time end0 is opened"),
        (K61, BASE, False, "bcmgenet driver refuses it while end0 is down (ENODEV"),
        (K612, [*BASE, nm_persist.DISPATCHER_DIR], True, None),  # NM's dispatcher on `up`
        (K612, [*BASE, DHCPCD], False, None),  # dhcpcd's CARRIER hook
        (K612, [*BASE, link_hooks.IFUPDOWN_DIR], False, None),  # ifup's if-up.d
    ],
)
def test_the_plan_says_which_kept_values_nothing_sets_again_once_the_nic_is_open(
    kernel: str, dirs: list[str], nm: bool, words: str | None
) -> None:
    plan = _plan(_planned_eee_off(kernel), "bcmgenet", kernel, dirs, nm)
    persist_gaps.note_plan(plan)
    reason = plan.items[0].reason
    if words is None:
        assert "--persist cannot keep it" not in reason
        return
    assert "--persist cannot keep it here: neither NetworkManager, dhcpcd nor ifupdown" in reason
    assert words in reason and "not in force" in reason


def test_stmmac_on_6_1_refuses_every_kept_ethtool_value_while_down() -> None:
    """stmmac_check_if_running (6.1's ethtool .begin) is EBUSY while the interface is down, so
    a ring size at-boot.sh writes at boot before the network is refused."""
    item = PlannedTweak(_planned_eee_off(K61).tweak, True, "rings")
    item.changes.append(Change("ethtool", "end0 -G rx", "512", "1024"))
    plan = _plan(item, "stmmac", K61, BASE, False)
    persist_gaps.note_plan(plan)
    assert "refuses every ethtool change while end0 is down (EBUSY" in item.reason
    assert "stmmac_check_if_running" in item.reason


@pytest.mark.parametrize(("driver", "words"), [("igb", "igb_main.c: __igb_open"), ("macb", None)])
def test_a_kept_irq_affinity_needs_a_hook_where_the_driver_requests_its_irqs_at_open(
    driver: str, words: str | None
) -> None:
    """igb names its vectors (end0-TxRx-0 ...) in __igb_open's igb_request_irq: at boot before
    the network, at-boot.sh finds none; macb requests its line at probe (macb_init)."""
    item = PlannedTweak(_planned_eee_off(K612).tweak, True, "irqs")
    item.changes.append(Change("irq_affinity", "/proc/irq/40/smp_affinity", "f", "2"))
    persist_gaps.note_plan(_plan(item, driver, K612, BASE, False))
    if words is None:
        assert "--persist cannot keep it" not in item.reason
    else:
        assert (
            f"requests its interrupts only when end0 opens (drivers/net/ethernet/intel/igb/{words}"
            in item.reason
        )


def test_bcmgenet_6_12s_eee_is_a_setting_its_open_sets_back() -> None:
    eee = Change("ethtool", "eth0 --set-eee eee", "on", "off")
    facts = reopen_order.open_facts("bcmgenet", "eth0", K612)
    assert facts is not None and reopen_order.reset_by_open(eee, facts)
    assert reopen_order.where_reset(facts, eee).endswith("bcmmii.c: bcmgenet_mii_probe")
    old = reopen_order.open_facts("bcmgenet", "eth0", K61)
    assert old is not None and not reopen_order.reset_by_open(eee, old)


def _files(dirs: list[str], nm: bool) -> dict[str, str]:
    applied = [Change("ethtool", "eth0 --set-eee eee", "on", "off")]
    link = nm_persist.NmLink(UUID) if nm else None
    changes = persist_changes(SESSION, "eth0", applied, dirs, link, None)
    return {c.path: c.after or "" for c in changes if c.kind == "file"}


def test_persist_writes_dhcpcds_and_ifupdowns_hook_where_they_bring_the_nic_up() -> None:
    files = _files([*BASE, DHCPCD, link_hooks.IFUPDOWN_DIR], nm=False)
    dhcpcd = f"{DHCPCD}/90-sbctune-{SESSION}"
    ifup = f"{link_hooks.IFUPDOWN_DIR}/90-sbctune-{SESSION}"
    code = [line for line in files[dhcpcd].splitlines() if not line.startswith("#")]
    assert '[ "$reason" = CARRIER ]' in code[0]
    assert not [line for line in code if "exit" in line or "exec" in line]  # loaded, not run
    assert '[ "$IFACE" = eth0 ]' in files[ifup]
    # run-parts (ifupdown) skips a name outside its LANANA/Debian pattern
    assert re.fullmatch(r"[A-Za-z0-9_-]+", ifup.rpartition("/")[2])
    # run-parts runs only executable files: the ifupdown hook is written 0755, dhcpcd's is loaded
    assert (
        write_argvs(Change("file", ifup, None, "x", ifup), "x", restoring=False)[0][2]
        == nm_persist.WRITE_SCRIPT
    )
    assert write_argvs(Change("file", dhcpcd, None, "x", dhcpcd), "x", restoring=False)[0][2] != (
        nm_persist.WRITE_SCRIPT
    )
    with_nm = _files([*BASE, nm_persist.DISPATCHER_DIR, DHCPCD], nm=True)
    assert not [p for p in with_nm if p.startswith((DHCPCD, link_hooks.IFUPDOWN_DIR))]


def test_a_hook_is_kept_only_where_its_program_manages_the_nic() -> None:
    both = [*BASE, *link_hooks.DHCPCD_DIRS, link_hooks.IFUPDOWN_DIR]
    assert link_hooks.managed_dirs(both, True, True) == [*BASE, DHCPCD, link_hooks.IFUPDOWN_DIR]
    assert link_hooks.managed_dirs(both, False, False) == BASE
    assert link_hooks.managed_dirs([*BASE, link_hooks.DHCPCD_DIRS[1]], True, False) == [
        *BASE,
        link_hooks.DHCPCD_DIRS[1],
    ]
    assert set(link_hooks.DIRS) <= set(PERSIST_DIRS)
    keys = {s.name for s in steps_for("eth0", [], [], nm=True)}
    assert {f"dir:{d}" for d in link_hooks.DIRS} | {"dhcpcd-pid", "ifupdown-nic"} <= keys
    assert "dhcpcd-pid" not in {s.name for s in steps_for("eth0", [], [], nm=False)}


@pytest.mark.posix_only("runs the hooks with /bin/sh, as dhcpcd-run-hooks and run-parts do")
@pytest.mark.parametrize(
    ("hook", "env", "runs"),
    [
        ("dhcpcd", "interface=eth0 reason=CARRIER", True),
        ("dhcpcd", "interface=eth0 reason=BOUND", False),
        ("dhcpcd", "interface=eth1 reason=CARRIER", False),
        ("ifupdown", "IFACE=eth0", True),
        ("ifupdown", "IFACE=--all", False),
    ],
)
def test_the_hooks_run_at_boot_sh_for_their_nic_only(
    tmp_path: Path, hook: str, env: str, runs: bool
) -> None:
    at_boot = tmp_path / "at boot.sh"
    marker = tmp_path / "ran"
    at_boot.write_text(f"echo yes >'{marker}'\n", encoding="utf-8")
    folder = DHCPCD if hook == "dhcpcd" else link_hooks.IFUPDOWN_DIR
    script = tmp_path / "hook"
    script.write_text(link_hooks.hook_script(folder, "eth0", at_boot.as_posix()), encoding="utf-8")
    # dhcpcd-run-hooks loads the file into its own shell, which must go on after it
    run = f". '{script}'; echo after" if hook == "dhcpcd" else f"/bin/sh '{script}'; echo after"
    out = subprocess.run(
        ["/bin/sh", "-c", f"{env}; export IFACE interface reason 2>/dev/null; {run}"],
        capture_output=True,
        text=True,
        timeout=20,
        check=False,
    )
    assert out.stdout.strip().endswith("after"), out
    assert marker.exists() == runs
