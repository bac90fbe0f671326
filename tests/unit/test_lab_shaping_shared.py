"""The lab's shared limits held by the kernel (sbctune.lab.shaping_shared): the tc commands that
build them, the controller's re-rating of a member's leaf (never the cap), and `lab status`'s
reading of real `tc -s class` outputs (tests/captures/tc_class, taken on this machine's lab).
No lab needed: commands are recorded, not run."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.lab import controller, netns, shaping, shaping_shared, system, teardown
from sbctune.lab.errors import ProfileError
from sbctune.lab.model import LabInfo, NicInfo
from sbctune.lab.profile import load_profile, shipped_profiles
from sbctune.lab.shaping import shape_for
from sbctune.lab.shared_status import reading
from sbctune.lab.system import Result

DATA = Path(__file__).parent / "data"
CAPTURES = Path(__file__).parents[1] / "captures" / "tc_class"
IGB = "cm4-i340-igb"


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """Every command the shaping modules run, in order (each succeeds)."""
    calls: list[list[str]] = []

    def fake_run(argv: Any, **kw: Any) -> Result:
        calls.append(list(argv))
        return Result(tuple(argv), 0, "", "")

    for module in (shaping, shaping_shared, system):
        monkeypatch.setattr(module, "run", fake_run)
        monkeypatch.setattr(module, "tool", lambda name: name)
    return calls


def _nics(profile: Any, index: int = 0) -> tuple[NicInfo, ...]:
    nics = []
    for j, spec in enumerate(profile.interfaces):
        host, pi = netns.addresses(index, j)
        nics.append(
            NicInfo(spec.name, pi, host, 24, netns.host_veth(index, j), spec.test,
                    netns.ifb_name(index, j))
        )  # fmt: skip
    return shaping_shared.named(nics, profile.shared_limits, index)


def _shape(profile: Any) -> None:
    shaping_shared.shape_lab(_nics(profile), profile.interfaces, profile.shared_limits, 0)


def test_profiles_without_a_shared_limit_get_the_same_tc_commands(
    recorded: list[list[str]],
) -> None:
    # The commands main's shaping.apply ran (commit f9924add) for every shipped profile without
    # a shared limit, NIC j on sbct0n<j>/sbct0i<j>, then pi4-ax88179's eth0 with 5 ms delay and
    # 0.5 % loss: recorded by the same fake `run`, stored in data/.
    pinned = json.loads((DATA / "lab_tc_commands_no_shared_limit.json").read_text(encoding="utf-8"))
    names = [n for n in shipped_profiles() if not load_profile(n).shared_limits]
    assert names == ["cm4-i340-nodriver", "cm4-rtl8125b-r8169", "pi1b-smsc95xx",
                     "pi3bplus-lan78xx", "pi4-ax88179", "pi4-rtl8153", "pi5-macb"]  # fmt: skip
    for name in names:
        _shape(load_profile(name))
    prof = load_profile("pi4-ax88179")
    delayed = dataclasses.replace(prof.interfaces[0].link, delay_ms=5.0, loss_pct=0.5)
    spec = dataclasses.replace(prof.interfaces[0], link=delayed)
    shaping_shared.shape_lab(_nics(prof)[:1], [spec], (), 0)
    assert recorded == pinned


def _of(cmds: list[list[str]], *words: str) -> list[list[str]]:
    return [c for c in cmds if all(w in c for w in words)]


def _value(argv: list[str], key: str) -> str:
    return argv[argv.index(key) + 1]


def _class(cmds: list[list[str]], dev: str, classid: str) -> list[str]:
    (found,) = [c for c in _of(cmds, "class", dev) if _value(c, "classid") == classid]
    return found


def test_a_shared_limit_is_one_htb_tree_per_direction_that_caps_its_members(
    recorded: list[list[str]],
) -> None:
    profile = load_profile(IGB)
    _shape(profile)
    cap = shape_for(3060, profile.interfaces[0].link).rate_kbit
    own = shape_for(940, profile.interfaces[0].link).rate_kbit
    share = shape_for(3060 / 4, profile.interfaces[0].link).rate_kbit
    # One IFB per direction, and no NIC's own IFB or host-veth HTB: nothing shapes outside it.
    assert [c[3] for c in _of(recorded, "link", "add")] == ["sbct0s0", "sbct0s1"]
    assert not _of(recorded, "root", "htb", "sbct0n0") and not _of(recorded, "ingress", "ffff:")
    for dev, ends in (("sbct0s0", "src"), ("sbct0s1", "dst")):
        top = _class(recorded, dev, "1:1")
        assert _value(top, "rate") == _value(top, "ceil") == f"{cap}kbit"
        assert _value(top, "parent") == "1:"
        for j in range(4):
            leaf = _class(recorded, dev, f"1:1{j}")
            assert _value(leaf, "parent") == "1:1"  # under the cap
            assert (_value(leaf, "rate"), _value(leaf, "ceil")) == (f"{share}kbit", f"{own}kbit")
            ack = _class(recorded, dev, f"1:2{j}")
            assert _value(ack, "parent") == "1:"  # outside the cap
            data, small = _of(recorded, "filter", dev, f"198.18.{j}.0/24")[::-1]
            assert _value(data, ends) == f"198.18.{j}.0/24" and _value(data, "flowid") == f"1:1{j}"
            assert _value(small, "flowid") == f"1:2{j}" and "0xff80" in small
    for j in range(4):
        veth = f"sbct0n{j}"
        assert [veth, "clsact"] == _of(recorded, "qdisc", veth)[0][4:]
        (up,) = [c for c in _of(recorded, "filter", veth) if c[5] == "ingress"]
        (down,) = [c for c in _of(recorded, "filter", veth) if c[5] == "egress"]
        assert (up[-1], down[-1]) == ("sbct0s0", "sbct0s1")
        assert up[-4:-1] == down[-4:-1] == ["egress", "redirect", "dev"]


def test_a_member_direction_no_limit_caps_keeps_its_own_shaping(
    recorded: list[list[str]], tmp_path: Path
) -> None:
    folder = _profile_with(tmp_path, 'interfaces = ["eth0", "eth1"]\npc_to_pi_mbps = 1000')
    profile = load_profile(folder)
    _shape(profile)
    # eth2, in no limit, first (as shaping.apply does it); then the limit's IFB, then eth0's
    # and eth1's own IFBs for the Pi->PC direction the limit leaves alone.
    links = [c[3] for c in _of(recorded, "link", "add")]
    assert links == ["sbct0i2", "sbct0s1", "sbct0i0", "sbct0i1"]
    for j in range(2):
        (up,) = [c for c in _of(recorded, "filter", f"sbct0n{j}") if c[5] == "ingress"]
        assert up[-1] == f"sbct0i{j}"  # Pi->PC through its own IFB's HTB, as before
        assert _of(recorded, "class", f"sbct0i{j}", "1:10")


def _profile_with(tmp_path: Path, table: str) -> Path:
    from sbctune.inventory.bundle import write_bundle

    folder = tmp_path / "p"
    write_bundle(folder, "h", {}, {})
    iface = ('[[interface]]\nname = "{}"\n[interface.link]\nlink_speed_mbps = 1000\n'
             "pi_to_pc_mbps = 900\npc_to_pi_mbps = 900\n")  # fmt: skip
    (folder / "lab.toml").write_text(
        "[cpu]\ncount = 4\n" + iface.format("eth0") + iface.format("eth1")
        + iface.format("eth2") + "[[shared_limit]]\n" + table + "\n",
        encoding="utf-8",
    )  # fmt: skip
    return folder


def test_a_nic_in_two_limits_of_one_direction_is_refused(tmp_path: Path) -> None:
    table = ('interfaces = ["eth0", "eth1"]\npc_to_pi_mbps = 1000\n[[shared_limit]]\n'
             'interfaces = ["eth1", "eth2"]\npc_to_pi_mbps = 1000')  # fmt: skip
    with pytest.raises(ProfileError) as caught:
        load_profile(_profile_with(tmp_path, table))
    assert "eth1 already in another limit's pc_to_pi_mbps" in caught.value.message


@given(st.lists(st.floats(1, 5000), min_size=2, max_size=4), st.floats(100, 10000))
def test_leaves_guarantee_at_most_the_cap_and_keep_their_own_ceilings(
    own: list[float], cap: float
) -> None:
    rates = shaping_shared.leaf_rates({f"eth{j}": v for j, v in enumerate(own)}, cap)
    assert sum(r for r, _ in rates.values()) <= min(cap, sum(own)) * (1 + 1e-9)
    for j, v in enumerate(own):
        rate, ceil = rates[f"eth{j}"]
        assert ceil == v and rate <= v


def test_the_controller_moves_a_members_leaf_never_the_cap(recorded: list[list[str]]) -> None:
    profile = load_profile(IGB)
    (up, down) = shaping_shared.plan(profile.shared_limits, [i.name for i in profile.interfaces], 0)
    links = {i.name: i.link for i in profile.interfaces}
    limit = controller.Limit(down, links)
    own = {n: (940.0, 940.0) for n in links}
    limit.apply(own)
    recorded.clear()
    limit.apply(own)
    assert recorded == []  # nothing changed: nothing re-rated
    limit.apply({**own, "eth2": (940.0, 500.0)})  # a tweak's effect on eth2's PC->Pi
    assert recorded and all(c[1:3] == ["class", "change"] for c in recorded)
    assert "1:1" not in [_value(c, "classid") for c in recorded]  # the cap stays
    eth2 = _class(recorded, "sbct0s1", "1:12")
    assert _value(eth2, "ceil") == f"{shape_for(500, links['eth2']).rate_kbit}kbit"
    assert up.dev == "sbct0s0" and down.dev == "sbct0s1"


def _capture(name: str) -> str:
    assert (CAPTURES / "README.source.md").exists()
    return (CAPTURES / name).read_text(encoding="utf-8")


LEAVES = {f"eth{j}": f"1:1{j}" for j in range(4)}


def test_the_kernel_holds_the_rates_the_builder_asks_for(recorded: list[list[str]]) -> None:
    # Real `tc -s class` of the lab's Pi->PC IFB: each rate tc was given is the one it shows.
    profile = load_profile(IGB)
    _shape(profile)
    text = _capture("cm4-i340-igb_pi_to_pc_idle.txt")
    for argv in _of(recorded, "class", "sbct0s0"):
        kbit = {int(_value(argv, k)[: -len("kbit")]) for k in ("rate", "ceil")}
        shown = next(line for line in text.splitlines() if f" {_value(argv, 'classid')} " in line)
        for value in kbit:
            assert f"{value}Kbit" in shown or f"{value // 1000}Mbit" in shown, (argv, shown)


def test_status_reads_the_cap_what_passes_and_the_members_held() -> None:
    four = reading("sbct0s0", "pi_to_pc", LEAVES, _capture("cm4-i340-igb_pi_to_pc_four_ports.txt"))
    assert four.cap_mbps == pytest.approx(3060, rel=0.001)
    assert four.passing_mbps == pytest.approx(3023 * 1448 / 1514, rel=0.001)
    assert four.held == ["eth0", "eth1", "eth2", "eth3"]
    assert all(ceil == pytest.approx(940, rel=0.001) for ceil, _ in four.members.values())
    line = four.line()
    assert "cap 3060 Mbit/s" in line and "held by the cap: eth0, eth1, eth2, eth3" in line
    down = reading("sbct0s1", "pc_to_pi", LEAVES, _capture("cm4-i340-igb_pc_to_pi_four_ports.txt"))
    assert down.held == ["eth0", "eth1", "eth2", "eth3"]
    two = reading("sbct0s0", "pi_to_pc", LEAVES, _capture("cm4-i340-igb_pi_to_pc_two_ports.txt"))
    assert two.held == [] and two.passing_mbps is not None and two.passing_mbps < 0.9 * 3060
    idle = reading("sbct0s0", "pi_to_pc", LEAVES, _capture("cm4-i340-igb_pi_to_pc_idle.txt"))
    assert idle.held == [] and idle.passing_mbps is not None and idle.passing_mbps < 1
    assert reading("x", "pi_to_pc", LEAVES, "garbage\n").problem == "no cap class 1:1 on x"


def test_a_labs_nic_keys_it_does_not_know_are_skipped() -> None:
    # Another checkout's running lab wrote a NicInfo field this one lacks: `lab list` (and
    # every lab test's crashed-lab sweep) read it.
    nic = {"name": "eth0", "pi_addr": "198.18.0.2", "host_addr": "198.18.0.1", "prefix": 24,
           "host_veth": "sbct0n0", "ifb": "sbct0i0", "queue_model": "new"}  # fmt: skip
    info = LabInfo.from_json(
        {"name": "x", "host": "198.18.0.2", "port": 22, "user": "pi", "password": "p",
         "nics": [nic], "profile": "p", "netns": "sbctune-x", "state_dir": "/tmp", "later": 1}
    )  # fmt: skip
    assert info.nics[0].ifb == "sbct0i0" and info.nics[0].shaper("pc_to_pi") == ("sbct0n0", "1:10")


@pytest.mark.posix_only("the lab's teardown looks for Linux's ip before it lists links")
def test_teardown_removes_a_labs_shared_ifbs(monkeypatch: pytest.MonkeyPatch) -> None:
    deleted: list[str] = []
    links = ["sbct3n0", "sbct3s0", "sbct3s1", "sbct13s0", "eth0"]
    monkeypatch.setattr(netns, "run", lambda argv, **kw: Result(tuple(argv), 0, json.dumps(
        [{"ifname": name} for name in links]), ""))  # fmt: skip
    monkeypatch.setattr(netns, "delete_link", deleted.append)
    assert teardown._remove_links({"index": 3, "nics": []})
    assert deleted == ["sbct3n0", "sbct3s0", "sbct3s1"]
