"""Kernel messages and drivers from the kernel's own source (resources/kernel_source): a line
is recognised by the format string that printed it, errno values are decoded the kernel's way,
and every error line of a NIC's driver becomes a finding that cites where it comes from."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.advice.driver_binding import newer_kernel_driver
from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.catalog.kernel_drivers import load_kernel_drivers
from sbctune.catalog.kernel_messages import errno_in, load_messages
from sbctune.inventory.model import Nic
from sbctune.inventory.raw import RawOutputs
from tests.unit.test_corpus import CORPUS

DEV_VM = Path(__file__).resolve().parents[1] / "captures" / "dev_vm" / "bundles"


def test_lines_of_real_pastes_are_matched_to_their_format_level_and_file() -> None:
    table = load_messages()
    cases = {  # lines from the corpus bundles named in the comment
        # arm64_rtw88_197_*
        "rtw_8822bu 2-4.1:1.0: failed to download firmware": (
            "err",
            "drivers/net/wireless/realtek/rtw88/main.c",
        ),
        # x86_openwrt_nic_drivers_11_*: r8169's message, printed by the vendor's r8125 too
        "r8125 0000:22:04.0 eth4: rtl_rxtx_empty_cond == 0 (loop: 42, delay: 100).": (
            "err",
            "drivers/net/ethernet/realtek/r8169_main.c",
        ),
        # mt7621_openwrt_19765_* (after its logread wrapper)
        "mtk_soc_eth 1e100000.ethernet eth0: NETDEV WATCHDOG: CPU: 1: transmit queue 3 "
        "timed out 3685740 ms": ("crit", "net/sched/sch_generic.c"),
        # odroid_n2_haos_1038_*
        "meson8b-dwmac ff3f0000.ethernet: Failed to reset the dma": (
            "err",
            "drivers/net/ethernet/stmicro/stmmac/stmmac_main.c",
        ),
    }
    for line, (level, file) in cases.items():
        message = table.match(line)
        assert message is not None, line
        assert (message.level, message.files[0]) == (level, file), line
    assert table.match("bcmgenet fd580000.ethernet eth0: Link is Up - 1Gbps/Full") is None


def test_errno_is_decoded_the_kernels_way() -> None:
    table = load_messages()
    assert errno_in("rtw_8822bu: probe of 2-4.1:1.0 failed with error -22") == -22
    assert errno_in("rtw_usb_reg_sec: reg 0x4e0, usb write 1 fail, status: -71") == -71
    assert errno_in("firmware: failed to load rtw88/rtw8822b_fw.bin (-2)") == -2
    known = table.errno(-110)
    assert known is not None and known.name == "ETIMEDOUT"  # 60 on macOS's libc
    assert table.errno(517) is not None and table.errno("x") is None


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=600))
def test_garbage_never_raises(text: str) -> None:
    load_messages().match(text)
    errno_in(text)
    load_kernel_drivers().for_firmware(text)


def test_probe_failure_is_a_problem_with_its_errno_and_source() -> None:
    inv = inspect_bundle(CORPUS / "arm64_rtw88_197_rtw8822bu_probe_einval_dmesg_t")
    found = next(f for f in inv.findings if f.id == "probe-failed")
    assert "EINVAL" in found.summary and "drivers/base/dd.c" in found.summary
    assert found.evidence == ["rtw_8822bu: probe of 2-4.1:1.0 failed with error -22"]
    nic = inv.nics[0]
    assert nic.wireless and nic.bus == "usb" and nic.driver is None


def test_an_error_no_rule_knows_is_a_finding_citing_the_source() -> None:
    inv = inspect_bundle(CORPUS / "odroid_n2_haos_1038_down_hw_setup")
    found = next(f for f in inv.findings if f.id == "driver-complaint")
    assert "stmmac_main.c" in found.summary and found.severity == "warning"
    assert any("Failed to reset the dma" in line for line in found.evidence)


def test_a_drivers_bus_comes_from_its_table() -> None:
    """The old watchdog line names only the interface and the driver (r8152: USB only)."""
    raw = RawOutputs(
        commands={"dmesg": "NETDEV WATCHDOG: eth1 (r8152): transmit queue 0 timed out\n"}
    )
    nic = inventory_from_raw(raw).nic("eth1")
    assert nic is not None and nic.driver == "r8152" and nic.bus == "usb"


def test_a_protocol_driver_is_not_the_chips_own() -> None:
    """The Linux USB gadget (0525:a4a2) on cdc_ether: cdc_subset lists it too, but it is
    another protocol driver, so no "use the chip's own driver" (VM lab, a real 6.1 kernel)."""
    inv = inspect_bundle(DEV_VM / "qemu_bookworm_four_nics")
    assert not [f for f in inv.findings if f.id == "generic-driver"]
    assert load_kernel_drivers().get("cdc_subset").protocol  # type: ignore[union-attr]
    assert not load_kernel_drivers().get("r8152").protocol  # type: ignore[union-attr]


def test_a_driver_newer_than_the_running_kernel_is_named() -> None:
    nic = Nic(name=None, bus="usb", ids="0bda:b812")
    rec = newer_kernel_driver(nic, "5.15.0-1055-raspi")
    assert rec is not None and "rtw_8822bu" in rec.title and "5.15.0-1055-raspi" in rec.detail
    assert newer_kernel_driver(nic, "6.12.47+rpt-rpi-2712") is None


def test_the_kernel_version_comes_from_the_logs_own_line() -> None:
    """No `uname -a` in the bundle: the log's "Linux version 6.1.0-50-amd64 (...)" says it."""
    dmesg = (DEV_VM / "qemu_bookworm_four_nics" / "commands" / "007-dmesg.txt").read_text(
        encoding="utf-8"
    )
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": dmesg}))
    assert inv.board.kernel == "6.1.0-50-amd64"


