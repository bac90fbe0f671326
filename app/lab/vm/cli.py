"""What `sbctune lab up --vm` and `sbctune lab down NAME` print for the VM lab."""

from __future__ import annotations

import json

from sbctune.lab.vm import lab as vmlab
from sbctune.lab.vm import plan


def print_up(lab: vmlab.VmLab) -> None:
    print(f"VM lab {lab.name} is up ({lab.accel}: {lab.accel_why}; boot {lab.boot_seconds} s)")
    print(f"  namespace: {lab.netns}  (the VM's NICs are reachable only from inside it)")
    print(f"  user:      {lab.user}")
    print(f"  password:  {lab.password}")
    print(f"  QEMU:      {lab.qemu}")
    for nic in plan.NICS:
        if nic.role == "igb" and not lab.igb:
            continue
        print(f"  {nic.role:10s} VM {nic.vm_addr}/{nic.prefix} <-> {nic.host_addr} on {nic.tap}")
    print(f"  APT repo:  {plan.repo_url()} (iperf3, libiperf0)")
    print(f"  sbctune:   ip netns exec {lab.netns} sbctune inspect {lab.user}@{lab.host}")
    print(f"  log in:    ip netns exec {lab.netns} ssh {lab.user}@{lab.host}")
    print(f"  console:   {lab.run_dir}/console.log")
    print(f"  remove:    sbctune lab down {lab.name}")


def up(name: str | None, as_json: bool) -> int:
    lab = vmlab.up(name or "vm")
    if as_json:
        print(json.dumps(lab.to_json()))
    else:
        print_up(lab)
    return 0


def is_vm_lab(name: str) -> bool:
    return name in vmlab.names() or vmlab.run_dir(name).exists()


def down(name: str) -> int:
    found = vmlab.down(name)
    print(f"removed VM lab {name}" if found else f"no VM lab named {name} (nothing to remove)")
    return 0
