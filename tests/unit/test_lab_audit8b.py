"""Audit 8b (resources/tuning/driver_caps_audit8b.md): the rows fixed in the shared data and the
lab, each checked as the user would see it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.lab import fake_ethtool_shown
from sbctune.remote import batch
from sbctune.remote.batch import StepResult
from sbctune.tuning import catalog, driver_caps
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts, Read
from tests.fake_ethtool_support import ethtool, lab_state

CAPTURES = Path(__file__).resolve().parents[1] / "captures"
POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _carrier(path: str, up: bool) -> None:
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    data["interfaces"]["eth0"]["link"].update(carrier=up, speed="2500", duplex="full")
    Path(path).write_text(json.dumps(data), encoding="utf-8")


def _front(path: str, option: str) -> str:
    """What the lab's shell front (ethtool_state.front_text) prints for `ethtool OPTION eth0`:
    the shown file's answer, or the model's where the file says so."""
    shown = (
        Path(path).parent
        / fake_ethtool_shown.SHOWN_DIR
        / fake_ethtool_shown.shown_name(option, "eth0")
    )
    code, _, body = shown.read_text(encoding="utf-8").partition("\n")
    if code in (fake_ethtool_shown.MODEL, fake_ethtool_shown.CAPTURE):
        return ethtool(path, option, "eth0")[0]
    return body


@POSIX
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.25+rpt-rpi-v8"])
def test_r8169_pause_shown_after_lab_up_is_the_links_resolution(
    tmp_path: Path, kernel: str
) -> None:
    """Row 1: rtl8169_get_pauseparam reports phy_get_pause, the resolution of the PHY's
    advertisement (phy_support_asym_pause: Pause and Asym_Pause) with the partner's: RX and TX on
    over a full-duplex link. The lab wrote its shown `-a` at install, outside the lab's namespace
    where the interface has no carrier, and the first `ethtool -a` of a fresh r8169 lab said
    RX off, TX off until a `-A` rewrote it."""
    path = lab_state(tmp_path, "r8169", "RTL8125B", kernel)
    (tmp_path / fake_ethtool_shown.SHOWN_DIR).mkdir()
    _carrier(path, False)  # the install: no carrier where it runs
    fake_ethtool_shown.write_shown(path, json.loads(Path(path).read_text(encoding="utf-8")))
    _carrier(path, True)  # the lab's link, as the Pi's user reads it
    out = _front(path, "-a")
    assert "RX:\t\ton\nTX:\t\ton\n" in out
    assert "RX negotiated: on\nTX negotiated: on\n" in out  # netlink pause_autoneg_cb: a space
    _carrier(path, False)  # the cable out: phy_get_pause without a full-duplex link reads none
    assert "RX:\t\toff\nTX:\t\toff\n" in _front(path, "-a")


@pytest.mark.parametrize(
    ("chip", "top"),
    [
        ("allwinner,sun8i-h3-emac", 3774),  # armhf: Cortex-A7, 32-bit skb_shared_info
        ("allwinner,sun8i-r40-gmac", 3774),
        ("allwinner,sun50i-a64-emac", 3710),  # arm64
        ("allwinner,sun50i-h5-emac", 3710),
        ("allwinner,sun50i-h6-emac", 3710),
    ],
)
@pytest.mark.parametrize("kernel", ["6.1", "6.12"])
def test_allwinner_emac_max_mtu_is_under_a_page(chip: str, top: int, kernel: str) -> None:
    """Row 2: dwmac-sun8i's EMAC has no DMA HW feature register (sun8i_dwmac_dma_ops has no
    get_hw_feature, so stmmac_hw_init leaves plat->enh_desc 0) and sun8i_dwmac_setup sets
    synopsys_id 0: stmmac_dvr_probe gives max_mtu SKB_MAX_HEAD(NET_SKB_PAD + NET_IP_ALIGN), not
    JUMBO_LEN 9000. An MTU of 3800 is under the 4096-byte TX FIFO the table knew, and the kernel
    refuses it ("mtu greater than device maximum", dev_validate_mtu)."""
    caps = driver_caps.caps("stmmac", kernel, chip)
    assert caps is not None
    assert caps.mtu_max(chip) == top
    found = Facts("eth0")
    found.knobs["/sys/class/net/eth0/mtu"] = Read(True, "1500")
    tweak = catalog.tweak("mtu-jumbo")
    nic = Nic("eth0", driver="stmmac", chip=chip)
    inventory = Inventory(board=Board(kernel=f"{kernel}.0-arm64"), nics=[nic])
    options = {"path_supports_jumbo": True, "mtu": 3800}
    item = PLANNERS[tweak.kind](Context(tweak, found, inventory, nic, options, {}, ("mtu-jumbo",)))
    assert not item.applicable
    assert f"allows an MTU of at most {top}" in item.reason, item.reason  # the chip's, cited


@POSIX
@pytest.mark.parametrize("chip", ["RTL8126A", "RTL8126 5GbE Controller", "RTL8125D"])
def test_rtl8126_coalescing_is_refused_as_the_rtl8125s_on_612(tmp_path: Path, chip: str) -> None:
    """Row 3: 6.12's r8169 binds the RTL8126A (5 GbE: rtl_chip_infos VER_65, VER_66) and the
    RTL8125D (VER_64), and rtl_get_coalesce/rtl_set_coalesce refuse every chip rtl_is_8125 names
    (mac_version >= RTL_GIGA_MAC_VER_61) with EOPNOTSUPP. The table named only "RTL8125", so an
    RTL8126 got irq-coalescing planned and the lab answered `ethtool -c`."""
    path = lab_state(tmp_path, "r8169", chip, "6.12.25+rpt-rpi-2712")
    out, err, code = ethtool(path, "-c", "eth0")
    assert (out, code) == ("", 1) and err == ["netlink error: Operation not supported"]
    found = Facts("eth0")
    coalesce = (CAPTURES / "ethtool_c/tuned_726_enp1s0.txt").read_bytes()  # a chip that has it
    found.steps["ethtool -c"] = StepResult(batch.Step(("true",), "ethtool -c"), 0, coalesce, b"")
    tweak = catalog.tweak("irq-coalescing")
    nic = Nic("eth0", driver="r8169", chip=chip)
    inventory = Inventory(board=Board(kernel="6.12.25+rpt-rpi-2712"), nics=[nic])
    ctx = Context(tweak, found, inventory, nic, {}, {}, ("irq-coalescing",))
    item = PLANNERS[tweak.kind](ctx)
    assert not item.applicable and "EOPNOTSUPP" in item.reason, item.reason


@POSIX
@pytest.mark.parametrize(
    "chip", ["allwinner,sun8i-h3-emac", "allwinner,sun50i-a64-emac", "allwinner,sun7i-a20-gmac"]
)
@pytest.mark.parametrize("kernel", ["6.1.0-31-arm64", "6.12.25+rpt-rpi-v8"])
def test_allwinner_stmmac_channels_have_no_maximum(tmp_path: Path, chip: str, kernel: str) -> None:
    """Row 6: stmmac_get_channels' maxima are dma_cap.number_rx/tx_queues, which only the GMAC4
    and XGMAC get_hw_feature fill: dwmac-sun8i has no get_hw_feature at all, dwmac-sunxi's A20
    (has_gmac) reads dwmac1000_get_hw_feature, which leaves them 0. channels_fill_reply sends a
    count only with a non-zero maximum, so `ethtool -l` is n/a throughout and `-L rx 2` exceeds
    the maximum. The lab showed RX 1 TX 1."""
    path = lab_state(tmp_path, "stmmac", chip, kernel)
    out, err, code = ethtool(path, "-l", "eth0")
    assert (err, code) == ([], 0)
    assert "RX:\t\t1" not in out and "TX:\t\t1" not in out
    assert out.count("RX:\t\tn/a") == 2 and out.count("TX:\t\tn/a") == 2
    out, err, code = ethtool(path, "-L", "eth0", "rx", "2")
    assert code == 1 and err[0].startswith("netlink error: requested channel count exceeds")
