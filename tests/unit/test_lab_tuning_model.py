"""The lab's tuning models without a lab: tweak effects, duplex detection, private sysctls,
the stateful ethtool's answers, and the profile checks for the new lab.toml keys."""

from __future__ import annotations

import errno
import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.inventory.parsers.ethtool import parse_ethtool_driver
from sbctune.lab import (
    ProfileError,
    effects,
    fake_ethtool,
    fake_ethtool_shown,
    fake_ethtool_tables,
    load_profile,
    profile,
)
from sbctune.lab.ethtool_state import build_state
from sbctune.lab.sysctls import PrivateSysctl, models, private_sysctl

AX = load_profile("pi4-ax88179")
ETH1 = AX.test_interface
ETH0 = next(i for i in AX.interfaces if i.name == "eth0")
TUNED = {"governor": "performance", "scaling_max_khz": 1500000, "rps": {"eth1": [15]}}
UNTUNED = {"governor": "ondemand", "scaling_max_khz": 1500000, "rps": {"eth1": [0]}}


# --------------------------------------------------------------------------- effects


def test_the_performance_governor_gives_the_modelled_rates_and_only_on_eth1() -> None:
    rates, applied = effects.current_rates(ETH1, AX.tweak_effects, TUNED)
    assert (rates.pi_to_pc, rates.pc_to_pi) == (834, 949)
    assert rates.pick(full_duplex=True) == (269, 880)
    assert applied and "modelling choice" in applied[0]
    base, none = effects.current_rates(ETH1, AX.tweak_effects, UNTUNED)
    assert (base.pi_to_pc, base.full_duplex_pi_to_pc, none) == (736, 163, [])
    # RPS alone is worth nothing here (seed 000 measured only the clock's effect).
    rps_only, _ = effects.current_rates(ETH1, AX.tweak_effects, {**UNTUNED, "rps": {"eth1": [15]}})
    assert rps_only.pi_to_pc == 736
    other, _ = effects.current_rates(ETH0, AX.tweak_effects, TUNED)
    assert other == effects.base_rates(ETH0)


@pytest.mark.parametrize(
    ("key", "value", "knobs", "holds"),
    [
        ("governor", "performance", TUNED, True),
        ("governor", "performance", UNTUNED, False),
        ("rps", True, {"rps": {"eth1": [15, 0]}}, False),  # every queue must steer
        ("rps", False, {"rps": {"eth1": [0, 0]}}, True),
        ("rps", True, {}, False),  # no knob state yet
        ("cpu_max_khz", 2000000, {"scaling_max_khz": 1500000}, False),
        ("cpu_khz", 1500000, {"load_khz": 1500000}, True),
        ("driver", "r8125", TUNED, False),  # the lab cannot swap drivers
    ],
)
def test_conditions(key: str, value: object, knobs: dict[str, object], holds: bool) -> None:
    assert effects.condition_holds(key, value, knobs, "eth1") is holds


def test_acks_of_a_one_way_test_are_not_traffic_but_the_slow_full_duplex_side_is() -> None:
    assert not effects.is_busy(949 * 0.022, 736)  # ACKs of a PC->Pi stream
    assert effects.is_busy(163, 736)  # seed 000's full-duplex Pi->PC
    detector = effects.DuplexDetector(hold=3)
    assert detector.update(True, True) is True
    assert [detector.update(True, False) for _ in range(3)] == [True, True, False]


# --------------------------------------------------------------------------- sysctls


def test_private_sysctls_parse_like_the_kernel() -> None:
    table = models()
    flows = private_sysctl(
        "net.core.rps_sock_flow_entries", table["net.core.rps_sock_flow_entries"]
    )
    flows.write("30000\n")
    assert flows.read() == "32768\n"  # roundup_pow_of_two
    rmem = private_sysctl("net.core.rmem_max", table["net.core.rmem_max"])
    assert rmem.read() == "212992\n"
    with pytest.raises(OSError) as small:
        rmem.write("100")
    assert small.value.errno == errno.EINVAL
    tcp = private_sysctl("net.ipv4.tcp_rmem", table["net.ipv4.tcp_rmem"])
    tcp.write("4096 131072 16777216\n")
    assert tcp.read() == "4096\t131072\t16777216\n"


@given(st.text(max_size=30))
def test_garbage_written_to_a_sysctl_is_einval_or_a_number(text: str) -> None:
    knob = PrivateSysctl("net.core.netdev_budget", "int", "300")
    try:
        knob.write(text)
    except OSError as exc:
        assert exc.errno == errno.EINVAL and knob.value == "300"
    else:
        assert knob.value == str(int(text.strip()))


# --------------------------------------------------------------------------- ethtool


