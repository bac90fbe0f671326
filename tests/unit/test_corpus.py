"""The public-paste corpus (issue 13): each bundle in tests/captures/corpus/ holds the outputs of
ONE public thread and an expected.json with what a competent reader states from it. Inspect each
bundle as `sbctune inspect BUNDLE --json` does and compare the core facts; the failure message
lists every fact that differs. The schema is tests/captures/corpus/README.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.catalog.ids import load_ids
from sbctune.inventory.model import Inventory, Nic

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"
BUNDLES = sorted(p for p in CORPUS.iterdir() if (p / "manifest.json").is_file())

# Keys that say which NIC an expected entry is about (the first present is used).
IDENTITY = ("name", "bus_path", "ids")
# Keys compared with ==.
EQUAL = (
    "bus_path",
    "bus",
    "usb_speed_mbps",
    "link_speed_mbps",
    "duplex",
    "wireless",
    "builtin",
    "irqs",
    "eee",  # ethtool --show-eee as Nic.eee shows it (issue 24)
    # a DSA switch's user port, and the interface its traffic passes through (the fifty-
    # seventh set): Nic.switch_port, Nic.conduit
    "switch_port",
    "conduit",
)
NIC_KEYS = {*IDENTITY, *EQUAL, "chip", "driver", "link", "note"}
NOT_SHOWN = "not shown"


def _load(bundle: Path) -> dict[str, Any]:
    data = json.loads((bundle / "expected.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _chip_matches(want: str, nic: Nic) -> bool:
    return want.lower() in (nic.chip or "").lower()


def _named_by_ids(want: dict[str, Any], nic: Nic) -> bool:
    """The issue's bar is "chip or IDs": a chip that pci.ids/usb.ids do not name yet (the
    thread's title names it, not the paste) is identified by its exact IDs."""
    ids = str(want.get("ids", "")).lower()
    if not ids or (nic.ids or "").lower() != ids:
        return False
    db = load_ids()
    bus = str(want.get("bus", nic.bus or ""))
    return ids not in (db.usb_devices if bus == "usb" else db.pci_devices)


def _candidates(want: dict[str, Any], nics: list[Nic]) -> list[Nic]:
    for key in IDENTITY:
        if key in want:
            if key == "ids":
                return [n for n in nics if (n.ids or "").lower() == str(want[key]).lower()]
            return [n for n in nics if getattr(n, key) == want[key]]
    found = list(nics)
    if "chip" in want:
        found = [n for n in found if _chip_matches(want["chip"], n)]
    if "bus" in want:
        found = [n for n in found if n.bus == want["bus"]]
    if len(found) > 1 and isinstance(want.get("driver"), str) and want["driver"] != NOT_SHOWN:
        # an entry named by nothing else (a device-less brcmfmac line beside the board's
        # wired NIC: corpus/home82_pi4_haos_1545_*) is its driver's NIC, when one has it
        found = [n for n in found if n.driver == want["driver"]] or found
    return found


def _label(want: dict[str, Any]) -> str:
    for key in (*IDENTITY, "chip"):
        if key in want:
            return f"{key}={want[key]}"
    return "?"


def _driver_diff(want: Any, nic: Nic) -> str | None:
    got = f"driver={nic.driver!r}, driver_state={nic.driver_state!r}"
    if want == NOT_SHOWN:
        ok = nic.driver is None and nic.driver_state != "none"
        return None if ok else f"driver: expected 'not shown' (no claim either way), got {got}"
    if want is None:
        ok = nic.driver is None and nic.driver_state != "unknown"
        return None if ok else f"driver: expected none bound, got {got}"
    return None if nic.driver == want else f"driver: expected {want!r}, got {got}"


def _link_diff(want: str, nic: Nic) -> str | None:
    got = f"link_detected={nic.link_detected!r}, link_speed_mbps={nic.link_speed_mbps!r}"
    if want == "up":
        # A link speed with nothing saying "no link" also states that the link is up.
        up = nic.link_detected is True or (
            nic.link_detected is None and nic.link_speed_mbps is not None
        )
        return None if up else f"link: expected up, got {got}"
    # A NIC the admin did not bring up (flags without UP: Nic.set_down) is down with its
    # carrier unknown (nothing opened it, so no line says whether a cable answers): gaps26
    down = nic.link_detected is False or (nic.link_detected is None and nic.set_down)
    ok = down and nic.link_speed_mbps is None
    return None if ok else f"link: expected down, got {got}, set_down={nic.set_down!r}"


def _nic_diffs(want: dict[str, Any], nic: Nic) -> list[str]:
    diffs = []
    for key in EQUAL:
        if key in want and getattr(nic, key, None) != want[key]:
            diffs.append(f"{key}: expected {want[key]!r}, got {getattr(nic, key, None)!r}")
    if "chip" in want and not _chip_matches(want["chip"], nic) and not _named_by_ids(want, nic):
        diffs.append(f"chip: expected a name containing {want['chip']!r}, got {nic.chip!r}")
    if "ids" in want and (nic.ids or "").lower() != str(want["ids"]).lower():
        diffs.append(f"ids: expected {want['ids']!r}, got {nic.ids!r}")
    if "driver" in want:
        diffs.append(_driver_diff(want["driver"], nic) or "")
    if "link" in want:
        diffs.append(_link_diff(want["link"], nic) or "")
    return [d for d in diffs if d]


def _short(nic: Nic) -> str:
    keys = (
        "name",
        "chip",
        "ids",
        "driver",
        "bus",
        "bus_path",
        "usb_speed_mbps",
        "link_speed_mbps",
        "duplex",
        "link_detected",
    )
    return "{" + ", ".join(f"{k}={getattr(nic, k)!r}" for k in keys) + "}"


