"""Audit 38b (driver_caps_audit38b.md): after revert, and what survives a reboot.

Row 1: `--persist` writes a udev rule that runs at-boot.sh on the NIC's `add` (a USB adapter
plugged in again, or found after the boot unit ran). It matched `KERNEL=="<the NIC's name>"`,
but an `add` event's KERNEL is the kernel's name (eth0, usb0): udevd renames the interface only
after every rule ran (systemd src/udev/udev-event.c: udev_event_execute_rules applies the rules,
then rename_netif; udev-rules.c: TK_M_KERNEL is sd_device_get_sysname, TK_M_NAME the NAME an
earlier rule set). A NIC udev renamed (Debian's 73-usb-net-by-mac.link `NamePolicy=mac` through
80-net-setup-link.rules: enx<MAC>) never matched, so its kept values were not set again after a
replug; the rule matched instead whichever other NIC the kernel named like it.

Row 2: stmmac keeps rx-usecs as its RX watchdog, RIWT, in units of 256 CSR clock cycles, and
rounds down both ways (stmmac_ethtool.c: stmmac_usec2riwt, stmmac_riwt2usec; 2.048 us at the
table's 125 MHz), and __stmmac_set_coalesce stores RIWT again at every set (ethtool's netlink
request hands it the rx-usecs it read). So a value written as it reads back loses a unit: the
planner's 50 read back 49 (the tweak "failed", and everything was put back), the revert of the
user's 38 wrote 38 and left 36, each of the values a ring change's restart sets back, written
again, took another unit off rx-usecs, and NetworkManager's kept rx-usecs read back lower at
every activation.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
import yaml

from sbctune.export import export, gather
from sbctune.history import TuningSessionRecord
from sbctune.inventory.model import Nic
from sbctune.inventory.parsers.ethtool import parse_ethtool_coalesce
from sbctune.tuning import catalog, changes, nm_persist, reopen_order, scripts
from sbctune.tuning.knobs import write_argvs
from sbctune.tuning.model import Change, PlannedTweak
from sbctune.tuning.planning import persist_changes
from sbctune.tuning.probe import Facts
from tests.fake_ethtool_support import ethtool, lab_state, shown
from tests.plan_one import pi_answer, plan_one
from tests.unit.export.seed_runs import START, seed_history, tuning_data
from tests.unit.test_lab_audit36b import UP_LINK, _plan

SESSION = "20261201T201500Z-38b001"
CAPTURES = Path(__file__).resolve().parents[1] / "captures"
# udev's rename as the kernel logs it: "lan78xx 1-1.1.1:1.0 enxb827eb04f89e: renamed from eth0"
RENAMED = re.compile(r"\b([a-z0-9_.]+): renamed from ([a-z0-9_.]+)$")
_KEY = re.compile(r'^([A-Z]+)(==|\+=)"([^"]*)"$')


def _renamed(capture: str) -> tuple[str, str]:
    """(the kernel's name, udev's name) from a real boot log's rename line."""
    for line in (CAPTURES / capture).read_text(encoding="utf-8").splitlines():
        found = RENAMED.search(line)
        if found:
            return found.group(2), found.group(1)
    raise AssertionError(f"no rename line in {capture}")


def _rule(nic: str) -> str:
    """The udev rule `tune apply --persist` writes for `nic` (an RPS change kept)."""
    rps = f"/sys/class/net/{nic}/queues/rx-0/rps_cpus"
    kept = [Change("file", rps, "0", "f", rps)]
    files = persist_changes(SESSION, nic, kept, ["/etc/udev/rules.d", "/etc/systemd/system"])
    rules = [c.after for c in files if c.path.startswith("/etc/udev/rules.d/")]
    assert len(rules) == 1 and rules[0]
    return rules[0]


def _runs(rule: str, kernel: str, name: str) -> bool:
    """Whether udevd runs the rule's RUN on a net `add` event of a device the kernel named
    `kernel` and an earlier rule (80-net-setup-link.rules) named `name` ("" for none): every
    `==` of one line must hold (udev-rules.c: a rule line is a conjunction)."""
    event = {"ACTION": "add", "SUBSYSTEM": "net", "KERNEL": kernel, "NAME": name}
    for line in rule.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        keys = [_KEY.match(part.strip()) for part in line.split(", ")]
        assert all(keys), line
        matches = [(k.group(1), k.group(3)) for k in keys if k and k.group(2) == "=="]
        runs = [k.group(3) for k in keys if k and k.group(1) == "RUN"]
        if runs and all(event.get(key) == value for key, value in matches):
            return True
    return False


@pytest.mark.parametrize(
    "capture",
    [
        "dmesg/pi3bplus_linux_3636_lan78xx_enx_brcmfmac.txt",  # a Pi 3 B+'s lan78xx
        "bundles/t2linux_191_rtl8153_480m/commands/001-dmesg.txt",  # an r8152 adapter
    ],
)
def test_a_nic_udev_renamed_gets_its_kept_values_again_when_it_is_plugged_in(
    capture: str,
) -> None:
    kernel, name = _renamed(capture)
    assert name.startswith("enx") and kernel == "eth0"
    assert _runs(_rule(name), kernel, name)


