"""Board and SoC from what a paste shows (issue 24, item 3): the log's own lines (`Machine
model:`, `Hardware name:`, `DMI:`, a /proc/cpuinfo paste) and the kernel's own device trees
(resources/kernel_source/boards.json, checked here against the .dts files it came from); and
"in-tree since" worded by what the 6.1 and 6.12 sources can show, no more."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.driver_binding import newer_kernel_driver
from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.catalog import load_catalog
from sbctune.catalog.dt_boards import load_dt_boards
from sbctune.catalog.kernel_drivers import (
    bus_named_by,
    for_your_kernel,
    in_tree_since,
    load_kernel_drivers,
    probe_resets,
)
from sbctune.inventory import collect
from sbctune.inventory.model import Nic
from sbctune.inventory.parsers import parse_dmesg
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root
from tests.kernel_trees import kernel_trees
from tests.unit.parsers.test_dmesg_wrappers import _wrappers as WRAPPERS
from tests.unit.test_corpus import CORPUS

ROOT = Path(__file__).resolve().parents[2]
CAPTURES = ROOT / "tests" / "captures"


def _boards_json() -> dict:  # type: ignore[type-arg]
    text = resource_root().joinpath("kernel_source", "boards.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


# -- the log's own lines -----------------------------------------------------------------------


def test_a_board_the_catalog_does_not_know_gets_its_soc_from_the_kernels_device_tree() -> None:
    """ODROID-N2+ journal (corpus): only the oops header `Hardware name: Hardkernel
    ODROID-N2Plus (DT)` names the board; the kernel's tree for it says amlogic,s922x."""
    board = inspect_bundle(CORPUS / "odroid_n2plus_haos_1130_tx_timeout_journal").board
    assert (board.model, board.soc) == ("Hardkernel ODROID-N2Plus", "S922X")
    assert "meson-g12b-odroid-n2-plus.dts" in (board.soc_source or "")
    board = inspect_bundle(CORPUS / "opi_one_plus_h6_avafinger_6_emac_reset_timeout_bug").board
    assert (board.model, board.soc) == ("OrangePi One Plus", "H6")


@pytest.mark.parametrize(
    ("capture", "catalog_id", "soc"),
    [
        ("cm4_rev11_adafruit_241", "cm4", "BCM2711"),
        ("pi3b_rev12_hrw_6", "pi3b", "BCM2837"),
        ("pi4_rev12_armv7_hrw_31", "pi4b", "BCM2711"),  # no Model line: the revision code
    ],
)
def test_a_cpuinfo_paste_inside_a_log_names_the_board(
    capture: str, catalog_id: str, soc: str
) -> None:
    """A /proc/cpuinfo pasted into the log box (real captures): `Model`, `Revision` and
    `Hardware` lines name the board, and the SoC is the board's, not the kernel's
    `Hardware : BCM2835` (every Pi kernel says BCM2835)."""
    text = (CAPTURES / "cpuinfo" / f"{capture}.txt").read_text(encoding="utf-8")
    board = inventory_from_raw(RawOutputs(commands={"dmesg": text})).board
    assert (board.catalog_id, board.soc) == (catalog_id, soc)


def test_the_dmi_line_names_the_machine() -> None:
    """VM lab log (tests/captures/dev_vm/bundles/qemu_bookworm_four_nics.source.md): `DMI:
    QEMU Standard PC (Q35 + ICH9, 2009), BIOS ...` is the machine; no SoC is made up."""
    log = CAPTURES / "dev_vm" / "bundles" / "qemu_bookworm_four_nics" / "commands"
    text = (log / "007-dmesg.txt").read_text(encoding="utf-8")
    board = inventory_from_raw(RawOutputs(commands={"dmesg": text})).board
    assert board.model == "QEMU Standard PC (Q35 + ICH9, 2009)"
    assert board.soc is None and board.soc_source is None


def test_the_soc_of_a_carrier_board_brings_the_socs_own_ethernet() -> None:
    """A board the catalog does not list, on a SoC it knows (a CM4 carrier: BCM2711): its
    built-in MAC is GENET, whose driver makes a NIC the board's own."""
    assert load_dt_boards().by_compatible("raspberrypi,4-compute-module") is not None
    own = load_catalog().soc_nic("BCM2711")
    assert own is not None and own.driver == "bcmgenet"
    assert load_catalog().soc_nic("BCM2712") is None  # Pi 5: the MAC is in RP1, not the SoC
    assert load_catalog().soc_nic("RK3568") is None  # not in the catalog: nothing claimed