def compare(expected: dict[str, Any], inv: Inventory) -> list[str]:
    """Every difference between the expected facts and the inventory, one line each."""
    diffs: list[str] = []
    model = (expected.get("board") or {}).get("model")
    if model is not None and (inv.board.model or "").strip() != model:
        diffs.append(f"board.model: expected {model!r}, got {inv.board.model!r}")
    soc = (expected.get("board") or {}).get("soc")
    if soc is not None and inv.board.soc != soc:
        diffs.append(f"board.soc: expected {soc!r}, got {inv.board.soc!r}")
    # the kernel release an output came from (uname -a, the log's own lines): fifty-fourth set
    kernel = (expected.get("board") or {}).get("kernel")
    if kernel is not None and inv.board.kernel != kernel:
        diffs.append(f"board.kernel: expected {kernel!r}, got {inv.board.kernel!r}")
    matched: list[Nic] = []
    for want in expected.get("nics", []):
        unknown = set(want) - NIC_KEYS
        assert not unknown, f"expected.json: unknown NIC keys {sorted(unknown)}"
        found = _candidates(want, inv.nics)
        if not found:
            diffs.append(f"nic {_label(want)}: missing")
            continue
        if len(found) > 1:
            diffs.append(f"nic {_label(want)}: listed {len(found)} times (one NIC, one entry)")
        matched.append(found[0])
        diffs += [f"nic {_label(want)}: {d}" for d in _nic_diffs(want, found[0])]
    if expected.get("all_nics", True):
        extra = [n for n in inv.nics if not any(n is m for m in matched)]
        diffs += [f"unexpected nic {_short(n)}" for n in extra]
    ids = {f.id for f in inv.findings}
    diffs += [f"finding {f!r}: missing" for f in expected.get("findings", []) if f not in ids]
    shown = [f for f in expected.get("absent_findings", []) if f in ids]
    diffs += [f"finding {f!r}: present, but the paste contradicts it" for f in shown]
    return diffs


