"""Every option ethtool 6.1 knows, for each of the 13 drivers met in real pastes, gets an answer
from the lab's ethtool as the kernel would give it (issue 21, audit 7a row 9): ethtool 6.1's own
refusal where the driver lacks the op (resources/lab/ethtool/options.json, from the driver table
generated from Debian's 6.1 and 6.12 source), else a capture, else a plain lab message that
there is no capture. Never "command not found" (what the lab answered before for -m, -t,
--phy-statistics, -e, -r, -p, --show-fec ...).

The refusals' words and exit codes are the real ethtool 1:6.1-1 binary's, run on a veth
(resources/lab/ethtool/veth_unsupported_ops.txt); a test reads them back from that capture.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sbctune.lab import fake_ethtool, fake_ethtool_options, load_profile
from sbctune.lab.ethtool_options import options_table
from sbctune.lab.ethtool_state import interface_state
from sbctune.lab.ethtool_table import driver_queues
from sbctune.resources import resource_root
from sbctune.tuning import driver_caps

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

EMPTY = load_profile("cm4-rtl8125b-r8169").bundle
DRIVERS = list(driver_caps.table()["pasted"])
CHIPS = {"macb": "RP1", "igb": "82580", "stmmac": "RK3588"}
# Every command ethtool 6.1 lists in `ethtool -h` (the real 1:6.1-1 binary), each with a
# typical use after the interface name.
ETHTOOL_61: dict[str, list[str]] = {
    "-s": ["autoneg", "on"], "--change": ["wol", "g"], "-a": [], "--show-pause": [],
    "-A": ["rx", "on"], "--pause": ["tx", "on"], "-c": [], "--show-coalesce": [],
    "-C": ["rx-usecs", "50"], "--coalesce": ["rx-usecs", "50"], "-g": [], "--show-ring": [],
    "-G": ["rx", "256"], "--set-ring": ["tx", "256"], "-k": [], "--show-features": [],
    "--show-offload": [], "-K": ["gro", "on"], "--features": ["gro", "on"],
    "--offload": ["gro", "on"], "-i": [], "--driver": [], "-d": [], "--register-dump": [],
    "-e": [], "--eeprom-dump": [], "-E": ["offset", "0", "value", "1"],
    "--change-eeprom": ["offset", "0", "value", "1"], "-r": [], "--negotiate": [],
    "-p": ["1"], "--identify": ["1"], "-t": [], "--test": ["offline"], "-S": [],
    "--statistics": [], "--phy-statistics": [], "-n": [], "-u": [], "--show-nfc": [],
    "--show-ntuple": ["rx-flow-hash", "tcp4"], "-N": ["rx-flow-hash", "tcp4", "sdfn"],
    "-U": ["flow-type", "tcp4", "action", "1"], "--config-nfc": ["rx-flow-hash", "tcp4", "sd"],
    "--config-ntuple": ["delete", "1"], "-T": [], "--show-time-stamping": [], "-x": [],
    "--show-rxfh-indir": [], "--show-rxfh": [], "-X": ["equal", "1"],
    "--set-rxfh-indir": ["equal", "1"], "--rxfh": ["equal", "1"], "-f": ["fw.bin"],
    "--flash": ["fw.bin"], "-P": [], "--show-permaddr": [], "-w": [], "--get-dump": [],
    "-W": ["0"], "--set-dump": ["0"], "-l": [], "--show-channels": [],
    "-L": ["combined", "1"], "--set-channels": ["combined", "1"], "--show-priv-flags": [],
    "--set-priv-flags": ["legacy-rx", "on"], "-m": [], "--dump-module-eeprom": [],
    "--module-info": [], "--show-eee": [], "--set-eee": ["eee", "off"],
    "--set-phy-tunable": ["downshift", "on"], "--get-phy-tunable": ["downshift"],
    "--get-tunable": ["rx-copybreak"], "--set-tunable": ["rx-copybreak", "256"],
    "--reset": ["phy"], "--show-fec": [], "--set-fec": ["encoding", "auto"],
    "-Q": ["--show-coalesce"], "--per-queue": ["--show-coalesce"], "--cable-test": [],
    "--cable-test-tdr": [], "--show-tunnels": [], "--show-module": [],
    "--set-module": ["power-mode-policy", "auto"],
}  # fmt: skip
NOT_FOUND = re.compile("command not found|not available in this lab")


def state_file(tmp_path: Path, driver: str, kernel: str = "") -> str:
    chip = CHIPS.get(driver, "")
    queues = driver_queues(driver, chip, 4)
    iface = interface_state(driver, EMPTY, "eth0", chip, kernel, queues)
    path = tmp_path / f"{driver}.json"
    path.write_text(json.dumps({"schema": 1, "interfaces": {"eth0": iface}}), encoding="utf-8")
    return str(path)


def ethtool(path: str, argv: list[str], fallback: str = "") -> tuple[str, list[str], int] | None:
    return fake_ethtool.run(argv, path, fallback or "/nonexistent/captures")


@pytest.mark.parametrize("driver", DRIVERS)
def test_every_option_answers_for_every_driver(tmp_path: Path, driver: str) -> None:
    path = state_file(tmp_path, driver)
    silent = []
    for option, rest in ETHTOOL_61.items():
        result = ethtool(path, [option, "eth0", *rest])
        if result is None or NOT_FOUND.search("\n".join(result[1])):
            silent.append(option)
            continue
        out, err, code = result
        assert out or err or code == 0, (option, result)
    settings = ethtool(path, ["eth0"])
    assert settings is not None, "ethtool IFACE"
    assert silent == [], f"{driver}: no answer from the lab for {silent}"


def _capture_blocks() -> dict[str, tuple[int, str, str]]:
    """The real binary's answers: command line (interface v0) -> (exit, stdout, stderr)."""
    path = resource_root() / "lab" / "ethtool" / "veth_unsupported_ops.txt"
    text = Path(str(path)).read_text(encoding="utf-8")
    blocks = {}
    for block in text.split("### ethtool ")[1:]:
        head, rest = block.split("\n# exit ", 1)
        code, rest = rest.split("\n# stdout\n", 1)
        out, err = rest.split("# stderr\n", 1)
        blocks[head.strip()] = (int(code), out.strip("\n"), err.strip("\n"))
    return blocks


