"""Audit 38b (driver_caps_audit38b.md): after revert, and what survives a reboot.

Row 1: `--persist` writes a udev rule that runs at-boot.sh on the NIC's `add` (a USB adapter
plugged in again, or found after the boot unit ran). It matched `KERNEL=="<the NIC's name>"`,
but an `add` event's KERNEL is the kernel's name (eth0, usb0): udevd renames the interface only
after every rule ran (systemd src/udev/udev-event.c: udev_event_execute_rules applies the rules,
then rename_netif; udev-rules.c: TK_M_KERNEL is sd_device_get_sysname, TK_M_NAME the NAME an
earlier rule set). A NIC udev renamed (Debian's 73-usb-net-by-mac.link `NamePolicy=mac` through
80-net-setup-link.rules: enx<MAC>) never matched, so its kept values were not set again after a
replug; the rule matched instead whichever other NIC the kernel named like it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sbctune.tuning.model import Change
from sbctune.tuning.planning import persist_changes

SESSION = "20261201T201500Z-38b001"
CAPTURES = Path(__file__).resolve().parents[1] / "captures"
# udev's rename as the kernel logs it: "lan78xx 1-1.1.1:1.0 enxb827eb04f89e: renamed from eth0"
RENAMED = re.compile(r"\b([a-z0-9_.]+): renamed from ([a-z0-9_.]+)$")
_KEY = re.compile(r'^([A-Z]+)(==|\+=)"([^"]*)"$')


def _renamed(capture: str) -> tuple[str, str]:
    """(the kernel's name, udev's name) from a real boot log's rename line."""
    for line in (CAPTURES / capture).read_text(encoding="utf-8").splitlines():
        found = RENAMED.search(line)
        if found:
            return found.group(2), found.group(1)
    raise AssertionError(f"no rename line in {capture}")


def _rule(nic: str) -> str:
    """The udev rule `tune apply --persist` writes for `nic` (an RPS change kept)."""
    rps = f"/sys/class/net/{nic}/queues/rx-0/rps_cpus"
    kept = [Change("file", rps, "0", "f", rps)]
    files = persist_changes(SESSION, nic, kept, ["/etc/udev/rules.d", "/etc/systemd/system"])
    rules = [c.after for c in files if c.path.startswith("/etc/udev/rules.d/")]
    assert len(rules) == 1 and rules[0]
    return rules[0]


def _runs(rule: str, kernel: str, name: str) -> bool:
    """Whether udevd runs the rule's RUN on a net `add` event of a device the kernel named
    `kernel` and an earlier rule (80-net-setup-link.rules) named `name` ("" for none): every
    `==` of one line must hold (udev-rules.c: a rule line is a conjunction)."""
    event = {"ACTION": "add", "SUBSYSTEM": "net", "KERNEL": kernel, "NAME": name}
    for line in rule.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        keys = [_KEY.match(part.strip()) for part in line.split(", ")]
        assert all(keys), line
        matches = [(k.group(1), k.group(3)) for k in keys if k and k.group(2) == "=="]
        runs = [k.group(3) for k in keys if k and k.group(1) == "RUN"]
        if runs and all(event.get(key) == value for key, value in matches):
            return True
    return False


@pytest.mark.parametrize(
    "capture",
    [
        "dmesg/pi3bplus_linux_3636_lan78xx_enx_brcmfmac.txt",  # a Pi 3 B+'s lan78xx
        "bundles/t2linux_191_rtl8153_480m/commands/001-dmesg.txt",  # an r8152 adapter
    ],
)
def test_a_nic_udev_renamed_gets_its_kept_values_again_when_it_is_plugged_in(
    capture: str,
) -> None:
    kernel, name = _renamed(capture)
    assert name.startswith("enx") and kernel == "eth0"
    assert _runs(_rule(name), kernel, name)


def test_a_nic_udev_does_not_rename_is_matched_by_the_kernels_name() -> None:
    """Raspberry Pi OS (net.ifnames=0): no rule sets NAME, the NIC keeps eth1."""
    assert _runs(_rule("eth1"), "eth1", "")


def test_another_nic_the_kernel_names_alike_and_udev_renames_is_left_alone() -> None:
    """A different adapter that the kernel calls eth1 first and udev renames is not the NIC the
    session tuned: at-boot.sh is not run for it."""
    kernel, name = _renamed("dmesg/pi3bplus_linux_3636_lan78xx_enx_brcmfmac.txt")
    assert not _runs(_rule(kernel), kernel, name)