# Facts a reader states that the inventory does not reach yet, each with why. Strict: the day
# the inventory gets it, the test says so and the entry must go.
KNOWN_GAPS: dict[str, str] = {
    "dma78_ls1028_digi_tx40_mt76_1007_mt7916_smmu_context_fault_no_clock": (
        "arm-smmu's 'Unhandled context fault' (arm-smmu.c: 6.1 arm_smmu_context_fault(), 6.12 "
        "arm_smmu_print_context_fault_info(), dev_err on smmu->dev) names the SMMU "
        "(5000000.iommu) and the master's stream ID (cbfrsynra=0x409), not the device: which "
        "device owns a stream ID is the device tree's iommus/iommu-map, not in the paste, and "
        "the stack dump is the fault handler's, in an interrupt that happened to stop mt76's tx "
        "worker; the MT7916 is the fault's master by the prose only"
    ),
    "x86_qmodem_145_qmi_wwan_q_rm500q_vendor_driver": (
        "the RM500Q-GL is named only in the free text of Quectel's out-of-tree qmi_wwan_q "
        "('Quectel RM500Q-GL work on RawIP mode'), and no generated table (usb.ids, the kernel's "
        "ID tables, the catalog) knows that name: taking a model from a line's words would guess"
    ),
    # corpus12 (twelfth unseen set), left with reasons in tests/captures/corpus/README.md
    "pi4_esp_hosted_226_esp32_sdio_probe_etimedout_then_detected": (
        "esp-hosted's 'ESP chipset detected [esp32]' names no device, no driver is bound to "
        "the SDIO card, and no generated table knows esp32 as a network chip: tying the two "
        "would be a rule for that one out-of-tree driver"
    ),
    # corpus19 (nineteenth unseen set), left with reasons in tests/captures/corpus/README.md
    # corpus20 (twentieth unseen set), left with reasons in tests/captures/corpus/README.md
    "mt7927_jetm_45_mt7925e_message_timeout_chip_reset_failed": (
        "the MT7927 is named only in the words of an out-of-tree patch to mt7925e ('MT7927 "
        "mac_reset not supported'); no ID is shown and no table knows the name, so the chip is "
        "the driver's one (MT7925): reading a model from a message's first word would guess"
    ),
    # corpus22 (twenty-second unseen set), reasons in tests/captures/corpus/README.md
    # corpus23 (twenty-third unseen set), reasons in tests/captures/corpus/README.md
    "nexus5_pmbootstrap_36_bcmdhd_bcm4339_sdio_data_crc": (
        "Broadcom's out-of-tree bcmdhd (Google's msm tree), its chip only in a line that names "
        "no function ('F1 signature OK, ... chip:0x4339'), and the SDIO errors printed by "
        "Qualcomm's out-of-tree msmsdcc on mmc0, which no line ties to a function. corpus49 "
        "read bcmdhd's lines by their printing function (vendor_formats.json 'function' rows: "
        "dhd_conf_set_hw_oob_intr, dhdsdio_download_code_file), which closed the BPI-M64 "
        "AP6212 bundle of this set; corpus56 read bcmdhd's function name spaces and its F1 "
        "signature line (catalog/bcmdhd_lines.py: the BCM4339 on SDIO, 4 of 5 facts); missing "
        "here: the complaint, a row for 'dhdcdc_set_ioctl: dhdcdc_msg failed w/status %d' cited "
        "at a commit, and an mmc host's errors joined to its only card"
    ),
    # corpus24 (twenty-fourth unseen set), reasons in tests/captures/corpus/README.md
    "linkstar_h68k_meta_rockchip_164_rk_gmac_user_debug_mdio_device_not_found": (
        "the PHY lookup's failure is told only by the author's own debug prints ('mdio device "
        "not found', 'failed to get fwnode_phy_find_device'): no kernel source prints them, "
        "and the stmmac line that would follow is cut by the excerpt"
    ),
    "lx2160a_solidrun_85_ifconfig_a_no_eth_dpaa2_mac_endpoint_error": (
        "fsl_dpaa2_mac is NXP's own tree's driver (nxp-qoriq/linux-extras dpaa2-mac.c "
        "dpaa2_mac_probe(), on the fsl-mc bus), not 6.1/6.12's, whose dpaa2-eth prints the "
        "message with ': %pe' (missing: a table of the SoC vendors' kernel trees' drivers and "
        "messages, beside the Debian 6.1/6.12 ones)"
    ),
    "macbookpro11_t2sde_309_thunderbolt_gigabit_adapter_path_discovery_failed": (
        "the adapter is named only by its Thunderbolt DROM strings ('Apple, Inc. Thunderbolt "
        "to Gigabit Ethernet Adapter'); the kernel has no table of Thunderbolt device IDs, and "
        "the tunnelled PCIe NIC (tg3) never enumerated, so no line names a network device"
    ),
    # corpus26 (twenty-sixth unseen set), left with reasons in tests/captures/corpus/README.md
    # corpus28 (twenty-eighth unseen set), left with reasons in tests/captures/corpus/README.md
    # corpus27 (twenty-seventh unseen set), left with reasons in tests/captures/corpus/README.md
    "hi3518e_hi35xx_buildroot_4_himii_phy_link_up_100_glued_login_prompt_vendor_insmod": (
        "eth0's link is read now (the lone PHY and the lone interface, corpus27), but its bus "
        "is not: no line names eth0's MAC or its driver (HiSilicon's hieth), only the himii MDIO "
        "bus; missing, the bus of a MAC known only by its PHY's MDIO bus"
    ),
    "nslu2_yahoo_22231_ixp4xx_mii_read_failed_npe_firmware_request_indented_mail": (
        "2.6.26's firmware loader says only 'firmware: requesting NPE-B' (no device, no driver) "
        "and its failure is the user-mode helper's silence, then ifconfig's ENOENT: missing, "
        "the old loader's 'requesting' without a later load read as missing firmware of the "
        "interface brought up beside it"
    ),
    # corpus29 (twenty-ninth unseen set), left with reasons in tests/captures/corpus/README.md
    "dsl_ax82u_merlin_137_syslog_ansi_caret_escapes_broadcom_wl_pci": (
        "since gaps30 'wl 0000:01:00.0' is a PCIe Wi-Fi NIC driven by wl (vendor_drivers.json, "
        "poliva/broadcom-sta's build), but its interface is not named: the 'wl0:' lines print "
        "the driver's unit ('wl%d: ...', wl->pub->unit in wl_linux.c), not a net_device's "
        "name, so nothing ties an interface called wl0 to the device"
    ),
    "lede_rtl8xxxu_7_rtl8188ftv_ehci_mac80211_alloc_hw_warning_modules": (
        "the dongle is shown only by its 'new high-speed USB device' line and a mac80211 "
        "WARNING in ieee80211_alloc_hw_nm() right after (the allocation a Wi-Fi probe makes); "
        "no line names IDs or a driver, and a device with neither is no NIC: missing a rule "
        "that a Wi-Fi stack's WARNING in the probe window of a lone enumeration is that device's"
    ),
    # corpus34 (thirty-fourth unseen set), left with reasons in tests/captures/corpus/README.md
    "wwan34_openwrt_16294_two_huawei_1c52_cdc_ether_480m_on_xhci_usb3_ports": (
        "the two Huawei devices on cdc_ether get no cellular-modem finding: 12d1:1c52 is in no "
        "ID table (usb.ids, option/qmi_wwan/...), 'HUAWEI Mobile' names no modem, cdc_ether "
        "drives Ethernet adapters too, and its Huawei wwan_info match (cdc_ether.c, "
        "USB_VENDOR_AND_INTERFACE_INFO(HUAWEI_VENDOR_ID, USB_CLASS_COMM, ...)) needs the "
        "interface's class, which `lsusb -t` prints empty here and `lsusb -v` is cut before"
    ),
    # corpus33 (thirty-third unseen set), left with reasons in tests/captures/corpus/README.md
    # corpus36 (thirty-sixth unseen set), left with reasons in tests/captures/corpus/README.md
    "mesh_openwrt_routing_530_mesh0_bat0_wlan0_1_br_lan": (
        "mesh0 is an 802.11s mesh point only by OpenWrt's naming (the wireless config's "
        "'mesh0'): no line here names its driver, wiphy or a Wi-Fi kernel's template for it, "
        "so wireless stays unknown-as-false; a rule on the name alone would guess"
    ),
    # corpus42 (forty-second unseen set), left with its reason in tests/captures/corpus/README.md
    # corpus46 (forty-sixth unseen set), left with its reason in tests/captures/corpus/README.md
    "ind46_bbb_udemy_beagleboard_276_busybox_syslog_none_host_user_facility_machine_model": (
        "a reader names the BeagleBone Black's SoC AM335x (TI's family name, in the model "
        "itself); the kernel's trees name it only as am33xx.dtsi's \"ti,am33xx\", so the "
        "inventory says AM33XX (the right SoC since this set's board-family rule; before it, "
        "AM335X-BONE, the original BeagleBone's board compatible). Missing: a source that maps "
        "the kernel's SoC compatibles to the vendors' part-family names"
    ),
    # corpus47 (forty-seventh unseen set), left with its reason in tests/captures/corpus/README.md
    "gadget47_rpi_openwrt_forum21543_nokia8_no_rndis_moto_rndis_host": (
        "the Nokia 8 in tethering mode (0489:c022) is shown only by its 'New USB device found' "
        "lines and gets no network driver; no ID table of the kernels read names it (rndis_host "
        "and cdc_ncm match phones by interface class, rndis_host.c's USB_INTERFACE_INFO rows, "
        "which a dmesg does not print) and usb.ids does not list it, so nothing shown tells the "
        "inventory it is a network device. Missing: the device's interface classes (lsusb -v, "
        "/sys/bus/usb/devices/*/bInterfaceClass), which the paste does not have"
    ),
    # corpus52 (fifty-second unseen set), left with reasons in tests/captures/corpus/README.md
    "slow52_pi3b_rpilinux_5320_smsc95xx_down_ax88179_eth1_dwc_otg": (
        "the Pi 3B's own smsc95xx (1-1.1) and the AX88179's USB 2.0 host are told only by the "
        "usbnet register lines' bus name 'usb-3f980000.usb' (the BCM283x DWC OTG controller, "
        "bcm283x.dtsi usb@7e980000), whose MAC the reporter masked as 'm.m.m.m' so the "
        "register line is not read at all; and no 'new high-speed USB device ... using "
        "dwc_otg' or lsusb -t places them. Missing: a masked-MAC register line read, and the "
        "host controller named by a device tree node's address as the Pi's USB 2.0 OTG"
    ),
    # corpus51 (fifty-first unseen set), left with their reasons in tests/captures/corpus/README.md
    "ap51_pi_rtl8188eu_402_edimax_n150_8188eu_oot_dmesg_grep_no_iface": (
        "the out-of-tree 8188eu module's lines (taint, 'Chip Version Info: CHIP_8188E_...', "
        "'registered new interface driver r8188eu', 'R8188EU: Firmware Version 11') name no "
        "device and no interface, and no table of the kernels' drivers/net/ reads r8188eu (6.1 "
        "has it in drivers/staging/): a NIC made of a module's lines alone, the class of "
        "wifi_pi4_kismet_8812au_63 and x86_amd_a6210_2, left for the same reason"
    ),
    # corpus56 (fifty-sixth unseen set), reasons in tests/captures/corpus/README.md
    "bsp56_bpim2plus_armbian_484_dhd_module_init_legacy_h3_backtick_i2c_noise": (
        "bcmdhd's lines here come from no bus layer's function (dhd_module_init, "
        "dhd_wifi_platform_load, 'Power-up adapter'): the driver is known, its bus is not, and "
        "a device of no known bus is no NIC"
    ),
    "bsp56_jetson_tx2_metategra_146_ether_qos_egrep_interrupts_promisc": (
        "L4T's ether_qos names its interrupts '2490000.ether_qos.rx0' (a node named ether_qos, "
        "not the Devicetree Specification's generic 'ethernet'), and nothing ties eth0's "
        "promiscuous-mode line to that device"
    ),
    "bsp56_lpi4a_th1520_revyos_13_lsmod_rtw88_8723ds_ifconfig_eth0": (
        "a Wi-Fi chip's driver loaded in lsmod with no device or interface shown: a module is "
        "not a device (it may be loaded with nothing to drive)"
    ),
    "bsp56_opi5_ubuntu_rockchip_194_rtl8821cs_powered_by_rockchip_rk_gmac": (
        "Realtek's vendor SDIO driver is named only by its banner ('RTW: rtl8821cs v5.14.2-...', "
        "'Realtek 8821CS SDIO WiFi driver (Powered by Rockchip,...) init.'): module-init lines "
        "with no device, which no row of the out-of-tree tables reads"
    ),
    "bsp56_zero3w_radxa_aic8800_21_aicbsp_sdio_bus_down_networkd": (
        "aic8800's 'aicbsp:' lines name no device and no row reads them (its SDIO IDs "
        "'vid:0xC8A1  did:0x0082', 'aicwf_sdio_chipmatch USE AIC8800D80', and the 'sdio_err:"
        "<aicwf_sdio_bus_pwrctl,1380>: bus down' complaint); networkd's journal beside dmesg is "
        "read since corpus56 (wlan0, 6 of 10 facts)"
    ),
    # corpus57 (fifty-seventh unseen set), reasons in tests/captures/corpus/README.md
    # corpus58 (fifty-eighth unseen set), left with reasons in tests/captures/corpus/README.md
    "trace58_brix_rtlwifinew_30_rtl8821ae_swiotlb_full_syslog": (
        "3.16's 'swiotlb buffer is full (sz: %zd bytes)' (lib/swiotlb.c "
        "swiotlb_tbl_map_single()) is shorter than 6.1/6.12's kernel/dma/swiotlb.c format, which "
        "appends ', total %lu (slots), used %lu (slots)': the message table matches whole "
        "formats only, and an old_formats row needs a 3.x tree cited by repository and commit"
    ),
    "trace58_imx6_wilc_50_wilc_sdio_cfg_set_scheduling_while_atomic": (
        "Microchip's out-of-tree 'wilc_sdio' module (the kernel's own, 6.1's "
        "drivers/net/wireless/microchip/wilc1000/sdio.c, registers 'wilc1000_sdio'): since gaps29 "
        "vendor_drivers.json makes the trace an SDIO Wi-Fi NIC with its complaint, but nothing "
        "names the chip (its ID table's 0296:5347 is named WILC1000 only by the kernel's "
        "include/linux/mmc/sdio_ids.h, which no table reads yet)"
    ),
    "tinxp60_am62a_nxp_2125815_moal_iw612_register_adapter_wlan0": (
        "NXP's out-of-tree MWLAN driver (moal/mlan, nxp-imx/mwifiex) prints its lines with no "
        "driver or device ('Register NXP 802.11 Adapter wlan0', 'wlan: version = SDIW612---...'): "
        "no table reads that driver's bare words yet, so wlan0 and its IW612 are not found"
    ),
    "tinxp60_apalis_imx8_toradex_12516_mwifiex_pcie_cmd_timeout_indented": (
        "mwifiex's command timeout is printed by mwifiex_dbg(adapter, MSG, ...) "
        "(cmdevt.c mwifiex_cmd_timeout_func()), which _mwifiex_dbg() prints with dev_info(): "
        "no error-level line, so no driver-complaint, though a reader states the timeout"
    ),
    "tinxp60_bbgw_balena_259_networkmanager_rfkill_wl18xx_sdio_path": (
        "NetworkManager 1.4.2's 'rfkill0: found WiFi radio killswitch (at /sys/devices/...) "
        "(driver wl18xx_driver)' is no format of daemon_lines.json (NM 1.42.4 and 1.52.1), and "
        "no reader takes the SDIO function mmc2:0001:2 from a sysfs path: no Wi-Fi is found"
    ),
    "tinxp60_bbgw_bbl_110_wlcore_booted_g_multi_usb0": (
        "wlcore's device-less 'wlcore: wl18xx HW: 183x or 180x, PG 2.2 (ROM 0x11)' "
        "(wl18xx/main.c wl18xx_get_pg_ver(), wl1271_info) is tied to no device: wlan0 is "
        "found, its WiLink 8 chip is not"
    ),
    # corpus61 (sixty-first unseen set), reasons in tests/captures/corpus/README.md
    "qcsm61_db410c_wcn36xx_list_001729_remoteproc_invalid_metadata_two_boots_wrapped": (
        "wcn36xx's device-less info lines ('wcn36xx: firmware API 1.5.1.2, 41 stations, 2 "
        "bssids', wcn36xx_info() in smd.c) make no NIC: only a Wi-Fi driver's error-level "
        "device-less line does, and no table tells a line of a running device from a banner"
    ),
    "qcsm61_qca7000_legacy_qca_3_qcaspi_qca0_sync_carrier_off_no_timestamps": (
        "the out-of-tree qca7000 driver 0.1.9's 'qcaspi: Driver loaded (qca0)' and 'sync: not "
        "ready, turn off carrier' are no format of the in-tree qca_spi.c and no row of "
        "vendor_formats.json reads them yet (qca/qca7000's source is the one a row would cite)"
    ),
    "qcsm61_konkr_pocket_fit_elite_armada_398_ath12k_wifi7_pci_wcn7860_short_monotonic": (
        "'Wi-Fi 7 Hardware name: wcn7860 hw2.0' is the 7.x ath12k split's line (driver "
        "ath12k_wifi7_pci): wcn7860 is no hw_params name of the 6.1/6.12 tables "
        "(firmware_chips.json), so the chip line names none"
    ),
    # corpus62 (sixty-second unseen set), reasons in tests/captures/corpus/README.md
    "tiny62_hg556a_seguridadwireless_bcm63xx_eth0_link_up_then_down_dmesg_prompt": (
        "bcm63xx_enet's own link line puts the interface first and the state in an argument "
        '(bcm63xx_enet.c bcm_enet_adjust_phy_link(), 6.1/6.12: pr_info("%s: link %s", '
        'dev->name, UP/DOWN) then pr_cont(" - %d/%s - flow control %s")): no table reads '
        "netdev-first formats whose words are arguments, so 'eth0: link DOWN' is no link change"
    ),
    "tiny62_nslu2_debian_arm_2007_ixp4xx_mac_npe_b_not_running_quoted_mail": (
        "the 2007 out-of-tree ixp4xx_mac 0.3.1 (nslu2-linux patches; 6.1/6.12 have ixp4xx_eth) "
        "prints 'ixp4xx_mac driver 0.3.1: eth0 on NPE-B ...' and 'eth0: NPE-B not running' "
        "with no device: no old_formats.json row cites its public source yet, so eth0 has no "
        "driver or bus and the missing NPE microcode is no finding"
    ),
    # corpus65 (sixty-fifth unseen set), reasons in tests/captures/corpus/README.md
    # corpus63 (sixty-third unseen set), reasons in tests/captures/corpus/README.md
    "spi63_adi_linux1901_adin2111_two_port_netdevs_ifconfig_p0_no_carrier": (
        "ADI's own tree names the ADIN2111's port net_devices 'adin2111-<n>-p<port>' (mainline "
        "adin1110.c registers eth%d and gives 'p%d' only as phys_port_name): no table holds a "
        "vendor tree's interface names, and taking a chip from a name's first word would guess"
    ),
    "spi63_bbgreenwireless_netdev2016_enc28j60_dump_regs_hwrevid_0x3c": (
        "a 4.x enc28j60 printed its register dump with no device (printk(KERN_DEBUG DRV_NAME "
        "...); 6.1's enc28j60_dump_regs() uses dev_printk): a wired driver's device-less info "
        "line makes no NIC, as no table tells a line about a running device from a banner"
    ),
    "spi63_omap3_lakml2011_smc911x_lan9115_invalid_mac_ipconfig_no_eth0": (
        "3.0's smc911x warned 'Invalid ethernet MAC address %pM. Please set using ifconfig' "
        "(wrapped by the mail client); 6.1's netdev_warn prints no address, so the message table "
        "matches nothing and no complaint is made of the all-ones MAC"
    ),
    "spi63_smdk6410_lakml2009_smsc911x_byte_test_ffffffff_init_failed": (
        "smsc911x's 2009 warnings name no device ('smsc911x: BYTE_TEST: 0xFFFFFFFF', its "
        "SMSC_WARNING of then) and the log shows none of its devices: a wired driver's "
        "complaints are tied only to a device a line shows (lone_device_ties), and a NIC made "
        "from them alone could double one another output lists without its driver"
    ),
    # old66 (sixty-sixth unseen set), left with reasons in tests/captures/corpus/README.md
    "old66_colibri_pxa320_infradead_2009_ax88796_kmsg_mac_bogus_quoted_mail": (
        "the 2009 log is quoted two levels deep in a reply ('>  > ') and its ax88796 line reads "
        "'ax88796 ax88796.): 16bit, ...' as archived: neither a quoted mail's markers nor a "
        "device name cut to '.)' is read, and guessing 'ax88796.0' would invent a name"
    ),
    # cam67 (sixty-seventh unseen set), left with reasons in tests/captures/corpus/README.md
    "cam67_hi3516cv300_openipc_161_hisi_femac_connect_to_phy_failed_one_line": (
        "the expected driver is the one that printed the line, but hisi_femac_drv_probe() "
        "returns -ENODEV right after 'connect to PHY failed!' (6.1/6.12 hisi_femac.c), so "
        "sbctune reports the probe failed with no driver bound; which the reader means is open"
    ),
    "cam67_hi3516ev300_openipc_1138_demo_board_model_console_head": (
        "the SoC is only a word of the vendor's demo-board model ('Hisilicon HI3516EV300 DEMO "
        "Board'); no mainline device tree has a HiSilicon camera SoC, so dt_boards has no row "
        "and taking a chip from a model's words would guess"
    ),
    "cam67_luckfox_ultra_w_rv1106_131_aic8800dc_rwnx_firmware_upload": (
        "Rockchip's BSP rockchip-cpuinfo prints the SoC as a hex id ('SoC : 11061000') and the "
        "AIC8800DC's vendor aicbsp/rwnx driver names its chip only in a firmware path: neither "
        "source is pinned in a vendor table yet"
    ),
    # gaps31: a newer pci.ids (trixie's 2025.06.09) shows what the driver alone never proved
    "mt7621_mt76_688_mt7915e_probe_einval_terminal_clock_uname": (
        "the chip was named MT7915 from the driver alone while bookworm's pci.ids (2023.04.10) "
        "named no other ID mt7915e binds; trixie's names 14c3:7916 'MT7905D/MT7975', and the "
        "driver's table (6.1/6.12 mt7915/pci.c mt7915_pci_device_table[]) binds 0x7906 too, the "
        "MT7916 (mt76_connac.h is_mt7916()): no line of the failed probe says which of the "
        "two it is"
    ),
    "x86_mt76_799_mt7915e_firmware_init_timeout_backports": (
        "as mt7621_mt76_688: mt7915e binds the MT7915 and the MT7916 (0x7906), and the probe "
        "that timed out names neither; the chip was the driver's until pci.ids named 14c3:7916"
    ),
    # sysrep69 (sixty-ninth unseen set), left with reasons in tests/captures/corpus/README.md
    "sysrep69_bpi_m5_hwprobe_44adec89d8_dmesg_double_stamp_meson6_dwmac_eth_pct_d": (
        "the BSP's model 'Bananapi BPI-M5' is not the mainline device tree's ('Banana Pi "
        "BPI-M5', meson-sm1-bananapi-m5.dts), and the SoC shows only as 'Meson chip version = "
        "RevC (2B:C - 10:0)' and 'sm1 clk probe ok': no generated table maps either to S905X3"
    ),
    "sysrep69_r410_xcpng_488_lshw_terminal_wrapped_bnx2_bcm5716_uname": (
        "a terminal wrapped lshw's configuration line mid-word ('duplex=full firm' / "
        "'ware=6.2.12 ...'); a mail client's wrap at a blank is joined with one, so the "
        "duplex value reads 'full firm': telling the two wraps apart needs the terminal's width"
    ),
    "sysrep69_x86_alphafold_61_lshw_quoted_bnx2_bcm5709_eno1_link_no": (
        "the kernel release is shown only as bnx2's driverversion (5.19.0-31-generic, the "
        "release ethtool's drvinfo reports for a driver that sets no version of its own); "
        "reading a kernel from a driver's version field is not done"
    ),
    "sysrep69_x86_xsos_10_lspci_ethtool_ip_summary_forcedeth_e1000": (
        "xsos's LSPCI section lists the 82541GI with no address, and its ETHTOOL line of eth2 "
        "names e1000 only: tying the product to the one e1000 interface by e1000's ID table "
        "is not built"
    ),
    # srvnic70 (seventieth unseen set), left with reasons in tests/captures/corpus/README.md
    "srvnic70_hpe_siderolabs_1040_qed_no_bar0_init_pci_failed_mlx5_gen4_x16": (
        "qed's DP_ERR lines ('[qed_probe:506()]init pci failed', include/linux/qed/qed_if.h) "
        "name a function, not a device or driver: no table maps a printing function to its "
        "module yet, so the failed probe has no NIC to be a finding of"
    ),
    "srvnic70_x86_moongen_295_cxgb4_t62100_pcie_x8_of_x16_lsmod": (
        "'PCIe link width is x8, device supports x16' is Chelsio's out-of-tree cxgb4 (HMA, "
        "ppod edram, panic handler), not in 6.1/6.12's cxgb4; no vendor source is pinned for it"
    ),
    # corpus71 (seventy-first unseen set), reasons in tests/captures/corpus/README.md
    "usbold71_chromebook_pixel_linuxsamus_14_0fe6_9700_dm9601_name_full_speed_lpa_ffff": (
        "two boots in one post: lsusb's 0fe6:9700 (device 2, then 5) and dmesg's dm9601 at 1-2 "
        "(devices 2 and 5) then 1-1 (5 and 6) reuse device numbers across ports, and no "
        "idVendor line ties the IDs to a port: joining them would guess which boot is which"
    ),
    "usbold71_htmlit_forum_689734_2_4_usb_c_netgear_fa120_0846_1040_not_claimed": (
        "2.4's usb.c 'USB device 2 (vend/prod 0x846/0x1040) is not claimed by any active "
        "driver' and hub.c's 'new device connect on bus1/1' are read by no parser yet (no "
        "2.4 source is cached to generate their formats from)"
    ),
    "usbold71_karotz_freerabbits_mcs7830_moschip_driver_name_wrapped_register_2_6": (
        "mcs7830 registers its usb_driver as 'MOSCHIP usb-ethernet driver' (mcs7830.c "
        "driver_name), a name with blanks: the log's head 'MOSCHIP usb-ethernet driver "
        "1-1.2:1.0:' is read as a driver 'driver', and the inventory names drivers by that "
        "registered name, not the module's"
    ),
    "usbold71_x86_rickwargo_xv6600_pda_cdc_subset_2_6_syslog_curly_quotes_sa1100_lsusb": (
        "2.6's usbnet register line names the interface alone ('usb0: register ... at "
        "usb-0000:00:1f.4-2.1, ...'): its port path lacks the bus number, and tying it to the "
        "log's one 'usb 2-2.1' device is a join across lines, which parse_dmesg's per-line "
        "reading cannot do (a fix there was reverted; it belongs after the parse)"
    ),
    "usbold71_pizerow_openwrt_pkgs_17236_sr9700_error_reading_mac_unnamed": (
        "the chip: sr9700 drives only the SR9700 (sr9700.c products[]: 0fe6:9700), but no "
        "generated table gives a chip to a driver that refused the device and shows no IDs"
    ),
    # mesh72 (seventy-second unseen set), left with reasons in tests/captures/corpus/README.md
    "mesh72_gluon_910_logread_mesh0_eth0_1000_full_mips_74kc_oops": (
        "mesh0 is Gluon's 802.11s interface, but no shown line says it is Wi-Fi (its ath9k radio "
        "is cut with the oops' module list): only the name and netifd's 'mesh_radio0' do, and a "
        "name's words are no driver's fact"
    ),
    "mesh72_pi4_linux_4429_ibss_cfg80211_roamed_warn_bcm2711": (
        "wlan0 is named only by the commands the author typed ('iw wlan0 set type ibss'), and a "
        "typed command is no output: it names what the user meant, not what exists"
    ),
    "mesh72_pi_bplus_linux_1742_redbear_phat_adhoc_roamed_warn_8192cu": (
        "as mesh72_pi4_linux_4429: wlan0 only in the typed 'iwconfig wlan0 mode ad-hoc ...'"
    ),
    "mesh72_tl_wdr3600_gluon_660_batman_mtu_eth0_1_mesh_vpn": (
        "eth0 shows only as its 802.1Q VLAN eth0.1 (8021q's default name '%s.%i' of the real "
        "device, net/8021q/vlan.c register_vlan_device()); a VLAN's name is not read as its "
        "parent NIC yet"
    ),
    # jlog74 (seventy-fourth unseen set), left with reasons in tests/captures/corpus/README.md
    "jlog74_pogoplug_alarm7742_journal_D_phpbb_code_artefact_networkd_eth0": (
        "2014's systemd-networkd padded the interface to IFNAMSIZ ('%-*s: ', a forum then "
        "collapsed the blanks: 'eth0 : link configured') and worded its lines in lower case; "
        "daemon_lines.json's rows come from the pinned systemd 252/257 sources, and no source of "
        "that release (about v215) is pinned to generate the old formats from"
    ),
    # game79 (seventy-ninth unseen set), left with reasons in tests/captures/corpus/README.md
    "game79_oga_jelos_esp8089_54_eagle_sdio_probe_110_gpio_busy": (
        "the ESP8089 is named only by the out-of-tree esp8089 driver's own device-less banner "
        "('ESP8089 reset via GPIO 105'); the failed probe names its SDIO function by the driver "
        "struct's name eagle_sdio, which no generated table (the kernel's drivers, "
        "vendor_drivers.json) knows: naming the chip from a banner's word would guess"
    ),
    "game79_oga_be_esp8089_55_sdio_remove_flush_work_warning_hardware_name": (
        "the ESP8089's lines ('esp_sdio_remove enter', 'sif_disable_irq release irq failed') "
        "name no device and no driver, and the WARNING is in kernel/workqueue.c: the NIC is "
        "named only by the out-of-tree esp8089(O) in 'Modules linked in:', a list of loaded "
        "modules, not of devices (trace_modules.py reads it only to choose among the drivers of "
        "a directory a trace named)"
    ),
    "game79_rg350_openrgh_20_rtl8188eu_vendor_rtl871x_non_high_speed": (
        "Realtek's vendor 8188eu prints its efuse IDs and chip under its own 'RTL871X: ' tag "
        "with no device ('VID = 0x0BDA, PID = 0x8179', 'CHIP TYPE: RTL8188E'); the kernel's "
        "copy of that format is 5.10's staging r8188eu (usb_halinit.c "
        "Hal_EfuseParsePIDVID_8188EU(), DBG_88E's 'R8188EU: ' "
        "prefix), outside id_formats.tsv's 6.1/6.12 trees, and 'NON USB_SPEED_HIGH' (the "
        "full-speed link) is the vendor tree's alone"
    ),
    # print81 (eighty-first unseen set), left with reasons in tests/captures/corpus/README.md
    "print81_manta_m8p_cb1_29_8189fs_sdio_warning_syslog_hardware_name_first_char_lost": (
        "the NIC is found (8189fs, SDIO, Wi-Fi: a WARNING in drivers/net/wireless/ run by "
        "ksdioirqd/mmc0) but its chip, the RTL8189FS a reader names from the module, is in no "
        "table: the name is the vendor Makefile's (MODULE_NAME = 8189fs for CONFIG_RTL8188F "
        "with SDIO), no Kconfig of 6.1/6.12 names an RTL8189, and no pinned copy of that "
        "Makefile is stored for vendor_drivers.json"
    ),
    "print81_pi3b_octopi_207_brcmfmac_event_worker_oops_syslog_bcm2709_4_1_18": (
        "'Hardware name: BCM2709' is the Raspberry Pi 4.1 tree's 32-bit machine name "
        "(mach-bcm2709, not in 6.1/6.12's arm_machines.json); /proc/cpuinfo's Hardware prints "
        "the same string (setup.c c_show()) and is read as the SoC, but a bare unknown "
        "'Hardware name:' is not always a 32-bit ARM machine: powerpc's setup-common.c "
        "(ppc_hw_desc) and parisc's processor.c print a board or system model there too, so "
        "it stays read as a board"
    ),
    "print81_qidi_xmax3_freedi_23_lsusb_tenda_aic8800dc_no_driver_shown": (
        "2604:0013 is named only by the poster's newer usb.ids ('Tenda AIC8800DC'; Debian's "
        "has the vendor alone); AIC8800 has no in-tree driver and vendor_drivers.json pins no "
        "aic8800 tree (its stored copies comment the Tenda IDs out of aicwf_usb_id_table), so "
        "no table says the device is a Wi-Fi NIC"
    ),
    "robot83_jetson_nano_rtl88x2bu_232_archer_t4u_plus_out_of_tree_tegra_elided": (
        "two drivers register after the 2357:0115 enumerates ('registered new interface driver "
        "rtl8812au', then the out-of-tree 88x2bu's 'rtl88x2bu') and neither line names the "
        "device; no pinned table lists 2357:0115 for either (6.12's rtw88 rtw_8822bu does), "
        "so which one bound it is the prose's, not a line's"
    ),
    "robot83_pi2_apsync_companion_43_edimax_rtl8188cus_smsc9512_lsusb_backticks": (
        "expected.json, written before the run, names the chip by usb.ids' 'SMSC9512/9514'; the "
        "inspector names it by SMSC's part number ('SMSC LAN9512/LAN9514'), the same chip: a "
        "naming difference of the expected file, left as written"
    ),
}


