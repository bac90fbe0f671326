"""igb on a real kernel: QEMU's Intel 82576 (``-device igb``, QEMU 8.0 and newer: Debian
trixie's, sbctune.lab.vm.newer_qemu) in the same VM as test_vm_lab.py (one boot, conftest).

First the kernel's own answers are held against resources/tuning/driver_caps.json, the table
the tweaks plan with (ring limits and defaults, rx-usecs mode codes and range, EEE refused
before the I350, a ring change restarting the interface, RSS channels and MSI-X vectors).
Then the tweaks plan and apply on the igb NIC and revert to the bytes they found.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from sbctune.inventory.parsers.ethtool import parse_ethtool_coalesce, parse_ethtool_rings
from sbctune.lab.vm import plan
from sbctune.tuning import driver_caps
from tests.lab_support import skip_or_fail
from tests.vm.conftest import Cli, report
from tests.vm.test_vm_lab import APPLY_TIMEOUT, CONFIRMED_GUARD

pytestmark = [pytest.mark.vm, pytest.mark.slow]

IGB = plan.nic("igb")


def _iface(cli: Cli, mac: str) -> str:
    out = cli.remote(["sh", "-c", 'grep -l "$1" /sys/class/net/*/address', "sh", mac])[0]["out"]
    return str(out.strip().split("/")[-2])


@pytest.fixture(scope="module")
def igb(vm: Any, cli: Cli) -> str:
    """The VM's igb interface; skipped (failed under CI) where its QEMU has no 82576."""
    if not vm.igb:
        skip_or_fail(f"the VM lab runs {vm.qemu or 'an older QEMU'}: no igb (needs QEMU 8.0)")
    return _iface(cli, IGB.mac)


@pytest.fixture(scope="module")
def caps(cli: Cli, igb: str) -> driver_caps.DriverCaps:
    (release,) = cli.remote(["uname", "-r"])
    found = driver_caps.caps("igb", release["out"].strip())
    assert found is not None, release
    return found


def _vectors(text: str, iface: str) -> list[str]:
    """The interface's interrupt names in /proc/interrupts (one per MSI-X vector)."""
    return [line.split()[-1] for line in text.splitlines() if re.search(rf"\s{iface}(-|$)", line)]


INTERRUPTS = ["cat", "/proc/interrupts"]


def _channels(text: str) -> dict[str, dict[str, int]]:
    """``ethtool -l``: {"max": {"combined": 8, ...}, "now": {...}}."""
    found: dict[str, dict[str, int]] = {"max": {}, "now": {}}
    part = "max"
    for line in text.splitlines():
        if line.startswith("Current hardware settings"):
            part = "now"
        name, _, value = line.partition(":")
        if value.strip().isdigit():
            found[part][name.strip().lower()] = int(value.strip())
    return found


def test_igb_is_an_82576_with_msix_vectors_per_queue(cli: Cli, igb: str) -> None:
    """inspect finds the real driver and IDs; the kernel gives one MSI-X vector per RX and per
    TX queue plus one (igb_set_interrupt_capability; no queue pairing at 2 of 8 RSS queues,
    igb_set_flag_queue_pairs), and sbctune counts them all."""
    done = cli("inspect", *cli.target(), "--json")
    inventory = json.loads(done.stdout)
    (nic,) = [n for n in inventory["nics"] if n.get("driver") == "igb"]
    assert nic["name"] == igb and nic["bus"] == "pci"
    assert nic["ids"] == "8086:10c9"  # 82576 Gigabit Network Connection, what QEMU models
    cpus, interrupts = cli.remote(["nproc"], INTERRUPTS)
    rss = min(8, int(cpus["out"]))  # igb_init_queue_configuration: min(max RSS, CPUs)
    vectors = _vectors(interrupts["out"], igb)
    assert len(vectors) == 2 * rss + 1, vectors
    assert len(nic["irqs"]) == len(vectors)
    assert nic["rx_queues"] == rss
    report(f"igb: {nic['ids']} {igb}, {len(vectors)} MSI-X vectors: {' '.join(vectors)}")


