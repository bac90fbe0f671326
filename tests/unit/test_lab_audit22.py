"""Audit 22 (resources/tuning/driver_caps_audit22.md): what a driver says about itself and its link.

Row 1: cdc_ncm's and cdc_ether's get_link_ksettings (usbnet_get_link_ksettings_internal,
drivers/net/usb/usbnet.c) writes only the speed into settings that __ethtool_get_link_ksettings
(net/ethtool/ioctl.c) zeroed, so ethtool and sysfs show DUPLEX_HALF ("Duplex: Half") on every
link. Inspect called that a half-duplex link (a problem, and a cable to change); two OpenWrt
users on a Pi 4 measured full-duplex rates beside it (openwrt/openwrt 14731, 23085).
Row 2: the lab's /sys/class/net/IFACE/duplex read "full" for such a NIC while its ethtool said
Half; the kernel's duplex_show reads the same zeroed settings ("half").
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.advice.inspect import inspect_bundle
from sbctune.advice.static import add_static_advice
from sbctune.advice.static_duplex import unreported_duplex
from sbctune.catalog import load_catalog
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.parsers.ethtool import parse_ethtool
from sbctune.inventory.raw import Parsed
from sbctune.lab import load_profile
from sbctune.lab.ethtool_state import build_state
from sbctune.lab.ethtool_table_drvinfo import bus_info_from_parent
from sbctune.lab.fake_ethtool_driver import show_info
from sbctune.lab.overlay import link_files
from sbctune.lab.profile import InterfaceSpec, LinkModel
from sbctune.tuning import driver_caps
from tests.fake_ethtool_support import ethtool, lab_state, with_link
from tests.lab_profiles import profile_copy

CAPTURES = Path(__file__).resolve().parents[1] / "captures" / "ethtool"
ISSUE_14731 = CAPTURES / "pi4_openwrt_14731_rtl8156b_cdc_ncm_duplex_half.txt"


POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _advised(driver: str, kernel: str | None = "5.15.137") -> Inventory:
    """Inspect's advice for a NIC linked as the real capture shows (1000 Mb/s, Duplex: Half)."""
    settings, warnings = parse_ethtool(ISSUE_14731.read_text(encoding="utf-8"))
    assert not warnings and settings.duplex == "Half" and settings.link_detected
    nic = Nic("eth1", driver=driver, bus="usb", link_speed_mbps=settings.speed_mbps,
              duplex=str(settings.duplex).lower(), link_detected=True)  # fmt: skip
    inventory = Inventory(board=Board(model="Raspberry Pi 4 Model B Rev 1.4", kernel=kernel),
                          nics=[nic])  # fmt: skip
    add_static_advice(inventory, Parsed(), load_catalog())
    return inventory


@pytest.mark.parametrize("driver", ["cdc_ncm", "cdc_ether"])
@pytest.mark.parametrize("kernel", ["5.15.137", "6.12.85", "6.1.0-27-arm64", None])
def test_a_duplex_the_driver_never_writes_is_not_called_half_duplex(
    driver: str, kernel: str | None
) -> None:
    inventory = _advised(driver, kernel)
    ids = [f.id for f in inventory.findings]
    assert "half-duplex" not in ids
    assert not [r for r in inventory.recommendations if "half-duplex" in r.title]
    (said,) = [f for f in inventory.findings if f.id == "duplex-not-reported"]
    assert said.severity == "info" and said.nic == "eth1"
    assert "does not report the duplex" in said.summary and "placeholder" in said.summary
    assert "drivers/net/usb/usbnet.c: usbnet_get_link_ksettings_internal" in "\n".join(
        said.evidence
    )


@pytest.mark.parametrize("driver", ["r8152", "ax88179_178a", "lan78xx", "bcmgenet", "igb", "r8169"])
def test_a_driver_that_reports_its_duplex_still_gets_the_half_duplex_problem(driver: str) -> None:
    """mii_ethtool_get_link_ksettings, phy_ethtool_ksettings_get and igb_get_link_ksettings
    write the duplex they read from the PHY or the MAC: Half there is a half-duplex link."""
    inventory = _advised(driver)
    assert [f.severity for f in inventory.findings if f.id == "half-duplex"] == ["problem"]
    assert not [f for f in inventory.findings if f.id == "duplex-not-reported"]


def test_unknown_drivers_and_full_duplex_claim_nothing() -> None:
    assert unreported_duplex(None, None) is None
    assert unreported_duplex("no_such_driver", None) is None
    full = _advised("cdc_ncm")
    full.findings.clear()
    full.nics[0].duplex = "full"
    add_static_advice(full, Parsed(), load_catalog())
    assert not [f for f in full.findings if f.id in ("duplex-not-reported", "half-duplex")]