@pytest.mark.parametrize(
    "bundle",
    [
        pytest.param(b, marks=pytest.mark.xfail(strict=True, reason=KNOWN_GAPS[b.name]))
        if b.name in KNOWN_GAPS
        else b
        for b in BUNDLES
    ],
    ids=[b.name for b in BUNDLES],
)
def test_corpus_bundle(bundle: Path) -> None:
    expected = _load(bundle)
    inv = inspect_bundle(bundle)
    diffs = compare(expected, inv)
    if diffs:
        got = "\n  ".join(_short(n) for n in inv.nics) or "(none)"
        findings = sorted({f.id for f in inv.findings})
        pytest.fail(
            f"{bundle.name}: {len(diffs)} fact(s) differ (source: {bundle / 'SOURCE.md'})\n- "
            + "\n- ".join(diffs)
            + f"\ninspected NICs:\n  {got}\nfindings: {findings}"
            + f"\nboard.model: {inv.board.model!r}, soc: {inv.board.soc!r}"
            + f"\nwarnings: {inv.warnings}",
            pytrace=False,
        )


def test_corpus_is_well_formed() -> None:
    """Each bundle names its public source and every file its manifest lists exists."""
    assert len(BUNDLES) >= 45
    for bundle in BUNDLES:
        source = (bundle / "SOURCE.md").read_text(encoding="utf-8")
        assert "https://" in source or "http://" in source, bundle.name  # as the page is
        manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
        for rel in [*manifest["commands"].values(), *manifest["files"].values()]:
            assert (bundle / rel).is_file(), (bundle.name, rel)
        expected = _load(bundle)
        board = expected.get("board") or {}
        # a paste of software devices only states that it shows no NIC: "nics": [] and
        # "all_nics": true (corpus/virt_ds920_*: Docker bridges and veths in ifconfig;
        # a Gluon node's logread of bat0 and br-client only)
        no_nic = expected.get("nics") == [] and expected.get("all_nics") is True
        stated = expected.get("nics") or expected.get("findings") or board.get("model") or no_nic
        assert stated, bundle.name


