"""Issue 21: the lab's ethtool answers every read the same before any set as after a set and
its revert, for every driver model, because one path computes them from one state.

The cause of the reverted s15 merge: `ethtool_state.install` wrote the first answers in the lab
manager's process, whose sysfs is the host's, while every set rewrites them inside the lab. The
answers read the NIC's live carrier, speed and MTU there (fake_ethtool_link.live,
fake_ethtool_base.iface_mtu), so a bcmgenet eth0 showed no "RX negotiated" lines (the host's
eth0 at speed -1: no link) until the first set, and a set and its revert read back something
else (tests/integration/test_tuning.py::test_ethtool_tweaks_apply_and_revert).

Here, as in a lab: install in this process; the NIC (a veth, up, with carrier) exists only in
a network namespace of the test's own, where the lab's init step (nsinit.first_answers) runs,
then every read option, a set and its revert (`-K gro off`, `-K gro on`: every model has the
feature; a set that changes nothing writes nothing), every read again; each read also
against the model itself. The same class without an ethtool set: the lab's own `ip link set
down/up` changes the carrier those answers read, so the lab's ip writes them again.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab import ethtool_state, fake_ethtool, ip_front, load_profile

IFACE = "sbctfa0"  # a name no host has: this process finds no such NIC, the namespace does
CHIPS = {"r8152": "RTL8153", "r8169": "RTL8125B", "lan78xx": "LAN7515", "igb": "82580",
         "igc": "I225-V", "stmmac": "RK3588", "asix": "AX88772B", "atlantic": "AQC107"}  # fmt: skip
KERNEL = "6.12.25+rpt-rpi-v8"
READS = [[option, IFACE] for option in fake_ethtool.SHOW] + [[IFACE]]
SETS = [["ethtool", "-K", IFACE, "gro", "off"], ["ethtool", "-K", IFACE, "gro", "on"]]

# Runs as root in a new network and mount namespace: the NIC, the lab's init step, the reads.
IN_NAMESPACE = r"""
import json, subprocess, sys, time
from pathlib import Path
from typing import Any
from sbctune.lab import nsinit

iface, bin_dir, state, plan = sys.argv[1], Path(sys.argv[2]), sys.argv[3], json.loads(sys.argv[4])
subprocess.run(["mount", "-t", "sysfs", "sysfs", "/sys"], check=True)  # this namespace's NICs
subprocess.run(["ip", "link", "add", iface, "type", "veth", "peer", "name", iface + "p"],
               check=True)
for name in (iface + "p", iface):
    subprocess.run(["ip", "link", "set", name, "up"], check=True)
deadline = time.monotonic() + 10
while Path(f"/sys/class/net/{iface}/carrier").read_text().strip() != "1":
    assert time.monotonic() < deadline, "the veth never got carrier"
    time.sleep(0.05)
first = nsinit.first_answers(str(bin_dir))


def run(argv, env=None):
    done = subprocess.run([str(bin_dir / argv[0]), *argv[1:]], capture_output=True, text=True,
                          timeout=60, env=env)
    return [done.stdout, done.stderr, done.returncode]


model_env = {"PATH": "/usr/bin:/bin:/usr/sbin:/sbin", "SBCTUNE_LAB_ETHTOOL_STATE": state}
out = {"first": first, "reads": [], "models": [], "steps": []}
for phase in [[], *plan["phases"]]:
    out["steps"] += [run(step) for step in phase]
    out["reads"].append([run(["ethtool", *a]) for a in plan["reads"]])
    out["models"].append([run(["ethtool", *a], model_env) for a in plan["reads"]])