def test_the_fact_is_the_sources_in_both_series() -> None:
    for kernel in ("6.1.0-27-arm64", "6.12.85"):
        found = driver_caps.kernel_fact("ksettings_without_duplex", kernel)
        assert found is not None
        functions, cite = found
        assert functions == ["usbnet_get_link_ksettings_internal"]
        assert cite == "drivers/net/usb/usbnet.c: usbnet_get_link_ksettings_internal"
        zeroed = driver_caps.kernel_fact("ksettings_zeroed", kernel)
        assert zeroed == (True, "net/ethtool/ioctl.c: __ethtool_get_link_ksettings")


def test_the_labs_sysfs_duplex_is_what_its_ethtool_shows(tmp_path: Path) -> None:
    """net-sysfs.c duplex_show reads the same zeroed settings: cdc_ncm "half" (its ethtool
    shows Half from link_settings.toml's `duplex`); a driver that writes its own: full."""
    specs = [
        InterfaceSpec("eth1", True, LinkModel(link_speed_mbps=1000), driver="cdc_ncm"),
        InterfaceSpec("eth2", True, LinkModel(link_speed_mbps=1000), driver="r8152"),
    ]
    binds = dict((target, source) for source, target in link_files(specs, tmp_path))
    read = {t: Path(s).read_text(encoding="ascii") for t, s in binds.items()}
    assert read["/sys/class/net/eth1/duplex"] == "half\n"
    assert read["/sys/class/net/eth2/duplex"] == "full\n"
    assert read["/sys/class/net/eth1/speed"] == "1000\n"


# --- row 3: what `ethtool IFACE` shows without a carrier --------------------------------------

NO_CABLE = {"carrier": False, "speed": "", "duplex": ""}


def _settings(state: str) -> dict[str, str]:
    text = ethtool(state, "eth0")[0]
    return {
        k: text.split(f"\t{k}: ")[1].split("\n")[0] for k in ("Speed", "Duplex", "Link detected")
    }


@POSIX
@pytest.mark.parametrize(("driver", "chip"), [("r8152", "RTL8153"), ("ax88179_178a", "AX88179")])
@pytest.mark.parametrize("kernel", ["6.1.0-27-arm64", "6.12.57+deb13-arm64"])
def test_a_mii_driver_without_a_cable_shows_10_mbit_half(
    tmp_path: Path, driver: str, chip: str, kernel: str
) -> None:
    """mii_ethtool_get_link_ksettings (drivers/net/mii.c): no partner, nothing in common,
    SPEED_10 and DUPLEX_HALF; the lab printed "Unknown!" as phylib does."""
    state = with_link(lab_state(tmp_path, driver, chip, kernel), **NO_CABLE)
    assert _settings(state) == {"Speed": "10Mb/s", "Duplex": "Half", "Link detected": "no"}


@pytest.mark.parametrize(("driver", "chip"), [("lan78xx", "LAN7800"), ("r8169", "RTL8125B"),
                                              ("igb", "I340"), ("cdc_ncm", "")])  # fmt: skip
@POSIX
def test_other_drivers_without_a_cable_show_unknown(tmp_path: Path, driver: str, chip: str) -> None:
    """phylib with autonegotiation (genphy_read_status: SPEED_UNKNOWN until it completes),
    igb_get_link_ksettings (SPEED_UNKNOWN without netif_carrier_ok); cdc_ncm keeps its
    zeroed Half."""
    state = with_link(lab_state(tmp_path, driver, chip, "6.1.0-27-arm64"), **NO_CABLE)
    shown_now = _settings(state)
    assert shown_now["Speed"] == "Unknown!" and shown_now["Link detected"] == "no"
    assert shown_now["Duplex"] == ("Half" if driver == "cdc_ncm" else "Unknown! (255)")


@POSIX
@pytest.mark.parametrize(("driver", "chip"), [("lan78xx", "LAN7800"), ("r8152", "RTL8153")])
def test_a_forced_link_without_a_cable_shows_what_was_forced(
    tmp_path: Path, driver: str, chip: str
) -> None:
    """genphy_read_status -> genphy_read_status_fixed, and mii's AUTONEG_DISABLE branch: BMCR's
    speed and duplex, link or not."""
    forced = {"speed": 100, "duplex": "full"}
    state = with_link(lab_state(tmp_path, driver, chip, "6.1.0-27-arm64"), **NO_CABLE,
                      forced=forced, autoneg=False)  # fmt: skip
    assert _settings(state) == {"Speed": "100Mb/s", "Duplex": "Full", "Link detected": "no"}
    igb = with_link(lab_state(tmp_path, "igb", "I340", "6.1.0-27-arm64"), **NO_CABLE,
                    forced=forced, autoneg=False)  # fmt: skip
    assert _settings(igb)["Speed"] == "Unknown!"  # igb_get_link_ksettings reads the carrier


