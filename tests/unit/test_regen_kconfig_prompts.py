"""A Kconfig prompt with escaped quotes is read whole, unescaped, as the family a user sees.

drivers/net/ethernet/3com/Kconfig (Debian linux-source-6.1 and 6.12) has
`tristate "3c590/3c900 series (592/595/597) \\"Vortex/Boomerang\\" support"`: read to the first
quote, driver_families.json gave 3c59x the family "3c590/3c900 series (592/595/597) \\".
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from regen_driver_families import kconfig_prompts  # noqa: E402


def test_an_escaped_quote_stays_in_the_prompt(tmp_path: Path) -> None:
    kconfig = tmp_path / "drivers/net/ethernet/3com/Kconfig"
    kconfig.parent.mkdir(parents=True)
    kconfig.write_text(
        "config VORTEX\n"
        '\ttristate "3c590/3c900 series (592/595/597) \\"Vortex/Boomerang\\" support"\n'
        "\tdepends on (PCI || EISA) && HAS_IOPORT_MAP\n"
        "config TYPHOON\n"
        '\ttristate "3cr990 series \\"Typhoon\\" support"\n',
        encoding="utf-8",
    )
    found = kconfig_prompts(tmp_path)
    assert found["VORTEX"][0] == '3c590/3c900 series (592/595/597) "Vortex/Boomerang" support'
    assert found["TYPHOON"][0] == '3cr990 series "Typhoon" support'
