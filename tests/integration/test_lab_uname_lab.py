"""The lab's `uname` is the profile's Pi's kernel, not this machine's (issue 21): the lab runs
on this host's kernel (an x86_64 6.18 build), and `uname` showed it as the Pi's, so the
planner chose by a kernel the lab's driver models were not answering as. Now `uname` answers
from the profile (a captured `uname`, or `[lab] kernel`/`machine` tied to the seed's words in
SOURCE.md), and a field nobody captured reads "unknown" (sbctune.lab.uname). Through SSH, as
the product reads it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_host
from sbctune.inventory.parsers.system import parse_uname
from sbctune.lab.model import LabInfo
from sbctune.tuning import plan
from sbctune.workflow.connecting import connected_facts
from tests.lab_profiles import profile_copy
from tests.lab_support import carrier_back, cli_as_user, cli_output, connect_to_lab, in_lab

pytestmark = [pytest.mark.lab]

HOST_RELEASE = os.uname().release


async def test_pi4_lab_shows_the_seeds_kernel(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    """Seed 000 line 7: "Alpine Linux 3.15 and a 5.15.4-0-rpi4 aarch64 kernel"."""
    lab = lab_factory("pi4-ax88179")
    async with await connect_to_lab(lab, tmp_path) as session:
        release = await session.run(["uname", "-r"])
        machine = await session.run(["uname", "-m"])
        srm = await session.run(["uname", "-srm"])
        everything = await session.run(["uname", "-a"])
        inventory, _ = await inspect_host(session)
    assert release.stdout == "5.15.4-0-rpi4\n" and machine.stdout == "aarch64\n"
    assert srm.stdout == "Linux 5.15.4-0-rpi4 aarch64\n"
    assert HOST_RELEASE not in everything.stdout and "x86_64" not in everything.stdout
    parsed, _ = parse_uname(everything.stdout)
    assert parsed.kernel_release == "5.15.4-0-rpi4" and parsed.machine == "aarch64"
    assert parsed.kernel_version is None  # the seed never wrote the build string down
    assert inventory.board.kernel == "5.15.4-0-rpi4"


async def test_pi5_lab_does_not_show_this_hosts_kernel(
    lab_factory: Callable[..., LabInfo], tmp_path: Path
) -> None:
    """pi5-macb captured nothing: the kernel is unknown, never this host's 6.18 x86_64."""
    lab = lab_factory("pi5-macb")
    async with await connect_to_lab(lab, tmp_path) as session:
        release = await session.run(["uname", "-r"])
        everything = await session.run(["uname", "-a"])
        inventory, _ = await inspect_host(session)
    assert release.stdout == "unknown\n"
    assert HOST_RELEASE not in everything.stdout and "x86_64" not in everything.stdout
    assert everything.stdout.startswith("Linux ") and everything.stdout.endswith(" GNU/Linux\n")
    assert inventory.board.kernel is None


async def test_connect_says_the_kernel_version_is_not_known(
    lab_factory: Callable[..., LabInfo],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """pi5-macb's kernel was never published: what `connect` shows (the GUI's status line and
    the command line) is "kernel version not known", never "Linux unknown unknown"."""
    lab = lab_factory("pi5-macb")
    async with await connect_to_lab(lab, tmp_path) as session:
        facts = await connected_facts(session)
    assert facts.kernel == "kernel version not known"
    pi = cli_as_user(lab, tmp_path, monkeypatch)
    shown = await asyncio.to_thread(cli_output, ["connect", pi, "--accept-new-host-key"], capsys)
    assert "  kernel: version not known" in shown, shown
    assert "unknown" not in shown, shown


def _pi3bplus_on(tmp_path: Path, kernel: str) -> str:
    folder = f"pi3bplus-{kernel.split('.')[0]}-{kernel.split('.')[1]}"
    return str(profile_copy(tmp_path, "pi3bplus-lan78xx", folder, kernel=kernel))


@pytest.mark.parametrize(
    ("kernel", "held"),
    [
        # 6.1 lan78xx_set_eee: turning EEE off only clears MAC_CR_EEE_EN_, no renegotiation
        ("6.1.0-rpi7-rpi-v8", False),
        # 6.12: phy_ethtool_set_eee on every call: the link restarts, so the SSH NIC waits
        ("6.12.47+rpt-rpi-v8", True),
    ],
)
async def test_the_planner_goes_by_the_kernel_the_lab_shows(
    lab_factory: Callable[..., LabInfo], tmp_path: Path, kernel: str, held: bool
) -> None:
    """A Pi 3 B+ whose profile says its kernel: the lab's lan78xx answers as that series, its
    `uname -r` says it, and the planner (reading `uname -a`) holds EEE off on the SSH NIC for
    consent only where that series renegotiates. Before, `uname` said this host's 6.18, every
    series counted, and EEE off on 6.1 was held although the lab kept the link up."""
    lab = lab_factory(_pi3bplus_on(tmp_path, kernel))
    assert in_lab(lab, "ethtool --set-eee eth0 eee on; echo exit=$?").strip().endswith("exit=0")
    async with await connect_to_lab(lab, tmp_path) as session:
        release = await session.run(["uname", "-r"])
        inventory, _ = await inspect_host(session)
        item = (await plan(session, inventory, "eth0", ["eee-off"])).item("eee-off")
    assert release.stdout == f"{kernel}\n" and inventory.board.kernel == kernel
    assert item is not None and item.needs_link_consent is held, item
    assert item.applicable is not held and item.restarts_link is False, item


def _pi5_on(tmp_path: Path, kernel: str) -> str:
    return str(profile_copy(tmp_path, "pi5-macb", f"pi5-{kernel.split('+')[0]}", kernel=kernel))


@pytest.mark.parametrize(
    ("kernel", "held"),
    [
        ("6.18.39+rpt-rpi-2712", True),  # PR #7270: macb_set_eee through phylink, renegotiates
        ("6.12.55+rpt-rpi-2712", False),  # issue #7115: --show-eee "Operation not supported"
        (None, False),  # the shipped profile: kernel unknown, the lab claims no EEE op
    ],
)
async def test_the_pi5s_eee_plan_goes_by_the_kernel_the_lab_shows(
    lab_factory: Callable[..., LabInfo], tmp_path: Path, kernel: str | None, held: bool
) -> None:
    """The Pi 5's EEE ops depend on the Raspberry Pi branch (driver_caps.json rpi_series): the
    planner reads the branch from `uname -a`, the lab's macb answers as its profile's kernel, and
    they agree whatever kernel this host runs."""
    lab = lab_factory(_pi5_on(tmp_path, kernel) if kernel else "pi5-macb")
    turned_on = in_lab(lab, "ethtool --set-eee eth0 eee on; echo exit=$?")
    assert turned_on.strip().endswith("exit=0") is held, turned_on  # only 6.18 has set_eee
    carrier_back(lab, "eth0")  # 6.18's set_eee renegotiates through phylink: the link drops
    async with await connect_to_lab(lab, tmp_path) as session:
        release = await session.run(["uname", "-r"])
        inventory, _ = await inspect_host(session)
        item = (await plan(session, inventory, "eth0", ["eee-off"])).item("eee-off")
    assert release.stdout == f"{kernel or 'unknown'}\n" and inventory.board.kernel == kernel
    assert item is not None and not item.applicable and item.needs_link_consent is held, item
    if not held:
        assert "Operation not supported" in item.reason, item.reason
