"""Classes that the eighty-first unseen set (3D-printer hosts: OctoPi, Klipper and Mainsail on
Pis, BIGTREETECH CB1/CB2, Creality's Sonic Pad, QIDI's printers; tests/captures/corpus/print81_*)
showed misread. Every output here is one of the corpus' bundles (named beside it, with its
SOURCE.md); the corpus test checks whole bundles."""

from __future__ import annotations

from sbctune.advice.inspect import inspect_bundle
from tests.corpus_support import CORPUS, corpus_output, inventory_of

_OCTOPI_OOPS = "print81_pi3b_octopi_207_brcmfmac_event_worker_oops_syslog_bcm2709_4_1_18"

# --- an oops in a workqueue: the worker's line names the driver ---------------------------------


def test_the_workqueue_line_names_the_driver_the_oops_ran_for() -> None:
    """A Pi 3's oops in cfg80211 reached from brcmfmac's firmware-event worker: kernel/workqueue.c
    print_worker_info() prints "Workqueue: events brcmf_fweh_event_worker [brcmfmac]", so the
    trace is the Wi-Fi NIC's, on brcmfmac (a multi-bus driver: no bus claimed)."""
    (nic,) = inspect_bundle(CORPUS / _OCTOPI_OOPS).nics
    assert nic.driver == "brcmfmac" and nic.wireless is True
    assert nic.bus == "unknown"


def test_a_worker_of_no_network_driver_names_no_nic() -> None:
    """The same oops run by the MMC core's rescan worker (a function of no network driver): no
    NIC is made of it."""
    text = corpus_output(_OCTOPI_OOPS).replace(
        "Workqueue: events brcmf_fweh_event_worker [brcmfmac]", "Workqueue: events mmc_rescan"
    )
    assert inventory_of({"dmesg": text}).nics == []
