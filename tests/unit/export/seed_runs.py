"""Run records and a history built from seed 000's published figures.

Source: /work/shared/seeds/000_9ed8ab94a97b9137.txt ("Raspberry PI 4B USB Network Performance":
Pi 4B, Alpine 3.15, kernel 5.15.4-0-rpi4, iperf3 -P 10 -t 65 -O 5 against a Windows 10 PC).
The figures are the seed's tables, Mbit/s, verbatim: lines 129-133 (ASIX AX88179, the
"PC throttled" table, which repeats lines 110-114) and lines 174-178 (RTL8153). The seed
gives means only, no per-second readings, so these runs carry no intervals.

The inventories are sbctune's own reading of the lab profiles made from the same seed
(resources/lab/profiles/pi4-ax88179 and pi4-rtl8153, each with its SOURCE.md).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from sbctune.advice.inspect import inspect_bundle
from sbctune.history import History
from sbctune.history.records import Direction, Mode, RunRecord, TestRecord, TuningSessionRecord
from sbctune.measure.plans import plan_named
from sbctune.resources import resource_root
from sbctune.tuning.kinds import marker_begin, marker_end
from sbctune.tuning.model import Change
from sbctune.tuning.scripts import (
    apply_at_boot_script,
    session_dir,
    sysctl_conf,
    udev_rule,
    unit_file,
)

# (adapter, CPU MHz) -> {(direction, mode): Mbit/s}
SEED_000: dict[tuple[str, int], dict[tuple[Direction, Mode], float]] = {
    ("ax88179", 1500): {  # seed lines 129-130
        ("pi_to_pc", "half"): 736, ("pi_to_pc", "full"): 163, ("pi_to_pc", "full_throttled"): 412,
        ("pc_to_pi", "half"): 949, ("pc_to_pi", "full"): 902, ("pc_to_pi", "full_throttled"): 496,
    },
    ("ax88179", 2000): {  # seed lines 132-133 (the starred figures: ±50 between repeats)
        ("pi_to_pc", "half"): 834, ("pi_to_pc", "full"): 269, ("pi_to_pc", "full_throttled"): 552,
        ("pc_to_pi", "half"): 949, ("pc_to_pi", "full"): 880, ("pc_to_pi", "full_throttled"): 408,
    },
    ("rtl8153", 1500): {  # seed lines 174-175
        ("pi_to_pc", "half"): 949, ("pi_to_pc", "full"): 538, ("pi_to_pc", "full_throttled"): 774,
        ("pc_to_pi", "half"): 933, ("pc_to_pi", "full"): 847, ("pc_to_pi", "full_throttled"): 403,
    },
    ("rtl8153", 2000): {  # seed lines 177-178
        ("pi_to_pc", "half"): 949, ("pi_to_pc", "full"): 743, ("pi_to_pc", "full_throttled"): 819,
        ("pc_to_pi", "half"): 949, ("pc_to_pi", "full"): 908, ("pc_to_pi", "full_throttled"): 404,
    },
}  # fmt: skip

PROFILE = {"ax88179": "pi4-ax88179", "rtl8153": "pi4-rtl8153"}
START = dt.datetime(2022, 1, 8, 10, 0, tzinfo=dt.timezone.utc)  # the seed's kernel era


def thorough_plan() -> dict[str, Any]:
    plan = plan_named("thorough")  # the seed's method, as sbctune stores it (measure.persist)
    return {
        "title": plan.title,
        "tests": [vars(t) | {"directions": list(t.directions)} for t in plan.tests],
    }


def seed_run(adapter: str, mhz: int, device_id: int = 1, minutes: int = 0) -> RunRecord:
    figures = SEED_000[(adapter, mhz)]
    started = START + dt.timedelta(minutes=minutes)
    return RunRecord(
        device_id=device_id,
        started_at=started,
        finished_at=started + dt.timedelta(minutes=5),
        plan_name="thorough",
        plan=thorough_plan(),
        nic="eth1",
        endpoint_kind="system",
        complete=True,
        tests=[TestRecord(d, m, mean_mbps=v) for (d, m), v in figures.items()],
    )


def profile_inventory(adapter: str) -> dict[str, Any]:
    path = Path(str(resource_root() / "lab" / "profiles" / PROFILE[adapter]))
    return inspect_bundle(path).to_json()


def _boot_file(name: str) -> str:
    # The lab's Raspberry Pi OS boot files (resources/lab/boot/SOURCE.md says where from).
    return (resource_root() / "lab" / "boot" / name).read_text(encoding="utf-8")


def _with_block(before: str, tweak_id: str, lines: list[str]) -> str:
    """config.txt after a boot_config tweak, as sbctune.tuning.kinds.plan_boot_config makes it."""
    block = [marker_begin(tweak_id), "[all]", *lines, marker_end(tweak_id)]
    return before + ("" if before.endswith("\n") else "\n") + "\n".join(block) + "\n"


def _changes(*changes: Change) -> list[dict[str, Any]]:
    return [c.to_json() for c in changes]


def tuning_data(
    session_id: str = "20220108T101000Z-a1b2c3", persist: bool = True
) -> dict[str, Any]:
    """A tuning session record in sbctune.tuning's schema (app/tuning/session.py), made with
    its own Change type and persist-file writers, shaped after seed 000's optimisations: RPS on
    all four cores (accepted, seed line 61), XPS refused (line 63: No such file or directory),
    IRQ affinity refused (line 50: Invalid argument), the CPU at 2000 MHz (section 3). The
    other before-values are Linux's and Raspberry Pi OS's defaults."""
    q = "/sys/class/net/eth1/queues/rx-0"
    rps = [
        Change("file", f"{q}/rps_cpus", "0", "f", f"{q}/rps_cpus"),
        Change(
            "sysctl",
            "net.core.rps_sock_flow_entries",
            "0",
            "32768",
            "/proc/sys/net/core/rps_sock_flow_entries",
        ),
        Change("file", f"{q}/rps_flow_cnt", "0", "32768", f"{q}/rps_flow_cnt"),
    ]
    buffers = [
        Change("sysctl", "net.core.rmem_max", "212992", "16777216", "/proc/sys/net/core/rmem_max"),
        Change(
            "sysctl",
            "net.ipv4.tcp_rmem",
            "4096\t131072\t6291456",
            "4096 131072 16777216",
            "/proc/sys/net/ipv4/tcp_rmem",
        ),
    ]
    policy = "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor"
    governor = [Change("governor", policy, "ondemand", "performance", policy)]
    eee = [Change("ethtool", "eth1 --set-eee eee", "on", "off")]
    config = _boot_file("config.txt")
    boot = [
        Change(
            "boot",
            "/boot/firmware/config.txt",
            config,
            _with_block(config, "boot-arm-freq", ["arm_freq=2000", "over_voltage=6"]),
            "/boot/firmware/config.txt",
        )
    ]
    runtime = [*rps[::2], *governor, *eee]
    directory = session_dir(session_id)
    unit = f"sbctune-tuning-{session_id}.service"
    persist_changes = (
        [
            Change(
                "file",
                f"/etc/sysctl.d/90-sbctune-{session_id}.conf",
                None,
                sysctl_conf(session_id, [rps[1], *buffers]),
            ),
            Change(
                "file", f"{directory}/at-boot.sh", None, apply_at_boot_script(session_id, runtime)
            ),
            Change("file", f"/etc/systemd/system/{unit}", None, unit_file(session_id)),
            Change(
                "service",
                f"enable {unit}",
                "disabled",
                "enabled",
                f"/etc/systemd/system/multi-user.target.wants/{unit}",
            ),
            Change(
                "file",
                f"/etc/udev/rules.d/90-sbctune-{session_id}.rules",
                None,
                udev_rule(session_id, "eth1"),
            ),
        ]
        if persist
        else []
    )
    return {
        "schema": 1,
        "id": session_id,
        "nic": "eth1",
        "guard_seconds": 90,
        "persist": persist,
        "tweaks": [
            {"id": "rps-rfs", "status": "applied", "detail": "receive work of eth1 on CPUs "
             "[0, 1, 2, 3]", "changes": _changes(*rps)},
            {"id": "xps", "status": "not_possible",
             "detail": "/sys/class/net/eth1/queues/tx-0/xps_cpus: No such file or directory",
             "changes": []},
            {"id": "irq-affinity", "status": "not_possible",
             "detail": "/proc/irq/46/smp_affinity: Invalid argument", "changes": []},
            {"id": "socket-buffers", "status": "applied", "detail": "",
             "changes": _changes(*buffers)},
            {"id": "cpu-governor-performance", "status": "applied", "detail": "",
             "changes": _changes(*governor)},
            {"id": "eee-off", "status": "applied", "detail": "", "changes": _changes(*eee)},
            {"id": "boot-arm-freq", "status": "applied", "detail": "after a reboot",
             "changes": _changes(*boot)},
        ],
        "persist_changes": _changes(*persist_changes),
        "created": START.isoformat(),
        "netns": "",
        "host": "lbox",
    }  # fmt: skip


def every_kind_data() -> dict[str, Any]:
    """One change of each kind of the schema, for the playbook's coverage."""
    data = tuning_data("20220108T110000Z-d4e5f6")
    cmdline = _boot_file("cmdline.txt")
    irq = "/proc/irq/38/smp_affinity"
    data["tweaks"] += [
        {"id": "nic-rings", "status": "applied", "detail": "", "changes": _changes(
            Change("ethtool", "eth1 -G rx", "1024", "4096"),
            Change("ethtool", "eth1 -X weight", "", "1"),  # no read-back known for -X
        )},
        {"id": "mtu-jumbo", "status": "applied", "detail": "",
         "changes": _changes(Change("mtu", "eth1", "1500", "9000"))},
        {"id": "irq-affinity", "status": "applied", "detail": "", "changes": _changes(
            Change("service", "irqbalance", "active", "inactive", "systemctl"),
            Change("irq_affinity", irq, "1", "2", irq),
        )},
        {"id": "boot-pcie-bus-perf", "status": "applied", "detail": "", "changes": _changes(
            Change("boot", "/boot/firmware/cmdline.txt", cmdline,
                   cmdline.rstrip("\n") + " pci=pcie_bus_perf\n", "/boot/firmware/cmdline.txt"),
        )},
        {"id": "failed-one", "status": "failed", "detail": "", "changes": _changes(
            Change("sysctl", "net.core.wmem_max", "212992", "16777216"),
        )},
    ]  # fmt: skip
    return data


def seed_history(path: Path) -> tuple[History, list[int]]:
    """A history with the seed's Pi ("lbox"), both adapters' inventories and the four runs:
    ax88179 at 1500 and 2000 MHz (tuned: session t-0001), rtl8153 at 1500 and 2000 MHz."""
    history = History.open(path)
    device = history.add_device("lbox", 22, "root", name="Raspberry Pi 4 Model B", seen_at=START)
    assert device.id is not None
    ids = []
    for minutes, (adapter, mhz) in enumerate(SEED_000):
        inventory_id = history.save_inventory(
            device.id,
            profile_inventory(adapter),
            taken_at=START + dt.timedelta(minutes=10 * minutes),
        )
        run = seed_run(adapter, mhz, device.id, minutes=10 * minutes + 1)
        run.inventory_id = inventory_id
        if (adapter, mhz) == ("ax88179", 2000):
            run.tuning_state = {
                "session": "20220108T101000Z-a1b2c3",
                "tweaks": ["rps-rfs", "boot-arm-freq"],
            }
            history.save_tuning_session(TuningSessionRecord(
                device.id, START + dt.timedelta(minutes=10 * minutes), "confirmed", tuning_data()
            ))  # fmt: skip
        ids.append(history.save_run(run))
    return history, ids
