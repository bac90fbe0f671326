"""A 32-bit ARM kernel's "Hardware name: X" is a machine description, not a board (issue 24).

arch/arm/kernel/setup.c setup_arch() (6.1 and 6.12) prints mdesc->name, the name in
DT_MACHINE_START(ID, "name") of arch/arm/mach-*/, which serves every SoC of its .dt_compat list:
"BCM2835" (mach-bcm/board_bcm2835.c) serves bcm2835, bcm2836 and bcm2837, so a Pi 3 B+ on a
32-bit Raspberry Pi kernel says "Hardware name: BCM2835". arm64's "X (DT)" (the device tree's
model) and x86's "X, BIOS ..." (DMI) stay board names. The table
(resources/kernel_source/arm_machines.json) is checked here against the source it came from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.catalog.arm_machines import arm_machine
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root
from tests.kernel_trees import kernel_trees
from tests.unit.test_corpus import CORPUS

# Real paste lines, verbatim from the corpus bundles named beside them.
_PI3BPLUS_SYSLOG = (  # virt55_pi3bplus_linux_1988_* (raspberrypi/linux#1988, 4.19.66-v7+)
    "Sep 2 16:44:42 raspberrypi kernel: [98913.427901] Hardware name: BCM2835"
)
_PI4_ARM64 = (  # wifi_pi4_kismet_8812au_63_* (an arm64 kernel: the device tree's model)
    "[   59.467943] Hardware name: Raspberry Pi 4 Model B Rev 1.4 (DT)"
)
_APU3_DMI = (  # apu3_pcengines_174_* (x86: DMI's product/board, then the BIOS)
    "Apr 20 21:44:29 sfo-router kernel: [127582.038250] Hardware name: PC Engines apu3/apu3, "
    "BIOS v4.11.0.5 03/29/2020"
)


def _board_of(line: str):  # type: ignore[no-untyped-def]
    return inventory_from_raw(RawOutputs(commands={"dmesg": line + "\n"})).board


def test_a_pi3b_plus_32bit_warning_header_names_neither_a_board_nor_a_soc() -> None:
    """Before: model "BCM2835" and SoC BCM2835 (the board is a Pi 3 B+, a BCM2837B0)."""
    board = _board_of(_PI3BPLUS_SYSLOG)
    assert (board.model, board.soc) == (None, None)


@pytest.mark.parametrize(
    "bundle",
    [
        "virt55_pi3bplus_linux_1988_syslog_bond0_eth0_wlan0_sme_warning",
        "pi3bplus_rpi_linux_3401_lsusb_rtl8150_kernel_clock_lan78xx_watchdog",
        "openbmc_3192_romulus_ftgmac100_watchdog_generic_dt",  # "Generic DT based system"
    ],
)
def test_a_machine_name_in_a_whole_bundle_is_not_its_board(bundle: str) -> None:
    board = inspect_bundle(CORPUS / bundle).board
    assert (board.model, board.soc) == (None, None)


def test_a_machine_that_serves_one_soc_names_that_soc_and_says_why() -> None:
    """A Pi 4 on a 32-bit 6.1 kernel: "Hardware name: BCM2711" (mach-bcm/bcm2711.c serves
    brcm,bcm2711 alone). Before: the model read "BCM2711"."""
    bundle = CORPUS / "pi4_linux_4485_bcmgenet_watchdog_queue3_backtrace_registers"
    board = inspect_bundle(bundle).board
    assert (board.model, board.soc) == (None, "BCM2711")
    assert "arch/arm/mach-bcm/bcm2711.c" in (board.soc_source or "")


def test_a_cpuinfo_hardware_line_is_the_same_machine_name() -> None:
    """/proc/cpuinfo's "Hardware" on 32-bit ARM is that machine_name too (arch/arm/kernel/setup.c
    c_show()). raspberrypi/linux#4270 (markshep, 2021-04-11), a Pi 3 Model B+: `grep ^Hardware
    /proc/cpuinfo` and `uname -a`, verbatim. Before: SoC BCM2835 (the board has a BCM2837B0)."""
    raw = RawOutputs(
        commands={
            "uname -a": "Linux rpi-3b-plus 4.19.66-v7+ #1253 SMP Thu Aug 15 11:49:46 BST 2019 "
            "armv7l GNU/Linux\n"
        },
        files={"/proc/cpuinfo": "Hardware        : BCM2835\n"},
    )
    board = inventory_from_raw(raw).board
    assert (board.kernel, board.soc) == ("4.19.66-v7+", None)


def test_arm64_and_x86_hardware_names_stay_the_board() -> None:
    assert _board_of(_PI4_ARM64).model == "Raspberry Pi 4 Model B Rev 1.4"
    # x86's is the DMI string, "<vendor> <product>/<board name>" (drivers/firmware/dmi_scan.c
    # dmi_format_ids()): the product before the "/" since corpus58, as the "DMI:" line is read
    assert _board_of(_APU3_DMI).model == "PC Engines apu3"


def test_a_machine_name_is_looked_up_exactly() -> None:
    assert arm_machine("BCM2835") is not None
    assert arm_machine(" BCM2835 ") is not None  # the post's trailing space
    assert arm_machine("BCM2835X") is None
    assert arm_machine("Raspberry Pi 3 Model B Plus Rev 1.3") is None
    assert arm_machine("x" * 10_000) is None


# -- the generated table against the kernel source ---------------------------------------------


def _table() -> dict:  # type: ignore[type-arg]
    path = resource_root().joinpath("kernel_source", "arm_machines.json")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_machine_table_is_what_the_source_says() -> None:
    from regen_arm_machines import COLUMNS, GLOBS, machines_of

    data = _table()
    assert data["columns"] == list(COLUMNS)
    rows = {r[0]: dict(zip(COLUMNS, r, strict=True)) for r in data["machines"]}
    trees: dict[str, Path] = kernel_trees(GLOBS, packages=data["packages"])
    seen: dict[str, set[str]] = {}
    for series, tree in trees.items():
        setup = (tree / "arch/arm/kernel/setup.c").read_text(encoding="utf-8")
        assert 'dump_stack_set_arch_desc("%s", mdesc->name);' in setup, series
        for name, compatible, file in machines_of(tree):
            assert series in rows[name]["series"] and file in rows[name]["files"], name
            assert set(compatible) <= set(rows[name]["compatible"]), name
            seen.setdefault(name, set()).update(compatible)
    assert {n: set(r["compatible"]) for n, r in rows.items()} == seen
    bcm2835 = rows["BCM2835"]
    assert bcm2835["compatible"] == ["brcm,bcm2835", "brcm,bcm2836", "brcm,bcm2837"]
    assert bcm2835["soc"] is None  # three SoCs: never a guess
    assert rows["BCM2711"]["soc"] == "BCM2711"
    assert all((r["soc"] is None) == (len(r["compatible"]) != 1) for r in rows.values())
