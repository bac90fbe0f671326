"""What a driver's open sets again, at an administrative `ip link set down/up` too (audit 6a row
7, audit 6b row 10; driver_caps.json `coalesce_reset_on_open`): r8169's rtl_hw_start_8168
writes IntrMitigate 0, bcmgenet_init_tx_ring writes tx-frames 1, __stmmac_open calls
stmmac_init_coalesce. The lab's `ip` runs the ethtool model's reopen after such an up."""

from __future__ import annotations

import dataclasses
import subprocess
from pathlib import Path
from typing import Any

import pytest

from sbctune.lab import fake_ethtool, ip_front, ip_model, load_profile
from tests.unit.test_lab_driver_table import ethtool, lab, root

pytestmark = pytest.mark.posix_only("the lab's fake ethtool locks its state with fcntl")

CASES = [
    # driver, chip, the -C asked, what each read back after the open
    ("r8169", "RTL8168H", ("rx-usecs", "100", "rx-frames", "16"),
     {"rx-usecs": "0", "rx-frames": "1"}),
    ("bcmgenet", "", ("tx-frames", "64", "rx-usecs", "50"), {"tx-frames": "1", "rx-usecs": "57"}),
    ("stmmac", "RK3588", ("tx-usecs", "200", "tx-frames", "10"),
     {"tx-usecs": "5000", "tx-frames": "25"}),
]  # fmt: skip


def coalesce_values(state: str) -> dict[str, str]:
    out, _, code = ethtool(state, "-c", "eth0")
    assert code == 0
    pairs = (line.split(":", 1) for line in out.splitlines() if ":" in line)
    return {k.strip(): v.strip() for k, v in pairs}


def profile_with(driver: str, chip: str) -> Any:
    base = load_profile("pi4-ax88179")
    spec = next(s for s in base.interfaces if s.driver)
    iface = dataclasses.replace(spec, driver=driver, chip=chip or None)
    return dataclasses.replace(base, interfaces=(iface,), kernel="6.12"), spec.name


@root
@pytest.mark.parametrize(("driver", "chip", "asked", "after"), CASES)
def test_an_open_sets_the_drivers_coalescing_back(
    tmp_path: Path, driver: str, chip: str, asked: tuple[str, ...], after: dict[str, str]
) -> None:
    """Before: r8169 and bcmgenet kept the -C over a reopen (nothing said what their open
    writes); bcmgenet keeps its RX values (bcmgenet_init_rx_coalesce), 50 -> 57 µs."""
    state = lab(tmp_path, driver, chip, "6.12")
    assert ethtool(state, "-C", "eth0", *asked)[2] == 0
    assert fake_ethtool.refresh_shown(state, ["eth0"]) == 0
    values = coalesce_values(state)
    assert {k: values[k] for k in after} == after


@pytest.mark.parametrize(("driver", "chip"), [(c[0], c[1]) for c in CASES])
def test_the_labs_ip_knows_which_open_resets(driver: str, chip: str) -> None:
    profile, name = profile_with(driver, chip)
    limit = ip_front.limits(profile, ["model", fake_ethtool.REFRESH])[name]
    assert limit["reopen"] == ["model", fake_ethtool.REFRESH, name]


def test_a_driver_whose_open_keeps_coalescing_has_no_reopen() -> None:
    profile, name = profile_with("r8152", "RTL8153")
    assert "reopen" not in ip_front.limits(profile, ["model", fake_ethtool.REFRESH]).get(name, {})


