"""The readable inspect report: the board, one block per NIC, findings and recommendations."""

from __future__ import annotations

from sbctune.inventory.link_words import duplex_words, set_down_words
from sbctune.inventory.model import Board, Inventory, Nic
from sbctune.inventory.switch_ports import ports_behind, switch_words
from sbctune.kernel_words import FIELD_NOT_KNOWN, release_words

_UNKNOWN = "unknown"


def _value(value: object, unit: str = "") -> str:
    return _UNKNOWN if value in (None, "") else f"{value}{unit}"


def _at(bus_path: str | None) -> str:
    """ " at 1-1.2" where the port is known; nothing, rather than "at unknown", where not."""
    return f" at {bus_path}" if bus_path else ""


def _bus(nic: Nic) -> str:
    if nic.bus == "usb":
        speed = nic.usb_speed_mbps
        label = {480: "USB 2.0", 5000: "USB 3.0", 10000: "USB 3.1", 12: "USB 1.1"}.get(
            speed or 0, "USB"
        )
        text = f"{label} ({speed} Mbit/s)" if speed else label
        if speed and nic.usb_speed_at_least:  # a SuperSpeed bus of plain lsusb: a floor
            text = f"USB 3 ({speed} Mbit/s or more)"
        return text + _at(nic.bus_path)
    if nic.bus == "pci":
        text = "PCIe" + _at(nic.bus_path)
        if nic.pcie and nic.pcie.speed_gts:
            text += f", {nic.pcie.speed_gts:g} GT/s x{nic.pcie.width}"
            if nic.pcie.max_speed_gts:
                text += f" (card: {nic.pcie.max_speed_gts:g} GT/s x{nic.pcie.max_width})"
        return text
    return {"platform": "built into the SoC", "sdio": "SDIO"}.get(nic.bus, _UNKNOWN)


def _ids(nic: Nic) -> str:
    """The IDs once: a chip usb.ids names only by its vendor already reads "Apple device
    05ac:12a8"."""
    return f"  [{nic.ids}]" if nic.ids and nic.ids not in (nic.chip or "") else ""


def _link(nic: Nic) -> str:
    if (down := set_down_words(nic)) is not None:
        return down
    if nic.link_speed_mbps is None:  # a carrier line (ipheth's "link becomes ready"), no speed
        if nic.link_detected is None:
            return _UNKNOWN
        return "up (speed not known)" if nic.link_detected else "down"
    duplex = duplex_words(nic.duplex, nic.duplex_not_reported)
    best = f" (NIC supports {nic.max_link_speed_mbps} Mbit/s)" if nic.max_link_speed_mbps else ""
    return f"{nic.link_speed_mbps} Mbit/s{duplex}{best}"


def _board_lines(board: Board) -> list[str]:
    out = ["Board"]
    out.append(f"  model:   {_value(board.model)}")
    out.append(f"  SoC:     {_value(board.soc)}   cores: {_value(board.cpu_cores)}")
    if board.soc_source:
        out.append(f"           (SoC: {board.soc_source})")
    if board.soc_nic:
        out.append(f"  the SoC's own Ethernet: {board.soc_nic}")
    kernel = release_words(board.kernel, FIELD_NOT_KNOWN)
    out.append(f"  OS:      {_value(board.os)}   kernel: {kernel}")
    if board.throttled is not None:
        state = (
            "OK"
            if not (board.throttled.any_now or board.throttled.any_since_boot)
            else ("THROTTLED NOW" if board.throttled.any_now else "throttled since boot")
        )
        out.append(f"  power:   {board.throttled.raw} ({state})")
    if board.cpu_governors:
        out.append(f"  CPU governor: {', '.join(sorted(set(board.cpu_governors)))}")
    return out