def test_models_match_with_a_revision_but_never_a_shorter_board_name() -> None:
    trees = load_dt_boards()
    rock = trees.by_model("Radxa ROCK3 Model A")
    assert rock is not None and rock.soc == "RK3568"
    assert trees.by_model("radxa  rock3 model a V1.31") == rock
    assert trees.by_model("Radxa ROCK3 Model A Max") is None
    n2 = trees.by_model("Hardkernel ODROID-N2")
    assert n2 is not None and trees.by_model("Hardkernel ODROID-N2 Plus") is None
    vf2 = trees.by_compatible("starfive,visionfive-2-v1.3b")
    assert vf2 is not None and vf2.soc == "JH7110"  # RISC-V trees are read too
    h616 = trees.by_model("OrangePi Zero2")
    assert h616 is not None and h616.soc == "H616"  # Allwinner's "sun50i-" family prefix cut


def _real_lines() -> list[str]:
    """The board lines of real logs: the VM lab's DMI and version lines, the N2+'s oops header."""
    qemu = CAPTURES / "dev_vm" / "bundles" / "qemu_bookworm_four_nics" / "commands"
    n2 = CAPTURES / "dmesg" / "odroid_n2plus_haos_1130_tx_timeout_journal.txt"
    found = []
    for path in (qemu / "007-dmesg.txt", n2):
        for event in parse_dmesg(path.read_text(encoding="utf-8"))[0].events:
            if event.kind in ("dmi", "machine_model", "kernel_version"):
                found.append(event.text)
    return found


REAL_LINES = _real_lines()


def test_the_real_board_lines_are_read() -> None:
    kinds = {parse_dmesg(line)[0].events[0].kind for line in REAL_LINES}
    assert kinds == {"dmi", "machine_model", "kernel_version"}


@settings(max_examples=100, deadline=None)
@given(line=st.sampled_from(REAL_LINES), wrapper=WRAPPERS)
def test_a_board_line_reads_the_same_in_any_wrapper(line: str, wrapper: str) -> None:
    bare = [(e.kind, e.fields) for e in parse_dmesg(line)[0].events]
    assert [(e.kind, e.fields) for e in parse_dmesg(wrapper + line)[0].events] == bare


def test_a_soc_named_in_a_model_no_tree_has_is_taken_only_as_a_whole_word() -> None:
    trees = load_dt_boards()
    assert trees.by_model("Rockchip RK3588 EVB7 V11 Board") is None  # a vendor kernel's model
    assert trees.soc_named_in("Rockchip RK3588 EVB7 V11 Board") == "RK3588"
    assert trees.soc_named_in("Firefly RK3568-ROC-PC") == "RK3568"
    assert trees.soc_named_in("Raspberry Pi 400 Rev 1.0") is None  # "400" is no SoC
    assert trees.soc_named_in("RK3568 or RK3588") is None  # two named: neither claimed
    assert trees.soc_named_in(None) is None


_LINES = st.sampled_from(
    ["DMI: ", "Hardware\t: ", "Revision\t: ", "Model\t\t: ", "Machine model: ", "Hardware name: "]
)


@settings(max_examples=200, deadline=None)
@given(head=_LINES, text=st.text(max_size=300), wrapper=st.sampled_from(["", "[    0.000000] "]))
def test_garbage_board_lines_never_raise(head: str, text: str, wrapper: str) -> None:
    trees = load_dt_boards()
    trees.by_model(text)
    trees.by_compatible(text)
    trees.soc_named_in(text)
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": f"{wrapper}{head}{text}\n"}))
    assert inv.board.model is None or len(inv.board.model) <= 200


# -- the generated table against the kernel source ---------------------------------------------