@pytest.fixture
def rtl_state(tmp_path: Path) -> str:
    path = tmp_path / "state.json"
    path.write_text(json.dumps(build_state(load_profile("pi4-rtl8153"))), encoding="utf-8")
    return str(path)


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_rings_change_and_refuse_with_the_kernels_words(rtl_state: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("the fake refuses sets to non-root, as ethtool does")
    assert fake_ethtool.run(["-G", "eth1", "rx", "2048"], rtl_state) == ("", [], 0)
    shown = fake_ethtool.run(["-g", "eth1"], rtl_state)
    assert shown is not None and "Current hardware settings:\nRX:\t\t2048\n" in shown[0]
    assert fake_ethtool.run(["-G", "eth1", "rx", "64", "tx", "64"], rtl_state) == (
        "",
        [
            "netlink error: requested ring size exceeds maximum (offset 44)",
            "netlink error: Invalid argument",
        ],
        81,
    )
    assert fake_ethtool.run(["-G", "eth1", "rx", "10"], rtl_state) == (
        "",
        ["netlink error: Invalid argument"],  # r8152's own rx_pending check
        81,
    )
    assert fake_ethtool.run(["-G", "eth1", "rx", "many"], rtl_state) == (
        "",
        ["ethtool (-G): invalid value 'many' for parameter 'rx'"],
        1,
    )


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_scatter_gather_off_takes_segmentation_with_it(rtl_state: str) -> None:
    if os.geteuid() != 0:
        pytest.skip("the fake refuses sets to non-root, as ethtool does")
    result = fake_ethtool.run(["-K", "eth1", "sg", "off"], rtl_state)
    assert result is not None
    out, err, code = result
    assert code == 0 and err == []
    assert "tx-tcp-segmentation: off [not requested]" in out.splitlines()
    shown = fake_ethtool.run(["-k", "eth1"], rtl_state)
    assert shown is not None and "\ttx-tcp-segmentation: off [requested on]" in shown[0]


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_other_invocations_and_interfaces_go_to_the_captures(rtl_state: str) -> None:
    assert fake_ethtool.run(["wlan0"], rtl_state) is None  # eth1's link settings: the model
    assert fake_ethtool.run(["-s", "wlan0", "speed", "100"], rtl_state) is None
    assert fake_ethtool.run(["-g", "wlan0"], rtl_state) is None


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_ethtool_i_names_the_driver_unless_the_profile_captured_it(rtl_state: str) -> None:
    """pi4-rtl8153 captured no `ethtool -i`: the lab says its driver, as the Pi would."""
    shown = fake_ethtool.run(["-i", "eth1"], rtl_state)
    assert shown is not None and shown[2] == 0
    assert parse_ethtool_driver(shown[0])[0].driver == "r8152"
    state = json.loads(Path(rtl_state).read_text(encoding="utf-8"))
    state["interfaces"]["eth1"]["info"] = None  # as for a profile with the capture
    Path(rtl_state).write_text(json.dumps(state), encoding="utf-8")
    assert fake_ethtool.run(["-i", "eth1"], rtl_state) is None


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "-g",
                "-G",
                "-c",
                "-C",
                "-k",
                "-K",
                "-a",
                "-A",
                "--show-eee",
                "--set-eee",
                "eth1",
                "eth0",
                "rx",
                "tx",
                "rx-usecs",
                "on",
                "off",
                "4096",
                "-1",
                "tso",
                "",
                "x",
            ]
        ),
        max_size=6,
    )
)
def test_any_argument_list_gets_an_answer_not_a_crash(argv: list[str]) -> None:
    folder = Path("/tmp") / f"sbctune-ethtool-fuzz-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    path = folder / "state.json"
    path.write_text(json.dumps(build_state(load_profile("pi4-rtl8153"))), encoding="utf-8")
    try:
        result = fake_ethtool.run(argv, str(path))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if result is not None:
        _out, err, code = result
        assert code == 0 or err  # a failure always says why, on stderr


# --------------------------------------------------------------------------- profile keys


def _profile_with(tmp_path: Path, extra: str) -> Path:
    source = profile.find_profile("pi4-ax88179")
    target = tmp_path / "p"
    shutil.copytree(source, target)
    (target / "lab.toml").write_text(
        (source / "lab.toml").read_text(encoding="utf-8") + extra, encoding="utf-8"
    )
    return target


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ("[[tweak_effects]]\nwhen = { turbo = true }\npi_to_pc_mbps = 900\n", "unknown condition"),
        ('[[tweak_effects]]\nwhen = { rps = "yes" }\npi_to_pc_mbps = 900\n', "must be a bool"),
        ("[[tweak_effects]]\nwhen = { rps = true }\nspeed = 900\n", "unknown key speed"),
        ('[[tweak_effects]]\nwhen = { rps = true }\nsource = "x"\n', "at least one rate"),
        (
            '[[tweak_effects]]\ninterface = "eth7"\nwhen = { rps = true }\npi_to_pc_mbps = 9\n',
            "eth7",
        ),
    ],
)
def test_bad_tweak_effects_are_refused_with_what_to_fix(
    tmp_path: Path, extra: str, message: str
) -> None:
    with pytest.raises(ProfileError, match=message):
        load_profile(_profile_with(tmp_path, "\n" + extra))