print(json.dumps(out))
"""

pytestmark = [
    pytest.mark.posix_only("the lab runs on Linux"),
    pytest.mark.skipif(
        getattr(os, "geteuid", lambda: -1)() != 0 or shutil.which("unshare") is None,
        reason="a network namespace of the test's own needs root and unshare, as the lab does",
    ),
]


def _install(tmp_path: Path, driver: str, with_ip: bool = False) -> tuple[Path, Path]:
    base = load_profile("pi4-ax88179")
    spec = dataclasses.replace(base.test_interface, name=IFACE, driver=driver,
                               chip=CHIPS.get(driver, ""), mac=None)  # fmt: skip
    profile = dataclasses.replace(base, interfaces=(spec,), kernel=KERNEL, modelled_files={})
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    assert ethtool_state.install(profile, tmp_path, bin_dir)
    if with_ip:  # the lab's ip in front of the real one, as manager._build installs it
        assert ip_front.install(profile, tmp_path, bin_dir)
    return bin_dir, tmp_path / ethtool_state.STATE_FILE


def _in_namespace(bin_dir: Path, state: Path, phases: list[list[list[str]]]) -> dict[str, Any]:
    plan = json.dumps({"reads": READS, "phases": phases})
    done = subprocess.run(
        ["unshare", "--net", "--mount", "--propagation", "private", sys.executable, "-c",
         IN_NAMESPACE, IFACE, str(bin_dir), str(state), plan],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    got: dict[str, Any] = json.loads(done.stdout)
    assert got["first"] is None, got["first"]
    assert [code for _, _, code in got["steps"]] == [0] * len(got["steps"]), got["steps"]
    for point, (reads, models) in enumerate(zip(got["reads"], got["models"], strict=True)):
        for argv, read, model in zip(READS, reads, models, strict=True):
            assert read == model, f"ethtool {' '.join(argv)} (step {point}): not the model's"
    return got


def _pause(reads: list[list[Any]]) -> str:
    return str(reads[READS.index(["-a", IFACE])][0])


@pytest.mark.parametrize("driver", ethtool_state.known_drivers())
def test_every_read_is_the_same_before_a_set_and_after_its_revert(
    tmp_path: Path, driver: str
) -> None:
    got = _in_namespace(*_install(tmp_path, driver), [SETS])
    before, after = got["reads"]
    for argv, first, then in zip(READS, before, after, strict=True):
        assert then == first, f"{driver}: ethtool {' '.join(argv)} changed by a set and its revert"
    pause = _pause(before)
    if "Autonegotiate:\ton" in pause and driver not in ("igb", "igc"):
        # carrier in the lab's namespace: ethtool 6.1 resolves the negotiated pause
        assert "RX negotiated: " in pause, pause


@pytest.mark.parametrize("driver", ["bcmgenet", "lan78xx", "stmmac"])
def test_the_answers_follow_the_labs_own_link_down_and_up(tmp_path: Path, driver: str) -> None:
    """`ip link set IFACE down` in the lab drops the carrier: -a loses its negotiated lines (no
    partner advertisement), bcmgenet shows its request; `up` brings back the first answers.
    Before: the answers stayed the link-up ones until the next ethtool set."""
    down = [["ip", "link", "set", IFACE, "down"]]
    up = [["ip", "link", "set", "dev", IFACE, "up"]]
    got = _in_namespace(*_install(tmp_path, driver, with_ip=True), [down, up])
    first, while_down, again = got["reads"]
    assert "RX negotiated: on" in _pause(first)
    assert "negotiated" not in _pause(while_down)
    assert again == first


@pytest.mark.parametrize("driver", ethtool_state.known_drivers())
def test_the_answers_follow_the_partner_end_going_down_and_up(tmp_path: Path, driver: str) -> None:
    """The link changes from outside the lab (the partner's end of the veth goes down: a switch
    port off, a cable out), not by the lab's ip or ethtool: the kernel's -a then has no partner
    advertisement (no negotiated lines; r8169's phy_get_pause none), and every read is still
    the model's (_in_namespace). Before: lan78xx's, macb's, stmmac's, asix's -a kept the
    link-up answer its file was written with (the files of r8169, bcmgenet, r8152 were already
    left to the model, by a list of pause modes)."""
    ip = shutil.which("ip") or "/usr/sbin/ip"
    down = [[ip, "link", "set", IFACE + "p", "down"]]
    up = [[ip, "link", "set", "dev", IFACE + "p", "up"]]
    got = _in_namespace(*_install(tmp_path, driver), [down, up])
    first, while_down, again = got["reads"]
    if "negotiated" in _pause(first):
        assert "negotiated" not in _pause(while_down)
    assert again == first
