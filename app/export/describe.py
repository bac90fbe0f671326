"""Short descriptions of a run's hardware, method and tuning, for the report formats."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from sbctune.export.report_data import ReportData
from sbctune.history.records import RunRecord
from sbctune.measure.plans import plan_title
from sbctune.wording import counted


def nic_json(data: ReportData, run: RunRecord) -> dict[str, Any] | None:
    inventory = data.inventory_for(run)
    if inventory is None or run.nic is None:
        return None
    found: dict[str, Any] | None = next(
        (n for n in inventory.get("nics") or [] if n.get("name") == run.nic), None
    )
    return found


_USB_LABEL = {12: "USB 1.1", 480: "USB 2.0", 5000: "USB 3.0", 10000: "USB 3.1"}
# As Inspect names them, not the model's keys ("platform", "USB 5000M": s11 walk)
_BUS_WORDS = {"platform": "built into the SoC", "pci": "PCIe", "usb": "USB", "sdio": "SDIO"}


def bus_text(nic: dict[str, Any]) -> str:
    bus = nic.get("bus") or "unknown"
    speed = nic.get("usb_speed_mbps")
    if bus == "usb" and speed and nic.get("usb_speed_at_least"):  # a SuperSpeed bus: a floor
        return f"USB 3 ({speed} Mbit/s or more)"
    if bus == "usb" and speed:
        return f"{_USB_LABEL.get(speed, 'USB')} ({speed} Mbit/s)"
    pcie = nic.get("pcie") or {}
    if bus == "pci" and pcie.get("speed_gts"):
        return f"PCIe {pcie['speed_gts']:g} GT/s x{pcie.get('width') or '?'}"
    return _BUS_WORDS.get(str(bus), str(bus))


def nic_text(nic: dict[str, Any]) -> str:
    driver = nic.get("driver") or "no driver"
    link = f", link {nic['link_speed_mbps']} Mbit/s" if nic.get("link_speed_mbps") else ""
    return f"{nic.get('chip') or 'unknown chip'} ({driver}, {bus_text(nic)}{link})"


def board_line(data: ReportData, run: RunRecord) -> str:
    inventory = data.inventory_for(run) or {}
    model = (inventory.get("board") or {}).get("model")
    nic = nic_json(data, run)
    parts = [str(model)] if model else []
    if run.nic:
        parts.append(f"{run.nic}: {nic_text(nic)}" if nic else run.nic)
    return ", ".join(parts)


# The reports said "builtin endpoint on the PC" (s10 walk): the app says "speed test".
ENDPOINT_WORDS = {
    "builtin": "sbctune's built-in iperf3 server on the PC",
    "system": "the iperf3 server on the PC",
    "iperf3": "the iperf3 server on the PC",
}


def method_line(run: RunRecord) -> str:
    plan = run.plan or {}
    specs = [s for s in plan.get("tests") or [] if isinstance(s, dict)]
    shapes = sorted({(s.get("streams"), s.get("duration"), s.get("omit")) for s in specs}, key=str)
    how = "; ".join(
        (counted(streams, "stream") if isinstance(streams, int) else f"{streams} streams")
        + f", {duration} s"
        + (f" (+{omit} s omitted)" if omit else "")
        for streams, duration, omit in shapes
    )
    tools = [f"iperf3 {run.iperf3_pi_version} on the Pi"] if run.iperf3_pi_version else []
    if run.endpoint_kind:  # the database's "builtin" / "iperf3" said as a reader would
        tools.append(ENDPOINT_WORDS.get(run.endpoint_kind, f"{run.endpoint_kind} server on the PC"))
    # the plan's own words where its record has a title ("Custom, from Quick (1 trial × 3 s per
    # direction, 4 streams, 1 s omitted)": the CLI, History and the app name it so; walk s23:
    # the reports said "custom: custom plan (4 streams, 3 s (+1 s omitted))")
    title = plan_title(run.plan_name, run.plan)
    shape = title.partition(" (")[2].removesuffix(")") if title.endswith(")") else ""
    head = shape or (f"{run.plan_name} plan" + (f" ({how})" if how else ""))
    return ", ".join([head, *tools])


@cache
def tweak_titles() -> dict[str, str]:
    """Tweak id -> title from the tuning package's data, when it is there."""
    try:
        tuning = importlib.import_module("sbctune.tuning")
        load = getattr(tuning, "load_tweaks", None)
        return {t.id: t.title for t in load()} if load else {}
    except Exception:  # a report without titles still names each tweak by id
        return {}


def tweak_title(tweak_id: str) -> str:
    return tweak_titles().get(tweak_id, tweak_id)