@pytest.fixture(scope="module")
def dts_trees() -> dict[str, Path]:
    from regen_board_socs import GLOBS

    return kernel_trees(GLOBS, packages=_boards_json()["packages"])


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_board_table_is_what_the_device_trees_say(dts_trees: dict[str, Path]) -> None:
    from regen_board_socs import COLUMNS, DTS_DIRS, root_properties, soc_of

    data = _boards_json()
    assert data["columns"] == list(COLUMNS)
    rows = [dict(zip(COLUMNS, r, strict=True)) for r in data["boards"]]
    assert len(rows) > 2000
    for row in random.Random(24).sample(rows, 120):
        for series in row["series"]:
            tree = dts_trees[series]
            files = [f for f in row["files"] if (tree / f).is_file()]
            assert files, (row["model"], series)
            props = root_properties(tree / files[0], tree)
            assert props["model"][0].strip() == row["model"], files[0]
            assert props["compatible"] == row["compatible"], files[0]
            assert row["soc_compatible"] in row["compatible"][1:]
    # and the other way: board files of each tree with a model and a SoC are in the table
    listed = {(series, f) for r in rows for series in r["series"] for f in r["files"]}
    for series, tree in dts_trees.items():
        files = sorted(p for d in DTS_DIRS for p in (tree / d).rglob("*.dts"))
        assert len(files) > 1500
        for path in random.Random(series).sample(files, 150):
            props = root_properties(path, tree)
            if props.get("model", [""])[0].strip() and soc_of(props.get("compatible", [])):
                assert (series, path.relative_to(tree).as_posix()) in listed, path


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_known_boards_are_read_as_their_dts_files_write_them(dts_trees: dict[str, Path]) -> None:
    """Independent of the generator's parser: the literal lines of the .dts files."""
    n2 = dts_trees["6.1"] / "arch/arm64/boot/dts/amlogic/meson-g12b-odroid-n2-plus.dts"
    text = n2.read_text(encoding="utf-8")
    assert 'model = "Hardkernel ODROID-N2Plus";' in text
    assert '"hardkernel,odroid-n2-plus", "amlogic,s922x", "amlogic,g12b"' in text
    rock = dts_trees["6.12"] / "arch/arm64/boot/dts/rockchip/rk3568-rock-3a.dts"
    assert '"radxa,rock3a", "rockchip,rk3568"' in rock.read_text(encoding="utf-8")


# -- in-tree since -----------------------------------------------------------------------------


def test_in_tree_since_claims_only_what_the_two_sources_show() -> None:
    assert in_tree_since(("6.1", "6.12")) == (
        "in the kernel since 6.1 at least (6.1 is the oldest source read)"
    )
    assert "added after 6.1" in in_tree_since(("6.12",))
    assert "no longer in 6.12" in in_tree_since(("6.1",))
    assert "chip maker's driver" in for_your_kernel(("6.12",), "5.15.0-1055-raspi")
    assert "may or may not" in for_your_kernel(("6.12",), "6.6.31+rpt-rpi-v8")
    assert for_your_kernel(("6.12",), "6.12.47+rpt-rpi-2712") == ""
    assert "older than 6.1" in for_your_kernel(("6.1", "6.12"), "5.10.103-v7l+")
    assert for_your_kernel(("6.1", "6.12"), "not a version") == ""


def test_an_adapter_listed_only_after_6_1_is_advised_with_the_range_known() -> None:
    """RTL8822BU (0bda:b812): rtw88's USB part is in 6.12's tables, not 6.1's."""
    nic = Nic(name=None, bus="usb", ids="0bda:b812")
    rec = newer_kernel_driver(nic, "5.15.0-1055-raspi")
    assert rec is not None
    assert "added after 6.1" in rec.detail and "present in 6.12" in rec.detail
    assert "Your kernel is 5.15.0-1055-raspi" in rec.detail
    unknown = newer_kernel_driver(nic, None)
    assert unknown is not None and "6.12 does" in unknown.detail


# -- the xfail classes, as mechanisms ----------------------------------------------------------


def test_a_board_files_platform_device_is_a_device_and_its_link_line_is_read() -> None:
    """Pre-device-tree kernels name a platform device "<name>.<id>" (drivers/base/platform.c,
    platform_device_add); a driver's dev_info(dev, "%s: link down", ...) names the interface
    after the device (the A10 wemac paste in the corpus)."""
    paste = CORPUS / "a10_sunxi_49_wemac_priority_prefix_link_down" / "commands"
    events = parse_dmesg((paste / "000-dmesg.txt").read_text(encoding="utf-8"))[0].events
    down = [e for e in events if e.kind == "link_down"]
    assert [(e.device, e.iface) for e in down] == [("wemac.0", "eth0")]
    nic = inspect_bundle(paste.parent).nic("eth0")
    assert nic is not None and (nic.driver, nic.bus, nic.link_detected) == (
        "wemac",
        "platform",
        False,
    )
    # an address-less name that is not "<name>.<number>" is no device
    assert not [e for e in parse_dmesg("wemac wemac: eth0: link down")[0].events if e.device]


