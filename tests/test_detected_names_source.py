"""resources/kernel_source/detected_names.json against the kernel source it came from: exactly
the names scripts/regen_detected_names.py reads from the pinned Debian linux-source-6.1 and
-6.12 (iwlwifi's cfg/*.c and pcie/drv.c), and the "Detected" formats each series prints."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_detected_names


def test_the_detected_names_are_what_the_source_generates() -> None:
    trees = kernel_trees(regen_detected_names.GLOBS)
    shipped = shipped_table("detected_names.json")
    row = shipped["drivers"]["iwlwifi"]
    for series, root in trees.items():
        names = regen_detected_names.names(root)
        assert names == {n for n, s in row["names"].items() if series in s}, series
        for fmt, where in row["formats"].items():
            assert regen_detected_names._printed(root, fmt) == (series in where["series"])
    # the CNVi parts of the fifty-fourth set: the name iwlwifi prints is in the table
    assert "Intel(R) Wi-Fi 6E AX211 160MHz" in row["names"]
