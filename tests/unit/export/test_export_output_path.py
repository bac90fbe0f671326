"""`sbctune export -o PATH`: never written through a link at PATH (dangling or not), an
existing file replaced only with --force, and nothing left behind when it is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sbctune.cli.main import main
from tests.unit.export.seed_runs import seed_history


@pytest.fixture
def run_id(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    data = tmp_path / "data"
    data.mkdir()
    history, ids = seed_history(data / "history.sqlite3")
    history.close()
    monkeypatch.setenv("SBCTUNE_DATA_DIR", str(data))
    return str(ids[0])


@pytest.mark.parametrize("dangling", [False, True], ids=["to-a-file", "dangling"])
@pytest.mark.posix_only("makes a symlink (Windows needs a privilege for them)")
def test_a_link_at_the_output_is_refused_and_its_target_untouched(
    run_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], dangling: bool
) -> None:
    victim = tmp_path / "victim.txt"
    if not dangling:
        victim.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "r.md"
    link.symlink_to(victim)
    assert main(["export", run_id, "-f", "md", "-o", str(link), "--force"]) == 1
    err = capsys.readouterr().err
    assert "is a symbolic link: sbctune does not write through links" in err
    assert link.is_symlink()
    assert (
        victim.read_text(encoding="utf-8") == "keep me\n" if not dangling else not victim.exists()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["data", "r.md"] + (
        [] if dangling else ["victim.txt"]))  # fmt: skip


def test_an_existing_file_is_replaced_only_with_force(
    run_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "r.md"
    out.write_text("my notes\n", encoding="utf-8")
    assert main(["export", run_id, "-f", "md", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{out} already exists." in err and "--force" in err
    assert out.read_text(encoding="utf-8") == "my notes\n"
    assert main(["export", run_id, "-f", "md", "-o", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8").startswith("#") and not out.is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["data", "r.md"]  # no temporary left
    if os.name == "posix":  # the mode a new file gets under the umask: POSIX's
        assert out.stat().st_mode & 0o777 == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_a_name_too_long_is_a_clear_message(
    run_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / ("r" * 300 + ".md")
    assert main(["export", run_id, "-f", "md", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "File name too long." in err and "Choose a shorter name with -o." in err
    assert "unexpected error" not in err and sorted(p.name for p in tmp_path.iterdir()) == ["data"]
