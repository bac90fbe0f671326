"""A driver's complaints in the kernel log (lines the kernel's source prints at error or
warning level), the firmware files and the IDs its lines name (issue 24)."""

from __future__ import annotations

import re

from sbctune.catalog.func_chips import printed_in
from sbctune.catalog.id_formats import load_id_formats
from sbctune.catalog.kernel_drivers import (
    driver_for_files,
    load_kernel_drivers,
    other_drivers_message,
)
from sbctune.catalog.kernel_messages import FAILED_TO, errno_in, load_messages
from sbctune.catalog.vendor_formats import vendor_line
from sbctune.inventory.sightings import Sighting


def kernel_complaint(text: str, driver: str | None = None) -> bool:
    """A driver's line about its device that the kernel's source prints at error or warning
    level (resources/kernel_source), or one at info level or of no known format that reports an
    errno (brcmfmac's "no clm_blob available (err=-2)") or says it failed, though no rule here
    knows it."""
    message = load_messages().match(text)
    known = message is not None and not other_drivers_message(message.files, driver)
    if known and message is not None and message.level != "info":
        return True
    if (vendor := vendor_line(driver, text)) is not None:  # an out-of-tree driver's own format
        return vendor[0].complaint
    # an info-level line, or an older or a vendor kernel's: with its errno, or a network driver
    # of the kernel saying it failed ("eth0: Failed to read register index 0x00000114", 3.x)
    # the words each regex needs tested first, in C (most of a long log's lines hold neither)
    return reports_errno(text) or (
        " to " in text and FAILED_TO.search(text) is not None and net_driver(driver)
    )


def library_complaint(text: str, library: str) -> bool:
    """A library module's line at error or warning level: one the message table knows so, or
    one its own level word opens ("wlcore: ERROR ...", "wlcore: WARNING ...": wl1271_error()
    and wl1271_warning() in wlcore/debug.h print pr_err/pr_warn under such a word)."""
    rest = text.partition(": ")[2][:12].lower()
    return rest.startswith(("error", "warning")) or kernel_complaint(text, library)


# A firmware file's name in a driver's line: the extensions drivers' MODULE_FIRMWARE files have
# (resources/kernel_source/drivers.json "firmware"); tried only on lines that have one of them.
_FIRMWARE_EXT = (".ucode", ".bin", ".fw", ".mbn")
_FIRMWARE_FILE = re.compile(r"(?<![\w./-])([\w+-][\w./+,-]{0,120}\.(?:ucode|bin|fw|mbn))(?![\w.])")


def firmware_file(text: str) -> str | None:
    """ "... Loaded firmware version: 17.3216344376.0 7260-17.ucode" -> "7260-17.ucode"."""
    if not any(ext in text for ext in _FIRMWARE_EXT):
        return None
    found = _FIRMWARE_FILE.search(text[:400])
    return found.group(1) if found else None


# A driver's own line that its firmware runs: mwifiex's "WLAN FW is active", ath10k's
# "firmware ver 10.2.4-1.0-00047 api 5", rtw88's "Firmware version 9.9.11, H2C version 15",
# mt76's "WM Firmware Version: ____000000, Build Time: ...", iwlwifi's "Loaded firmware version:",
# ath9k_htc's "FW Version: 1.4" (htc_drv_init.c, read back from the running target)
# iwlwifi's "TLV_FW_FSEQ_VERSION: FSEQ Version: 89.3.35.37" is printed while it parses the TLVs
# of a file the firmware loader returned (iwl-drv.c iwl_parse_tlv_firmware(), called by
# iwl_req_fw_callback() only with a file; 6.1 and 6.12): a file was found after the newer API
# versions it asked for first were not (corpus/regr54_thinkpad_x1c8_zabbly_41_*)
_FIRMWARE_RUNS = re.compile(
    r"(?i)\b(?:FW is active|(?:firmware|FW) ver(?:sion)?:? \S{1,40}"
    r"|(?-i:TLV_FW_FSEQ_VERSION): \S.{0,40})"
)


def firmware_runs(text: str) -> str | None:
    """The words of a device's line that say its firmware runs (so a file it asked for and did
    not find, a power table or a newer API's image, was not the firmware it runs)."""
    if "irm" not in text and "FW" not in text:
        return None
    found = _FIRMWARE_RUNS.search(text[:300])
    return None if found is None or "fail" in text.lower() else found.group(0)


def net_driver(driver: str | None) -> bool:
    return load_kernel_drivers().get(driver) is not None


