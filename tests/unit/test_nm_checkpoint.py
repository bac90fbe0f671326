"""NetworkManager checkpoint helpers: argument lists and busctl's reply, garbage included.

The real reply (``o "/org/freedesktop/NetworkManager/Checkpoint/N"``) is exercised against
NetworkManager itself in tests/vm/test_vm_lab.py; here only what needs no VM.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sbctune.tuning import nm_checkpoint
from sbctune.tuning.model import Change


def test_create_asks_for_every_device_with_the_guard_time() -> None:
    argv = nm_checkpoint.create_argv(120)
    assert argv[:7] == [
        "busctl", "call", "org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager",
        "org.freedesktop.NetworkManager", "CheckpointCreate", "aouu",
    ]  # fmt: skip
    assert argv[7:] == ["0", "120", "0"]  # no devices = all; timeout; flags


def test_a_checkpoint_path_is_checked_before_it_goes_into_a_command() -> None:
    good = "/org/freedesktop/NetworkManager/Checkpoint/3"
    assert nm_checkpoint.destroy_argv(good)[-1] == good
    with pytest.raises(ValueError):
        nm_checkpoint.rollback_argv("/org/freedesktop/NetworkManager; reboot")


def test_only_mtu_changes_count_as_addressing() -> None:
    mtu = Change("mtu", "eth0 mtu", "1500", "9000")
    rps = Change("file", "/sys/class/net/eth0/queues/rx-0/rps_cpus", "0", "f")
    assert nm_checkpoint.touches_addressing([rps, mtu])
    assert not nm_checkpoint.touches_addressing([rps])
    assert not nm_checkpoint.touches_addressing([Change("mtu", "eth0 mtu", "1500", "1500")])


@given(st.text(max_size=300))
def test_garbage_replies_give_no_path(text: str) -> None:
    path = nm_checkpoint.parse_created(text)
    assert path is None or path.startswith("/org/freedesktop/NetworkManager/Checkpoint/")


def test_confirm_revert_and_guard_destroy_the_recorded_checkpoint() -> None:
    from sbctune.tuning import scripts

    session = "20261123T203500Z-abcdef"
    revert = scripts.revert_script(session, [Change("mtu", "eth0", "1500", "9000")])
    for text in (scripts.CONFIRM, scripts.DISCARD):
        assert "CheckpointDestroy" in text and nm_checkpoint.RECORD in text
    # revert.sh destroys it on the guard's path too (after restoring, not only when disarming)
    guard_part = revert.split('if [ "$why" != guard ]', 1)[1].split("fi\n", 1)[1]
    assert "CheckpointDestroy" in guard_part
    assert nm_checkpoint.adjust_argv("/org/freedesktop/NetworkManager/Checkpoint/3", 90)[-2:] == [
        "/org/freedesktop/NetworkManager/Checkpoint/3",
        "90",
    ]
