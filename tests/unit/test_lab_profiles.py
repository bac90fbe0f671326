"""Lab profiles (lab.toml + bundle), the knob formats and the fake commands; no root needed."""

from __future__ import annotations

import errno
import shutil
import subprocess
from pathlib import Path

import pytest

from sbctune.inventory.bundle import read_bundle, write_bundle
from sbctune.lab import (
    ProfileError,
    configs,
    find_profile,
    irq_refusal,
    load_profile,
    shipped_profiles,
)
from sbctune.lab.knobs_fs import (
    CpuFreq,
    Irq,
    build_tree,
    format_list,
    format_mask,
    parse_list,
    parse_mask,
)
from sbctune.lab.netns import BENCH_NET, addresses, host_veth, ifb_name, subnet
from sbctune.lab.overlay import build as build_overlay
from sbctune.lab.shaping import shape_for
from sbctune.resources import resource_root

SHIPPED = ["cm4-i340-nodriver", "cm4-rtl8125b-r8169", "pi1b-smsc95xx", "pi4-ax88179", "pi4-rtl8153"]
# shared/ sits beside the work tree (the clone), as in CI.
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def test_all_five_profiles_ship_and_parse() -> None:
    assert set(SHIPPED) <= set(shipped_profiles())
    for name in SHIPPED:
        profile = load_profile(name)
        assert profile.name == name
        assert (profile.path / "SOURCE.md").is_file()
        assert profile.test_interface.link.goodput_mbps("pi_to_pc")
        assert profile.description


def test_pi4_ax88179() -> None:
    profile = load_profile("pi4-ax88179")
    lsusb = profile.bundle.command("lsusb -t")
    assert lsusb is not None and "Driver=ax88179_178a, 5000M" in lsusb
    assert profile.cpu.count == 4
    # xhci_hcd (46, the profile's) and the GIC's per-CPU lines (vgic, arch_timer, kvm guest
    # vtimer: gic_irq_domain_map) and the PMU's, pinned (arm-pmu: armpmu_request_irq; audit
    # 36a); bcmgenet's 38 and 39 move
    assert profile.irq_refuse == (46, 9, 11, 12, 33, 34, 35, 36)
    assert 46 in profile.irqs and 38 in profile.irqs
    eth1 = profile.test_interface
    assert eth1.name == "eth1" and eth1.xps_enoent
    assert (eth1.link.pi_to_pc_mbps, eth1.link.pc_to_pi_mbps) == (736, 949)
    assert [i.name for i in profile.interfaces] == ["eth1", "eth0"]
    assert profile.bundle.file("/proc/device-tree/model") is None  # not captured: left out
    assert profile.tweak_effects and profile.tweak_effects[0].effects["pi_to_pc_mbps"] == 834


def test_other_profiles_key_facts() -> None:
    rtl = load_profile("pi4-rtl8153")
    assert "Driver=r8152, 5000M" in (rtl.bundle.command("lsusb -t") or "")
    assert (rtl.test_interface.link.pi_to_pc_mbps, rtl.test_interface.link.pc_to_pi_mbps) == (
        949,
        933,
    )
    pi1 = load_profile("pi1b-smsc95xx")
    assert "Speed: 100Mb/s" in (pi1.bundle.command("ethtool eth0") or "")
    assert "Driver=smsc95xx, 480M" in (pi1.bundle.command("lsusb -t") or "")
    assert pi1.cpu.count == 1
    assert pi1.test_interface.link.pi_to_pc_mbps == 94
    cm4 = load_profile("cm4-rtl8125b-r8169")
    # the seed printed nothing; its /proc/cpuinfo is a real CM4's (walk 25, SOURCE.md "Board")
    assert cm4.bundle.commands == {} and list(cm4.bundle.files) == ["/proc/cpuinfo"]
    assert cm4.test_interface.link.pi_to_pc_mbps == 1880
    i340 = load_profile("cm4-i340-nodriver")
    assert (i340.bundle.command("lspci") or "").count("82580 Gigabit Network Connection") == 4
    assert "BAR 0: assigned" in (i340.bundle.command("dmesg") or "")
    assert [i.name for i in i340.interfaces] == ["eth0"]


