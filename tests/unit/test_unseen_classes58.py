"""Classes that the fifty-eighth unseen set (kernel oopses, warnings, allocation failures,
skb_over_panic and scheduling-while-atomic reports that involve a NIC; tests/captures/corpus/
trace58_*) showed misread. Every output here is one of those bundles' (named beside it, with
its SOURCE.md) or lines of one; the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle, inventory_from_raw
from sbctune.inventory.model import Inventory
from sbctune.inventory.raw import RawOutputs
from tests.corpus_support import CORPUS, findings_of

_PI_R8152 = "trace58_pi_rpilinux_3488_r8152_alloc_rx_agg_order3_backtrace"
_VF50 = "trace58_vf50_mt7601u_55_rx_tasklet_order3_vybrid"
_DS918 = "trace58_ds918plus_bbqq_181_r8152_alloc_rx_agg_r8152_poll_x86"
_DS1019 = "trace58_ds1019plus_bbqq_181_r8152_eth2_carrier_order4_synow3tool"
_NUC980 = "trace58_nuc980_nuvoton_115_skb_over_panic_eth1_quoted"
_APU = "trace58_apu_mt7601uap_18_skb_over_panic_no_device_prompt"
_PI5 = "trace58_pi5_nixos_23_brcmf_fweh_activate_events_journal_headless"
_PIZERO = "trace58_pizero_rpilinux_4833_bcm43143_usb_brcmfmac_oops_alt_fw_path"
_PI3 = "trace58_pi3_rpifirmware_195_brcmfmac_scan_error_cfg80211_sme_warning"
_IMX28 = "trace58_imx28_alarm_1308_rtl_usb_rx_alloc_failure_mxs"


def _stored(bundle: str, command: str) -> str:
    (path,) = (CORPUS / bundle / "commands").glob(f"*-{command}.txt")
    return path.read_text(encoding="utf-8")


def _log(text: str) -> Inventory:
    return inventory_from_raw(RawOutputs(commands={"dmesg": text}))


def _lines(bundle: str, *needles: str) -> str:
    """The bundle's log lines that hold any of `needles`, in order."""
    kept = [ln for ln in _stored(bundle, "dmesg").splitlines() if any(n in ln for n in needles)]
    assert kept, needles
    return "\n".join(kept) + "\n"


# --- the kernel release from a report's "CPU: ... Comm: ..." line --------------------------


def test_the_kernel_release_is_read_from_a_reports_cpu_line() -> None:
    """lib/dump_stack.c dump_stack_print_info() prints the running kernel's release after the
    taint flags: 6.1's "CPU: %d PID: %d Comm: %.20s %s%s %s %.*s", 6.12's with "UID: %u " and
    3.x/4.x's "Not tainted". The user sees the kernel the report came from."""
    assert _log(_lines(_PI_R8152, "Comm:")).board.kernel == "5.4.21-v7"
    assert _log(_lines(_PI5, "Comm:")).board.kernel == "6.12.25"  # "CPU: 2 UID: 0 PID: 55"
    assert _log(_lines(_NUC980, "Comm:")).board.kernel == "4.4.289+"  # "Not tainted 4.4.289+"
    assert _log(_lines(_APU, "Comm:")).board.kernel == "4.19.0-8-amd64"  # "#1 Debian 4.19.98-1"


def test_a_line_about_a_comm_that_is_no_report_gives_no_kernel() -> None:
    """Edge: only the report's own shape is read (a task named "CPU: 1" in some other line is
    not a release)."""
    inv = _log("[    1.0] audit: type=1400 comm=CPU: 1 PID: 2 Comm: x Tainted: 9.9 #1 later\n")
    assert inv.board.kernel is None


# --- x86's "Hardware name:" is the DMI string -------------------------------------------


def test_an_x86_hardware_name_is_the_dmi_product_not_product_slash_board() -> None:
    """drivers/firmware/dmi_scan.c dmi_format_ids(): "<vendor> <product>", then "/<board>"
    when the firmware names one, then ", BIOS ...": the board is a Synology DS918+."""
    assert inspect_bundle(CORPUS / _DS918).board.model == "Synology DS918+"
    assert inspect_bundle(CORPUS / _DS1019).board.model == "Synology DS1019+"


# --- ARM frames: the module inside the parentheses, no space after the address ------------


def test_an_arm_frame_into_a_module_names_its_driver() -> None:
    """arch/arm/kernel/traps.c dump_backtrace_entry() prints "(%pS)": a module's function is
    "(alloc_rx_agg+0x60/0x138 [r8152])". The user sees the r8152 USB NIC and what failed."""
    inv = inspect_bundle(CORPUS / _PI_R8152)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus) == ("r8152", "usb")
    (summary,) = findings_of(inv, "driver-complaint")
    assert "allocation of 8 pages" in summary and "r8152" in summary