def test_a_multi_bus_drivers_device_less_line_names_its_bus_by_its_part() -> None:
    """brcmfmac binds on SDIO, USB and PCIe; `brcmfmac: brcmf_sdiod_regrw_helper: ...` comes
    from its SDIO part (a Pi 3 paste in the corpus). A line of no bus-specific part says no bus."""
    drivers = load_kernel_drivers()
    brcmfmac = drivers.get("brcmfmac")
    assert brcmfmac is not None and brcmfmac.bus is None
    line = "brcmfmac: brcmf_sdiod_regrw_helper: failed to read data F1@0x0b800, err: -110"
    assert bus_named_by(brcmfmac, line) == "sdio"
    assert bus_named_by(brcmfmac, "brcmfmac: brcmf_c_preinit_dcmds: x") is None
    usb_file = ("drivers/net/wireless/broadcom/brcm80211/brcmfmac/usb.c",)
    assert bus_named_by(brcmfmac, "brcmfmac: x", usb_file) == "usb"
    paste = CORPUS / "pi3_linux_2830_brcmfmac_sdio_etimedout_smsc95xx_100"
    wifi = [n for n in inspect_bundle(paste).nics if n.driver == "brcmfmac"]
    assert [(n.bus, n.wireless) for n in wifi] == [("sdio", True)]


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=200))
def test_bus_named_by_garbage_never_raises(text: str) -> None:
    brcmfmac = load_kernel_drivers().get("brcmfmac")
    assert brcmfmac is not None
    assert bus_named_by(brcmfmac, text, (text,)) in (None, "sdio", "usb", "pci")


def test_a_reset_right_after_a_resetting_driver_loads_is_that_drivers_device() -> None:
    """DS220 paste (corpus): r8152 is loaded by hand, then `usb 1-1: reset high-speed ...` at
    once: rtl8152_probe_once() starts with usb_reset_device(), so 1-1 is the adapter r8152
    probes. The same paste without the driver's line names no NIC (a reset alone is no NIC)."""
    assert probe_resets("r8152") == "drivers/net/usb/r8152.c, rtl8152_probe_once"
    assert probe_resets("usb-storage") is None and probe_resets(None) is None
    paste = CORPUS / "ds220_bbqq_177_rtl8156b_resets_not_top_speed"
    nics = inspect_bundle(paste).nics
    assert [(n.bus, n.bus_path, n.usb_speed_mbps) for n in nics] == [("usb", "1-1", 480)]
    text = (paste / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    without = "\n".join(line for line in text.splitlines() if "registered new" not in line)
    assert inventory_from_raw(RawOutputs(commands={"dmesg": without})).nics == []


@pytest.fixture(scope="module")
def net_trees() -> dict[str, Path]:
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import obtain

    table = json.loads(
        resource_root()
        .joinpath("kernel_source", "usb_probe_resets.json")
        .read_text(encoding="utf-8")
    )
    return {
        name.removeprefix("linux-source-"): obtain(
            name.removeprefix("linux-source-"), ("drivers/net/*",), version=version
        ).root
        for name, version in table["packages"].items()
    }


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_probe_reset_table_is_what_the_source_says(net_trees: dict[str, Path]) -> None:
    from regen_usb_probe_resets import function_body

    table = json.loads(
        resource_root()
        .joinpath("kernel_source", "usb_probe_resets.json")
        .read_text(encoding="utf-8")
    )["drivers"]
    assert "r8152" in table and "mt76x2u" in table and "smsc95xx" not in table
    for name, row in table.items():
        for series in row["series"]:
            text = (net_trees[series] / row["file"]).read_text(encoding="utf-8", errors="replace")
            body = function_body(text, row["function"])
            assert body is not None and "usb_reset_device(" in body, (name, series)
    smsc = (net_trees["6.12"] / "drivers/net/usb/smsc95xx.c").read_text(encoding="utf-8")
    assert "usb_reset_device(" not in smsc


# The s13 walk: inspect of the lab's Pi 5 and Pi 1 said "CPU cores: unknown" while the CPU
# chart said "not the Pi's 4" / "not the Pi's 1". The Pi's own /sys/devices/system/cpu/present
# (the lab serves its Pi's there) names its cores when /proc/cpuinfo does not.
@pytest.mark.parametrize(("present", "cores"), [("0-3\n", 4), ("0\n", 1), ("0,2-3", 3)])
def test_cores_from_the_pis_present_cpus(present: str, cores: int) -> None:
    raw = RawOutputs(files={"/sys/devices/system/cpu/present": present})
    assert inventory_from_raw(raw).board.cpu_cores == cores


@given(st.text(max_size=40))
def test_any_present_text_gives_a_count_or_unknown(present: str) -> None:
    board = inventory_from_raw(RawOutputs(files={"/sys/devices/system/cpu/present": present})).board
    assert board.cpu_cores is None or 0 < board.cpu_cores <= 64 * 10_000


def test_inspect_reads_the_present_cpus() -> None:
    assert "/sys/devices/system/cpu/present" in collect.SYSFS_GLOBS