# Where each capture comes from (seed file prefix, first line, last line); see SOURCE.md.
VERBATIM = [
    ("pi4-ax88179", "command", "lsusb -t", "000", 97, 100),
    ("pi4-ax88179", "command", "dmesg", "000", 89, 90),
    ("pi4-ax88179", "file", "/proc/interrupts", "000", 25, 48),
    ("pi4-rtl8153", "command", "lsusb -t", "000", 163, 166),
    ("pi4-rtl8153", "command", "dmesg", "000", 155, 156),
    ("pi4-rtl8153", "file", "/proc/interrupts", "000", 25, 48),
    ("pi1b-smsc95xx", "command", "lsusb -t", "001", 27, 29),
    ("pi1b-smsc95xx", "command", "ethtool eth0", "001", 31, 56),
    ("pi1b-smsc95xx", "command", "netstat -i", "001", 58, 60),
    ("pi1b-smsc95xx", "command", "ifconfig eth0", "001", 62, 68),
    ("pi1b-smsc95xx", "command", "ethtool eth0", "001", 31, 56),
    ("cm4-i340-nodriver", "command", "lspci", "004", 34, 38),
    ("cm4-i340-nodriver", "command", "dmesg", "004", 44, 53),
]


@pytest.mark.parametrize(("profile", "kind", "key", "seed", "first", "last"), VERBATIM)
def test_captures_are_verbatim_seed_text(
    profile: str, kind: str, key: str, seed: str, first: int, last: int
) -> None:
    seeds = sorted(SEEDS.glob(f"{seed}_*")) if SEEDS.is_dir() else []
    if not seeds:
        pytest.skip("the seed write-ups are not on this machine")
    lines = seeds[0].read_text(encoding="utf-8").split("\n")
    expected = "\n".join(lines[first - 1 : last]) + "\n"
    bundle = load_profile(profile).bundle
    got = bundle.command(key) if kind == "command" else bundle.file(key)
    assert got == expected


def test_find_profile_by_name_and_path(tmp_path: Path) -> None:
    shipped = find_profile("pi4-ax88179")
    assert (shipped / "lab.toml").is_file()
    assert find_profile(str(shipped)) == shipped.resolve()
    with pytest.raises(ProfileError, match="unknown lab profile") as caught:
        find_profile("no-such-board")
    assert "pi4-ax88179" in caught.value.hint
    with pytest.raises(ProfileError, match=r"no lab\.toml"):
        find_profile(tmp_path)