def test_the_kernels_answers_match_the_driver_table(cli: Cli, igb: str, caps: Any) -> None:
    """What the igb driver really answers is what driver_caps.json says it does."""
    modes = caps.facts["coalesce_modes"]
    refused = [v for v in modes["refused"] if v in (2, 4, 9)] + [modes["max_usecs"] + 1]
    accepted = [0, 1, modes["min_usecs"], 50, modes["max_usecs"], 3]  # ends at the default
    steps: list[list[str]] = [["ethtool", "-g", igb], ["ethtool", "-c", igb]]
    steps += [["ethtool", "-C", igb, "rx-usecs", str(v)] for v in refused]
    for value in accepted:
        steps += [["ethtool", "-C", igb, "rx-usecs", str(value)], ["ethtool", "-c", igb]]
    steps += [["ethtool", "--show-eee", igb], ["ethtool", "-l", igb]]
    results = cli.remote(*steps, sudo=True)
    rings, _ = parse_ethtool_rings(results[0]["out"])
    assert (rings.rx_max, rings.tx_max) == (caps.ring_maxima()["rx"], caps.ring_maxima()["tx"])
    assert (rings.rx, rings.tx) == (caps.facts["ring_default"]["rx"],
                                    caps.facts["ring_default"]["tx"])  # fmt: skip
    coalesce, _ = parse_ethtool_coalesce(results[1]["out"])
    assert coalesce.params.get("rx-usecs") == caps.facts["coalesce_default"] == modes["default"]
    at = 2
    for value in refused:
        said = results[at]
        assert said["rc"] != 0 and "Invalid argument" in said["err"], (value, said)
        at += 1
    for value in accepted:
        wrote, read = results[at], results[at + 1]
        assert wrote["rc"] == 0, (value, wrote)
        back, _ = parse_ethtool_coalesce(read["out"])
        assert back.params.get("rx-usecs") == value  # mode codes and microseconds kept as set
        at += 2
    eee, channels = results[at], results[at + 1]
    assert eee["rc"] != 0 and "Operation not supported" in eee["err"], eee
    assert caps.refuses_on("eee_refused_chips", "82576 Gigabit Network Connection") == "82576"
    found = _channels(channels["out"])
    # igb_get_channels: igb_get_max_rss_queues (8 on an 82576 without VFs), one "other" vector.
    assert found["max"]["combined"] == 8 and found["now"]["other"] == 1, channels["out"]
    report(f"igb refuses rx-usecs {refused} (EINVAL), EEE (EOPNOTSUPP); rings max "
           f"{rings.rx_max}/{rings.tx_max}; channels {found}")  # fmt: skip


def test_rss_channels_and_ring_changes_as_the_kernel_does_them(cli: Cli, igb: str) -> None:
    """ethtool -L changes the RSS queues and the MSI-X vectors with them; a ring change takes
    the interface down and up (igb_set_ringparam: igb_down/igb_up), as the table's
    restarts_on says; the driver's limits refuse what is beyond them."""
    carrier = ["cat", f"/sys/class/net/{igb}/carrier_changes"]
    # Two SSH round trips (each costs seconds on TCG): the changes, then putting them back.
    before, rings, one, too_many, channels, back, vectors_one = cli.remote(
        carrier,
        ["ethtool", "-G", igb, "rx", "4097"],
        ["ethtool", "-L", igb, "combined", "1"],
        ["ethtool", "-L", igb, "combined", "9"],
        ["ethtool", "-l", igb],
        ["ethtool", "-G", igb, "rx", "4096", "tx", "4096"],
        INTERRUPTS,
        sudo=True,
    )
    assert rings["rc"] != 0, rings
    assert one["rc"] == 0, one
    assert too_many["rc"] != 0 and "Invalid argument" in too_many["err"], too_many
    assert _channels(channels["out"])["now"]["combined"] == 1
    assert back["rc"] == 0, back
    # rx-0, tx-0 and the "other" vector
    assert len(_vectors(vectors_one["out"], igb)) == 3, vectors_one["out"]
    restore, small, after, cpus, interrupts = cli.remote(
        ["sh", "-c", 'ethtool -L "$1" combined "$(nproc)"', "sh", igb],
        ["ethtool", "-G", igb, "rx", "256", "tx", "256"],
        carrier,
        ["nproc"],
        INTERRUPTS,
        sudo=True,
    )
    assert restore["rc"] == 0 and small["rc"] == 0, (restore, small)
    # Every ring change and channel change went through igb_down/igb_up: the carrier dropped.
    assert int(after["out"]) > int(before["out"]), (before, after)
    assert len(_vectors(interrupts["out"], igb)) == 2 * int(cpus["out"]) + 1
    before, after = before["out"].strip(), after["out"].strip()
    report(f"igb carrier changes across 4 ring/channel changes: {before} -> {after}")


