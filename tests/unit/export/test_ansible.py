"""The Ansible export: a playbook ansible-core accepts, idempotent tasks, only kept tweaks."""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from sbctune.errors import UserError
from sbctune.export import export, gather
from sbctune.export.ansible import _ethtool_checks
from sbctune.history import History, TuningSessionRecord
from tests.unit.export.seed_runs import START, every_kind_data, seed_history, tuning_data

VENV_BIN = Path(sys.executable).parent
PLAYBOOK = str(VENV_BIN / "ansible-playbook")
CAPTURES = Path(__file__).resolve().parents[2] / "captures"


@pytest.fixture
def seeded(tmp_path: Path) -> Iterator[tuple[History, list[int]]]:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    yield history, ids
    history.close()


def _add_session(history: History, data: dict[str, Any], state: str = "confirmed") -> None:
    history.save_tuning_session(
        TuningSessionRecord(1, START + dt.timedelta(minutes=5), state, data)
    )


def _syntax_check(path: Path) -> None:
    if os.name != "posix":
        return  # Ansible's control node runs on POSIX only; the tasks are still checked below
    result = subprocess.run(
        [PLAYBOOK, "-i", "localhost,", "--syntax-check", str(path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def _tasks(path: Path) -> list[dict[str, Any]]:
    plays = yaml.safe_load(path.read_text(encoding="utf-8").replace("!unsafe ", ""))
    tasks: list[dict[str, Any]] = plays[0]["tasks"]
    return tasks


def test_playbook_of_the_runs_session_passes_ansibles_syntax_check(
    seeded: tuple[History, list[int]], tmp_path: Path
) -> None:
    history, ids = seeded
    path = export("ansible", gather(history, ids), tmp_path / "fleet.yml")
    _syntax_check(path)
    tasks = _tasks(path)
    names = " | ".join(t["name"] for t in tasks)
    # Kept tweaks only: the refused XPS and IRQ affinity of seed 000 are not in it.
    assert "rps-rfs" in names and "xps" not in names and "irq-affinity" not in names
    write = next(t for t in tasks if "rps_cpus = f" in t["name"])
    assert write["ansible.builtin.command"]["argv"][0] == "tee"
    assert write["when"].startswith("(sbctune_read_")  # changes only what differs
    boot = next(t for t in tasks if "ansible.builtin.blockinfile" in t)
    assert boot["ansible.builtin.blockinfile"]["block"] == "[all]\narm_freq=2000\nover_voltage=6"
    assert boot["ansible.builtin.blockinfile"]["path"] == "{{ sbctune_boot_dir }}/config.txt"
    unit = next(t for t in tasks if "ansible.builtin.systemd_service" in t)
    assert unit["ansible.builtin.systemd_service"]["enabled"] is True
    # The interface is a variable, so a fleet with another name can override it.
    assert "/sys/class/net/{{ sbctune_nic }}/queues/rx-0/rps_cpus" in write["name"]


def test_every_change_kind_becomes_tasks(seeded: tuple[History, list[int]],
                                         tmp_path: Path) -> None:  # fmt: skip
    history, ids = seeded
    _add_session(history, every_kind_data())
    data = gather(history, ids, tuning_session="20220108T110000Z-d4e5f6")
    path = export("ansible", data, tmp_path / "kinds.yml")
    _syntax_check(path)
    modules = {k for t in _tasks(path) for k in t if k.startswith("ansible.builtin.")}
    assert {"ansible.builtin.command", "ansible.builtin.lineinfile", "ansible.builtin.copy",
            "ansible.builtin.blockinfile", "ansible.builtin.service",
            "ansible.builtin.systemd_service", "ansible.builtin.file"} <= modules  # fmt: skip
    names = [t["name"] for t in _tasks(path)]
    assert any("always reported as changed" in n for n in names)  # ethtool -X: no read-back
    assert not any("wmem_max" in n for n in names)  # the failed tweak is not kept
    cmdline = next(t for t in _tasks(path) if "pci=pcie_bus_perf" in t["name"])
    regexp = cmdline["ansible.builtin.lineinfile"]["regexp"]
    line = "console=tty1 root=PARTUUID=ae083906-02 rootwait"
    assert re.sub(regexp, r"\1 pci=pcie_bus_perf", line) == line + " pci=pcie_bus_perf"
    assert re.match(regexp, line + " pci=pcie_bus_perf") is None  # already there: unchanged


def test_a_reverted_session_or_none_gives_a_clear_message(
    seeded: tuple[History, list[int]], tmp_path: Path
) -> None:
    history, ids = seeded
    with pytest.raises(UserError) as no_session:
        export("ansible", gather(history, ids[:1]), tmp_path / "x.yml")
    assert "no tuning session" in no_session.value.message
    _add_session(history, tuning_data("20220108T120000Z-0a0b0c"), state="reverted")
    data = gather(history, ids[:1], tuning_session="20220108T120000Z-0a0b0c")
    with pytest.raises(UserError) as reverted:
        export("ansible", data, tmp_path / "x.yml")
    assert "it is put back" in reverted.value.message


@pytest.mark.parametrize(
    ("capture", "flag", "param", "value", "matches"),
    [
        ("ethtool_g/ifupdown2_255_max.txt", "-G", "rx", "4096", True),
        ("ethtool_g/ifupdown2_255_max.txt", "-G", "rx", "255", False),
        ("ethtool_g/r8169_torvalds_1132.txt", "-G", "rx", "255", False),  # only a maximum
        ("ethtool_k/firewalla_purple_eth1.txt", "-K", "gro", "on", True),
        ("ethtool_k/firewalla_purple_eth1.txt", "-K", "gro", "off", False),
    ],
)
def test_ethtool_read_backs_match_real_outputs(
    capture: str, flag: str, param: str, value: str, matches: bool
) -> None:
    check = _ethtool_checks()[flag]
    template = check["patterns"].get(param) or check["default"]
    pattern = template.replace("{param}", re.escape(param)).replace("{value}", re.escape(value))
    text = (CAPTURES / capture).read_text(encoding="utf-8")
    assert (re.search(pattern, text) is not None) is matches


@pytest.mark.slow
def test_check_mode_reads_this_machine_and_plans_only_what_differs(
    seeded: tuple[History, list[int]], tmp_path: Path
) -> None:
    """--check on this PC (read-only): the reads run, the conditions evaluate on real values."""
    history, ids = seeded
    session = tuning_data("20220108T130000Z-1a2b3c", persist=False)
    current = (
        Path("/proc/sys/net/ipv4/tcp_rmem").read_text(encoding="utf-8").strip()
    )  # tab-separated
    rps = Path("/sys/class/net/lo/queues/rx-0/rps_cpus").read_text(encoding="utf-8").strip()
    for tweak in session["tweaks"]:
        for change in tweak["changes"]:
            if change["target"] == "net.ipv4.tcp_rmem":
                change["after"] = " ".join(current.split())  # equal once spaces are normalised
            if change["target"].endswith("rps_cpus"):
                change["after"] = "0" * 3 + rps.lstrip("0,")  # equal once zeros are stripped
    session["tweaks"] = [t for t in session["tweaks"] if t["id"] in ("rps-rfs", "socket-buffers")]
    _add_session(history, session)
    path = export("ansible", gather(history, ids, tuning_session="20220108T130000Z-1a2b3c"),
                  tmp_path / "check.yml")  # fmt: skip
    if shutil.which("sysctl") is None:
        pytest.skip("no sysctl on this machine")
    result = subprocess.run(
        [PLAYBOOK, "-i", "localhost,", "-c", "local", "--check", "-v",
         "-e", "sbctune_hosts=localhost", "-e", "sbctune_nic=lo",
         "-e", f"ansible_python_interpreter={sys.executable}", str(path)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    out = result.stdout
    assert result.returncode == 0, out + result.stderr
    assert "failed=0" in out

    def outcome(task: str) -> str:
        block = out.split(f"TASK [{task}")[1].split("TASK [")[0]
        return block

    assert "Conditional result was False" in outcome("socket-buffers: net.ipv4.tcp_rmem =")
    assert "Conditional result was False" in outcome("rps-rfs: /sys/class/net/lo/queues/rx-0/rps")


@pytest.mark.posix_only("runs the playbook's command with /bin/sh and awk")
def test_a_named_interrupt_is_found_by_its_name_where_the_play_runs(
    seeded: tuple[History, list[int]], tmp_path: Path
) -> None:
    """A record that kept the interrupt's name (sessions since the IRQ-by-name change) gives
    tasks that look the number up on the target, as at-boot.sh does: on a Pi whose numbers moved,
    the play writes the NIC's interrupt, not whatever now has the old number."""
    history, ids = seeded
    data = every_kind_data()
    for tweak in data["tweaks"]:
        for change in tweak["changes"]:
            if change["kind"] == "irq_affinity":
                change["irq"] = {"name": "eth0:rx-1", "ordinal": 0}
    _add_session(history, data)
    path = export("ansible", gather(history, ids, tuning_session="20220108T110000Z-d4e5f6"),
                  tmp_path / "named.yml")  # fmt: skip
    _syntax_check(path)
    tasks = [t for t in _tasks(path) if "interrupt eth0:rx-1" in t["name"]]
    assert [t["name"] for t in tasks] == [
        "irq-affinity: read the CPUs of interrupt eth0:rx-1",
        "irq-affinity: CPUs of interrupt eth0:rx-1 = 2",
    ]
    assert not any("/proc/irq/38" in t["name"] for t in _tasks(path))
    # the write task's own argv, run against a real capture (a stmmac with per-queue lines) whose
    # numbers moved: eth0:rx-1 was 133 on that boot; here it is the 4th line numbered from 40
    capture = CAPTURES / "proc_interrupts" / "intel_stmmac_netdev_2021_multi_msi_eth0.txt"
    lines = [ln for ln in capture.read_text(encoding="utf-8").splitlines()
             if ln.partition(":")[0].strip().isdigit()]  # fmt: skip
    renumbered = [f"{40 + i:>4}:{ln.partition(':')[2]}" for i, ln in enumerate(lines)]
    (tmp_path / "interrupts").write_text("\n".join(renumbered) + "\n", encoding="utf-8")
    wanted = next(40 + i for i, ln in enumerate(lines) if ln.rstrip().endswith(" eth0:rx-1"))
    for n in (wanted, 133):
        (tmp_path / "irq" / str(n)).mkdir(parents=True)
        (tmp_path / "irq" / str(n) / "smp_affinity").write_text("f\n", encoding="utf-8")
    argv = tasks[1]["ansible.builtin.command"]["argv"]
    moved = [str(tmp_path / "interrupts") if a == "/proc/interrupts" else
             str(tmp_path / "irq") if a == "/proc/irq" else a for a in argv]  # fmt: skip
    done = subprocess.run(["/bin/sh", *moved[1:]], capture_output=True, text=True, timeout=20)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "irq" / str(wanted) / "smp_affinity").read_text(encoding="utf-8") == "2\n"
    assert (tmp_path / "irq" / "133" / "smp_affinity").read_text(encoding="utf-8") == "f\n"