def _absent_answers() -> list[tuple[str, list[str], dict[str, Any]]]:
    found = []
    for spec in options_table()["options"]:
        if "absent" in spec:
            found.append((spec["names"][0], [], spec["absent"]))
        for form, sub in (spec.get("forms") or {}).items():
            found.append((spec["names"][0], [form], sub["absent"]))
    return found


@pytest.mark.parametrize(("option", "form", "absent"), _absent_answers())
def test_each_refusal_is_the_real_binarys(option: str, form: list[str], absent: dict[str, Any]
                                          ) -> None:  # fmt: skip
    """No refusal is invented: each is in the capture of ethtool 6.1 on a veth (which has none
    of these ops), words and exit code, for a command line with the same option and form."""
    blocks = _capture_blocks()
    names = next(spec["names"] for spec in options_table()["options"]
                 if spec["names"][0] == option)  # fmt: skip
    lines = [line for line in blocks if line.split()[0] in names
             and (not form or line.split()[2:3] == form)]  # fmt: skip
    assert lines, f"no capture of ethtool {option} {' '.join(form)}"
    code, out, err = blocks[lines[0]]
    arg = lines[0].split()[2] if len(lines[0].split()) > 2 else ""
    offset = re.search(r"\(offset (\d+)\)", err)
    fill = {"{ifname}": "v0", "{arg}": arg, "{offset}": offset.group(1) if offset else ""}
    want_err, want_out = absent["stderr"], absent["stdout"]
    for name, value in fill.items():
        want_err, want_out = want_err.replace(name, value), want_out.replace(name, value)
    assert (absent["code"], want_out.strip("\n"), want_err.strip("\n")) == (code, out, err)


