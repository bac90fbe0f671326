"""Hostile lab profiles: `lab up` runs as root, so a profile must never make it copy a file
from outside the profile's own tree (a link to /etc/shadow), and what it does copy (the
captures) is readable by the lab's user, not by every user of this host."""

from __future__ import annotations

import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab.errors import ProfileError
from sbctune.lab.profile import load_profile
from sbctune.resources import resource_root

pytest_plugins = ["tests.lab_support"]

PROFILE = Path(str(resource_root())) / "lab" / "profiles" / "pi4-ax88179"


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "shadow"
    path.write_text("root:$6$TOPSECRET:19000:0:99999:7:::\n")
    path.chmod(0o600)
    return path


def hostile_profile(tmp_path: Path, rel: str, target: Path) -> Path:
    dest = tmp_path / "hostile-profile"
    shutil.copytree(PROFILE, dest)
    link = dest / rel
    link.parent.mkdir(parents=True, exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(target)
    return dest


@pytest.mark.parametrize("rel", ["files/000-proc_interrupts.txt", "lab.toml", "manifest.json"])
def test_a_linked_profile_file_is_refused_by_name(tmp_path: Path, secret: Path, rel: str) -> None:
    profile = hostile_profile(tmp_path, rel, secret)
    with pytest.raises(ProfileError) as refused:
        load_profile(profile)
    assert f"{profile / rel} is a symbolic link" in str(refused.value)
    assert "TOPSECRET" not in str(refused.value)


def test_lab_up_refuses_a_linked_boot_file_and_leaves_nothing(lab_factory: Any, tmp_path: Path,
                                                              secret: Path) -> None:  # fmt: skip
    profile = hostile_profile(tmp_path, "boot/config.txt", secret)
    with pytest.raises(ProfileError, match=r"boot/config.txt is a symbolic link"):
        lab_factory(profile=str(profile))
    copies = subprocess.run(["grep", "-rl", "TOPSECRET", "/run/sbctune/labs"],
                            capture_output=True, text=True, check=False)  # fmt: skip
    assert copies.stdout == ""


def test_captures_are_for_the_lab_user_only(lab_factory: Any) -> None:
    lab = lab_factory(profile="pi4-ax88179")
    captures = Path(lab.state_dir) / "captures"
    files = sorted(captures.iterdir())
    assert files
    for path in [captures, *files]:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert not mode & stat.S_IROTH, f"{path} is world-readable ({oct(mode)})"
    # Another user of this host cannot read them; the lab's user can (its `lsusb` works).
    other = subprocess.run(["runuser", "-u", "nobody", "--", "cat", str(files[0])],
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert other.returncode != 0 and "Permission denied" in other.stderr
    mine = subprocess.run(["runuser", "-u", "pi", "--", "cat", str(files[0])],
                          capture_output=True, check=False)  # fmt: skip
    assert mine.returncode == 0 and mine.stdout
