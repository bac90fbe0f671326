"""KnownHosts.replace: one key for a host in sbctune's own file, other lines kept."""

from __future__ import annotations

from pathlib import Path

from sbctune.remote.hostkeys import KnownHosts

OLD = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOld"
NEW = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINew sbctune-lab-x"


def test_replace_keeps_other_hosts_and_ports(tmp_path: Path) -> None:
    mine = tmp_path / "known_hosts"
    mine.write_text(
        "# a comment\n"
        f"198.18.0.2 {OLD}\n"
        f"[198.18.0.2]:2222 {OLD}\n"
        f"198.18.0.20,pi.local {OLD}\n"
        f"pi.local,198.18.0.2 {OLD}\n",
        encoding="utf-8",
    )
    KnownHosts(read_from=[], write_to=mine).replace("198.18.0.2", 22, NEW)
    lines = mine.read_text(encoding="utf-8").splitlines()
    assert lines[:3] == ["# a comment", f"[198.18.0.2]:2222 {OLD}", f"198.18.0.20,pi.local {OLD}"]
    assert lines[-1] == "198.18.0.2 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINew"
    assert len(lines) == 4  # both old entries naming 198.18.0.2 on port 22 are gone


def test_replace_creates_the_file(tmp_path: Path) -> None:
    mine = tmp_path / "d" / "known_hosts"
    KnownHosts(read_from=[], write_to=mine).replace("198.18.0.6", 2222, NEW)
    assert (
        mine.read_text(encoding="utf-8")
        == "[198.18.0.6]:2222 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINew\n"
    )