def _record_what_ip_model_runs(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The lab's ip model runs the real ip and the ethtool model: recorded here, not run."""
    ran: list[list[str]] = []

    def run(cmd: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
        ran.append(list(cmd))
        return subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(ip_model.subprocess, "run", run)
    monkeypatch.setattr(ip_model.os, "execv", lambda path, args: ran.append(list(args)))
    return ran


@pytest.mark.parametrize(
    ("argv", "up_before", "reopened"),
    [
        (["link", "set", "eth0", "up"], False, True),
        (["link", "set", "dev", "eth0", "up"], False, True),
        (["link", "set", "eth0", "up"], True, False),  # already up: dev_open does nothing
        (["link", "set", "eth0", "down"], True, False),
        (["link", "set", "eth1", "up"], False, False),  # no driver model there
    ],
)
def test_ip_link_set_up_reopens_an_interface_that_was_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    argv: list[str], up_before: bool, reopened: bool,
) -> None:  # fmt: skip
    limits = tmp_path / "limits.json"
    limits.write_text('{"eth0": {"reopen": ["model", "--refresh", "eth0"]}}', encoding="utf-8")
    states = iter([up_before, True, True])
    monkeypatch.setattr(ip_model, "_is_up", lambda name: next(states))
    ran = _record_what_ip_model_runs(monkeypatch)
    ip_model.main([str(limits), "/real/ip", *argv])
    assert ran[0] == ["/real/ip", *argv]
    assert (["model", "--refresh", "eth0"] in ran) is reopened


def test_the_front_sends_link_up_to_the_model(tmp_path: Path) -> None:
    script = tmp_path / "ip"
    text = ip_front.front_text("echo", Path("model"), Path("limits"), "echo-real")
    script.write_text(text.replace("exec echo-real", "echo real"), encoding="utf-8")
    out = subprocess.run(["sh", str(script), "link", "set", "eth0", "up"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    assert out.startswith("model limits echo-real link set eth0 up")
    out = subprocess.run(["sh", str(script), "link", "set", "eth0", "down"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    assert out.startswith("model limits echo-real link set eth0 down")  # the carrier: shown
    out = subprocess.run(["sh", str(script), "addr", "show"], capture_output=True,
                         text=True, check=True).stdout  # fmt: skip
    assert out.startswith("real")


@pytest.mark.parametrize(
    ("argv", "shown_again"),
    [
        (["link", "set", "eth0", "down"], True),
        (["link", "set", "dev", "eth0", "up"], True),
        (["link", "set", "eth1", "down"], False),  # no driver model there
        (["link", "show", "eth0"], False),
    ],
)
def test_ip_link_set_up_or_down_writes_the_ethtool_answers_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str], shown_again: bool
) -> None:
    """The lab's ethtool answers read the carrier (-a's negotiated lines, bcmgenet's resolved
    RX/TX): after the lab's own `ip link set down` they were the link-up ones until the next
    ethtool set. Before: down went straight to the real ip, up refreshed only on a reopen."""
    limits = tmp_path / "limits.json"
    limits.write_text('{"eth0": {"shown": ["model", "--refresh"]}}', encoding="utf-8")
    monkeypatch.setattr(ip_model, "_is_up", lambda name: True)
    ran = _record_what_ip_model_runs(monkeypatch)
    ip_model.main([str(limits), "/real/ip", *argv])
    assert ran[0] == ["/real/ip", *argv]
    assert (["model", "--refresh"] in ran) is shown_again


def test_every_modelled_interface_has_its_answers_written_again() -> None:
    profile, name = profile_with("r8152", "RTL8153")
    limit = ip_front.limits(profile, ["model", fake_ethtool.REFRESH])[name]
    assert limit["shown"] == ["model", fake_ethtool.REFRESH]


@root
@pytest.mark.parametrize("how", ["ring change", "down/up"])
def test_the_pi5s_open_sets_interrupt_moderation_back_to_50_us(tmp_path: Path, how: str) -> None:
    """Raspberry Pi tree (rpi-6.18.y, which carries gem_get/set_coalesce): macb_open ->
    macb_init_hw -> gem_init_intmod writes 50 us RX and TX (read back 49) at every open: a ring
    change while up (macb_set_ringparam: macb_close, macb_open) and an administrative down/up.
    Before: the lab kept the -C over both."""
    state = lab(tmp_path, "macb", "Cadence GEM in RP1", "6.18.39+rpt-rpi-2712")
    assert ethtool(state, "-C", "eth0", "rx-usecs", "100", "tx-usecs", "20")[2] == 0
    assert (coalesce_values(state)["rx-usecs"], coalesce_values(state)["tx-usecs"]) == ("100", "20")
    if how == "ring change":
        assert ethtool(state, "-G", "eth0", "rx", "1024")[2] == 0
    else:
        assert fake_ethtool.refresh_shown(state, ["eth0"]) == 0
    values = coalesce_values(state)
    assert (values["rx-usecs"], values["tx-usecs"]) == ("49", "49")
