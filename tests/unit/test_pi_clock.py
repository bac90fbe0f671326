"""Deadlines shown from the Pi's own clock: a Pi 3 days ahead or 400 days behind this computer
still shows the seconds its guard has left. The session scripts run for real with `sh`, with a
`date` on PATH that answers the Pi's clock (as a Pi with a wrong clock would)."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

from sbctune.cli.tune_status import state_text
from sbctune.tuning import scripts
from sbctune.tuning.remote_state import parse_listing
from sbctune.workflow.leftover import leftover_notice

SESSION = "20250101T120000Z-aaaaaa"
DAY = 86400


def _pi_env(tmp_path: Path, offset: int) -> dict[str, str]:
    """`date` answers this computer's clock + `offset` seconds; everything else is real."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "date"
    fake.write_text(
        f'#!/bin/sh\nexec /bin/date -d "@$(( $(/bin/date +%s) + {offset} ))" "$@"\n',
        encoding="utf-8",
    )
    fake.chmod(0o755)
    return dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


@pytest.mark.posix_only("runs the Pi's listing script under sh, with a fake date on PATH")
@pytest.mark.parametrize("offset", [3 * DAY, -400 * DAY], ids=["3-days-ahead", "400-days-behind"])
def test_the_deadline_shown_is_the_seconds_left_on_the_pi(tmp_path: Path, offset: int) -> None:
    env = _pi_env(tmp_path, offset)
    root = tmp_path / "tuning"
    directory = root / SESSION
    directory.mkdir(parents=True)
    body = {"id": SESSION, "guard_seconds": 90, "tweaks": [], "netns": "net:[1]", "nic": "eth0"}
    (directory / "session.json").write_text(json.dumps(body), encoding="utf-8")
    (directory / "state").write_text("armed\n", encoding="utf-8")
    subprocess.run(["sh", "-c", scripts.ARMED_AT, "sh", str(directory)], env=env, check=True,
                   timeout=30)  # fmt: skip
    armed_at = int((directory / "armed_at").read_text(encoding="utf-8"))
    assert abs(armed_at - (time.time() + offset)) < 60  # the Pi's clock, not this computer's
    # A process standing for the guard (the listing knows it by its folder in the cmdline).
    guard = subprocess.Popen(["sh", "-c", "sleep 30", f"{directory}/guard.sh"])
    try:
        (directory / "guard.pid").write_text(str(guard.pid), encoding="utf-8")
        time.sleep(1)  # a second of the guard's 90 has gone
        listed = subprocess.run(["sh", "-c", scripts.LIST, "sh", str(root)], env=env,
                                capture_output=True, timeout=30, check=True)  # fmt: skip
    finally:
        guard.kill()
        guard.wait(timeout=10)
    now = time.time()
    (stored,) = parse_listing(listed.stdout, pc_now=now)[1]
    leftover = stored.as_leftover()
    assert leftover.guard_deadline is not None
    left = leftover.guard_deadline - now
    assert 85 <= left <= 90, left
    notice = leftover_notice(leftover, now=now)
    assert f"in about {round(left)} s" in notice.detail
    shown = time.strftime("%H:%M:%S", time.localtime(leftover.guard_deadline))
    assert state_text(leftover) == f"armed (reverts by itself at {shown})"


def test_a_listing_without_the_pis_clock_shows_no_deadline() -> None:
    body = json.dumps({"id": SESSION, "guard_seconds": 90, "tweaks": [], "netns": "net:[1]"})
    folder = f"{scripts.STATE_ROOT}/{SESSION}/"
    data = "\0".join(["net:[1]", "not a clock", folder, "armed", body, "1700000000", "1", "", ""])
    (stored,) = parse_listing(data.encode())[1]
    leftover = stored.as_leftover()
    assert leftover.guard_deadline is None
    assert "in about" not in leftover_notice(leftover).detail


def test_the_listings_armed_time_and_held_seconds_are_told_apart() -> None:
    """The listing prints `cat armed_at`, a space, `cat guard.seconds`; either file may be
    missing (no re-arm yet; a session whose armed time was never written)."""
    body = json.dumps({"id": SESSION, "guard_seconds": 90, "tweaks": [], "netns": "net:[1]"})
    folder = f"{scripts.STATE_ROOT}/{SESSION}/"
    for armed, at, held in [("1700000000\n 400", 1700000000, 400),
                            ("1700000000\n ", 1700000000, None),
                            ("1700000000\n", 1700000000, None),  # an older sbctune's listing
                            (" 400", None, 400)]:  # fmt: skip
        data = "\0".join(["net:[1]", "1700000100", folder, "armed", body, armed, "1", "", ""])
        (stored,) = parse_listing(data.encode())[1]
        assert (stored.armed_at, stored.held_seconds) == (at, held), armed
