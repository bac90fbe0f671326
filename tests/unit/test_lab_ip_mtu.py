"""The lab's `ip` answers the MTU as the imitated driver's kernel does (driver_caps_audit3a.md
rows 3 and 4): `ip -d link` shows the driver's max_mtu, not the veth's 65535, and an MTU above
it is refused with the kernel's words (dev_validate_mtu, EINVAL); macb refuses any change while
up (macb_change_mtu, EBUSY). Every other call reaches the real ip unchanged."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from sbctune.lab import ip_front, ip_model, load_profile
from sbctune.tuning import driver_caps

pytestmark = pytest.mark.posix_only("the lab's ip front is a shell script")

VETH = [{"ifindex": 2, "ifname": "eth0", "mtu": 1500, "min_mtu": 68, "max_mtu": 65535},
        {"ifindex": 3, "ifname": "eth1", "mtu": 1500, "min_mtu": 68, "max_mtu": 65535}]  # fmt: skip
TEXT = ("2: eth0@if9: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP\n"
        "    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff link-netnsid 0 promiscuity 0 "
        "minmtu 68 maxmtu 65535\n")  # fmt: skip


def front(tmp_path: Path, profile: str) -> Path:
    """The lab's ip installed as `lab up` does, in front of a stand-in for the real ip that
    prints a veth's answer (what the lab's real ip says) or the arguments it got."""
    real = tmp_path / "real-ip"
    real.write_text(
        "#!/bin/sh\n"
        f"case \"$*\" in *-j*) echo '{json.dumps(VETH, separators=(',', ':'))}' ;;\n"
        f"  *-d*) printf '%s' '{TEXT}' ;;\n"
        '  *) echo "real ip: $*" ;; esac\n',
        encoding="utf-8",
    )
    real.chmod(0o755)
    assert ip_front.install(load_profile(profile), tmp_path, tmp_path, str(real))
    return tmp_path / "ip"


def ip(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(path), *args], capture_output=True, text=True, check=False)


def test_ip_shows_the_drivers_max_mtu_and_refuses_more(tmp_path: Path) -> None:
    lab_ip = front(tmp_path, "pi1b-smsc95xx")  # smsc95xx_bind: max_mtu = ETH_DATA_LEN
    shown = json.loads(ip(lab_ip, "-d", "-j", "link", "show", "dev", "eth0").stdout)
    assert shown[0]["max_mtu"] == 1500 and shown[1]["max_mtu"] == 65535  # eth1: not modelled
    assert "maxmtu 1500\n" in ip(lab_ip, "-d", "link", "show", "dev", "eth0").stdout
    refused = ip(lab_ip, "link", "set", "dev", "eth0", "mtu", "9000")
    assert refused.returncode == 2
    assert refused.stderr == "Error: mtu greater than device maximum.\n"
    taken = ip(lab_ip, "link", "set", "dev", "eth0", "mtu", "1400")
    assert taken.returncode == 0 and taken.stdout == "real ip: link set dev eth0 mtu 1400\n"
    assert ip(lab_ip, "-j", "addr").stdout.startswith("[")  # untouched
    edom = ip(lab_ip, "link", "set", "dev", "eth0", "mtu", "998")  # usbnet: 998 + 26 = 2 * 512
    assert edom.returncode == 2
    assert edom.stderr == "RTNETLINK answers: Numerical argument out of domain\n"


def test_the_rtl8153s_jumbo_frames_and_the_lab_planner(tmp_path: Path) -> None:
    lab_ip = front(tmp_path, "pi4-rtl8153")  # eth1 RTL8153: 9194; eth0 bcmgenet: 1500
    shown = {d["ifname"]: d["max_mtu"] for d in json.loads(ip(lab_ip, "-d", "-j", "link").stdout)}
    assert shown == {"eth0": 1500, "eth1": 9194}
    assert ip(lab_ip, "link", "set", "dev", "eth1", "mtu", "9000").returncode == 0


def test_macb_refuses_a_new_mtu_while_up(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = ip_front.limits(load_profile("pi5-macb"))
    # its max is the platform's caps: RP1's (MACB_CAPS_JUMBO, 10240) in the Raspberry Pi tree
    assert limits["eth0"]["max"] == 10222 and limits["eth0"]["busy_when_up"] is True
    assert limits["eth0"]["sizes"]["tso_max_size"] == 65536  # macb_probe sets no TSO limit
    monkeypatch.setattr(ip_model, "_is_up", lambda name: True)
    monkeypatch.setattr(ip_model, "_mtu_now", lambda name: 1500)
    said = ip_model.refusal(limits, "eth0", 9000)
    assert said == "RTNETLINK answers: Device or resource busy\n"
    assert ip_model.refusal(limits, "eth0", 1500) is None  # no change: not refused
    monkeypatch.setattr(ip_model, "_is_up", lambda name: False)
    assert ip_model.refusal(limits, "eth0", 9000) is None


def test_the_pi5s_macb_shows_rp1s_max_mtu_not_the_veths(tmp_path: Path) -> None:
    """driver_caps_audit4a.md row 2: RP1's macb_config has MACB_CAPS_JUMBO and jumbo_max_len
    10240, so macb_probe's max_mtu is 10240 - 14 - 4 = 10222 (Raspberry Pi tree). Before, the
    pi5-macb lab's `ip -d link` showed the veth's 65535 (kinder than the kernel)."""
    lab_ip = front(tmp_path, "pi5-macb")
    shown = json.loads(ip(lab_ip, "-d", "-j", "link", "show", "dev", "eth0").stdout)
    assert shown[0]["max_mtu"] == 10222


def test_ip_shows_the_drivers_tso_and_gso_limits_not_the_veths(tmp_path: Path) -> None:
    """r8169_main.c rtl_init_one: an RTL8125 (csum v2) gets netif_set_tso_max_size(64000) and
    _segs(64), which lower gso_max_size/segs too (net/core/dev.c netif_set_tso_max_size); the
    bcmgenet beside it is not this audit's and keeps the veth's line. A veth says 524280."""
    veth = (
        "2: eth1@if9: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP\n"
        "    link/ether 02:00:00:00:00:01 brd ff:ff:ff:ff:ff:ff promiscuity 0 minmtu 68 "
        "maxmtu 65535\n    veth addrgenmode none numtxqueues 1 numrxqueues 1 gso_max_size 65536 "
        "gso_max_segs 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536\n"
    )
    limits = ip_front.limits(load_profile("cm4-rtl8125b-r8169"))
    shown = ip_model.shown(veth, limits, as_json=False)
    assert "gso_max_size 64000 gso_max_segs 64 tso_max_size 64000 tso_max_segs 64 " in shown
    assert "gro_max_size 65536" in shown and "maxmtu 9194" in shown
    as_json = [{"ifname": "eth1", "gso_max_size": 65536, "gso_max_segs": 65535,
                "tso_max_size": 524280, "tso_max_segs": 65535, "gro_max_size": 65536}]  # fmt: skip
    got = json.loads(ip_model.shown(json.dumps(as_json), limits, as_json=True))[0]
    assert (got["tso_max_size"], got["tso_max_segs"], got["gso_max_size"]) == (64000, 64, 64000)


def test_a_driver_that_sets_no_tso_limit_shows_the_kernels_default(tmp_path: Path) -> None:
    """igb_probe calls no netif_set_tso_max_size: alloc_netdev_mqs's TSO_LEGACY_MAX_SIZE
    65536; an RTL8168b (no csum v2) gets RTL_GSO_MAX_SIZE_V1 32000 in 24 segments."""
    igb_caps, rtl_caps = driver_caps.caps("igb"), driver_caps.caps("r8169")
    assert igb_caps is not None and rtl_caps is not None
    igb = ip_front.tso_sizes(igb_caps, "82580")
    assert igb["tso_max_size"] == 65536 and igb["gso_max_size"] == 65536
    old = ip_front.tso_sizes(rtl_caps, "RTL8168b/8111b")
    assert (old["tso_max_size"], old["tso_max_segs"], old["gso_max_segs"]) == (32000, 24, 24)