_IGB_READER = (
    'for i in $(grep -E " $1(-|$)" /proc/interrupts | cut -d: -f1); do '
    'printf "irq %s=%s\\n" "$i" "$(cat /proc/irq/$i/smp_affinity)"; done; '
    'for f in /sys/class/net/$1/queues/tx-*/xps_cpus; do printf "%s=%s\\n" "$f" "$(cat "$f")"; '
    'done; ethtool -g "$1" | sed -n "/^Current/,\\$p"; ethtool -c "$1" | grep -E "^rx-usecs:"'
)


def _igb_knobs(iface: str) -> list[str]:
    return ["sh", "-c", _IGB_READER, "sh", iface]


def test_tweaks_on_igb_plan_apply_and_revert(cli: Cli, igb: str, caps: Any) -> None:
    """A fixed rx-usecs 50 (what a user might have set) goes back to mode 3, rings go to 4096
    with the interface restart said up front, every MSI-X vector moves off CPU 0, XPS works
    on every TX queue (igb is multi-queue), EEE is "not possible" on the 82576; revert puts
    every value back byte for byte."""
    fixed, knobs, interrupts = cli.remote(
        ["ethtool", "-C", igb, "rx-usecs", "50"], _igb_knobs(igb), INTERRUPTS, sudo=True
    )
    assert fixed["rc"] == 0, fixed
    before = knobs["out"]
    tweaks = ["nic-rings", "irq-coalescing", "irq-affinity", "xps", "eee-off"]
    selection = [arg for t in tweaks for arg in ("--tweak", t)]
    done = cli("tune", "plan", *cli.target(), "--nic", igb, "--json", *selection)
    items = {i["id"]: i for i in json.loads(done.stdout)["items"]}
    rings = items["nic-rings"]
    assert rings["applicable"] and rings["restarts_link"], rings
    assert {c["target"]: c["after"] for c in rings["changes"]} == {
        f"{igb} -G rx": str(caps.ring_maxima()["rx"]),
        f"{igb} -G tx": str(caps.ring_maxima()["tx"]),
    }
    (coalesce,) = items["irq-coalescing"]["changes"]
    assert (coalesce["before"], coalesce["after"]) == ("50", "3")  # adaptive mode, not 50 us
    assert not items["eee-off"]["applicable"] and "82576" in items["eee-off"]["reason"]
    irqs = [c for c in items["irq-affinity"]["changes"] if c["kind"] == "irq_affinity"]
    assert len(irqs) == len(_vectors(interrupts["out"], igb)), items["irq-affinity"]
    xps = items["xps"]["changes"]
    assert xps and not items["xps"]["not_possible"], items["xps"]

    argv = ["tune", "apply", *cli.target(), "--nic", igb, "--guard", str(CONFIRMED_GUARD),
            "--json", *selection]  # fmt: skip
    applied = json.loads(cli(*argv, timeout=APPLY_TIMEOUT, stdin="").stdout)
    statuses = {o["id"]: o["status"] for o in applied["outcomes"]}
    for tweak in ("nic-rings", "irq-coalescing", "irq-affinity", "xps"):
        assert statuses.get(tweak) == "applied", (tweak, applied["outcomes"])
    now = cli.remote(_igb_knobs(igb), sudo=True)[0]["out"]
    assert re.search(r"^rx-usecs:\s+3$", now, re.M), now
    assert len(re.findall(r"^(?:RX|TX):\s+4096$", now, re.M)) == 2, now
    irq_lines = [x for x in now.splitlines() if x.startswith("irq ")]
    # CPU 0 is bit 1 of the mask: no vector may still have it.
    assert irq_lines and all(not int(x.split("=")[1].replace(",", ""), 16) & 1 for x in irq_lines)
    cli("tune", "revert", *cli.target(), timeout=600)
    reverted, mode = cli.remote(_igb_knobs(igb), ["ethtool", "-C", igb, "rx-usecs", "3"], sudo=True)
    assert reverted["out"] == before
    assert mode["rc"] == 0
    report(f"igb tweaks applied: {sorted(statuses.items())}")