def test_compare_reports_a_wrong_driver() -> None:
    """The comparison itself can fail: a wrong driver and a missing finding are both listed."""
    inv = Inventory(nics=[Nic(name="eth0", driver="r8169", bus="pci")])
    diffs = compare(
        {"nics": [{"name": "eth0", "driver": "igb"}], "findings": ["link-flapping"]}, inv
    )
    assert diffs == [
        "nic name=eth0: driver: expected 'igb', got driver='r8169', driver_state=None",
        "finding 'link-flapping': missing",
    ]
    expected = {"nics": [{"name": "eth0", "driver": "igb", "bus": "pci"}], "findings": ["x"]}
    assert score(expected, inv) == (2, 4)  # present and on PCI; wrong driver, no finding


def score(expected: dict[str, Any], inv: Inventory) -> tuple[int, int]:
    """(facts right, facts stated): a missing NIC misses every fact stated about it."""
    right = total = 0
    if (expected.get("board") or {}).get("model") is not None:
        total += 1
        right += (inv.board.model or "").strip() == expected["board"]["model"]
    if (expected.get("board") or {}).get("soc") is not None:
        total, right = total + 1, right + (inv.board.soc == expected["board"]["soc"])
    if (expected.get("board") or {}).get("kernel") is not None:
        total, right = total + 1, right + (inv.board.kernel == expected["board"]["kernel"])
    for want in expected.get("nics", []):
        stated = 1 + sum(1 for k in want if k not in ("note", *IDENTITY[:1]))
        total += stated
        found = _candidates(want, inv.nics)
        if len(found) == 1:
            right += stated - len(_nic_diffs(want, found[0]))
    ids = {f.id for f in inv.findings}
    for f in expected.get("findings", []):
        total, right = total + 1, right + (f in ids)
    for f in expected.get("absent_findings", []):
        total, right = total + 1, right + (f not in ids)
    return right, total


if __name__ == "__main__":  # pragma: no cover - a report for people, not a test
    # `.venv/bin/python tests/unit/test_corpus.py` prints how many stated facts each bundle gets.
    all_right = all_total = 0
    for bundle in BUNDLES:
        got, of = score(_load(bundle), inspect_bundle(bundle))
        all_right, all_total = all_right + got, all_total + of
        print(f"{got:3d}/{of:<3d} {bundle.name}")
    share = 100 * all_right / max(all_total, 1)
    print(f"total {all_right}/{all_total} = {share:.0f}% of stated facts")
