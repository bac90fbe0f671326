"""resources/kernel_source/wifi_ops.json against the kernel source it came from: exactly what
scripts/regen_wifi_ops.py generates from the pinned Debian linux-source-6.1 and -6.12 (fetched
once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_wifi_ops


def test_the_wifi_callback_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_wifi_ops.GLOBS)
    shipped = shipped_table("wifi_ops.json")
    assert shipped["functions"] == regen_wifi_ops.table(trees)


def test_brcmfmacs_power_management_callback_is_in_both_series() -> None:
    """cfg80211.c's brcmf_cfg80211_ops: .set_power_mgmt = brcmf_cfg80211_set_power_mgmt."""
    row = shipped_table("wifi_ops.json")["functions"]["brcmf_cfg80211_set_power_mgmt"]
    assert row["file"] == "drivers/net/wireless/broadcom/brcm80211/brcmfmac/cfg80211.c"
    assert (row["ops"], row["series"]) == ("cfg80211_ops", ["6.1", "6.12"])
