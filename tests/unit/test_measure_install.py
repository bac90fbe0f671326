"""Which command installs iperf3 on the Pi, from real /etc/os-release files; the firewall advice
per OS for the Pi's real iperf3 error texts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.measure.install import missing_error, parse_os_release, plan_iperf3_install
from sbctune.measure.pi_client import explain_error
from tests.unit.parsers.conftest import read_capture

APT = (
    "sudo env DEBIAN_FRONTEND=noninteractive apt-get update && "
    "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y iperf3"
)
APK = "sudo apk update && sudo apk add iperf3"
DNF = "sudo dnf install -y iperf3"


@pytest.mark.parametrize(
    ("capture", "present", "manager", "command", "distro"),
    [
        ("raspbian_buster_3022", ["apt-get"], "apt-get", APT, "Raspbian GNU/Linux 10 (buster)"),
        ("pi4_bullseye_64bit_214", ["apt-get"], "apt-get", APT, "Debian GNU/Linux 11 (bullseye)"),
        ("alpine_3_19_docker", ["apk"], "apk", APK, "Alpine Linux v3.19"),
        ("fedora_39_docker", ["dnf"], "dnf", DNF, "Fedora Linux 39 (Container Image)"),
        # ID=almalinux is unknown; ID_LIKE="rhel centos fedora" names the family.
        ("almalinux_9_3_docker", ["dnf"], "dnf", DNF, "AlmaLinux 9.3 (Shamrock Pampas Cat)"),
    ],
)
def test_the_distributions_own_package_manager(
    capture: str, present: list[str], manager: str, command: str, distro: str
) -> None:
    plan = plan_iperf3_install(read_capture(f"os_release/{capture}.txt"), present)
    assert (plan.manager, plan.command, plan.distro) == (manager, command, distro)
    error = missing_error(plan)
    assert error.message == f"iperf3 is not installed on the Pi ({distro})."
    assert command in error.hint and "--install-iperf3" in error.hint


def test_the_binary_present_wins_over_the_family_name() -> None:
    # A Debian-like os-release with only apk installed (a chroot, a container): use apk.
    plan = plan_iperf3_install(read_capture("os_release/raspbian_buster_3022.txt"), ["apk"])
    assert plan.manager == "apk"
    # The family's manager when several are present.
    plan = plan_iperf3_install(read_capture("os_release/fedora_39_docker.txt"), ["apt-get", "dnf"])
    assert plan.manager == "dnf"


def test_no_known_package_manager_says_install_by_hand() -> None:
    plan = plan_iperf3_install(read_capture("os_release/alpine_3_19_docker.txt"), [])
    assert plan.manager is None and plan.steps == ()
    error = missing_error(plan)
    assert "found no package manager it knows (apt-get, apk, dnf)" in error.message
    assert "by hand" in error.hint and "--install-iperf3" not in error.hint


@given(st.text(max_size=400), st.lists(st.sampled_from(["apt-get", "apk", "dnf", "pacman"])))
def test_garbage_os_release_never_crashes(text: str, present: list[str]) -> None:
    parse_os_release(text)
    plan = plan_iperf3_install(text, present)
    assert (plan.manager is None) == (not {"apt-get", "apk", "dnf"} & set(present))


# iperf 3.12 client on the dev VM: `iperf3 -c 127.0.0.1 -p 1 --forceflush` and a client sent to
# a server running another test (captured 2026-11-22).
REFUSED = "unable to connect to server: Connection refused"
BUSY = "the server is busy running a test. try again later"
# iperf 3.12 client on the dev VM, `iperf3 -c 198.19.253.9 --connect-timeout 1000 -J` to an
# address of a test namespace that nobody answers (as a firewall that drops, Windows Defender's
# default, leaves it; captured 2026-11-23).
TIMED_OUT = "unable to connect to server: Connection timed out"


@pytest.mark.parametrize(
    ("system", "names"),
    [
        ("Windows", ["Windows Defender Firewall", "allow sbctune"]),
        ("Darwin", ["macOS application firewall", "Allow incoming connections"]),
        ("Linux", ["TCP port 5201", "ufw allow 5201/tcp", "firewall-cmd --add-port=5201/tcp"]),
    ],
)
def test_refused_connection_names_the_firewall_of_this_os(system: str, names: list[str]) -> None:
    error = explain_error(REFUSED, "192.168.1.20", 5201, system)
    assert error.message == (
        "The Pi could not connect to the test endpoint on this computer (192.168.1.20:5201): "
        f"{REFUSED}."
    )
    for name in names:
        assert name in error.hint
    others = {"Windows": "Windows Defender", "Darwin": "macOS", "Linux": "ufw"}
    assert all(v not in error.hint for k, v in others.items() if k != system)


@pytest.mark.parametrize("system", ["Windows", "Darwin", "Linux"])
def test_a_dropping_firewall_is_named_too(system: str) -> None:
    # A firewall that drops (no reset) shows as a connect timeout: the same advice.
    timed_out = explain_error(TIMED_OUT, "192.168.1.20", 5201, system)
    refused = explain_error(REFUSED, "192.168.1.20", 5201, system)
    assert timed_out.hint == refused.hint
    assert "Connection timed out" in timed_out.message


def test_busy_server() -> None:
    error = explain_error(BUSY, "192.168.1.20", 5201, "Linux")
    assert error.message == "The iperf3 server at 192.168.1.20:5201 is busy running another test."