def test_an_arm_frame_without_a_space_after_its_address_is_read() -> None:
    """4.1's unwinder printed "[<80012a54>](dump_backtrace) from ...(mt7601u_rx_tasklet+0x114/
    0x46c [mt7601u])" with no space: the MT7601U stick's driver, on USB."""
    inv = inspect_bundle(CORPUS / _VF50)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus, nic.wireless) == ("mt7601u", "usb", True)
    assert findings_of(inv, "driver-complaint")


# --- skb_over_panic names the interface ---------------------------------------------------


def test_skb_over_panic_names_the_interface_it_was_for() -> None:
    """net/core/skbuff.c skb_panic(): "%s: text:%px len:%d put:%d ... dev:%s": eth1 is a NIC
    and its finding says the kernel stopped; the module list (cdc_ether usbnet) binds nothing."""
    inv = inspect_bundle(CORPUS / _NUC980)
    (nic,) = inv.nics
    assert nic.name == "eth1" and nic.driver is None
    (summary,) = findings_of(inv, "driver-complaint")
    assert "skb_over_panic" in summary


def test_skb_over_panic_of_no_device_makes_no_nic() -> None:
    """Edge: "dev:<NULL>" names no interface: no NIC is invented (the APU's excerpt)."""
    assert inspect_bundle(CORPUS / _APU).nics == []


# --- a report whose head is not shown -------------------------------------------------------


def test_a_trace_whose_head_is_cut_opens_at_its_call_trace_line() -> None:
    """The DS918+ excerpt starts at "Hardware name:": its "Call Trace:" (x86
    show_trace_log_lvl()) opens the trace and alloc_rx_agg/r8152_poll [r8152] name the NIC."""
    inv = inspect_bundle(CORPUS / _DS918)
    (nic,) = inv.nics
    assert (nic.driver, nic.bus) == ("r8152", "usb")
    assert findings_of(inv, "driver-complaint")


def test_arm64_pc_line_names_a_multi_bus_driver_with_no_device_shown() -> None:
    """The Pi 5 journal starts its report at "Modules linked in:"; "pc : brcmf_fweh_activate_
    events+0x2cc/0x2f0 [brcmfmac]" (arch/arm64/kernel/process.c __show_regs()) names brcmfmac,
    which runs on SDIO, USB and PCIe: its NIC, the bus not claimed."""
    inv = inspect_bundle(CORPUS / _PI5)
    (nic,) = inv.nics
    assert (nic.driver, nic.wireless, nic.bus) == ("brcmfmac", True, "unknown")
    assert findings_of(inv, "driver-complaint")


def test_a_module_list_alone_opens_no_nic() -> None:
    """Edge: "Modules linked in: ... brcmfmac ... asix ..." lists loaded modules, not devices;
    with no frame naming a driver no NIC comes of it."""
    text = _lines(_PI3, "Modules linked in", "Comm:", "Hardware name")
    assert _log(text).nics == []


# --- a trace tied to the device whose IDs its driver lists ----------------------------------


def test_an_oops_in_a_driver_is_the_usb_device_its_id_table_lists() -> None:
    """The Pi Zero's oops: "LR is at brcm_alt_fw_path+0xa0/0xe4 [brcmfmac]" (arch/arm/kernel/
    process.c __show_regs()); lsusb shows 0a5c:bd1e, which brcmfmac's usb.c table lists: the
    BCM43143 stick gets the finding."""
    inv = inspect_bundle(CORPUS / _PIZERO)
    (nic,) = inv.nics
    assert nic.ids == "0a5c:bd1e"
    (finding,) = [f for f in inv.findings if f.id == "driver-complaint"]
    assert "oops" in finding.summary
    assert any("brcm_alt_fw_path" in line for line in finding.evidence)


# --- a trace in a driver family's bus part ----------------------------------------------------


def test_a_trace_in_rtlwifis_usb_part_is_a_usb_wifi_nic() -> None:
    """The i.MX28's trace names only rtlwifi's library module rtl_usb
    ("_rtl_rx_completed+0xac/0x1bc [rtl_usb]"), built for the USB drivers of the family and
    named for that bus as brcmfmac's parts are: a USB Wi-Fi NIC ran it, its driver not claimed
    (rtl8192cu and rtl8192du both use it)."""
    inv = inspect_bundle(CORPUS / _IMX28)
    (nic,) = inv.nics
    assert (nic.bus, nic.wireless, nic.driver) == ("usb", True, None)
    assert findings_of(inv, "driver-complaint")


def test_a_library_not_named_for_a_bus_opens_no_nic() -> None:
    """Edge: the bundle's trace with its module edited to rtlwifi's own (no bus word in
    "rtlwifi", users on PCI and USB) makes no NIC: which bus ran it is not said."""
    text = _stored(_IMX28, "dmesg").replace("[rtl_usb]", "[rtlwifi]")
    assert _log(text).nics == []
