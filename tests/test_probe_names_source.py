"""resources/kernel_source/probe_names.json against the kernel source it came from: exactly the
adapter names scripts/regen_probe_names.py reads from the pinned Debian linux-source-6.1 and
-6.12 (bnxt_en's and bnx2's board_info[] tables, be2net's nic_name() macros, cxgb4's VPD id),
each printed in its driver's probe format in that series."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_probe_names


def test_the_probe_names_are_what_the_source_generates() -> None:
    trees = kernel_trees(regen_probe_names.GLOBS)
    shipped = shipped_table("probe_names.json")["drivers"]
    for series, root in trees.items():
        read = regen_probe_names.read(root)
        assert set(read) == {d for d, row in shipped.items() if series in row["series"]}, series
        for driver, names in read.items():
            row = shipped[driver]
            if names is None:
                assert row["names"] is None, driver
            else:
                assert names == {n for n, s in row["names"].items() if series in s}, driver
    # the seventieth set's adapters are in the table
    assert "Broadcom BCM57412 NetXtreme-E 10Gb Ethernet" in shipped["bnxt_en"]["names"]
    assert "Emulex OneConnect(Lancer)" in shipped["be2net"]["names"]