@pytest.mark.parametrize(
    ("driver", "argv", "expected"),
    [
        # no get_module_info / get_module_eeprom(_by_page) (eeprom_prepare_data)
        ("bcmgenet", ["-m", "eth0"], ("", ["netlink error: Operation not supported"], 1)),
        ("lan78xx", ["--module-info", "eth0"],
         ("", ["netlink error: Operation not supported"], 1)),
        # ethtool_self_test: no self_test
        ("r8152", ["-t", "eth0"], ("", ["Cannot test: Operation not supported"], 74)),
        # ethtool_get_phy_stats: no PHY (r8152 drives its own) and no get_ethtool_phy_stats
        ("r8152", ["--phy-statistics", "eth0"], ("", ["no stats available"], 94)),
        ("igb", ["--phy-statistics", "eth0"], ("", ["no stats available"], 94)),
        ("bcmgenet", ["-e", "eth0"], ("", ["Cannot get EEPROM data: Operation not supported"], 74)),
        ("cdc_ncm", ["-p", "eth0", "1"],
         ("", ["Cannot identify NIC: Operation not supported"], 255)),
        ("smsc95xx", ["--show-fec", "eth0"], ("", ["netlink error: Operation not supported"], 1)),
        ("igb", ["--set-fec", "eth0", "encoding", "auto"],
         ("", ["netlink error: Operation not supported"], 83)),
        ("bcmgenet", ["--get-tunable", "eth0", "rx-copybreak"],
         ("", ["rx-copybreak: Cannot get tunable"], 255)),
        ("igc", ["--show-tunnels", "eth0"], ("", [
            "netlink error: device does not report tunnel offload info",
            "netlink error: Operation not supported"], 1)),
        ("r8169", ["--show-module", "eth0"], ("Module parameters for eth0:\n", [], 0)),
        ("ax88179_178a", ["--set-module", "eth0", "power-mode-policy", "auto"], ("", [
            "netlink error: Setting power mode policy is not supported by this device (offset 36)",
            "netlink error: Operation not supported"], 83)),
        ("atlantic", ["-w", "eth0"], ("", ["Can not get dump level: Operation not supported"], 1)),
        ("ax88179_178a", ["--cable-test", "eth0"],
         ("", ["netlink error: Operation not supported"], 1)),
    ],
)  # fmt: skip
def test_a_missing_op_is_refused_in_ethtools_words(
    tmp_path: Path, driver: str, argv: list[str], expected: tuple[str, list[str], int]
) -> None:
    assert ethtool(state_file(tmp_path, driver), argv) == expected


@pytest.mark.parametrize(
    ("driver", "argv", "kind"),
    [
        ("igb", ["-m", "eth0"], "from its own hardware"),  # igb_get_module_info
        ("smsc95xx", ["-t", "eth0"], "from its own hardware"),  # self_test = net_selftest
        ("lan78xx", ["-d", "eth0"], "from its own hardware"),  # lan78xx_get_regs
        ("macb", ["-T", "eth0"], "hardware clock"),  # macb_get_ts_info (GEM's TSU)
        ("bcmgenet", ["--phy-statistics", "eth0"], "PHY chip"),  # phylib: the PHY may answer
        ("r8169", ["--cable-test", "eth0"], "PHY chip"),  # r8169_phy_connect
        ("stmmac", ["-m", "eth0"], "(SFP)"),  # phylink: an SFP cage answers first
        # r8152's rx-copybreak is the table's now (audit 9a L5, test_lab_low9a.py); stmmac's
        # stmmac_get_tunable has no cited default in the table
        ("stmmac", ["--set-tunable", "eth0", "rx-copybreak", "256"], "from its own hardware"),
        ("bcmgenet", ["-N", "eth0", "delete", "1"], "not modelled"),
    ],
)  # fmt: skip
def test_what_the_hardware_answers_is_not_invented(
    tmp_path: Path, driver: str, argv: list[str], kind: str
) -> None:
    result = ethtool(state_file(tmp_path, driver), argv)
    assert result is not None
    out, err, code = result
    assert (out, code, len(err)) == ("", 1, 1)
    assert err[0].startswith("sbctune lab: ") and kind in err[0] and "real capture" in err[0]


def test_a_captured_line_is_left_to_the_capture(tmp_path: Path) -> None:
    fallback = tmp_path / "captured"
    fallback.write_text("case x in\n  'ethtool -m eth0') cat m.txt; exit 0 ;;\nesac\n",
                        encoding="utf-8")  # fmt: skip
    path = state_file(tmp_path, "igb")
    assert ethtool(path, ["-m", "eth0"], str(fallback)) is None
    assert ethtool(path, ["-t", "eth0"], str(fallback)) is not None


