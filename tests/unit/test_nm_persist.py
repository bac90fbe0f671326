"""--persist through NetworkManager's ethtool settings: what NM holds, what stays in files."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sbctune.tuning import nm_persist
from sbctune.tuning.knobs import read_argv, value_from, write_argvs
from sbctune.tuning.model import Change
from sbctune.tuning.planning import persist_changes

UUID = "e70c1b90-2f2d-31e4-b4e8-884f12913052"
SESSION = "20261123T203500Z-abcdef"
# What the READ snippet printed on the VM lab (NM 1.42.4, bookworm) for a profile whose
# ethtool section had been touched once: every property present, none set.
READ_OUT = f"{UUID}\nethtool.pause-autoneg:\nethtool.pause-rx:\nethtool.pause-tx:\n"


def _ethtool(target: str, before: str, after: str) -> Change:
    return Change("ethtool", target, before, after)


def test_parse_reads_the_uuid_and_properties() -> None:
    link = nm_persist.parse(READ_OUT + "ethtool.ring-rx:512\n")
    assert link is not None and link.uuid == UUID
    assert link.properties["ethtool.ring-rx"] == "512"
    assert link.properties["ethtool.pause-rx"] == ""


def test_parse_without_networkmanager_is_none() -> None:
    assert nm_persist.parse("") is None
    assert nm_persist.parse("lab-e1000e\n") is None  # a name, not a UUID: not trusted


@given(st.text(max_size=300))
def test_parse_never_crashes(text: str) -> None:
    link = nm_persist.parse(text)
    assert link is None or all(k.startswith("ethtool.") for k in link.properties)


def test_persist_keeps_ethtool_in_nm_and_the_rest_in_files() -> None:
    applied = [
        _ethtool("enp1s0 -G rx", "256", "4096"),
        _ethtool("enp1s0 -C adaptive-rx", "off", "on"),
        _ethtool("enp1s0 --set-eee eee", "on", "off"),  # NM 1.42 has no EEE setting
        Change("sysctl", "net.core.rmem_max", "212992", "4194304", "/proc/sys/net/core/rmem_max"),
        Change(
            "file",
            "/sys/class/net/enp1s0/queues/rx-0/rps_cpus",
            "0",
            "3",
            "/sys/class/net/enp1s0/queues/rx-0/rps_cpus",
        ),
    ]
    link = nm_persist.parse(READ_OUT)
    dirs = ["/etc/systemd/system", "/etc/udev/rules.d", "/etc/sysctl.d"]
    changes = persist_changes(SESSION, "enp1s0", applied, dirs, link)
    nm = [c for c in changes if c.kind == "nm"]
    assert [(c.target, c.before, c.after) for c in nm] == [
        (f"{UUID} ethtool.ring-rx", "", "4096"),
        (f"{UUID} ethtool.coalesce-adaptive-rx", "", "1"),  # NM takes numbers there
    ]
    at_boot = next(c for c in changes if c.path.endswith("at-boot.sh"))
    assert "--set-eee" in (at_boot.after or "") and "rps_cpus" in (at_boot.after or "")
    assert "-G" not in (at_boot.after or "")  # NM sets the ring itself
    # Without NetworkManager, everything stays in sbctune's own files.
    plain = persist_changes(SESSION, "enp1s0", applied, dirs, None)
    assert not [c for c in plain if c.kind == "nm"]
    assert "-G" in (next(c for c in plain if c.path.endswith("at-boot.sh")).after or "")


def test_a_dispatcher_script_sets_the_irq_affinity_again_when_nm_brings_the_nic_up() -> None:
    """The boot unit runs before NM brings the link up and the driver requests its IRQs
    (seen on the VM lab's e1000e): NM's dispatcher runs at-boot.sh again on `up`."""
    irq = Change("irq_affinity", "26", "3", "2", "/proc/irq/26/smp_affinity")
    link = nm_persist.parse(READ_OUT)
    dirs = ["/etc/systemd/system", "/etc/udev/rules.d", nm_persist.DISPATCHER_DIR]
    changes = persist_changes(SESSION, "enp1s0", [irq], dirs, link)
    hook = next(c for c in changes if c.path.startswith("/etc/NetworkManager/"))
    assert hook.path == f"/etc/NetworkManager/dispatcher.d/90-sbctune-{SESSION}"
    assert hook.before is None  # revert removes it
    script = hook.after or ""
    assert script.startswith("#!/bin/sh\n")
    assert '[ "$1" = enp1s0 ] && [ "$2" = up ] || exit 0' in script
    assert f"exec /bin/sh /var/lib/sbctune/tuning/{SESSION}/at-boot.sh" in script
    # NM runs only an executable script: written 0755, then renamed into place.
    (argv,) = write_argvs(hook, hook.after, restoring=False)
    assert argv[:2] == ["sh", "-c"] and "chmod 0755" in argv[2] and argv[-1] == hook.path
    assert write_argvs(hook, None, restoring=True) == [["rm", "-f", "--", hook.path]]
    # Without NetworkManager (or its dispatcher folder) the unit and udev rule do it alone.
    for other in (persist_changes(SESSION, "enp1s0", [irq], dirs, None),
                  persist_changes(SESSION, "enp1s0", [irq], dirs[:2], link)):  # fmt: skip
        assert not [c for c in other if "NetworkManager" in c.path]
        assert any(c.path.endswith(".service") for c in other)


def test_only_nm_held_changes_need_no_unit() -> None:
    link = nm_persist.parse(READ_OUT)
    dirs = ["/etc/systemd/system", "/etc/udev/rules.d", "/etc/sysctl.d"]
    changes = persist_changes(
        SESSION, "enp1s0", [_ethtool("enp1s0 -G rx", "256", "4096")], dirs, link
    )
    assert [c.kind for c in changes] == ["nm"]


def test_nm_change_is_written_read_and_reverted_with_nmcli() -> None:
    change = Change("nm", f"{UUID} ethtool.ring-rx", "", "4096")
    assert write_argvs(change, "4096", restoring=False) == [
        ["nmcli", "connection", "modify", UUID, "ethtool.ring-rx", "4096"]
    ]
    # Reverting to "not set" passes an empty value: nmcli removes the setting.
    assert write_argvs(change, "", restoring=True)[0][-1] == ""
    assert read_argv(change) == ["nmcli", "-g", "ethtool.ring-rx", "connection", "show", UUID]
    assert value_from(change, 0, "4096\n") == "4096"


def test_a_forged_target_is_refused() -> None:
    change = Change("nm", "lab; rm -rf / ethtool.ring-rx", "", "1")
    try:
        write_argvs(change, "1", restoring=False)
    except ValueError:
        return
    raise AssertionError("a target that is not '<uuid> ethtool.*' was accepted")


def test_the_first_guard_allows_for_a_slow_apply() -> None:
    from sbctune.tuning import rearm

    assert rearm.allowance(40.0, systemd=True) == 120  # the TCG VM's snapshot took ~40 s
    assert rearm.allowance(0.2, systemd=True) == 0  # a quick Pi: re-armed only if slow
    assert rearm.allowance(1000.0, systemd=True) == rearm.MAX_ALLOWANCE_SECONDS
    assert rearm.allowance(40.0, systemd=False) == 0  # the sleeper re-arms with guard.sh
    argv = rearm.rearm_argv("20261123T203500Z-abcdef", 60, systemd=True)
    assert "--unit=sbctune-guard-20261123T203500Z-abcdef-2" in argv
    assert "--timer-property=AccuracySec=100ms" in argv


def test_nm_never_holds_a_value_its_own_ring_change_sets_back() -> None:
    """NetworkManager applies a profile's coalescing before its rings (nm-device.c
    _ethtool_state_set: features, coalesce, ring, pause); on a Pi 5 whose kernel carries RP1's
    coalescing, macb_set_ringparam closes and opens the interface and gem_init_intmod writes
    50 us again, so NM would undo its own rx-usecs at every activation. The coalescing goes to
    at-boot.sh, which NM's dispatcher runs on `up`, after NM applied the profile (before: both
    in NM). Without the dispatcher hook, or without a restart, NM keeps holding it."""
    from sbctune.tuning import reopen_order

    facts = reopen_order.open_facts("macb", "eth0", "6.18.39+rpt-rpi-2712", "Cadence GEM in RP1")
    applied = [_ethtool("eth0 -G rx", "512", "8192"), _ethtool("eth0 -C rx-usecs", "49", "52")]
    link = nm_persist.parse(READ_OUT)
    dirs = ["/etc/systemd/system", "/etc/udev/rules.d", nm_persist.DISPATCHER_DIR]
    changes = persist_changes(SESSION, "eth0", applied, dirs, link, facts)
    assert [c.target for c in changes if c.kind == "nm"] == [f"{UUID} ethtool.ring-rx"]
    at_boot = next(c for c in changes if c.path.endswith("at-boot.sh")).after or ""
    assert "-C eth0 rx-usecs 52" in at_boot and "-G" not in at_boot
    assert any(nm_persist.is_dispatcher(c.path) for c in changes)
    for other in (persist_changes(SESSION, "eth0", applied, dirs[:2], link, facts),
                  persist_changes(SESSION, "eth0", applied[1:], dirs, link, facts)):  # fmt: skip
        assert f"{UUID} ethtool.coalesce-rx-usecs" in [c.target for c in other if c.kind == "nm"]
