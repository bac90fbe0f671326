"""Classes of kernel lines and facts that issue 24's fourth unseen set (19 public pastes in
tests/captures/corpus, each with its SOURCE.md) showed unread. Every line here is copied from
one of those bundles (named beside it); the corpus test checks the whole bundles."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.advice.inspect import inventory_from_raw
from sbctune.advice.logs import log_findings
from sbctune.catalog.driver_firmware import chip_by_firmware
from sbctune.inventory.parsers.dmesg import parse_dmesg
from sbctune.inventory.raw import RawOutputs
from sbctune.resources import resource_root
from tests.corpus_support import corpus_line as _line
from tests.corpus_support import dmesg_events as _events

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "captures" / "corpus"


# x86_xcpng_535_*: igc's watchdog prints "NIC Link is Down" (igc_main.c, netdev_info)
IGC_DOWN = _line("x86_xcpng_535_igc_kern_log_tail_flapping", "NIC Link is Down")
# istoreos 2337: ax88179_178a before its interface is registered
UNNAMED = _line("rk35xx_istoreos_2337_ax88179_reg_epipe_quoted", "Failed to read reg index")
# wdr4900 (PowerPC): a device-tree node named by its path
OF_PATH = _line("wdr4900_openwrt_pr16154_gianfar_qca8k_dsa_boot", "fsl-gianfar")


def test_intel_nic_link_is_down_is_a_link_down_line_not_a_complaint() -> None:
    assert _events(IGC_DOWN) == [
        ("link_down", {"driver": "igc", "device": "0000:04:00.0", "iface": "eth1"})
    ]
    text = (
        CORPUS / "x86_xcpng_535_igc_kern_log_tail_flapping" / "commands" / "000-dmesg.txt"
    ).read_text(encoding="utf-8")
    inv = inventory_from_raw(RawOutputs(commands={"dmesg": text}))
    (nic,) = inv.nics
    ids = {f.id for f in log_findings(nic)}
    assert "link-flapping" in ids and "driver-complaint" not in ids  # bnx2x's err format


def test_a_line_before_registration_names_its_device() -> None:
    ((kind, fields),) = _events(UNNAMED)
    assert kind == "device" and fields["device"] == "5-1:2.0" and "iface" not in fields


def test_a_device_tree_path_name_is_a_platform_device() -> None:
    result, _ = parse_dmesg(OF_PATH)
    (nic,) = result.nics().values()
    assert (nic.iface, nic.device, nic.bus) == ("eth0", "soc@ffe00000:ethernet@b0000", "platform")


_WRAPPERS = st.sampled_from(
    [
        "",
        "[ 8141.633888] ",
        "Fri Dec 31 12:41:02 2021 kern.info kernel: [58437.485179] ",
        "Nov  6 11:48:57 xcp-ng-mfshjjxr kernel: [ 7150.683098] ",
        "> [   12.806502] ",
        "    [   92.748057] ",
    ]
)


@given(_WRAPPERS, st.sampled_from([IGC_DOWN, UNNAMED, OF_PATH]))
def test_these_lines_read_the_same_in_any_wrapper(wrapper: str, line: str) -> None:
    bare = line[line.index("] ") + 2 :] if "] " in line else line
    assert _events(wrapper + bare) == _events(bare)


def test_an_sdio_function_probed_by_an_out_of_tree_driver_is_a_wifi_nic() -> None:
    text = (
        CORPUS / "pi_esp_hosted_633_esp32_sdio_probe_etimedout" / "commands" / "000-dmesg.txt"
    ).read_text(encoding="utf-8")
    (nic,) = inventory_from_raw(RawOutputs(commands={"dmesg": text})).nics
    assert (nic.bus, nic.wireless, nic.driver) == ("sdio", True, None)
    assert "probe-failed" in {f.id for f in log_findings(nic)}


def test_an_interface_up_without_carrier_is_link_down() -> None:
    text = (
        CORPUS / "hiveap330_openwrt_12192_ip_l_no_carrier" / "commands" / "000-ip_l.txt"
    ).read_text(encoding="utf-8")
    inv = inventory_from_raw(RawOutputs(commands={"ip l": text}))
    by_name = {n.name: n for n in inv.nics}
    assert "link-down" in {f.id for f in log_findings(by_name["eth0"])}
    assert "link-down" not in {f.id for f in log_findings(by_name["labb2"])}  # LOWER_UP


def test_the_firmware_names_the_r8169_chip() -> None:
    assert chip_by_firmware("r8169", "rtl_nic/rtl8168h-2.fw") == "RTL8168h/8111h"
    assert chip_by_firmware("r8152", "rtl_nic/rtl8168h-2.fw") is None  # another driver's file
    assert chip_by_firmware("r8169", "rtl_nic/none.fw") is None


@pytest.mark.posix_only("obtains Debian's kernel source with apt-get and dpkg")
def test_the_firmware_chip_table_is_what_the_source_says() -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    from kernel_source import obtain
    from regen_firmware_chips import pairs

    data = json.loads(
        resource_root().joinpath("kernel_source", "firmware_chips.json").read_text(encoding="utf-8")
    )
    assert data["firmware"]["rtl_nic/rtl8168h-2.fw"]["chip"] == "RTL8168h/8111h"
    for name, version in data["packages"].items():
        series = name.removeprefix("linux-source-")
        tree = obtain(series, ("drivers/net/*",), version=version).root
        for firmware, row in data["firmware"].items():
            if series in row["series"]:
                text = (tree / row["file"]).read_text(encoding="utf-8", errors="replace")
                assert f'"{firmware}"' in text, (series, firmware)
                assert pairs(text).get(firmware) == row["chip"] or series != row["series"][0]


def test_another_vendors_format_is_not_this_drivers_complaint() -> None:
    from sbctune.inventory.log_complaints import kernel_complaint as _kernel_complaint

    message = IGC_DOWN.split("eth1: ", 1)[1]  # "NIC Link is Down": bnx2x prints it at err
    assert _kernel_complaint(message, "bnx2x") and not _kernel_complaint(message, "igc")
    lost = _line("x86_popos_185_igc_pcie_link_lost", "PCIe link lost").split("] ", 1)[1]
    assert _kernel_complaint(lost, "igc")  # igc_main.c's own err-level line


def test_an_old_kernels_netdev_line_names_device_and_interface() -> None:
    line = _line("pi_linux_168_smsc95xx_register_index_syslog", "Failed to read register")
    ((kind, fields),) = _events(line)
    assert (kind, fields["device"], fields["iface"]) == ("device", "1-1.1:1.0", "eth0")
    text = (
        CORPUS / "pi_linux_168_smsc95xx_register_index_syslog" / "commands" / "000-dmesg.txt"
    ).read_text(encoding="utf-8")
    (nic,) = inventory_from_raw(RawOutputs(commands={"dmesg": text})).nics
    assert "driver-complaint" in {f.id for f in log_findings(nic)}  # no errno, 3.x wording


def test_a_usb_devices_own_line_and_a_drivers_deviceless_line_join_the_one_device() -> None:
    bundle = "debian_ath9k_fw_pr71_ath9k_htc_download_failed_tail"
    text = (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    (nic,) = inventory_from_raw(RawOutputs(commands={"dmesg": text})).nics
    assert nic.bus_path == "1-1" and "driver-complaint" in {f.id for f in log_findings(nic)}
    bundle = "c201_prawnos_38_ath9k_htc_mac_rev_unsupported"
    text = (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
    assert len(inventory_from_raw(RawOutputs(commands={"dmesg": text})).nics) == 1


def test_a_kernel_built_for_one_soc_names_it() -> None:
    from sbctune.catalog.kernel_flavours import soc_by_kernel

    bundle = CORPUS / "pi5_linux_6832_igc_i226_probe_eacces_uname" / "commands"
    uname = (bundle / "001-uname.txt").read_text(encoding="utf-8")
    inv = inventory_from_raw(RawOutputs(commands={"uname -a": uname}))
    assert inv.board.soc == "BCM2712"
    assert soc_by_kernel("5.4.51-v7+") is None  # a Pi 2 or 3: the build names no one SoC
    found = soc_by_kernel("5.10.17-v7l+")  # the Pi 4's 32-bit build
    assert found is not None and found[0] == "BCM2711"


def test_a_complaint_cites_the_drivers_own_file_and_never_another_vendors() -> None:
    def complaint(bundle: str) -> str:
        text = (CORPUS / bundle / "commands" / "000-dmesg.txt").read_text(encoding="utf-8")
        (nic,) = inventory_from_raw(RawOutputs(commands={"dmesg": text})).nics
        return next(f.summary for f in log_findings(nic) if f.id == "driver-complaint")

    assert "igc/igc_main.c" in complaint("x86_popos_185_igc_pcie_link_lost")  # not fm10k's
    old = complaint("pi_linux_168_smsc95xx_register_index_syslog")
    assert "ksz_common" not in old and "no longer prints" in old  # not a DSA switch's format


def test_a_measured_figure_is_not_called_this_boards_when_the_board_is_unknown() -> None:
    from sbctune.advice.inspect import inspect_bundle

    inv = inspect_bundle(CORPUS / "rk35xx_istoreos_2337_ax88179_reg_epipe_quoted")
    (slow,) = [f for f in inv.findings if f.id == "chip-slow-transmit"]
    assert inv.board.catalog_id is None and "this one is not known" in slow.summary


# Real link lines of today's shape ("driver device iface: msg"), from the corpus: the same message
# in the shape kernels before 3.x printed ("driver device: iface: msg", as the smsc95xx line of
# raspberrypi/linux#168 and linux-sunxi#91's "wemac wemac.0: eth0: link down" show) names the
# same device, with no ":" left on it.
_LINK_LINES = [
    _line("bb_ai_soem_441_cpsw_1g", "eth0: Link is Down"),
    _line("bb_ai_soem_441_cpsw_1g", "eth0: Link is Up - "),
]


@given(st.sampled_from(_LINK_LINES))
def test_the_pre_3x_shape_names_the_same_device(line: str) -> None:
    ((kind, fields),) = _events(line)
    driver, device, _rest = line.split("] ", 1)[1].split(" ", 2)
    old = line.replace(f"{driver} {device} ", f"{driver} {device}: ", 1)
    ((old_kind, old_fields),) = _events(old)
    assert (old_kind, old_fields["device"]) == (kind, fields["device"])
    assert not old_fields["device"].endswith(":")
