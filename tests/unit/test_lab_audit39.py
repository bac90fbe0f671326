"""Audit 39 (resources/tuning/driver_caps_audit39.md): which NIC carries the SSH session when
the session's route leaves by a device stacked on it.

Row 1: `ip route get <client>` names the device the session leaves by: br0 where eth0 is a
bridge port, bond0, eth0.10, a macvlan, a DSA user port lan1 over the conduit eth0. sbctune
compared that name with the tuned NIC only, so a ring change that closes and reopens eth0
(macb_set_ringparam) was planned without the user's consent and dropped the session. The rule
is now over the device graph (/sys/class/net/<upper>/lower_<lower>, made by
netdev_upper_dev_link): the NIC under the route's device, at any depth, carries the session.

Row 3: a bridge that runs the spanning tree forwards again only after listening and learning
(30 s by default) once the port's link returns; in the lab a consented ring change lost the
session after 33 s and the guard undid it. Over such a bridge a link-dropping change is now not
possible, consent or not, and the reason says why and what to do.

Row 2: a link-local client comes in SSH_CONNECTION with its zone ("fe80::1%eth0"), which
`ip route get` refuses: the route was unknown and every NIC counted as the SSH NIC. The zone is
now asked as `oif`.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.tuning import catalog, ssh_stack
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.model import PlannedTweak
from sbctune.tuning.probe import SSH_ROUTE, Facts, steps_for
from tests.fake_ethtool_support import ethtool, lab_state
from tests.plan_one import pi_answer

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
RP1 = "Cadence GEM in RP1"  # the Pi 5's NIC, as test_lab_audit31 names it
UP_LINK = json.dumps(
    [{"ifname": "eth0", "flags": ["BROADCAST", "MULTICAST", "UP", "LOWER_UP"], "mtu": 1500}]
)


def _rings(
    tmp_path: Path, route_dev: str, lowers: str | None, code: int = 0, **options: bool
) -> PlannedTweak:
    """nic-rings for a Pi 5's eth0 (macb on RP1, 6.12) from the lab's `ethtool -g`, the
    session's route leaving by `route_dev`, the Pi's stacked devices as READ_LOWERS prints
    them (None: not read)."""
    out, _err, rc = ethtool(lab_state(tmp_path, "macb", RP1, "6.12"), "-g", "eth0")
    assert rc == 0
    found = Facts("eth0")
    found.steps["ethtool -g"] = pi_answer("ethtool -g", out)
    found.steps["ip-link"] = pi_answer("ip-link", UP_LINK)
    found.steps["ssh-route"] = pi_answer("ssh-route", json.dumps([{"dev": route_dev}]))
    if lowers is not None:
        found.steps["ssh-lowers"] = pi_answer("ssh-lowers", lowers, code)
    nic = Nic("eth0", driver="macb", chip=RP1)
    tweak = catalog.tweak("nic-rings")
    inventory = Inventory(board=Board(kernel="6.12.0-1-arm64"), nics=[nic])
    return PLANNERS[tweak.kind](
        Context(tweak, found, inventory, nic, dict(options), {}, ("nic-rings",))
    )


@POSIX
@pytest.mark.parametrize(
    ("route_dev", "lowers", "words"),
    [
        ("br0", "br0/lower_eth0\n", "(it runs over br0, stacked on eth0)"),
        ("bond0", "bond0/lower_eth0\nbond0/lower_eth1\n", "(it runs over bond0, stacked on eth0)"),
        ("eth0.10", "eth0.10/lower_eth0\n", "(it runs over eth0.10, stacked on eth0)"),
        ("mv0", "mv0/lower_eth0\n", "(it runs over mv0, stacked on eth0)"),
        ("lan1", "lan1/lower_eth0\nlan2/lower_eth0\n", "(it runs over lan1, stacked on eth0)"),
        ("br0", "br0/lower_eth0.10\neth0.10/lower_eth0\nbr0/lower_wlan0\n",
         "(it runs over br0, stacked on eth0 through eth0.10)"),
    ],
)  # fmt: skip
def test_a_restart_under_the_sessions_stacked_device_waits_for_consent(
    tmp_path: Path, route_dev: str, lowers: str, words: str
) -> None:
    """A bridge port, bond slave, VLAN's or macvlan's lower device, DSA conduit: closing eth0
    drops the session over the device on it, so the ring change is held for the user's consent
    and the reason names both devices (before: planned, applied, the session dropped)."""
    item = _rings(tmp_path, route_dev, lowers)
    assert not item.applicable and item.needs_link_consent, item.reason
    assert f"and eth0 carries this SSH session {words}: held back unless you agree" in item.reason


@POSIX
@pytest.mark.parametrize(
    ("route_dev", "lowers"),
    [("wlan0", "br0/lower_eth0\n"), ("lan2", "lan2/lower_eth1\n"), ("wlan0", "")],
)
def test_a_session_over_another_device_leaves_the_nic_free(
    tmp_path: Path, route_dev: str, lowers: str
) -> None:
    """Wi-Fi beside a bridged eth0, a user port of another conduit, no stacking at all: the
    session does not run over eth0, and the ring change is planned without a question."""
    item = _rings(tmp_path, route_dev, lowers)
    assert item.applicable and not item.needs_link_consent, item.reason


@POSIX
def test_an_unread_device_graph_counts_as_the_ssh_nic(tmp_path: Path) -> None:
    """The route names br0 and the stacked devices could not be read: unknown counts as yes."""
    item = _rings(tmp_path, "br0", "", code=1)
    assert not item.applicable and item.needs_link_consent, item.reason
    assert "and eth0 carries this SSH session: held back" in item.reason


def test_the_probe_reads_the_device_graph_with_the_route() -> None:
    keys = [step.name for step in steps_for("eth0", [], [])]
    assert keys.index("ssh-lowers") == keys.index("ssh-route") + 1
    step = next(s for s in steps_for("eth0", [], []) if s.name == "ssh-lowers")
    assert step.argv == ("sh", "-c", ssh_stack.READ_LOWERS)


def test_the_graph_is_read_as_untrusted_text() -> None:
    """Only upper/lower_<name> lines count; a name longer than the kernel allows, a path, other
    text are ignored; a loop in the graph ends."""
    text = (
        "br0/lower_eth0\n../../etc/lower_x\nbr0/lower_"
        + "e" * 40
        + "\nnoise\na/lower_b\nb/lower_a\n"
    )
    lowers = ssh_stack.parse_lowers(text)
    assert lowers == {"br0": {"eth0"}, "a": {"b"}, "b": {"a"}}
    assert ssh_stack.path_down("a", "eth0", lowers) is None


@pytest.mark.posix_only("runs the route snippet under sh with a stand-in ip on PATH")
@pytest.mark.parametrize(
    ("client", "argv"),
    [
        ("fe80::1%br0", "-j route get fe80::1 oif br0"),
        ("fd00::5", "-j route get fd00::5"),
        ("198.18.0.1", "-j route get 198.18.0.1"),
    ],
)
def test_the_route_to_a_link_local_client_is_asked_through_its_zone(
    tmp_path: Path, client: str, argv: str
) -> None:
    """`ip route get fe80::1%br0` answers "any valid prefix is expected" (iproute2 6.1): the
    session's NIC was unknown, so every NIC's restart waited for consent. The zone is the
    device: asked as `oif`, the route (and the graph under it) is read."""
    shell = shutil.which("sh")
    assert shell is not None
    stand_in = tmp_path / "ip"
    stand_in.write_text('#!/bin/sh\necho "$@"\n', encoding="utf-8")
    stand_in.chmod(0o755)
    env = {"PATH": f"{tmp_path}:{os.environ.get('PATH', '')}",
           "SSH_CONNECTION": f"{client} 50000 198.18.0.2 22"}  # fmt: skip
    done = subprocess.run([shell, "-c", SSH_ROUTE], env=env, capture_output=True, text=True,
                          timeout=30, check=False)  # fmt: skip
    assert done.returncode == 0 and done.stdout.strip() == argv, done.stderr


STP_ON = "br0/lower_eth0\nbr0/bridge/stp_state 1\nbr0/bridge/forward_delay 1500\n"
STP_OFF = "br0/lower_eth0\nbr0/bridge/stp_state 0\nbr0/bridge/forward_delay 1500\n"


@POSIX
@pytest.mark.parametrize("consent", [False, True])
def test_a_restart_under_a_spanning_tree_bridge_is_not_possible(
    tmp_path: Path, consent: bool
) -> None:
    """The lab's answer (pi5-macb, eth0 in br0 with STP on, --allow-link-restart): "The
    connection ... was lost" after 33 s, then the guard's revert. Now the plan says so first,
    with or without consent, and offers no consent (before: held for consent, or planned)."""
    item = _rings(tmp_path, "br0", STP_ON, allow_link_restart=consent)
    assert not item.applicable and not item.needs_link_consent, item.reason
    assert item.reason.startswith(
        "macb restarts the interface for it, and eth0 carries this SSH session (it runs over "
        "br0, stacked on eth0): br0 runs the spanning tree protocol, so after the link returns "
        "it forwards again only after about 30 s"
    ), item.reason
    assert "net/bridge/br_stp.c: br_make_forwarding" in item.reason
    assert item.reason.endswith("or tune over another connection)")


@POSIX
def test_a_bridge_without_the_spanning_tree_takes_consent(tmp_path: Path) -> None:
    """stp_state 0 (a bridge made with `ip link add type bridge`): the port forwards as soon as
    its link returns, so consent applies as on a plain NIC."""
    held = _rings(tmp_path, "br0", STP_OFF)
    assert not held.applicable and held.needs_link_consent, held.reason
    agreed = _rings(tmp_path, "br0", STP_OFF, allow_link_restart=True)
    assert agreed.applicable, agreed.reason


def test_the_forward_delay_is_read_in_hundredths() -> None:
    """sysfs shows forward_delay by jiffies_to_clock_t (USER_HZ 100): 1500 is 15 s, twice over."""
    assert ssh_stack.stp_seconds(STP_ON) == {"br0": 30}
    assert ssh_stack.stp_seconds(STP_OFF) == {}
    assert ssh_stack.stp_seconds("br0/bridge/stp_state 2\nbr0/bridge/forward_delay 400\n") == {
        "br0": 8
    }