@pytest.mark.parametrize("argv", [["--bogus", "eth0"], ["-q", "eth0"], ["-Z", "eth0", "x"]])
def test_an_unknown_option_is_a_bad_command_line(tmp_path: Path, argv: list[str]) -> None:
    expected = ("", ["ethtool: bad command line argument(s)",
                     "For more information run ethtool -h"], 1)  # fmt: skip
    assert ethtool(state_file(tmp_path, "bcmgenet"), argv) == expected


def test_a_set_without_root_is_not_permitted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """dev_ethtool and genetlink check CAP_NET_ADMIN before the driver is asked."""
    path = state_file(tmp_path, "ax88179_178a")
    monkeypatch.setattr(fake_ethtool_options.os, "geteuid", lambda: 1000)
    assert ethtool(path, ["--set-module", "eth0", "power-mode-policy", "auto"]) == (
        "", ["netlink error: Operation not permitted"], 83)  # fmt: skip
    assert ethtool(path, ["-m", "eth0"]) == ("", ["netlink error: Operation not supported"], 1)


def test_an_op_only_some_kernels_carry_is_neither_claimed_nor_denied(tmp_path: Path) -> None:
    """macb on RP1: the Raspberry Pi tree's GEM ops add nway_reset on some branches only
    (driver_caps "unsure"), Debian's have none: the lab refuses nothing and claims nothing."""
    caps = driver_caps.caps("macb", None, "RP1")
    assert caps is not None and "nway_reset" in caps.unsure and not caps.has("nway_reset")
    result = ethtool(state_file(tmp_path, "macb"), ["-r", "eth0"])
    assert result is not None and "depends on its kernel version" in result[1][0]


@pytest.fixture(scope="module")
def igb_state(tmp_path_factory: pytest.TempPathFactory) -> str:
    return state_file(tmp_path_factory.mktemp("igb"), "igb")


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    option=st.sampled_from([*ETHTOOL_61, "--bogus", "-", "--", "-s", "x"]) | st.text(max_size=12),
    rest=st.lists(st.text(max_size=20), max_size=4),
)
def test_any_command_line_gets_an_answer_or_goes_on_never_a_crash(
    igb_state: str, option: str, rest: list[str]
) -> None:
    """Garbage after a known interface: an answer (words and an exit code) or the capture."""
    result = ethtool(igb_state, [option, "eth0", *rest])
    assert result is None or (isinstance(result[2], int) and all(
        isinstance(line, str) for line in result[1]))  # fmt: skip


def test_flags_before_the_option(tmp_path: Path) -> None:
    """The real binary answered ``-I -m`` and ``--debug 0 -m`` as ``-m``, and refused --json
    for every option but -a, -k, --show-fec, the cable tests and --show-module."""
    path = state_file(tmp_path, "bcmgenet")
    refused = ("", ["netlink error: Operation not supported"], 1)
    assert ethtool(path, ["-I", "-m", "eth0"]) == refused
    assert ethtool(path, ["--debug", "0", "-m", "eth0"]) == refused
    assert ethtool(path, ["--json", "-m", "eth0"]) == (
        "",
        ["ethtool: bad command line argument(s)", "For more information run ethtool -h"],
        1,
    )
    result = ethtool(path, ["--json", "--show-module", "eth0"])
    assert result is not None and "JSON" in result[1][0] and result[2] == 1
    assert ethtool(path, ["-I", "-S", "eth0"]) is None  # what -I adds: the capture's


def test_the_json_options_are_the_real_binarys() -> None:
    blocks = _capture_blocks()
    taken = sorted(line.split()[1] for line, (_, _, err) in blocks.items()
                   if line.startswith("--json ") and "bad command line" not in err)  # fmt: skip
    listed = options_table()["json_options"]
    assert taken and set(taken) <= set(listed)
    assert all(
        option in taken
        for option in listed
        if option.startswith("-")
        and any(line.split()[1:2] == [option] for line in blocks if "--json" in line)
    )
