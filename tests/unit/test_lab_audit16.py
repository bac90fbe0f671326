"""Issue 21, audit16 (resources/tuning/driver_caps_audit16.md): the tweaks that write a file.

Row 1 (cpufreq governor): `scaling_available_governors` lists only the governors registered
so far; store_scaling_governor -> cpufreq_parse_governor request_module()s "cpufreq_<name>"
for one that is not (drivers/cpufreq/cpufreq.c, 6.1 and 6.12), and matches the first word
(sscanf "%15s") without case (find_governor: strncasecmp). The planner called a governor
missing from the list "not possible"; the lab refused it and any other spelling.

Row 2 (sysctls the lab serves itself): proc_dointvec parses with base 0 (kernel/sysctl.c
proc_get_long -> strtoul_lenient: 0x10 is 16, 010 is 8), refuses a value above INT_MAX
(do_proc_dointvec_conv) and anything but an optional '-' then a digit first; the lab took
Python's int() ("+5", "1_000", 2**40). netdev_budget_usecs' minimum is 2 * USEC_PER_SEC / HZ
(net/core/sysctl_net_core.c netdev_budget_usecs_min, both series): the lab's was 0.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.model import Inventory
from sbctune.lab.knobs_fs import build_tree
from sbctune.lab.knobs_model import CpuFreq
from sbctune.lab.profile import ProfileError
from sbctune.lab.profile_cpu import parse_cpu as _parse_cpu
from sbctune.lab.sysctls import models, private_sysctl, proc_path, start_namespaced
from sbctune.tuning import catalog
from sbctune.tuning.kinds import PLANNERS, Context
from sbctune.tuning.probe import Facts, Read

BASE = "/sys/devices/system/cpu/cpufreq"


def _governor_plan(available: str) -> list[tuple[str, str | None]]:
    found = Facts("eth0")
    found.knobs[f"{BASE}/policy0/scaling_governor"] = Read(True, "schedutil")
    found.knobs[f"{BASE}/policy0/scaling_available_governors"] = Read(True, available)
    tweak = catalog.tweak("cpu-governor-performance")
    item = PLANNERS[tweak.kind](Context(tweak, found, Inventory(), None, {}, {}, (tweak.id,)))
    assert item.applicable, item.reason
    assert not item.impossible
    return [(c.path, c.after) for c in item.changes]


@pytest.mark.parametrize("available", ["schedutil", "performance schedutil", "schedutil "])
def test_a_governor_not_yet_listed_is_planned_the_write_loads_it(available: str) -> None:
    """Debian builds powersave/ondemand/... as modules: the list shows them once loaded."""
    assert _governor_plan(available) == [(f"{BASE}/policy0/scaling_governor", "performance")]


def _freq(modules: list[str]) -> CpuFreq:
    return CpuFreq(4, ["schedutil"], "schedutil", 600000, 1500000, modules=modules)


def test_the_lab_loads_a_governor_module_on_write_and_lists_it() -> None:
    freq = _freq(["performance", "ondemand"])
    freq.set_governor("performance\n")
    assert freq.governor == "performance"
    assert freq.governors == ["schedutil", "performance"]  # listed once loaded, as the kernel


@pytest.mark.parametrize("text", ["Performance", "PERFORMANCE\n", "performance extra words"])
def test_the_lab_reads_a_governor_as_the_kernel_does(text: str) -> None:
    freq = CpuFreq(4, ["performance", "schedutil"], "schedutil", 600000, 1500000)
    freq.set_governor(text)
    assert freq.governor == "performance"  # the governor's own name reads back


@pytest.mark.parametrize("text", ["", "\n", "turbo", "performancex"])
def test_a_governor_no_module_gives_is_refused(text: str) -> None:
    with pytest.raises(OSError) as refused:
        _freq(["performance"]).set_governor(text)
    assert refused.value.errno == errno.EINVAL


def test_the_knob_tree_serves_the_profiles_governor_modules() -> None:
    config = {
        "cpus": 4,
        "governors": ["schedutil"],
        "governor": "schedutil",
        "min_khz": 600000,
        "max_khz": 1500000,
        "governor_modules": ["performance"],
    }
    tree = build_tree(config)
    listed = tree.lookup("cpu/cpufreq/policy0/scaling_available_governors")
    node = tree.lookup("cpu/cpufreq/policy0/scaling_governor")
    assert listed.read is not None and node.write is not None and node.read is not None
    assert "performance" not in listed.read().split()
    node.write("performance\n")
    assert node.read() == "performance\n"
    assert "performance" in listed.read().split()


def test_a_profile_names_its_governor_modules() -> None:
    cpu = {"count": 4, "governors": ["schedutil", "performance"],
           "governor_modules": ["ondemand", "powersave"]}  # fmt: skip
    assert _parse_cpu({"cpu": cpu}, None, "p").governor_modules == ("ondemand", "powersave")
    with pytest.raises(ProfileError):  # a loaded governor is not also a module to load
        _parse_cpu({"cpu": {**cpu, "governor_modules": ["performance"]}}, None, "p")


# ------------------------------------------------------------------------- sysctls (row 2)


def _sysctl(name: str):  # type: ignore[no-untyped-def]
    return private_sysctl(name, models()[name])


@pytest.mark.parametrize(
    ("text", "kept"),
    [("0x2000", "8192"), ("010", "8"), (" 5000\n", "5000"), ("-0x10", "-16"),
     ("2147483647", "2147483647"), ("-2147483648", "-2147483648")],
)  # fmt: skip
def test_a_sysctl_int_is_parsed_base_0_as_proc_dointvec(text: str, kept: str) -> None:
    knob = _sysctl("net.core.netdev_max_backlog")
    knob.write(text)
    assert knob.read() == kept + "\n"


@pytest.mark.parametrize(
    "text", ["+5", "1_000", "2147483648", "-2147483649", "0x", "09", "5a", "", "-", "1" * 21]
)
def test_a_sysctl_int_the_kernel_refuses_is_refused(text: str) -> None:
    knob = _sysctl("net.core.netdev_max_backlog")
    with pytest.raises(OSError) as refused:
        knob.write(text)
    assert refused.value.errno == errno.EINVAL
    assert knob.read() == "1000\n"


def test_netdev_budget_usecs_below_its_minimum_is_refused() -> None:
    knob = _sysctl("net.core.netdev_budget_usecs")
    with pytest.raises(OSError) as refused:
        knob.write("5000")
    assert refused.value.errno == errno.EINVAL
    knob.write("16000")
    assert knob.read() == "16000\n"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_sysctl_text_is_an_int_or_einval(text: str) -> None:
    knob = _sysctl("net.core.netdev_budget")
    try:
        knob.write(text)
    except OSError as exc:
        assert exc.errno == errno.EINVAL
        return
    value = int(knob.read())
    assert -(2**31) <= value < 2**31


# ------------------------------------------------------------ namespaced sysctls (row 3)


def test_the_labs_own_tcp_buffers_start_at_the_pi_kernels_defaults(tmp_path: Path) -> None:
    """A new netns copies the host's tcp_rmem (33554432 on this host's 6.18); a 6.1/6.12 Pi
    starts at 6291456, so socket-buffers must find tcp_rmem[2] to raise in the lab too."""
    names = ("net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem")
    for name in names:
        path = tmp_path / proc_path(name).lstrip("/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("4096\t131072\t33554432\n", encoding="ascii")
    written = start_namespaced({n: models()[n] for n in names}, root=str(tmp_path))
    rmem = (tmp_path / "proc/sys/net/ipv4/tcp_rmem").read_text(encoding="ascii").split()
    assert rmem == ["4096", "131072", "6291456"]
    assert set(written) == set(names)
    tweak = catalog.tweak("socket-buffers")
    found = Facts("eth0")
    for name in names:
        text = (tmp_path / proc_path(name).lstrip("/")).read_text(encoding="ascii").strip()
        found.knobs[proc_path(name)] = Read(True, text)
    item = PLANNERS[tweak.kind](Context(tweak, found, Inventory(), None, {}, {}, (tweak.id,)))
    after = {c.target: c.after for c in item.changes if c.needed}
    assert after["net.ipv4.tcp_rmem"] == "4096\t131072\t16777216"


def test_a_namespaced_sysctl_that_cannot_be_written_is_left(tmp_path: Path) -> None:
    assert start_namespaced({"net.ipv4.tcp_rmem": models()["net.ipv4.tcp_rmem"]},
                            root=str(tmp_path / "none")) == {}  # fmt: skip