def _profile(tmp_path: Path, toml: str, files: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "p"
    write_bundle(folder, "h", {"lsusb -t": "x\n"}, files or {})
    (folder / "lab.toml").write_text(toml, encoding="utf-8")
    return folder


MINIMAL = """
[[interface]]
name = "eth0"
[interface.link]
pi_to_pc_mbps = 100
pc_to_pi_mbps = 200
"""


def test_minimal_profile_defaults(tmp_path: Path) -> None:
    profile = load_profile(_profile(tmp_path, "[cpu]\ncount = 2\n" + MINIMAL))
    assert profile.test_interface.name == "eth0"  # the first is under test by default
    assert profile.cpu.count == 2 and profile.cpu.governor == "ondemand"
    assert profile.irq_refuse == () and profile.tweak_effects == ()


def test_cpu_count_comes_from_the_captured_interrupts(tmp_path: Path) -> None:
    interrupts = "           CPU0       CPU1       CPU2\n 46:  1 0 0  MSI  xhci_hcd\n"
    profile = load_profile(
        _profile(tmp_path, "[lab]\nirq_refuse = [46]\n" + MINIMAL, {"/proc/interrupts": interrupts})
    )
    assert profile.cpu.count == 3
    assert profile.irqs == (46,)


@pytest.mark.parametrize(
    ("toml", "expected"),
    [
        ("[cpu]\ncount = 2\n", "at least one [[interface]]"),
        ("[cpu]\ncount = 2\n" + MINIMAL.replace('"eth0"', '"eth 0"'), "interface name"),
        (
            "[cpu]\ncount = 2\n" + MINIMAL.replace("pi_to_pc_mbps = 100", "pi_to_pc = 100"),
            "unknown key",
        ),
        ("[cpu]\ncount = 2\n" + MINIMAL.replace("200", "-5"), "must be positive"),
        (
            "[cpu]\ncount = 2\n" + MINIMAL.replace("pc_to_pi_mbps = 200", ""),
            "needs pi_to_pc_mbps and pc_to_pi_mbps",
        ),
        (MINIMAL, "count is required"),
        ("[cpu]\ncount = 2\ngovernor = 'turbo'\n" + MINIMAL, "not in governors"),
        ("[lab]\nirq_refuse = [46]\n[cpu]\ncount = 2\n" + MINIMAL, "lacks"),
        ("[cpu]\ncount = 2\n" + MINIMAL + MINIMAL, "unique"),
        ("[cpu\n", "not valid TOML"),
        ("[cpu]\ncount = 2\n" + MINIMAL + "[[tweak_effects]]\npi_to_pc_mbps = 1\n", "when"),
    ],
)
def test_profile_errors_say_what_is_wrong(tmp_path: Path, toml: str, expected: str) -> None:
    with pytest.raises(ProfileError) as caught:
        load_profile(_profile(tmp_path, toml))
    assert expected in caught.value.message


def test_addresses_stay_in_the_benchmark_range() -> None:
    seen = set()
    for index in (0, 1, 63, 64, 127):
        for nic in range(4):
            net = subnet(index, nic)
            assert net.subnet_of(BENCH_NET)  # type: ignore[arg-type]
            assert net not in seen
            seen.add(net)
            host, pi = addresses(index, nic)
            assert host.endswith(".1") and pi.endswith(".2")
            assert len(host_veth(index, nic)) <= 15 and len(ifb_name(index, nic)) <= 15
    assert addresses(0, 1) == ("198.18.1.1", "198.18.1.2")
    assert addresses(64, 0) == ("198.19.0.1", "198.19.0.2")


def test_shaping_rates_account_for_ethernet_framing() -> None:
    link = load_profile("pi1b-smsc95xx").test_interface.link
    shape = shape_for(94, link)
    # 94 Mbit/s of goodput is 99.8 Mbit/s on the wire (1538/1448): a saturated 100 Mb/s link.
    assert shape.rate_kbit == round(94 * 1514 / 1448 * 1000)
    assert 94 * 1538 / 1448 < 100
    assert shape.burst_bytes >= 16 * 1024


# --------------------------------------------------------------------------- knob semantics


def test_masks_print_like_the_kernel() -> None:
    assert format_mask(0xF, 4) == "f"
    assert format_mask(0x1, 8) == "01"
    assert format_mask(0x1, 1) == "1"
    assert format_mask((1 << 40) - 1, 40) == "ff,ffffffff"
    assert format_list(0xF) == "0-3"
    assert format_list(0b1011) == "0-1,3"
    assert parse_mask("f\n", 4) == 0xF
    assert parse_list("0-1,3\n", 4) == 0b1011


@pytest.mark.parametrize(
    ("text", "code"),
    [("10", errno.EOVERFLOW), ("xyz", errno.EINVAL), ("123456789", errno.EOVERFLOW)],
)
def test_bad_masks_fail_like_the_kernel(text: str, code: int) -> None:
    with pytest.raises(OSError) as caught:
        parse_mask(text, 4)
    assert caught.value.errno == code


def test_irq_affinity_semantics() -> None:
    irq = Irq(38, 4, refuse=False)
    assert irq.mask == 0xF
    irq.write_mask("2\n")
    assert irq.mask == 0x2 and irq.effective() == 0x2
    with pytest.raises(OSError) as no_cpu:
        irq.write_mask("0")
    assert no_cpu.value.errno == errno.EINVAL
    xhci = Irq(46, 4, refuse=True)
    with pytest.raises(OSError) as refused:
        xhci.write_mask("4\n")
    assert refused.value.errno == errno.EINVAL
    assert xhci.mask == 0xF


def test_governor_semantics() -> None:
    freq = CpuFreq(
        4, ["ondemand", "performance", "powersave", "userspace"], "ondemand", 600000, 1500000
    )
    with pytest.raises(OSError) as caught:
        freq.set_governor("turbo\n")
    assert caught.value.errno == errno.EINVAL
    freq.set_governor("performance\n")
    assert freq.cur() == 1500000
    freq.set_governor("powersave")
    assert freq.cur() == 600000
    freq.set_max("900000")
    freq.set_governor("performance")
    assert freq.cur() == 900000
    with pytest.raises(OSError):
        freq.set_speed("700000")  # only under the userspace governor


def test_knob_tree_layout() -> None:
    tree = build_tree(
        {
            "cpus": 4,
            "governors": ["ondemand", "performance"],
            "governor": "ondemand",
            "min_khz": 600000,
            "max_khz": 1500000,
            "irqs": [38, 46],
            "irq_refuse": [46],
            "queues": [
                {"path": "net/eth1/tx-0/xps_cpus", "enoent": True},
                {"path": "net/eth1/rx-0/rps_cpus"},
            ],
        }
    )
    assert tree.lookup("cpu/online").read() == "0-3\n"  # type: ignore[misc]
    assert tree.lookup("cpu/cpu2/cpufreq").target == "../cpufreq/policy0"
    governor = tree.lookup("cpu/cpufreq/policy0/scaling_governor")
    assert governor.read and governor.read() == "ondemand\n"
    refuse = tree.lookup("irq/46/smp_affinity")
    assert refuse.write is not None
    with pytest.raises(OSError):
        refuse.write("4\n")
    xps = tree.lookup("net/eth1/tx-0/xps_cpus")
    with pytest.raises(OSError) as caught:
        xps.read()  # type: ignore[misc]
    assert caught.value.errno == errno.ENOENT
    rps = tree.lookup("net/eth1/rx-0/rps_cpus")
    rps.write("f\n")  # type: ignore[misc]
    assert rps.read() == "f\n"  # type: ignore[misc]


# --------------------------------------------------------------------------- fake commands


@pytest.mark.posix_only("runs the lab's fake commands with /bin/sh")
def test_fake_commands_print_captures_and_fall_through(tmp_path: Path) -> None:
    folder = write_bundle(
        tmp_path / "b",
        "h",
        {
            "lsusb -t": "tree\n",
            "fakecmd-x --flag": "it's 'quoted'\n",
            "fakecmd-x": "bare\n",
        },
        {"/proc/interrupts": "CPU0\n"},
        {"fakecmd-x --flag": 3},
    )
    plan = build_overlay(read_bundle(folder), tmp_path / "lab")
    bin_dir = Path(plan.bin_dir)

    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["sh", str(bin_dir / argv[0]), *argv[1:]], capture_output=True, text=True, check=False
        )

    assert (run("lsusb", "-t").stdout, run("lsusb", "-t").returncode) == ("tree\n", 0)
    flagged = run("fakecmd-x", "--flag")
    assert (flagged.stdout, flagged.returncode) == ("it's 'quoted'\n", 3)
    assert run("fakecmd-x").stdout == "bare\n"
    missing = run("fakecmd-x", "--other")
    assert missing.returncode == 127 and "command not found" in missing.stderr
    # The uncaptured /proc/cpuinfo is an empty file, not this host's (sbctune.lab.overlay).
    served = {to: Path(src).read_text(encoding="utf-8") for src, to in plan.file_binds}
    assert served == {"/proc/interrupts": "CPU0\n", "/proc/cpuinfo": "", "/proc/modules": "",
                      "/proc/cmdline": ""}  # fmt: skip


