"""Classes that the fifty-sixth unseen set (vendor BSP kernels and their drivers: Rockchip,
Allwinner, SpacemiT, StarFive, T-Head, Nvidia L4T boards with bcmdhd, aic8800, sprdwl_ng,
Realtek's vendor SDIO drivers; tests/captures/corpus/bsp56_*) showed misread. Every output here
is one of those bundles' (named beside it, with its SOURCE.md); the corpus test checks whole
bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from sbctune.inventory.parsers.netif import parse_ifconfig
from tests.corpus_support import CORPUS, findings_of

_MINIARCH = "bsp56_zero3w_miniarch_85_aicwf_sdio_lshw_ifconfig_rx_dropped"


def _stored(bundle: str, command: str) -> str:
    (path,) = (CORPUS / bundle / "commands").glob(f"*-{command}.txt")
    return path.read_text(encoding="utf-8")


# --- ifconfig's flags printed as a negative number ------------------------------------------


def test_ifconfig_negative_flags_header_is_read() -> None:
    """net-tools prints "flags=%d<" of struct interface's `short flags` (lib/interface.c
    ife_print_long()): with IFF_DYNAMIC (0x8000) set the number is negative. The ZERO 3W's
    wlan0 header is `wlan0: flags=-28605<UP,BROADCAST,RUNNING,MULTICAST,DYNAMIC>  mtu 1500`."""
    text = _stored(_MINIARCH, "ifconfig")
    assert text.startswith("wlan0: flags=-28605<UP,BROADCAST,RUNNING,MULTICAST,DYNAMIC>")
    parsed, _warnings = parse_ifconfig(text)
    (iface,) = parsed.interfaces
    assert iface.name == "wlan0"
    assert "DYNAMIC" in iface.flags and iface.mtu == 1500
    assert (iface.rx_packets, iface.rx_dropped) == (73574, 12762)


def test_miniarch_wlan0_is_the_aicwf_sdio_nic_with_its_drops() -> None:
    """What the user sees: wlan0 is the SDIO Wi-Fi lshw places at mmc2:390b:1 on aicwf_sdio,
    and its 17 % dropped receive packets are a finding."""
    inv = inspect_bundle(CORPUS / _MINIARCH)
    (nic,) = [n for n in inv.nics if n.name == "wlan0"]
    assert (nic.driver, nic.bus, nic.bus_path) == ("aicwf_sdio", "sdio", "mmc2:390b:1")
    assert findings_of(inv, "interface-errors")
