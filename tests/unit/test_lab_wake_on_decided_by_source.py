"""Wake-on-LAN lines of the lab's ``ethtool IFACE`` where the driver's source decides them
(issue 21, driver_caps_audit7b.md rows 4 and 5).

- r8169 (6.1 and 6.12): ``rtl8169_get_wol`` sets ``wol->supported = WAKE_ANY`` (r8169's own
  ``#define WAKE_ANY (WAKE_PHY | WAKE_MAGIC | WAKE_UCAST | WAKE_BCAST | WAKE_MCAST)``: "pumbg")
  and ``wol->wolopts = tp->saved_wolopts``, which nothing sets before ``rtl8169_set_wol`` (the
  private area is zeroed: "d"). No ``device_can_wakeup`` is asked. The lab left both lines out.
- Any driver with ``get_wol`` (igb, igc, r8169, atlantic, stmmac, asix, ...): ethtool 6.1's
  ``ethtool IFACE`` sends WOL_GET, which needs CAP_NET_ADMIN (net/ethtool/netlink.c), so a user
  without it gets "netlink error: Operation not permitted" whether or not the lab can say what
  the chip supports; the lab printed it only where it shows the Wake-on lines.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sbctune.lab import fake_ethtool
from sbctune.lab.ethtool_state import build_state
from sbctune.lab.profile import load_profile

POSIX = pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")


def _state(tmp_path: Path, profile: str) -> str:
    state = build_state(load_profile(profile))
    for dev in state["interfaces"].values():
        if dev.get("link"):
            dev["link"].update(carrier=True, speed="1000", duplex="full")
    path = tmp_path / "state.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return str(path)


@POSIX
def test_r8169_shows_pumbg_and_d_and_takes_only_those(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 0)
    path = _state(tmp_path, "cm4-rtl8125b-r8169")
    out, _err, code = fake_ethtool.run(["eth1"], path) or ("", [], -1)
    assert code == 0
    assert "\tSupports Wake-on: pumbg\n\tWake-on: d\n" in out
    refused = fake_ethtool.run(["-s", "eth1", "wol", "a"], path)  # WAKE_ARP: not in WAKE_ANY
    assert refused is not None and refused[2] != 0
    assert "netlink error: cannot enable unsupported WoL mode" in refused[1]
    assert fake_ethtool.run(["-s", "eth1", "wol", "g"], path) == ("", [], 0)
    shown = fake_ethtool.run(["eth1"], path)
    assert shown is not None and "\tWake-on: g\n" in shown[0]


@POSIX
@pytest.mark.parametrize(("profile", "ifname"), [("cm4-i340-igb", "eth1"),
                                                 ("cm4-rtl8125b-r8169", "eth1")])  # fmt: skip
def test_a_user_gets_eperm_for_wake_on_wherever_the_driver_has_get_wol(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, profile: str, ifname: str
) -> None:
    monkeypatch.setattr("os.geteuid", lambda: 1000)
    path = _state(tmp_path, profile)
    out, err, code = fake_ethtool.run([ifname], path) or ("", [], -1)
    assert code == 0 and err == ["netlink error: Operation not permitted"]
    assert "Wake-on" not in out and "Link detected: yes" in out


@POSIX
@pytest.mark.parametrize(
    ("driver", "chip", "supported"), [("igc", "I225-V", "pumbg"), ("atlantic", "AQC107", "pg")]
)
def test_wake_on_magic_packets_from_probe(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, driver: str, chip: str, supported: str
) -> None:
    """igc_probe (6.1 and 6.12): "By default, support wake on port A": IGC_FLAG_WOL_SUPPORTED
    is set unconditionally and adapter->wol gets IGC_WUFC_MAG, so igc_ethtool_get_wol reports
    supported pumbg (WAKE_UCAST | WAKE_MCAST | WAKE_BCAST | WAKE_MAGIC | WAKE_PHY) and "g".
    atlantic: aq_ethtool_get_wol reports AQ_NIC_WOL_MODES (WAKE_MAGIC | WAKE_PHY) and cfg->wol,
    which aq_nic_cfg_start sets to AQ_CFG_WOL_MODES (WAKE_MAGIC): "pg" and "g". The lab left
    both lines out, and would have said "d"."""
    from sbctune.lab.ethtool_state import interface_state

    monkeypatch.setattr("os.geteuid", lambda: 0)
    bundle = load_profile("cm4-rtl8125b-r8169").bundle  # no capture of an igc NIC
    iface = interface_state(driver, bundle, "eth0", chip, "", speed_mbps=2500)
    iface["link"].update(carrier=True, speed="2500", duplex="full")
    path = tmp_path / "nic.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    out, _err, code = fake_ethtool.run(["eth0"], str(path)) or ("", [], -1)
    assert code == 0 and f"\tSupports Wake-on: {supported}\n\tWake-on: g\n" in out


@POSIX
@pytest.mark.parametrize("driver", ["igc", "atlantic"])
def test_phyad_is_0_where_the_driver_never_sets_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, driver: str
) -> None:
    """ethtool 6.1 prints LINKINFO's PHYADDR for every driver (net/ethtool/linkinfo.c puts it
    always): igc_ethtool_get_link_ksettings writes hw->phy.addr, which igc never assigns (0);
    aq_ethtool_get_link_ksettings writes none (the zeroed ksettings' 0). Right after "Port:"
    where there is one (ethtool's linkinfo_reply_cb: Port, PHYAD, Transceiver, MDI-X)."""
    from sbctune.lab.ethtool_state import interface_state

    monkeypatch.setattr("os.geteuid", lambda: 0)
    bundle = load_profile("cm4-rtl8125b-r8169").bundle
    iface = interface_state(driver, bundle, "eth0", "", "", speed_mbps=1000)
    iface["link"].update(carrier=True, speed="1000", duplex="full")
    path = tmp_path / "nic.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    out, _err, code = fake_ethtool.run(["eth0"], str(path)) or ("", [], -1)
    assert code == 0 and "\tPHYAD: 0\n" in out
    lines = out.splitlines()
    if "\tPort: Twisted Pair" in lines:
        assert lines[lines.index("\tPort: Twisted Pair") + 1] == "\tPHYAD: 0"