def _nic_lines(nic: Nic, ports: list[str] | None = None) -> list[str]:
    title = nic.name or "(no interface)"
    tags = [t for t, on in (("built-in", nic.builtin), ("wireless", nic.wireless)) if on]
    # "NONE BOUND" only where the outputs show no driver; a truncated lspci block does not say
    none = nic.driver_state == "none" or (nic.bus == "pci" and nic.driver_state is None)
    driver = nic.driver or ("NONE BOUND" if none else _UNKNOWN)
    version = f" {nic.driver_version}" if nic.driver_version else ""
    out = [
        "",
        f"NIC {title}" + (f"  [{', '.join(tags)}]" if tags else ""),
        f"  chip:    {_value(nic.chip or nic.chip_family)}" + _ids(nic),
        f"  driver:  {driver}{version}",
        f"  bus:     {_bus(nic)}",
        f"  link:    {_link(nic)}",
    ]
    if switch := switch_words(nic, ports or []):
        out.append(f"  switch:  {switch}")
    if nic.irqs:
        out.append(f"  IRQs:    {', '.join(map(str, nic.irqs))}")
    if nic.rx_queues or nic.tx_queues:
        out.append(f"  queues:  rx {nic.rx_queues or 0}, tx {nic.tx_queues or 0}")
    if nic.addresses:
        out.append(f"  address: {', '.join(nic.addresses)}")
    if nic.eee:
        out.append(f"  EEE:     {eee_words(nic.eee)}")
    if nic.timestamping:
        out.append(f"  PTP:     {timestamping_words(nic.timestamping)}")
    return out


def timestamping_words(ts: dict[str, object]) -> str:
    """`ethtool -T` in words: "hardware timestamps, PHC /dev/ptp0" or "software timestamps
    only, no PHC" (what ptp4l's default hardware mode needs: both directions and a clock)."""
    hw = bool(ts.get("hardware_transmit")) and bool(ts.get("hardware_receive"))
    kind = "hardware timestamps" if hw else "no hardware transmit/receive timestamps"
    if not hw and ts.get("software_transmit"):
        kind = "software timestamps only"
    phc = ts.get("phc")
    return f"{kind}, " + (f"PHC /dev/ptp{phc}" if isinstance(phc, int) else "no PHC")


def eee_words(eee: dict[str, bool | int | None]) -> str:
    """`ethtool --show-eee` in words: "enabled, active, Tx LPI off" (ethtool's own terms)."""
    if eee.get("supported") is False:
        return "not supported"
    words = ["enabled" if eee.get("enabled") else "disabled"]
    if eee.get("enabled"):
        words.append("active" if eee.get("active") else "inactive")
    lpi, timer = eee.get("tx_lpi"), eee.get("tx_lpi_us")
    if lpi is not None:
        words.append(
            f"Tx LPI {timer} us"
            if lpi and timer is not None
            else f"Tx LPI {'on' if lpi else 'off'}"
        )
    return ", ".join(words)


def _advice_lines(inventory: Inventory) -> list[str]:
    out: list[str] = []
    if inventory.findings:
        out += ["", "Findings"]
        for finding in inventory.findings:
            where = f" ({finding.nic})" if finding.nic else ""
            out.append(f"  [{finding.severity}]{where} {finding.summary}")
            out += [f"      > {line.strip()}" for line in finding.evidence]
    if inventory.recommendations:
        out += ["", "Recommendations"]
        for rec in inventory.recommendations:
            where = f" ({rec.nic})" if rec.nic else ""
            out.append(f"  - {rec.title}{where}: {rec.expected_gain}")
            if rec.detail:
                out.append(f"      {rec.detail}")
            out += [f"      rests on: {line}" for line in rec.evidence]  # what the sources say
            out += [f"      source: {source}" for source in rec.sources]
    return out


def render(inventory: Inventory) -> str:
    out = _board_lines(inventory.board)
    for nic in inventory.nics:
        out += _nic_lines(nic, ports_behind(nic.name, inventory.nics) if nic.name else [])
    if not inventory.nics:
        out += ["", "No network interfaces were found in the outputs."]
    out += _advice_lines(inventory)
    if inventory.missing_tools:
        out += ["", f"Not installed on the Pi: {', '.join(inventory.missing_tools)}"]
    if inventory.warnings:
        out += ["", "Could not read everything:"] + [f"  ! {w}" for w in inventory.warnings]
    return "\n".join(out)