@POSIX
def test_inspect_of_the_labs_cableless_r8152_claims_no_link_and_no_half_duplex(
    tmp_path: Path,
) -> None:
    """What the product makes of the lab's answer: "Speed: 10Mb/s, Duplex: Half" beside "Link
    detected: no" is no 10 Mbit/s link, and no half-duplex one."""
    state = with_link(lab_state(tmp_path, "r8152", "RTL8153", "6.1.0-27-arm64"), **NO_CABLE)
    bundle = tmp_path / "bundle"
    (bundle / "commands").mkdir(parents=True)
    commands = {}
    for index, argv in enumerate((["eth0"], ["-i", "eth0"])):
        name = f"commands/{index:03d}.txt"
        (bundle / name).write_text(ethtool(state, *argv)[0], encoding="utf-8")
        commands["ethtool " + " ".join(argv)] = name
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "2026-11-30T00:00:00+00:00",
                "host": "", "commands": commands, "files": {},
                "exit_codes": dict.fromkeys(commands, 0)}  # fmt: skip
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    inventory = inspect_bundle(bundle)
    (nic,) = inventory.nics
    assert nic.driver == "r8152" and nic.link_detected is False
    assert nic.link_speed_mbps is None and nic.duplex is None
    ids = {f.id for f in inventory.findings}
    assert not ids & {"half-duplex", "link-below-capability", "duplex-not-reported"}


# --- row 4: `ethtool -i`'s bus-info of a driver whose get_drvinfo writes none -----------------


def _bus_info(tmp_path: Path, kernel: str) -> dict[str, str]:
    """eth0 (bcmgenet, the CM4's own port) and eth1 (igb) as `ethtool -i` shows them."""
    profile = load_profile(profile_copy(tmp_path, "cm4-i340-igb", kernel or "none",
                                        kernel=kernel or None))  # fmt: skip
    state = build_state(profile)["interfaces"]
    return {name: show_info(name, state[name]).split("bus-info: ")[1].split("\n")[0]
            for name in ("eth0", "eth1")}  # fmt: skip


def test_bcmgenet_shows_its_platform_device_as_bus_info_on_612_only(tmp_path: Path) -> None:
    """6.12's ethtool_get_drvinfo fills an empty bus_info with dev_name(parent) after the
    driver's get_drvinfo; bcmgenet_get_drvinfo writes only its name; 6.1 leaves it empty."""
    assert _bus_info(tmp_path, "6.12.57+deb13-arm64") == {"eth0": "fd580000.ethernet",
                                                          "eth1": "0000:01:00.0"}  # fmt: skip
    assert _bus_info(tmp_path, "6.1.0-27-arm64")["eth0"] == ""
    assert _bus_info(tmp_path, "")["eth0"] == ""  # either series: not claimed


def test_the_bus_info_fact_is_read_per_series() -> None:
    assert bus_info_from_parent("bcmgenet", "6.12.57+deb13-arm64")
    assert not bus_info_from_parent("bcmgenet", "6.1.0-27-arm64")
    assert not bus_info_from_parent("bcmgenet", "")
    assert not bus_info_from_parent("igb", "6.12.57+deb13-arm64")  # igb_get_drvinfo: pci_name


def test_inspect_names_the_genet_by_the_bus_info_612_shows(tmp_path: Path) -> None:
    """The product reads "fd580000.ethernet" back as the BCM2711's GENET on the platform bus
    (the catalog's platform_names, the name every Pi 4 kernel line gives it)."""
    state = build_state(load_profile(profile_copy(tmp_path, "cm4-i340-igb", "k",
                                                  kernel="6.12.57+deb13-arm64")))  # fmt: skip
    bundle = tmp_path / "bundle"
    (bundle / "commands").mkdir(parents=True)
    (bundle / "commands/000.txt").write_text(show_info("eth0", state["interfaces"]["eth0"]),
                                             encoding="utf-8")  # fmt: skip
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "2026-11-30T00:00:00+00:00",
                "host": "", "commands": {"ethtool -i eth0": "commands/000.txt"}, "files": {},
                "exit_codes": {"ethtool -i eth0": 0}}  # fmt: skip
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    (nic,) = inspect_bundle(bundle).nics
    assert (nic.driver, nic.bus) == ("bcmgenet", "platform")
    assert nic.chip == "Broadcom GENET (BCM2711)"


# --- row 5: a phylib NIC set down on 6.1 shows its last link ---------------------------------

SET_DOWN = {"carrier": False, "speed": "1000", "duplex": "full"}  # sysfs: the last link's