def test_rings_on_the_ssh_nic_need_consent_and_apply_under_the_nm_checkpoint(
    cli: Cli, igb: str, caps: Any
) -> None:
    """Issue 21's bar on a real kernel with NetworkManager: logged in over the igb NIC itself,
    its ring change (igb_set_ringparam: igb_down/igb_up) is held back without the consent; with
    `--allow-link-restart` it is applied under the guard and an NM checkpoint taken before the
    change (held while armed, recorded in the session folder), the link really drops, sbctune's
    new connection over the same NIC comes through, and revert puts the rings back and destroys
    the checkpoint."""
    from sbctune.tuning import nm_checkpoint

    over_igb = cli.target(IGB.vm_addr)  # the SSH session runs over the igb NIC
    checkpoints = ["busctl", "get-property", nm_checkpoint.NM, nm_checkpoint.NM_PATH,
                   nm_checkpoint.NM, "Checkpoints"]  # fmt: skip
    carrier = ["cat", f"/sys/class/net/{igb}/carrier_changes"]
    rings = ["ethtool", "-g", igb]
    held, before, bounces = cli.remote(checkpoints, rings, carrier, sudo=True)
    assert held["out"].strip() == "ao 0", held
    plan = cli("tune", "plan", *over_igb, "--nic", igb, "--json", "--tweak", "nic-rings")
    (item,) = json.loads(plan.stdout)["items"]
    assert not item["applicable"] and item["needs_link_consent"], item
    assert "carries this SSH session" in item["reason"], item["reason"]

    argv = ["tune", "apply", *over_igb, "--nic", igb, "--tweak", "nic-rings",
            "--allow-link-restart", "--guard", str(CONFIRMED_GUARD)]  # fmt: skip
    done = cli(*argv, timeout=APPLY_TIMEOUT, stdin="")  # no terminal: stays armed, exits
    said = done.stdout + done.stderr
    assert "NetworkManager checkpoint" in said, said[-3000:]
    held, now, after, folder = cli.remote(
        checkpoints, rings, carrier,
        ["sh", "-c", 'cat /var/lib/sbctune/tuning/*/"$1" 2>/dev/null', "sh", nm_checkpoint.RECORD],
        sudo=True,
    )  # fmt: skip
    try:
        assert held["out"].startswith("ao 1 "), held  # NM holds a checkpoint while armed
        assert folder["out"].strip() in held["out"], (folder, held)  # the session's own
        current, _ = parse_ethtool_rings(now["out"])
        assert (current.rx, current.tx) == (caps.ring_maxima()["rx"], caps.ring_maxima()["tx"])
        assert int(after["out"]) >= int(bounces["out"]) + 2, (bounces, after)  # down and up
        assert "did not answer" not in said, said[-3000:]  # the new SSH connection came through
    finally:
        cli("tune", "revert", *over_igb, timeout=600)
    held, back = cli.remote(checkpoints, rings, sudo=True)
    assert held["out"].strip() == "ao 0", held  # revert destroyed it
    assert parse_ethtool_rings(back["out"])[0] == parse_ethtool_rings(before["out"])[0]
    report(f"igb rings over the igb SSH NIC: checkpoint {folder['out'].strip()}, carrier "
           f"changes {bounces['out'].strip()} -> {after['out'].strip()}")  # fmt: skip
