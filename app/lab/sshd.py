"""The lab's login: user ``pi`` with a per-lab password, sudo that asks for it, and sshd.

Several labs can be up at once, each with its own password: the host's ``pi`` account stays
locked, and every lab bind-mounts its own shadow file (set with chpasswd) over /etc/shadow in
its mount namespace, which sshd and sudo read there.
"""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from sbctune.lab.errors import LabError
from sbctune.lab.state import MARKER_DIR
from sbctune.lab.system import run, tool

USER = "pi"
SUDOERS = Path("/etc/sudoers.d/sbctune-lab")
USER_MARKER = "created-user-pi"
_SETPW_SCRIPT = 'mount --bind "$1" /etc && exec chpasswd -c SHA512'
_ETC_FOR_CHPASSWD = ("passwd", "group", "login.defs", "nsswitch.conf")


def new_password() -> str:
    return secrets.token_urlsafe(12)


def user_exists() -> bool:
    import pwd

    try:
        pwd.getpwnam(USER)
    except KeyError:
        return False
    return True


def ensure_user() -> None:
    """Create ``pi`` (locked on the host) if missing, and remember that we did."""
    if user_exists():
        return
    run(
        [
            tool("useradd"),
            "--create-home",
            "--shell",
            "/bin/bash",
            "--comment",
            "sbctune virtual Pi lab",
            USER,
        ],
        what="creating the lab user pi",
    )
    MARKER_DIR.mkdir(parents=True, exist_ok=True)
    (MARKER_DIR / USER_MARKER).write_text(
        "created by sbctune lab up; removed by lab down\n", encoding="utf-8"
    )


def remove_user_if_ours() -> None:
    marker = MARKER_DIR / USER_MARKER
    if not marker.exists():
        return
    if user_exists():
        run([tool("userdel"), "--force", "--remove", USER], check=False)
    marker.unlink(missing_ok=True)


def ensure_sudoers() -> None:
    """pi may sudo, with its password (no NOPASSWD), like Raspberry Pi OS with a password."""
    if SUDOERS.exists():
        return
    tmp = SUDOERS.with_name(".sbctune-lab.tmp")
    tmp.write_text(
        f'# sbctune virtual Pi lab; "sbctune lab down" removes this file.\n'
        f"{USER} ALL=(ALL:ALL) ALL\n",
        encoding="utf-8",
    )
    os.chmod(tmp, 0o440)
    visudo = shutil.which("visudo") or "/usr/sbin/visudo"
    if os.path.exists(visudo) and not run([visudo, "-cqf", str(tmp)], check=False).ok:
        tmp.unlink()
        raise LabError("the lab's sudoers drop-in did not pass visudo -c")
    os.replace(tmp, SUDOERS)


def remove_sudoers() -> None:
    SUDOERS.unlink(missing_ok=True)


def write_shadow(lab_dir: Path, password: str) -> Path:
    """A shadow file for the lab: every account locked except pi, whose password chpasswd sets."""
    etc = lab_dir / "etc"
    etc.mkdir(mode=0o700, exist_ok=True)
    for name in _ETC_FOR_CHPASSWD:
        if os.path.exists(f"/etc/{name}"):
            shutil.copy2(f"/etc/{name}", etc / name)
    import pwd

    lines = []
    for entry in pwd.getpwall():
        lines.append(f"{entry.pw_name}:*:19000:0:99999:7:::")
    shadow = etc / "shadow"
    fd = os.open(shadow, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o640)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")
    shutil.chown(shadow, "root", "shadow" if _group_exists("shadow") else "root")
    run(
        [
            tool("unshare"),
            "--mount",
            "--propagation",
            "private",
            "--",
            "/bin/sh",
            "-c",
            _SETPW_SCRIPT,
            "sh",
            str(etc),
        ],
        input_text=f"{USER}:{password}\n",
        what="setting the lab password with chpasswd",
    )
    return shadow


def _group_exists(name: str) -> bool:
    import grp

    try:
        grp.getgrnam(name)
    except KeyError:
        return False
    return True


def host_key(lab_dir: Path, name: str) -> Path:
    ssh = lab_dir / "ssh"
    ssh.mkdir(mode=0o700, exist_ok=True)
    key = ssh / "ssh_host_ed25519_key"
    run(
        [
            tool("ssh-keygen"),
            "-q",
            "-t",
            "ed25519",
            "-N",
            "",
            "-C",
            f"sbctune-lab-{name}",
            "-f",
            str(key),
        ],
        what="generating the lab's SSH host key",
    )
    return key


def write_config(lab_dir: Path, key: Path, listen: list[str], port: int = 22) -> Path:
    lines = [
        '# sbctune virtual Pi lab: generated per lab, removed by "sbctune lab down".',
        f"Port {port}",
        *(f"ListenAddress {addr}" for addr in listen),
        f"HostKey {key}",
        f"PidFile {lab_dir / 'sshd.pid'}",
        "PasswordAuthentication yes",
        "KbdInteractiveAuthentication no",
        "PubkeyAuthentication yes",
        "PermitRootLogin no",
        f"AllowUsers {USER}",
        "UsePAM no",
        "UseDNS no",
        "PrintMotd no",
        "X11Forwarding no",
        "MaxStartups 50:30:100",
        "MaxSessions 50",
        "AcceptEnv LANG LC_*",
        "Subsystem sftp internal-sftp",
        "",
    ]
    config = lab_dir / "ssh" / "sshd_config"
    config.write_text("\n".join(lines), encoding="utf-8")
    run([tool("sshd"), "-t", "-f", str(config)], what="checking the lab's sshd config")
    return config


def ensure_privsep_dir() -> bool:
    """sshd needs /run/sshd; returns True if we had to create it."""
    path = Path("/run/sshd")
    if path.is_dir():
        return False
    path.mkdir(mode=0o755)
    return True
