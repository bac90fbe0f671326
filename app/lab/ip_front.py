"""Put the lab's `ip` (sbctune.lab.ip_model) in front of the real one, with the MTU limits of
the drivers the profile's interfaces imitate (driver_caps.json: `mtu_max`,
`mtu_refused_when_up`) and their TSO/GSO limits (`tso_max`). Only an MTU set or an
`ip -d link` read runs Python; every other call goes straight to the real ip."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path
from typing import Any

from sbctune.lab import ip_model
from sbctune.lab.fake_ethtool import MODEL_FILE, MTU_LINK_DROP, REFRESH
from sbctune.lab.profile import LabProfile
from sbctune.lab.state import write_json
from sbctune.tuning import driver_caps

LIMITS_FILE = "ip-limits.json"
_GSO_LEGACY_MAX_SIZE, _GSO_MAX_SEGS = 65536, 65535  # include/linux/netdevice.h


def limits(profile: LabProfile, refresh: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """Per interface: `nic` (every one: a veth imitating a NIC, ip_model.shown), the
    driver's max_mtu (`max`, where the table knows it for the chip),
    whether it refuses a new MTU while up (`busy_when_up`: macb) and the frames of whole USB
    packets it refuses (`edom`: lan78xx, smsc95xx; the lab's Pis have them on USB 2.0); for a
    driver whose features follow the MTU (r8169), the command that shows them again after a
    change (`refresh`: the lab's ethtool model, fake_ethtool.REFRESH)."""
    found: dict[str, dict[str, Any]] = {}
    for spec in profile.interfaces:
        # every interface is a veth imitating a NIC: ip_model.shown drops the veth's peer,
        # netns and kind (a NIC driver has no rtnl_link_ops), whatever the driver
        found[spec.name] = {"nic": True}
        caps = (
            driver_caps.caps(spec.driver, profile.kernel or None, spec.chip)
            if spec.driver
            else None
        )
        if caps is None:
            continue
        limit: dict[str, Any] = {"nic": True}
        top = caps.mtu_max(spec.chip)
        if top:
            limit["max"] = top
        if caps.facts.get("mtu_min") is not None:  # usbnet_probe's 0 (ax88179, cdc_ncm)
            limit["min"] = int(caps.facts["mtu_min"])
        if caps.facts.get("mtu_refused_when_up"):
            limit["busy_when_up"] = True
        extra = driver_caps.edom_frame_extra(caps, spec.chip)  # lan78xx, usbnet: USB 2.0's
        if extra is not None:
            limit["edom"] = {"extra": extra, "packet": 512}
        fifo = driver_caps.by_chip(caps.facts.get("mtu_tx_fifo_by_chip"), spec.chip)
        if fifo:  # stmmac_change_mtu: the chip's TX FIFO (RK3328, Amlogic: 2048 bytes)
            limit["tx_fifo"] = int(fifo)
        if refresh:  # the shown ethtool answers read the link's carrier, speed and MTU
            limit["shown"] = refresh  # (fake_ethtool_link.live): written again at up/down
        if refresh and driver_caps.mtu_drops(caps, spec.chip):
            limit["refresh"] = refresh
        # the MTU change drops the link: at every change of a running interface (igb/igc
        # down/up, stmmac release/open: above None), or crossing an MTU upwards (r8169's
        # rtl_jumbo_config: 1500)
        jumbo = None if caps.restarts("mtu") else driver_caps.mtu_renegotiates(caps)
        if refresh and (jumbo is not None or caps.restarts("mtu")):
            run = [refresh[0], MTU_LINK_DROP, spec.name]
            limit["link_drop"] = {"above": jumbo[0] if jumbo else None, "run": run}
        if refresh and (
            caps.facts.get("coalesce_reset_on_open") or caps.facts.get("eee_reset_on_open")
        ):
            # what the driver's open sets again (r8169 IntrMitigate 0, bcmgenet tx-frames 1 and
            # on 6.12 its EEE, stmmac_init_coalesce): `ip link set up` after down opens it
            limit["reopen"] = [*refresh, spec.name]
            if caps.restarts("mtu"):
                limit["refresh"] = limit["reopen"]  # stmmac_change_mtu: close, open
        sizes = tso_sizes(caps, spec.chip)
        if sizes:
            limit["sizes"] = sizes
        if limit:
            found[spec.name] = limit
    return found


def tso_sizes(caps: driver_caps.DriverCaps, chip: str | None) -> dict[str, int]:
    """What `ip -d link` shows of the driver's TSO limits (driver_caps.json `tso_max`: r8169's
    64000 bytes in 64 segments, the kernel's 65536 and 65535 where the driver sets none) and
    the GSO limits they lower (net/core/dev.c netif_set_tso_max_size); {} where unknown."""
    rules = caps.facts.get("tso_max")
    if not rules:
        return {}
    tso = driver_caps.by_chip(rules, chip) or rules["default"]
    sizes = {"tso_max_size": int(tso["tso_max_size"]), "tso_max_segs": int(tso["tso_max_segs"])}
    if driver_caps.kernel_fact("tso_max_lowers_gso"):  # the veth's GSO limits are the defaults
        sizes["gso_max_size"] = min(_GSO_LEGACY_MAX_SIZE, sizes["tso_max_size"])
        sizes["gso_ipv4_max_size"] = sizes["gso_max_size"]
        sizes["gso_max_segs"] = min(_GSO_MAX_SEGS, sizes["tso_max_segs"])
    return sizes


def gso_max_sizes(found: dict[str, dict[str, Any]]) -> dict[str, int]:
    """The gso_max_size each interface starts with where its driver's TSO limit lowers it
    under GSO_LEGACY_MAX_SIZE (`tso_sizes`; ax88179 16384, r8152 16354, lan78xx on USB 2.0
    16362): the lab sets it on the NIC, so its stack builds no bigger GSO packets either."""
    out: dict[str, int] = {}
    for name, limit in found.items():
        size = int((limit.get("sizes") or {}).get("gso_max_size", _GSO_LEGACY_MAX_SIZE))
        if size < _GSO_LEGACY_MAX_SIZE:
            out[name] = size
    return out


def front_text(python: str, model: Path, limits_path: Path, real: str) -> str:
    model_call = " ".join(shlex.quote(str(p)) for p in (python, model, limits_path, real))
    return "\n".join([
        "#!/bin/sh",
        "# sbctune lab: ip in front of the real one for the MTU (see sbctune.lab.ip_model).",
        'case " $* " in',
        f'  *" mtu "*|*" -d"*|*" up "*|*" down "*) exec {model_call} "$@" ;;',
        "esac",
        f'exec {shlex.quote(real)} "$@"',
        "",
    ])  # fmt: skip


def install(profile: LabProfile, lab_dir: Path, bin_dir: Path, real: str | None = None) -> bool:
    """Write the limits and the front; False (nothing written) when no interface has one."""
    model_path = bin_dir / MODEL_FILE  # ethtool_state.install's, installed first
    found = limits(profile, [str(model_path), REFRESH] if model_path.exists() else None)
    real = real or shutil.which("ip", path="/usr/sbin:/usr/bin:/sbin:/bin")
    if not found or not real:
        return False
    limits_path = lab_dir / LIMITS_FILE
    write_json(limits_path, found, mode=0o644)
    model = bin_dir / ".ip-model"
    model.write_text(Path(ip_model.__file__).read_text(encoding="utf-8"), encoding="utf-8")
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    front = bin_dir / "ip"
    front.write_text(front_text(python, model, limits_path, real), encoding="utf-8")
    for script in (model, front):
        os.chmod(script, 0o755)  # noqa: S103 - the lab user runs it
    return True