def test_a_nic_udev_does_not_rename_is_matched_by_the_kernels_name() -> None:
    """Raspberry Pi OS (net.ifnames=0): no rule sets NAME, the NIC keeps eth1."""
    assert _runs(_rule("eth1"), "eth1", "")


def test_another_nic_the_kernel_names_alike_and_udev_renames_is_left_alone() -> None:
    """A different adapter that the kernel calls eth1 first and udev renames is not the NIC the
    session tuned: at-boot.sh is not run for it."""
    kernel, name = _renamed("dmesg/pi3bplus_linux_3636_lan78xx_enx_brcmfmac.txt")
    assert not _runs(_rule(kernel), kernel, name)


# --- row 2: stmmac's RIWT loses a unit when written back as read ---------------------------------

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
KERNELS = ["6.1.0-31-arm64", "6.12.0-1-arm64"]


def _stmmac(tmp_path: Path, kernel: str, *user: str) -> str:
    """An RK3588's stmmac in the lab, with the user's own `ethtool -C` values."""
    state = lab_state(tmp_path, "stmmac", "RK3588", kernel)
    if user:
        assert ethtool(state, "-C", "eth0", *user)[2] == 0
    return state


def _set(state: str, change: Change, value: str | None, restoring: bool) -> None:
    for argv in write_argvs(change, value, restoring=restoring):
        assert argv[0] == "ethtool"
        assert ethtool(state, *argv[1:])[2] == 0, argv


@POSIX
@pytest.mark.parametrize("kernel", KERNELS)
def test_stmmac_coalescing_applies_and_its_revert_puts_the_users_value_back(
    tmp_path: Path, kernel: str
) -> None:
    state = _stmmac(tmp_path, kernel, "rx-usecs", "40")
    assert shown(state, "-c", "rx-usecs") == "38"  # RIWT 19
    item = _plan("irq-coalescing", Nic("eth0", driver="stmmac", chip="RK3588"), "ethtool -c",
                 ethtool(state, "-c", "eth0"))  # fmt: skip
    assert item.applicable and len(item.changes) == 1
    change = item.changes[0]
    _set(state, change, change.after, restoring=False)
    read = shown(state, "-c", "rx-usecs")
    written = changes.Written(change, 0, None, read)
    outcome = changes.outcome(changes.judge(item, [written]))
    assert (outcome.status, read) == ("applied", change.after)
    assert int(read) >= 50  # at least the tweak's 50 microseconds
    _set(state, change, change.before, restoring=True)
    assert shown(state, "-c", "rx-usecs") == "38"


@POSIX
@pytest.mark.parametrize("kernel", KERNELS)
def test_the_values_a_ring_restart_sets_back_are_written_again_without_moving_rx_usecs(
    tmp_path: Path, kernel: str
) -> None:
    state = _stmmac(tmp_path, kernel, "rx-usecs", "40", "tx-usecs", "2000", "tx-frames", "16")
    facts = reopen_order.open_facts("stmmac", "eth0", kernel, "RK3588")
    rings = PlannedTweak(catalog.tweak("nic-rings"), True, "rings")
    rings.changes.append(Change("ethtool", "eth0 -G rx", "512", "1024"))
    coalesce, _ = parse_ethtool_coalesce(ethtool(state, "-c", "eth0")[0])
    kept = reopen_order.note_resets([rings], facts, coalesce.params)
    assert {k.target.rsplit(" ", 1)[1] for k in kept} == {"tx-usecs", "tx-frames", "rx-frames"}
    assert ethtool(state, "-G", "eth0", "rx", "1024")[2] == 0  # stmmac_reinit_ringparam
    assert shown(state, "-c", "tx-frames") == "25"  # set back by the open
    for one in kept:
        _set(state, one, one.after, restoring=False)
    after = {k: shown(state, "-c", k) for k in ("rx-usecs", "tx-usecs", "tx-frames")}
    assert after == {"rx-usecs": "38", "tx-usecs": "2000", "tx-frames": "16"}


@POSIX
def test_networkmanager_keeps_the_value_that_reads_back_as_planned(tmp_path: Path) -> None:
    """NM writes its ethtool.coalesce-rx-usecs at every activation as it holds it: 52, which
    stmmac stores as RIWT 25 and reads back 51, the plan's value; 51 itself would read 49."""
    state = _stmmac(tmp_path, "6.12.0-1-arm64", "rx-usecs", "40")
    item = _plan("irq-coalescing", Nic("eth0", driver="stmmac", chip="RK3588"), "ethtool -c",
                 ethtool(state, "-c", "eth0"))  # fmt: skip
    link = nm_persist.NmLink("e70c1b90-2f2d-31e4-b4e8-884f12913052")
    kept, rest = nm_persist.split(item.changes, link)
    assert rest == [] and len(kept) == 1
    assert ethtool(state, "-C", "eth0", "rx-usecs", str(kept[0].after))[2] == 0  # as NM does
    assert shown(state, "-c", "rx-usecs") == item.changes[0].after