def test_an_unknown_driver_names_the_known_ones(tmp_path: Path) -> None:
    path = _profile_with(tmp_path, "")
    text = (
        (path / "lab.toml")
        .read_text(encoding="utf-8")
        .replace('driver = "bcmgenet"', 'driver = "e1000"')
    )
    (path / "lab.toml").write_text(text, encoding="utf-8")
    with pytest.raises(ProfileError) as err:
        load_profile(path)
    assert "e1000" in err.value.message and "r8152" in (err.value.hint or "")


@pytest.mark.posix_only("the lab's fake ethtool (Linux-only lab) locks its state with fcntl")
def test_installed_ethtool_is_one_standalone_script(rtl_state: str, tmp_path: Path) -> None:
    """The script the lab installs runs without sbctune on its path (python -S: no
    site-packages), with fake_ethtool_tables inlined, and answers as the module does."""
    import subprocess
    import sys

    from sbctune.lab.ethtool_state import script_text
    from sbctune.lab.overlay import fake_script

    capture = tmp_path / "fec.txt"
    capture.write_text("captured\n", encoding="utf-8")
    fallback = tmp_path / "captured"
    fallback.write_text(
        fake_script("ethtool", [("ethtool --show-fec eth1", str(capture), 0)]), encoding="utf-8"
    )
    fallback.chmod(0o755)
    script = tmp_path / "ethtool"
    script.write_text(script_text(sys.executable, Path(rtl_state), fallback), encoding="utf-8")
    assert "from sbctune" not in script.read_text(encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}
    proc = subprocess.run(
        [sys.executable, "-S", str(script), "-k", "eth1"],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr
    expected = fake_ethtool.run(["-k", "eth1"], rtl_state)
    assert expected is not None and proc.stdout == expected[0]
    assert "tcp-segmentation-offload:" in proc.stdout
    other = subprocess.run(
        [sys.executable, "-S", str(script), "--show-fec", "eth1"],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    assert other.stdout == "captured\n"  # a line the profile captured: the capture answers
    module = subprocess.run(  # not captured: r8169 has no get_module_info (audit 7a row 9)
        [sys.executable, "-S", str(script), "-m", "eth1"],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    assert (module.stderr, module.returncode) == ("netlink error: Operation not supported\n", 1)
    settings = subprocess.run(
        [sys.executable, "-S", str(script), "eth1"],
        capture_output=True,
        text=True,
        timeout=30,
        env=env,
    )
    assert settings.stdout.startswith("Settings for eth1:\n")  # the standalone script has it


@pytest.mark.posix_only("the lab's ethtool front is a POSIX shell script")
def test_the_shell_front_answers_every_read_as_the_model_does(tmp_path: Path) -> None:
    """The installed ``ethtool`` is a shell front that answers reads from the model's shown
    files: every read option and alias, a capture-only interface and a set (as root) give the
    same stdout, stderr and exit code as the model itself, and a read after a set shows it."""
    import subprocess
    import sys

    from sbctune.lab.ethtool_state import front_text, script_text

    state_path = tmp_path / "state.json"
    state = build_state(load_profile("pi4-rtl8153"))
    state_path.write_text(json.dumps(state), encoding="utf-8")
    (tmp_path / fake_ethtool_shown.SHOWN_DIR).mkdir()
    fake_ethtool_shown.write_shown(str(state_path), state)
    fallback = tmp_path / "captured"
    fallback.write_text('#!/bin/sh\necho "captured $*"\n', encoding="utf-8")
    model = tmp_path / "model"
    model.write_text(script_text(sys.executable, state_path, fallback), encoding="utf-8")
    front = tmp_path / "ethtool"
    front.write_text(
        front_text(
            model, fallback, tmp_path / fake_ethtool_shown.SHOWN_DIR, sorted(state["interfaces"])
        ),
        encoding="utf-8",
    )
    for script in (fallback, model, front):
        script.chmod(0o755)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin")}

    def front_says(*argv: str) -> tuple[str, str, int]:
        done = subprocess.run(
            [str(front), *argv], capture_output=True, text=True, timeout=30, env=env
        )
        return done.stdout, done.stderr, done.returncode

    def model_says(*argv: str) -> tuple[str, str, int]:
        result = fake_ethtool.run(list(argv), str(state_path))
        if result is None:
            return f"captured {' '.join(argv)}\n", "", 0
        return result[0], "".join(line + "\n" for line in result[1]), result[2]

    reads = [*fake_ethtool.SHOW, *fake_ethtool_tables.ALIASES]
    argvs = [[option, name] for option in reads for name in state["interfaces"]]
    for argv in [*argvs, ["eth1"], ["-g", "eth9"], ["-S", "eth1"], ["-g", "eth1", "x"]]:
        assert front_says(*argv) == model_says(*argv), argv
    assert "Ring parameters for eth1" in front_says("-g", "eth1")[0]
    assert "Operation not supported" in front_says("-g", "eth0")[1]  # bcmgenet: no rings
    if os.geteuid() == 0:
        assert front_says("-G", "eth1", "rx", "2048")[2] == 0
        assert "Current hardware settings:\nRX:\t\t2048\n" in front_says("-g", "eth1")[0]
