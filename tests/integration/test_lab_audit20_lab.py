"""Audit 20 row 1 in the lab (resources/tuning/driver_caps_audit20.md): an atlantic NIC behind
a CM4's PCIe on Debian's 6.1 kernel, which gives the card one interrupt vector
(pcie-brcmstb.c brcm_msi_domain_info) while atlantic asks for one per CPU when it opens
(aq_nic_cfg_update_num_vecs, aq_nic_start): the kernel never brings it up, so `lab up` says
why and builds nothing. Before, the lab brought it up with four queues and five vectors.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.lab_profiles import profile_copy

pytestmark = [pytest.mark.lab]
SBCTUNE = [sys.executable, "-m", "sbctune.cli.main"]


def test_lab_up_refuses_a_nic_the_kernel_never_opens_and_leaves_nothing(tmp_path: Path) -> None:
    from tests.lab_support import lab_unavailable_reason, skip_or_fail, unique_lab_name

    reason = lab_unavailable_reason()
    if reason:
        skip_or_fail(reason)
    port = [('driver = "igb"\nchip = "82580"', 'driver = "atlantic"\nchip = "AQC107"')]
    profile = profile_copy(tmp_path, "cm4-i340-igb", "cm4", kernel="6.1.0-27-arm64", replace=port)
    name = unique_lab_name()
    try:
        up = subprocess.run(
            [*SBCTUNE, "lab", "up", "--profile", str(profile), "--name", name, "--json"],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert up.returncode != 0 and up.stdout == ""
        assert "eth1 (atlantic) could never be brought up on this board" in up.stderr
        assert "aq_nic_cfg_update_num_vecs" in up.stderr
        listed = subprocess.run(
            [*SBCTUNE, "lab", "list"], capture_output=True, text=True, check=False, timeout=60
        )
        assert name not in listed.stdout
    finally:  # idempotent: nothing to remove when the refusal came first
        subprocess.run([*SBCTUNE, "lab", "down", name], capture_output=True, check=False)
