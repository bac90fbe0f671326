"""`python -m sbctune`: the command line (the GUI starts from the `sbctune` launcher)."""

import sys

from sbctune.cli.main import main

sys.exit(main())
