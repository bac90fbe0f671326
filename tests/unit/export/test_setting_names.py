"""The reports name each setting in plain words first, with its own key only as a detail
("Receive buffer size limit (net.core.rmem_max): 212992 → 16777216"): in "What changed on the
Pi" (the settings kept with each run) and in the tuning session's changes. The names come from
resources/tuning/setting_names.json; a key it does not name is shown as it is."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    "rps/rx-0": "0",
    "xps/tx-0": "00000000,00000001",
    "irq_affinity/46": "f",
}
AFTER = {
    "sysctl/net.core.rmem_max": "16777216",
    "offload/generic-receive-offload": "on",
    "governor/policy0": "performance",
    "ring/RX": "4096",
    "coalesce/rx-usecs": "50",
    "mtu": "1500",
    "rps/rx-0": "f",
    "xps/tx-0": "00000000,00000005",
    "irq_affinity/46": "2",
}
PLAIN = [
    "Receive buffer size limit (net.core.rmem_max): 212992 → 16777216",
    "Generic receive offload (generic-receive-offload): off → on",
    "CPU frequency governor of policy0 (governor/policy0): ondemand → performance",
    "Receive ring size (RX): 1024 → 4096",
    "Receive interrupt delay in µs (rx-usecs): 8 → 50",
    # CPU masks in words, the key kept as a detail (the walk of session 11: "rps/rx-0: 0 → f")
    "Receive steering for queue rx-0 (rps/rx-0): off → CPUs 0–3",
    "Transmit steering for queue tx-0 (xps/tx-0): CPU 0 → CPUs 0, 2",
    "CPUs that take interrupt 46 (irq_affinity/46): CPUs 0–3 → CPU 1",
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
    # as read: the break opportunities in long words (walk 27) show nothing
    text = path.read_text(encoding="utf-8").replace("<wbr>", "")
    cells = re.findall(r'<td class="changes">(.*?)</td>', text, re.S)
    lines = [line for cell in cells for line in cell.split("<br>") if "→" in line]
    assert "Receive buffer size limit (net.core.rmem_max): 212992 → 16777216" in lines
    assert (
        "Receive steering for queue rx-0 "
        "(/sys/class/net/eth1/queues/rx-0/rps_cpus): off → CPUs 0–3" in lines
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


def test_a_cpu_mask_is_read_as_the_cpus_it_names() -> None:
    from sbctune.tuning.setting_names import setting_value

    assert setting_value("rps/rx-0", "ff,00000001") == "CPUs 0, 32–39"
    assert setting_value("/proc/irq/46/smp_affinity_list", "0-1,3", "file") == "CPUs 0, 1, 3"
    assert setting_value("/proc/irq/46/smp_affinity", "4", "file") == "CPU 2"
    # not a mask, or not a mask setting: shown as it is
    assert setting_value("rps/rx-0", "zz") == "zz"
    assert setting_value("rps/rx-0", "f" * 5000) == "f" * 5000
    assert setting_value("sysctl/net.core.rmem_max", "10") == "10"
    assert setting_value("eth1 -G rx", "f", "ethtool") == "f"


@given(st.text(max_size=300))
@settings(max_examples=200, deadline=None)
def test_any_text_as_a_mask_is_shown_never_a_crash(value: str) -> None:
    from sbctune.tuning.setting_names import setting_value

    for key, kind in (("rps/rx-0", None), ("/proc/irq/9/smp_affinity_list", "file")):
        shown = setting_value(key, value, kind)
        assert isinstance(shown, str) and len(shown) <= max(len(value), 40_000)
