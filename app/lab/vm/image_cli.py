"""`python -m sbctune.lab.vm.image_cli [--force]`: build or reuse the cached VM image."""

from __future__ import annotations

import argparse
import sys
import time

from sbctune.lab.errors import LabError
from sbctune.lab.vm import image


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="vm-build-image", description=__doc__)
    parser.add_argument("--force", action="store_true", help="rebuild even if cached")
    args = parser.parse_args(argv)
    start = time.monotonic()
    try:
        built = image.build(force=args.force)
    except LabError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    print(f"{built.folder} ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
