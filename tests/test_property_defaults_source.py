"""resources/kernel_source/property_defaults.json against the kernel source it came from:
exactly what scripts/regen_property_defaults.py generates from the pinned Debian
linux-source-6.1 and -6.12 (fetched once, as tests/test_name_tables_source.py does)."""

from __future__ import annotations

from tests.kernel_trees import kernel_trees, shipped_table

# isort: split
# (scripts/, on the path once tests.kernel_trees is imported)
import regen_property_defaults


def test_the_property_default_table_is_what_the_source_generates() -> None:
    trees = kernel_trees(regen_property_defaults.GLOBS)
    shipped = shipped_table("property_defaults.json")
    assert shipped["defaults"] == regen_property_defaults.table(trees)


def test_a_branch_that_returns_or_only_resets_the_error_is_no_default() -> None:
    """The rule on the two shapes the source has: dwmac-rk.c's branch sets a default and goes
    on (kept); a branch that returns, or that only sets the read's own result (dwmac-stm32.c's
    ``err = 0``, the error returned after it), is a failure path (not kept)."""
    kept = regen_property_defaults.scan(
        'static int f(struct device *dev)\n{\n\tret = of_property_read_u32(np, "rx_delay", &v);\n'
        '\tif (ret) {\n\t\tp->rx_delay = 0x10;\n\t\tdev_err(dev, "set rx_delay to 0x%x\\n", 1);\n'
        "\t}\n\treturn 0;\n}\n"
    )
    assert [(r["property"], r["format"], r["function"]) for r in kept] == [
        ("rx_delay", "set rx_delay to 0x%x", "f")
    ]
    returned = regen_property_defaults.scan(
        'static int g(struct device *dev)\n{\n\tret = of_property_read_u32(np, "x", &v);\n'
        '\tif (ret) {\n\t\tp->x = 1;\n\t\tdev_err(dev, "missing x property\\n");\n'
        "\t\treturn ret;\n\t}\n\treturn 0;\n}\n"
    )
    reset = regen_property_defaults.scan(
        'static int h(struct device *dev)\n{\n\terr = of_property_read_u32(np, "y", &v);\n'
        '\tif (err) {\n\t\tdev_err(dev, "mask y must be set (%d)\\n", err);\n\t\terr = 0;\n'
        "\t}\n\treturn err;\n}\n"
    )
    assert returned == [] and reset == []