# --------------------------------------------------------------------------- host checks


def test_lab_needs_root_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from sbctune.lab import LabError, system

    monkeypatch.setattr(system.sys, "platform", "linux")
    monkeypatch.setattr(system.os, "geteuid", lambda: 1000, raising=False)
    with pytest.raises(LabError, match="must run as root") as caught:
        system.require_supported()
    assert "sudo" in caught.value.hint
    monkeypatch.setattr(system.sys, "platform", "darwin")
    with pytest.raises(LabError, match="needs Linux"):
        system.require_supported()


def test_missing_tools_name_the_debian_package(monkeypatch: pytest.MonkeyPatch) -> None:
    from sbctune.lab import LabError, system

    monkeypatch.setattr(system.sys, "platform", "linux")
    monkeypatch.setattr(system.os, "geteuid", lambda: 0, raising=False)
    monkeypatch.setattr(system, "which", lambda tool: None if tool in ("sshd", "tc") else "/x")
    with pytest.raises(LabError) as caught:
        system.require_supported()
    assert "sshd" in caught.value.message and "tc" in caught.value.message
    assert "openssh-server" in caught.value.hint and "iproute2" in caught.value.hint


_PI3BPLUS = Path(__file__).resolve().parents[1] / "captures" / "proc_interrupts"
PROFILES_DIR = Path(str(resource_root())) / "lab" / "profiles"