def reports_errno(text: str) -> bool:
    """ "... failed to read data F1@0x0b800, err: -110": a known errno reported as failed."""
    if "-" not in text:  # every errno errno_in reads is negative
        return False
    value = errno_in(text)
    return value is not None and value < 0 and load_messages().errno(value) is not None


IDS_BY_FORMAT = "dmesg format"  # graph.PRECEDENCE: after every source that lists IDs itself


def ids_said(text: str, sighting: Sighting, driver: str | None = None) -> Sighting | None:
    """The IDs a device's line prints, read by the kernel format it was printed from
    (resources/kernel_source/id_formats.tsv): "usb 1-1: This Realtek USB WiFi dongle
    (0x2357:0x0108) is untested!" gives 1-1 the IDs 2357:0108, whatever the driver. A format
    that prints the PCI device number alone ("iwlwifi 0000:3b:00.0: PCI dev 2723/1654, ...",
    iwl_pci_probe's pdev->device) takes the vendor from the line's driver's own alias table."""
    keys = [k for k in sighting.keys if k[0] in ("usb", "pci", "sdio")]
    by_number = driver if any(k[0] == "pci" for k in keys) else None
    found = load_id_formats().ids_in(text, by_number) if keys else None
    if found is None:
        return None
    ids, item = found
    said = Sighting(keys)
    why = f"{text[:200]} (the IDs as {item.files[0]} prints them)"
    if item.vendor_at < 0:
        why = (
            f"{text[:200]} (the device number as {item.files[0]} prints it; "
            f"{driver}'s ID table has one entry of it: {ids})"
        )
    said.add("ids", ids, IDS_BY_FORMAT, why, sighting.facts[0].order if sighting.facts else 0)
    return said


def driver_on_its_device(text: str, device: str | None) -> str | None:
    """ "usb 2-1: ath9k_htc: Failed to get firmware htc_9271.fw": a network driver's error or
    warning on the USB device under its own name (hif_usb.c dev_err(&udev->dev, "ath9k_htc: ..."),
    the format in that driver's source): the driver probed the device and failed there."""
    rest = text.partition(f"{device}: ")[2] if device else ""
    word, sep, _ = rest[:300].partition(": ")
    if not sep or load_kernel_drivers().get(word) is None:
        return None
    message = load_messages().match(rest)
    if message is None or message.level == "info" or other_drivers_message(message.files, word):
        return None
    return word


_FUNC_NAME = re.compile(r"[a-z][a-z0-9]*(?:_\w+)+")


def driver_speaks_on_its_device(text: str, device: str | None) -> str | None:
    """ "usb 1-1: rtl8xxxu: Loading firmware ...", "usb 1-1.2.4: rtl8xxxu_writeN: Failed to
    write block ...": a network driver's line on the USB device (rtl8xxxu's dev_info(&udev->dev,
    ...)) under its own name, or in a format only that driver's source prints (messages.tsv's
    files, kernel_drivers.driver_for_files): the driver drives that device."""
    rest = text.partition(f"{device}: ")[2] if device else ""
    if not rest:
        return None
    word = rest[:300].partition(": ")[0]
    table = load_kernel_drivers()
    if " " not in word and table.get(word) is not None:
        return word
    # a function the kernel's source places in a driver's file (func_chips.json) is that
    # driver's, whatever its name opens with: "rtl8192cu_parse_efuse: dumping efuse" is printed
    # by rtl8xxxu's rtl8xxxu_8192c.c (6.1) / 8192c.c (6.12), not by rtlwifi's rtl8192cu
    home = driver_for_files(printed_in(word)) if _FUNC_NAME.fullmatch(word) else None
    if home is not None and "usb" in home.buses:
        return home.name
    # a function's name (__func__) that opens the line with the driver's own prefix:
    # "rtl8xxxu_writeN: ..."; the longest prefix that is a USB network driver's name
    parts = word.split("_") if _FUNC_NAME.fullmatch(word) else []
    for cut in range(len(parts) - 1, 0, -1):
        known = table.get("_".join(parts[:cut]))
        if known is not None and "usb" in known.buses:
            return known.name
    message = load_messages().match(rest)
    owner = driver_for_files(message.files) if message is not None else None
    return owner.name if owner is not None and "usb" in owner.buses else None


# A driver's own words that request_firmware() found no file ("Failed to get firmware %s",
# "failed to request firmware"); "Firmware - %s download failed" is the device refusing a found one
_NOT_GOT = re.compile(r"(?i)\b(?:get|request|find|open)(?:ing)? (?:the )?firmware\b")


def firmware_not_got(text: str) -> str | None:
    """The firmware file a driver's own line says it could not get."""
    return firmware_file(text) if _NOT_GOT.search(text[:300]) else None
