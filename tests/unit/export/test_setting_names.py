"""The reports name each setting in plain words first, with its own key only as a detail
("Receive buffer size limit (net.core.rmem_max): 212992 → 16777216"): in "What changed on the
Pi" (the settings kept with each run) and in the tuning session's changes. The names come from
resources/tuning/setting_names.json; a key it does not name is shown as it is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sbctune.export import export, gather
from sbctune.history import History
from sbctune.tuning.setting_names import setting_label
from tests.unit.export.seed_runs import START, seed_history, seed_run

BEFORE = {
    "sysctl/net.core.rmem_max": "212992",
    "offload/generic-receive-offload": "off",
    "governor/policy0": "ondemand",
    "ring/RX": "1024",
    "coalesce/rx-usecs": "8",
    "mtu": "1500",
}
AFTER = {
    "sysctl/net.core.rmem_max": "16777216",
    "offload/generic-receive-offload": "on",
    "governor/policy0": "performance",
    "ring/RX": "4096",
    "coalesce/rx-usecs": "50",
    "mtu": "1500",
}
PLAIN = [
    "Receive buffer size limit (net.core.rmem_max): 212992 → 16777216",
    "Generic receive offload (generic-receive-offload): off → on",
    "CPU frequency governor of policy0 (governor/policy0): ondemand → performance",
    "Receive ring size (RX): 1024 → 4096",
    "Receive interrupt delay in µs (rx-usecs): 8 → 50",
]
RAW_FIRST = re.compile(r"^(?:sysctl|offload|governor|ring|coalesce|rps|xps|irq_affinity)/|^net\.")


def _two_runs(path: Path) -> tuple[History, list[int]]:
    history = History.open(path)
    device = history.add_device("lbox", 22, "root", name="Raspberry Pi 4 Model B", seen_at=START)
    assert device.id is not None
    ids = []
    for minutes, state in ((1, BEFORE), (11, AFTER)):
        run = seed_run("ax88179", 1500, device.id, minutes=minutes)
        run.pi_state = dict(state)
        ids.append(history.save_run(run))
    return history, ids


def _section(text: str) -> list[str]:
    """The lines of the list under "What changed on the Pi, run 1 → run 2", as read."""
    part = text.split("What changed on the Pi", 1)[1].split("(measured with", 1)[0]
    part = part.split("</ul>", 1)[0].replace("</li>", "\n").replace("\\_", "_")
    items = re.split(r"\n- |<li>", part)[1:]
    return [item.strip() for item in items]


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_what_changed_names_each_setting_plainly(fmt: str, tmp_path: Path) -> None:
    history, ids = _two_runs(tmp_path / "history.sqlite3")
    with history:
        path = export(fmt, gather(history, ids), tmp_path / f"report.{fmt}")
    lines = _section(path.read_text(encoding="utf-8"))
    assert sorted(lines) == sorted(PLAIN)
    assert not [line for line in lines if RAW_FIRST.search(line)]


def test_the_tuning_sessions_changes_name_each_setting_plainly(tmp_path: Path) -> None:
    history, ids = seed_history(tmp_path / "history.sqlite3")
    with history:
        path = export("html", gather(history, ids), tmp_path / "report.html")
    text = path.read_text(encoding="utf-8")
    cells = re.findall(r'<td class="changes">(.*?)</td>', text, re.S)
    lines = [line for cell in cells for line in cell.split("<br>") if "→" in line]
    assert "Receive buffer size limit (net.core.rmem_max): 212992 → 16777216" in lines
    assert (
        "Receive packet steering CPUs, queue rx-0 "
        "(/sys/class/net/eth1/queues/rx-0/rps_cpus): 0 → f" in lines
    )
    assert "Energy-Efficient Ethernet (eth1 --set-eee eee): on → off" in lines
    # every value line starts with words, not with a path, a sysctl or an ethtool option
    assert not [line for line in lines if re.match(r"/|net\.|eth\d", line)], lines


def test_a_key_without_a_plain_name_is_shown_as_it_is() -> None:
    assert setting_label("tweaks in force") == "tweaks in force"
    assert setting_label("eth1 -X weight", "ethtool") == "eth1 -X weight"
    assert setting_label("/etc/systemd/system/x.service", "file") == "/etc/systemd/system/x.service"
    # an offload this table does not name is still said to be one
    assert setting_label("offload/tx-nocache-copy") == "A NIC offload (tx-nocache-copy)"