@pytest.mark.parametrize(
    ("kernel", "armctrl", "pcie_msi"),
    [
        ("5.15.4-0-rpi4", "EIO", "EINVAL"),  # older than every series: answers as 6.1 (seed 000)
        ("6.1.0-rpi7-rpi-v7", "EIO", "EINVAL"),  # no irq_set_affinity / brcm_msi_set_affinity
        ("6.12.25+rpt-rpi-v8", "EPERM", "EPERM"),  # write_irq_affinity; MSI_FLAG_NO_AFFINITY
        # between the series: write_irq_affinity's EIO until 6.12 (eb29369fa543, audit 37
        # row 7); the MSI chip's change is not dated: not known
        ("6.6.51+rpt-rpi-v8", "EIO", "EINVAL"),
        (None, "EINVAL", "EINVAL"),
    ],
)
def test_a_refused_irq_answers_with_its_chips_and_kernels_errno(
    kernel: str | None, armctrl: str, pcie_msi: str
) -> None:
    """driver_caps_audit4a.md row 8: write_irq_affinity (kernel/irq/proc.c) refuses a chip
    without irq_set_affinity with EIO (6.1) / EPERM (6.12); the Pi 4's MSI chip answers EINVAL
    through brcm_msi_set_affinity up to 6.1. Before, every refused IRQ answered EINVAL. Real
    captures: the Pi 3 B+'s dwc2 interrupt on ARMCTRL-level, seed 000's xhci_hcd on the MSI chip."""
    pi3 = (_PI3BPLUS / "pi3bplus_netdev_lan78xx_2019.txt").read_text(encoding="utf-8")
    pi4 = (_PI3BPLUS / "seed000_pi4_alpine.txt").read_text(encoding="utf-8")
    assert irq_refusal.refusals(pi3, [41], kernel) == {"41": armctrl}
    assert irq_refusal.refusals(pi4, [46], kernel) == {"46": pcie_msi}


def test_the_lab_refuses_with_the_profiles_kernels_errno(tmp_path: Path) -> None:
    """The shipped Pi 4 profiles (5.15, seed 000) keep "Invalid argument"; the same Pi on 6.12
    answers EPERM (before: EINVAL)."""
    assert configs.knobs_config(load_profile("pi4-ax88179"))["irq_errno"]["46"] == "EINVAL"
    copy = tmp_path / "pi4-612"
    shutil.copytree(PROFILES_DIR / "pi4-ax88179", copy)
    toml = copy / "lab.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(
        'kernel = "5.15.4-0-rpi4"', 'kernel = "6.12.25+rpt-rpi-v8"'), encoding="utf-8")  # fmt: skip
    config = configs.knobs_config(load_profile(str(copy)))
    assert config["irq_errno"]["46"] == "EPERM"
    refused = Irq(46, 4, refuse=True, refuse_errno=errno.EPERM)
    with pytest.raises(OSError) as caught:
        refused.write_mask("4\n")
    assert caught.value.errno == errno.EPERM
