"""The revert script and the tuning parsers, without a Pi.

The revert script is run for real with `sh` against files in a temporary folder, with values
that would do harm if any reached the shell unquoted.
"""

from __future__ import annotations

import json
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sbctune.tuning.catalog import TWEAK_IDS, load_tweaks
from sbctune.tuning.kinds import _raise_only
from sbctune.tuning.knobs import format_mask, mask_value, parse_cpu_list, write_argvs
from sbctune.tuning.model import Change
from sbctune.tuning.parsers import parse_eee, parse_pause
from sbctune.tuning.remote_state import parse_listing
from sbctune.tuning.scripts import STATE_ROOT, revert_script

SESSION = "20250101T120000Z-abcdef"
EVIL = [
    "$(touch PWNED)",
    "`touch PWNED`",
    "'; touch PWNED; '",
    '"; touch PWNED; "',
    "a\nb\ttouch PWNED\n",
    "-rf --",
    "",
]


def _run_revert(tmp_path: Path, changes: list[Change]) -> subprocess.CompletedProcess[str]:
    script = revert_script(SESSION, changes)
    state_dir = tmp_path / "state"
    state_dir.mkdir()
    (state_dir / "state").write_text("armed\n", encoding="utf-8")
    script = script.replace(f"dir={STATE_ROOT}/{SESSION}", f"dir={shlex.quote(str(state_dir))}")
    (tmp_path / "revert.sh").write_text(script, encoding="utf-8")
    return subprocess.run(
        ["sh", str(tmp_path / "revert.sh")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@pytest.mark.posix_only("runs the revert scripts with /bin/sh")
def test_revert_restores_hostile_values_exactly_and_runs_none(tmp_path: Path) -> None:
    changes = []
    for index, value in enumerate(EVIL):
        path = tmp_path / f"file{index}"
        path.write_text("changed by the session", encoding="utf-8")
        changes.append(Change("file", str(path), value, "changed by the session", str(path)))
    created = tmp_path / "created-by-session"
    created.write_text("new", encoding="utf-8")
    changes.append(Change("file", str(created), None, "new", str(created)))

    result = _run_revert(tmp_path, changes)

    assert result.returncode == 0, result.stderr
    for index, value in enumerate(EVIL):
        assert (tmp_path / f"file{index}").read_text(encoding="utf-8") == value
    assert not created.exists()
    assert not (tmp_path / "PWNED").exists()
    assert (tmp_path / "state" / "state").read_text(encoding="utf-8") == "reverted\n"
    assert (tmp_path / "state" / "reverted_by").read_text(encoding="utf-8") == "manual\n"


@pytest.mark.posix_only("runs the revert scripts with /bin/sh")
def test_revert_goes_newest_first_and_reports_a_failure(tmp_path: Path) -> None:
    path = tmp_path / "knob"
    path.write_text("third", encoding="utf-8")
    changes = [
        Change("file", str(path), "first", "second", str(path)),
        Change("file", str(path), "second", "third", str(path)),
        Change("file", str(tmp_path / "no" / "dir"), "x", "y", str(tmp_path / "no" / "dir")),
    ]
    result = _run_revert(tmp_path, changes)
    assert path.read_text(encoding="utf-8") == "first"  # the oldest snapshot wins
    assert result.returncode != 0
    assert (tmp_path / "state" / "state").read_text(encoding="utf-8") == "revert_failed\n"


@pytest.mark.posix_only("runs the revert scripts with /bin/sh")
def test_a_confirmed_session_is_left_alone_by_the_guard(tmp_path: Path) -> None:
    path = tmp_path / "knob"
    path.write_text("after", encoding="utf-8")
    script = revert_script(SESSION, [Change("file", str(path), "before", "after", str(path))])
    (tmp_path / "state").mkdir()
    (tmp_path / "state" / "state").write_text("confirmed\n", encoding="utf-8")
    script = script.replace(f"dir={STATE_ROOT}/{SESSION}", f"dir={tmp_path / 'state'}")
    (tmp_path / "revert.sh").write_text(script, encoding="utf-8")
    subprocess.run(["sh", str(tmp_path / "revert.sh"), "guard"], check=True, timeout=30)
    assert path.read_text(encoding="utf-8") == "after"


# Values read from the Pi are decoded with errors="replace": never NUL, never a lone surrogate.
_VALUE = st.text(alphabet=st.characters(blacklist_characters="\x00", blacklist_categories=("Cs",)))


@pytest.mark.posix_only("runs the revert scripts with /bin/sh")
@settings(max_examples=40, deadline=None)
@given(st.lists(_VALUE, max_size=4))
def test_every_step_gets_exactly_its_argv(tmp_path_factory: Any, values: list[str]) -> None:
    """The shell itself receives each value unchanged (step() here prints its arguments)."""
    tmp = tmp_path_factory.mktemp("argv")
    changes = [
        Change("sysctl", f"net.core.k{i}", v, "1", f"/proc/sys/net/core/k{i}")
        for i, v in enumerate(values)
    ]
    script = revert_script(SESSION, changes)
    start = script.index("\nstep() {")
    end = script.index("\n", start + 1)
    script = script[:start] + '\nstep() { printf \'%s\\0\' "$#" "$@"; }' + script[end:]
    (tmp / "state").mkdir()
    script = script.replace(f"dir={STATE_ROOT}/{SESSION}", f"dir={shlex.quote(str(tmp / 'state'))}")
    out = subprocess.run(["sh", "-c", script], capture_output=True, timeout=30, check=False).stdout
    tokens = out.split(b"\0")[:-1]
    got = []
    while tokens:
        count = int(tokens.pop(0))
        got.append(tokens[:count])
        tokens = tokens[count:]
    expected = [
        [a.encode() for a in argv]
        for change in reversed(changes)
        for argv in write_argvs(change, change.before, restoring=True)
    ]
    assert got == expected


def test_tweak_definitions_have_every_id_and_a_source() -> None:
    tweaks = load_tweaks()
    assert sorted(t.id for t in tweaks) == sorted(TWEAK_IDS)
    for tweak in tweaks:
        assert tweak.sources and tweak.why and tweak.title
        if tweak.advanced:
            assert not tweak.recommended, tweak.id
    advanced = {t.id for t in tweaks if t.advanced}
    assert {"mtu-jumbo", "boot-arm-freq", "boot-pcie-bus-perf", "boot-pi5-pcie-gen3"} <= advanced


def test_socket_buffers_only_ever_raise() -> None:
    assert _raise_only("212992", "16777216") == "16777216"
    assert _raise_only("33554432", "16777216") == "33554432"
    assert _raise_only("4096\t131072\t6291456", "4096 65536 16777216") == "4096\t131072\t16777216"
    assert _raise_only("4096\t131072\t33554432", "4096 65536 16777216") == "4096\t131072\t33554432"
    assert _raise_only("garbage", "1") is None


def test_masks_keep_the_kernels_width() -> None:
    assert format_mask(0xF, "0") == "f"
    assert format_mask(0x2, "00000000,0000000f") == "00000000,00000002"
    assert mask_value("00000000,0000000f") == 0xF
    assert parse_cpu_list("0-3") == [0, 1, 2, 3]
    assert parse_cpu_list("0,2-3\n") == [0, 2, 3]


# EEE and pause outputs: real captures in tests/unit/test_tuning_planning.py.


@given(st.text())
def test_parsers_survive_garbage(text: str) -> None:
    parse_eee(text)
    parse_pause(text)
    parse_cpu_list(text)
    mask_value(text)
    parse_listing(text.encode("utf-8", errors="replace"))


@given(st.binary())
def test_session_listing_survives_garbage(data: bytes) -> None:
    netns, sessions = parse_listing(data)
    assert isinstance(netns, str)
    assert all(s.id for s in sessions)


def test_session_listing_reads_a_real_listing() -> None:
    body = json.dumps({"id": SESSION, "guard_seconds": 90, "tweaks": [], "netns": "net:[1]"})
    folder = f"{STATE_ROOT}/{SESSION}/"
    fields = ["net:[1]\n", "1700000030\n", folder, "armed\n", body, "1700000000\n", "1", "", ""]
    data = "\0".join(fields).encode()
    netns, sessions = parse_listing(data, pc_now=1700000030)
    assert netns == "net:[1]"
    assert [(s.id, s.state, s.armed_at) for s in sessions] == [(SESSION, "armed", 1700000000)]
    assert sessions[0].as_leftover().guard_deadline == 1700000090
    assert sessions[0].guard_running is True and not sessions[0].as_leftover().orphaned


def test_who_and_when_are_written_before_the_state_says_reverted(tmp_path: Path) -> None:
    """A reader that sees `reverted` reads reverted_by at once (the app's status, the unreachable-Pi
    test): the revert writes who and when before it flips the state, never after."""
    path = tmp_path / "knob"
    lines = revert_script(SESSION, [Change("file", str(path), "before", "after", str(path))]).split(
        "\n"
    )
    flip = next(i for i, line in enumerate(lines) if "set_state reverted" in line)
    assert any('"$dir/reverted_by"' in line for line in lines[:flip])
    assert any('"$dir/reverted_at"' in line for line in lines[:flip])