def test_a_gigabit_phy_at_100_is_remarked_and_r8169_at_2500_is_an_rtl8125() -> None:
    slow = inspect_bundle(CORPUS / "opizero2_meta_sunxi_310_serial_console_dwmac_sun8i")
    found = next(f for f in slow.findings if f.id == "link-below-phy")
    assert "RTL8211F Gigabit" in found.summary and "100 Mbit/s" in found.summary
    fast = inspect_bundle(CORPUS / "rk3568_openwrt_pr20744_easepi_r8169_2500").nic("eth3")
    assert fast is not None and "RTL8125" in (fast.chip or "")


def test_interface_counters_are_judged_against_the_traffic() -> None:
    """raspberrypi/linux#1954: 15336 of 275242 packets dropped is remarked; pihole's 47 of
    77835 (0.06 %) is not."""
    captures = Path(__file__).resolve().parents[1] / "captures" / "ifconfig"

    def findings(name: str) -> list[str]:
        text = (captures / name).read_text(encoding="utf-8")
        return [
            f.summary
            for f in inventory_from_raw(RawOutputs(commands={"ifconfig": text})).findings
            if f.id == "interface-errors"
        ]

    (dropped,) = findings("rpi3_dropped_1954_old.txt")
    assert "15,336 of 275,242 received packets dropped (5.6 %)" in dropped
    assert findings("pihole_utils_rpi_new_format.txt") == []


def test_a_usb_reset_finding_counts_only_what_the_log_shows() -> None:
    """The MT7601U's own lines report -71 on its USB transfers (five lines: "RX urb failed:-71",
    "Vendor request ... failed:-71"); the USB core printed no error line. The reset finding
    counts the disconnect and those five lines, never "0 USB errors"; the reset right after
    the device enumerated again, followed by mt7601u's own line, is mt7601u_probe()'s
    usb_reset_device(), not a loss (session 15)."""
    inv = inspect_bundle(CORPUS / "pc_mt7601u_64_usb_wifi_eproto_probe_etimedout")
    found = next(f for f in inv.findings if f.id == "usb-reset")
    assert "(1 reset/disconnect, 5 USB errors: -71 EPROTO)" in found.summary
    assert "0 USB error" not in found.summary


def test_drivers_named_through_a_char_array_are_in_the_table() -> None:
    """e1000e, igb and ixgbe name their driver struct with `.name = e1000e_driver_name`
    (`char e1000e_driver_name[] = "e1000e";`): the table has them, with their bus."""
    table = load_kernel_drivers()
    for name in ("e1000e", "igb", "ixgbe"):
        entry = table.get(name)
        assert entry is not None and entry.bus == "pci", name


def test_a_driver_error_repeated_is_counted_as_often_as_shown() -> None:
    """The BPi-R4's log shows "warm reset failed" twice, on a frame engine carrying eth0-eth2:
    each NIC's finding counts both lines."""
    inv = inspect_bundle(CORPUS / "bpi_r4_openwrt_pr14140_mtk_soc_eth_warm_reset_failed")
    complaints = [f for f in inv.findings if f.id == "driver-complaint"]
    assert sorted(str(f.nic) for f in complaints) == ["eth0", "eth1", "eth2"]
    assert all("logged 2 error lines" in f.summary for f in complaints)