@POSIX
def test_the_playbook_writes_what_reads_back_as_the_kept_value(tmp_path: Path) -> None:
    """The Ansible export keeps a session on other Pis: its task writes 52 where stmmac reads
    back 51 (the record's `written`), so the play's read-back finds 51 and the NIC keeps it;
    writing 51 left 49 and ran again at every play."""
    state = _stmmac(tmp_path, "6.12.0-1-arm64", "rx-usecs", "40")
    item = _plan("irq-coalescing", Nic("eth0", driver="stmmac", chip="RK3588"), "ethtool -c",
                 ethtool(state, "-c", "eth0"))  # fmt: skip
    data = tuning_data("20220108T110000Z-d4e5f6")
    data["tweaks"].append({"id": "irq-coalescing", "status": "applied", "detail": "",
                           "changes": [c.to_json() for c in item.changes]})  # fmt: skip
    history, ids = seed_history(tmp_path / "history.sqlite3")
    try:
        history.save_tuning_session(
            TuningSessionRecord(1, START + dt.timedelta(minutes=5), "confirmed", data)
        )
        path = export("ansible", gather(history, ids, tuning_session=data["id"]),
                      tmp_path / "fleet.yml")  # fmt: skip
    finally:
        history.close()
    plays = yaml.safe_load(path.read_text(encoding="utf-8").replace("!unsafe ", ""))
    task = next(t for t in plays[0]["tasks"] if "-C" in t.get("ansible.builtin.command", {})
                .get("argv", []))  # fmt: skip
    argv = task["ansible.builtin.command"]["argv"]
    assert (argv[:2], argv[3]) == (["ethtool", "-C"], "rx-usecs")
    assert ethtool(state, argv[1], "eth0", *argv[3:])[2] == 0  # as the play runs it
    assert shown(state, "-c", "rx-usecs") == item.changes[0].after == "51"
    shown_line = f"rx-usecs: {shown(state, '-c', 'rx-usecs')}"
    assert re.search(task["vars"]["sbctune_expect"], shown_line)  # the next play changes nothing


# --- row 4: lan78xx turns EEE back on with a Tx LPI timer of 0 --------------------------------

# the Raspberry Pi tree's lan78xx (eee_by_chip LAN7515: 600 us) on a Pi 3 B+, and the lab's
# profile without a kernel (pi3bplus-lan78xx)
RPI_KERNELS = ["6.1.73+rpt-rpi-v8", ""]


def _plan_on(kernel: str, tweak_id: str, nic: Nic, key: str, answer: tuple[str, list[str], int]
             ) -> PlannedTweak:  # fmt: skip
    """`tweak_id` for eth0 from the lab's answer to one read, on `kernel`, over another NIC."""
    out, err, code = answer
    found = Facts(nic.name)
    found.steps[key] = pi_answer(key, out, code, "\n".join(err))
    found.steps["ip-link"] = pi_answer("ip-link", UP_LINK)
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": "wlan0"}]))
    return plan_one(tweak_id, found, nic, kernel)


def _lpi(state: str) -> str:
    """What `ethtool --show-eee eth0` says after "Tx LPI:"."""
    text = ethtool(state, "--show-eee", "eth0")[0]
    return text.split("Tx LPI:")[1].split("\n")[0].strip()


@POSIX
@pytest.mark.parametrize("kernel", RPI_KERNELS)
def test_lan78xx_turned_back_on_with_no_timer_stores_0(tmp_path: Path, kernel: str) -> None:
    """lan78xx_get_eee answers a timer of 0 while the MAC's EEE is off, and lan78xx_set_eee
    writes the timer it is handed: `eee on` alone after `eee off` leaves 0, not 600."""
    state = lab_state(tmp_path, "lan78xx", "LAN7515", kernel)
    assert _lpi(state) == "600 (us)"
    assert ethtool(state, "--set-eee", "eth0", "eee", "off")[2] == 0
    assert ethtool(state, "--set-eee", "eth0", "eee", "on")[2] == 0
    assert _lpi(state) == "0 (us)"


@POSIX
@pytest.mark.parametrize("kernel", RPI_KERNELS)
def test_undoing_eee_off_puts_the_lan78xx_timer_back(tmp_path: Path, kernel: str) -> None:
    state = lab_state(tmp_path, "lan78xx", "LAN7515", kernel)
    item = _plan_on(kernel, "eee-off", Nic("eth0", driver="lan78xx", chip="LAN7515"),
                    "ethtool --show-eee", ethtool(state, "--show-eee", "eth0"))  # fmt: skip
    assert item.applicable and len(item.changes) == 1
    change = item.changes[0]
    revert_sh = scripts.revert_script(SESSION, [change])
    assert "step ethtool --set-eee eth0 eee on tx-timer 600" in revert_sh
    _set(state, change, change.after, restoring=False)
    assert _lpi(state) == "disabled"
    _set(state, change, change.before, restoring=True)
    assert _lpi(state) == "600 (us)"
    assert "EEE status: enabled" in ethtool(state, "--show-eee", "eth0")[0]