@POSIX
def test_a_phylib_nic_set_down_on_61_shows_its_last_link(tmp_path: Path) -> None:
    """6.1's PHY_HALTED (phy_stop, from lan78xx_stop; smsc95xx_stop likewise, whose lab link
    lines come from a capture) drops only the link: phylib's speed and duplex stay; 6.12's
    resets them to UNKNOWN; a kernel of either series: not claimed."""
    for kernel, shown_now in (("6.1.0-27-arm64", ("1000Mb/s", "Full")),
                              ("6.12.57+deb13-arm64", ("Unknown!", "Unknown! (255)")),
                              ("", ("Unknown!", "Unknown! (255)"))):  # fmt: skip
        state = with_link(lab_state(tmp_path, "lan78xx", "LAN7800", kernel, up=False), **SET_DOWN)
        settings = _settings(state)
        assert (settings["Speed"], settings["Duplex"]) == shown_now, kernel
        assert settings["Link detected"] == "no"
    up = with_link(lab_state(tmp_path, "lan78xx", "LAN7800", "6.1.0-27-arm64", up=True), **SET_DOWN)
    assert _settings(up)["Speed"] == "Unknown!"  # up, no carrier: genphy_read_status


@POSIX
def test_drivers_that_let_go_of_their_phy_show_no_last_link(tmp_path: Path) -> None:
    """r8169 and bcmgenet disconnect the PHY at close (audits 9a, 18: ENODEV/EINVAL), igb
    reads the carrier: none of them shows a speed set down."""
    state = with_link(lab_state(tmp_path, "igb", "I340", "6.1.0-27-arm64", up=False), **SET_DOWN)
    assert _settings(state)["Speed"] == "Unknown!"


# --- row 6: what the other end advertised decides what holds a link below the NIC's best -----


def _one_output_bundle(tmp_path: Path, command: str, capture: Path) -> Path:
    """A bundle holding one real output, as a user pastes it (contract 1: any subset)."""
    bundle = tmp_path / capture.stem
    (bundle / "commands").mkdir(parents=True)
    (bundle / "commands/000.txt").write_text(capture.read_text(encoding="utf-8"), encoding="utf-8")
    manifest = {"format": "sbctune-bundle", "version": 1, "created": "2026-11-30T00:00:00+00:00",
                "host": "", "commands": {command: "commands/000.txt"}, "files": {},
                "exit_codes": {command: 0}}  # fmt: skip
    (bundle / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return bundle


def test_both_ends_advertising_more_than_the_link_points_at_the_cable(tmp_path: Path) -> None:
    """bazzite 5094: a 2.5G NIC whose partner advertises up to 1000baseT/Full linked at 100
    (phylib's lp_advertising, genphy_read_lpa): both ends offer 1000, so the cable (a broken
    pair, a downshift) holds it, not the switch port."""
    capture = CAPTURES / "eno1_rtl_25g_bazzite_5094_excerpt.txt"
    inventory = inspect_bundle(_one_output_bundle(tmp_path, "ethtool eno1", capture))
    (nic,) = inventory.nics
    assert (nic.link_speed_mbps, nic.max_link_speed_mbps, nic.partner_max_mbps) == (100, 2500, 1000)
    (found,) = [f for f in inventory.findings if f.id == "link-below-capability"]
    assert "both ends advertise 1000 Mbit/s, yet the link came up at 100" in found.summary
    assert "broken pair" in found.summary
    assert "Link partner advertised up to 1000Mb/s (eno1)" in found.evidence


def test_a_partner_that_offers_no_more_is_the_limit() -> None:
    """The other end advertises only 10/100 (a Fast Ethernet switch): the port sets the speed."""
    nic = Nic("eth0", driver="lan78xx", bus="usb", link_speed_mbps=100, duplex="full",
              link_detected=True, max_link_speed_mbps=1000, partner_max_mbps=100)  # fmt: skip
    inventory = Inventory(board=Board(), nics=[nic])
    add_static_advice(inventory, Parsed(), load_catalog())
    (found,) = [f for f in inventory.findings if f.id == "link-below-capability"]
    assert "the other end advertises at most 100 Mbit/s" in found.summary
    assert "not the cable" in found.summary


def test_no_partner_modes_keep_the_words_that_name_both() -> None:
    """igb, igc and cdc_ncm never fill lp_advertising: nothing is known of the other end."""
    nic = Nic("eth1", driver="igb", bus="pci", link_speed_mbps=100, duplex="full",
              link_detected=True, max_link_speed_mbps=1000)  # fmt: skip
    inventory = Inventory(board=Board(), nics=[nic])
    add_static_advice(inventory, Parsed(), load_catalog())
    (found,) = [f for f in inventory.findings if f.id == "link-below-capability"]
    assert found.summary.endswith("the cable or the switch port limits it.")
