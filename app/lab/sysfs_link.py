"""The lab's /sys/class/net/IFACE/speed and duplex, answered as the kernel's net-sysfs.c does.

`speed_show` and `duplex_show` (net/core/net-sysfs.c, the same in Debian's 6.1 and 6.12):
EINVAL where the driver has no get_link_ksettings, EINVAL while the interface is not running
(set down: `netif_running`), else what the driver's get_link_ksettings reads, whether or not
there is a carrier: the speed as "%d" (SPEED_UNKNOWN reads "-1") and the duplex as "half",
"full" or "unknown" (DUPLEX_UNKNOWN). Without a carrier most drivers read SPEED_UNKNOWN and
DUPLEX_UNKNOWN (phylib after autonegotiation found no partner); a forced link and mii's
no-partner reading keep theirs (the lab's ethtool model: fake_ethtool_link.idle_shown), and
usbnet's `usbnet_get_link_ksettings_internal` (cdc_ncm, cdc_ether) keeps the last speed its
device notified (rx_speed is reset only at probe, usbnet.c usbnet_probe) with the zeroed
duplex, "half".

Before walk 25 the lab bound two plain files over them: "1000" and "full" whatever the link,
set down or without a cable. Now the knob file system (``knobs_fs``) serves them through this
model; the negotiated speed and duplex stay in the lab's store files (``overlay.link_files``,
written again by ``ethtool -s``: fake_ethtool_link_set.write_link_speed).
"""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

from sbctune.lab.fake_ethtool_link import idle_shown
from sbctune.lab.knobs_model import kernel_error
from sbctune.tuning import driver_caps

IFF_UP = 0x1  # include/uapi/linux/if.h; netif_running follows it for a lab's veth


def has_ksettings(driver: str | None, kernel: str, chip: str | None) -> bool:
    """Whether the driver has get_link_ksettings (the table's ops); a driver the table does
    not know keeps the answer of a driver that has it, as nearly every NIC driver does."""
    caps = driver_caps.caps(driver, kernel or None, chip or "") if driver else None
    return True if caps is None else caps.has("get_link_ksettings")


def answer(
    *,
    ksettings: bool,
    running: bool,
    carrier: bool,
    stored: tuple[str, str],
    link: dict[str, Any] | None,
) -> tuple[str, str]:
    """(speed, duplex) as speed_show and duplex_show print them (without the newline), or the
    OSError EINVAL they return. `stored`: the link's negotiated speed and duplex; `link`: the
    lab's ethtool model of the NIC's link (None where it models none)."""
    if not ksettings or not running:
        raise kernel_error(errno.EINVAL)
    speed, duplex = stored
    if carrier:
        return speed, duplex
    link = link or {}
    if link.get("speed_kept"):  # usbnet: rx_speed outlives the carrier
        return speed, duplex
    idle = idle_shown(link)
    if idle is None:
        return "-1", "unknown"
    shown_speed, shown_duplex = idle
    number = shown_speed.removesuffix("Mb/s")
    known = shown_duplex.lower() if shown_duplex.lower() in ("half", "full") else "unknown"
    return (number if number.isascii() and number.isdigit() else "-1"), known


def _read(path: str | None, size: int = 64) -> str | None:
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read(size).strip()
    except OSError:
        return None


class SysfsLink:
    """One NIC's speed and duplex files (knobs_fs ``net/IFACE/speed`` and ``duplex``)."""

    def __init__(self, knob: dict[str, Any]) -> None:
        self.name = str(knob["iface"])
        self.store = {a: str(knob[a]) for a in ("speed", "duplex")}
        self.sysfs = f"/sys/class/net/{self.name}"  # the veth's own flags and carrier
        self.ksettings = bool(knob.get("ksettings", True))
        self.ethtool_state = knob.get("ethtool_state")

    def _link(self) -> dict[str, Any] | None:
        text = _read(self.ethtool_state, 4 << 20)
        try:
            state = json.loads(text) if text else {}
        except ValueError:
            return None
        dev = (state.get("interfaces") or {}).get(self.name) or {}
        link = dev.get("link")
        return link if isinstance(link, dict) else None

    def _answer(self) -> tuple[str, str]:
        flags = _read(f"{self.sysfs}/flags") or "0"
        try:
            running = bool(int(flags, 16) & IFF_UP)
        except ValueError:
            running = False
        carrier = running and _read(f"{self.sysfs}/carrier") == "1"
        stored = (_read(self.store["speed"]) or "-1", _read(self.store["duplex"]) or "unknown")
        return answer(
            ksettings=self.ksettings,
            running=running,
            carrier=carrier,
            stored=stored,
            link=None if carrier else self._link(),
        )

    def read_speed(self) -> str:
        return self._answer()[0] + "\n"

    def read_duplex(self) -> str:
        return self._answer()[1] + "\n"


def knobs(
    binds: list[tuple[str, str]], drivers: dict[str, tuple[str | None, str | None]], kernel: str,
    ethtool_state: str,
) -> list[dict[str, Any]]:  # fmt: skip
    """The knob entries for ``overlay.link_files``' store files: one per NIC with a declared
    speed, its files in the knob tree (``path``) bound over the veth's (``real``) by nsinit."""
    out: dict[str, dict[str, Any]] = {}
    for source, target in binds:
        iface, attribute = Path(target).parent.name, Path(target).name
        driver, chip = drivers.get(iface, (None, None))
        entry = out.setdefault(
            iface,
            {"iface": iface, "ksettings": has_ksettings(driver, kernel, chip),
             "ethtool_state": ethtool_state, "files": []},
        )  # fmt: skip
        entry[attribute] = source
        entry["files"].append({"path": f"net/{iface}/{attribute}", "real": target})
    return list(out.values())


def add_to_tree(tree: Any, config: dict[str, Any]) -> None:
    """The speed and duplex files of every NIC in ``config["links"]`` (knobs_fs.build_tree)."""
    for knob in config.get("links", []):
        model = SysfsLink(knob)
        tree.add_file(f"net/{model.name}/speed", model.read_speed)
        tree.add_file(f"net/{model.name}/duplex", model.read_duplex)
