"""A USB adapter with no driver bound, in a real paste where an in-tree driver matched it and
failed (the s12 walk: `sbctune inspect` of the rtw88 RTL8822BU report said "No driver is bound
to the USB network adapter : it is on the bus", and recommended "Find a driver for this
adapter: No in-tree driver of the kernels checked lists its IDs" under the kernel's own line
"rtw_8822bu: probe of 2-4.1:1.0 failed with error -22": the in-tree rtw_8822bu had matched it)."""

from __future__ import annotations

from pathlib import Path

from sbctune.advice.inspect import inspect_bundle

CORPUS = Path(__file__).resolve().parents[1] / "captures" / "corpus"


def test_a_driver_that_matched_and_failed_is_not_called_missing() -> None:
    inventory = inspect_bundle(CORPUS / "arm64_rtw88_197_rtw8822bu_probe_einval_dmesg_t")
    texts = [f.summary for f in inventory.findings]
    assert any("failed to start it" in t for t in texts)  # the probe failure is said
    assert not [t for t in texts if " :" in t]
    advice = [f"{r.title}: {r.detail}" for r in inventory.recommendations]
    assert not [a for a in advice if "No in-tree driver" in a], advice
