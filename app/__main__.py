"""`python -m sbctune`: the command line (the GUI starts from the `sbctune` launcher)."""

import sys

from sbctune.cli.main import main
from sbctune.cli.process_end import end_process

code = main()
end_process(code)  # without the interpreter's tear-down; returns when the ordinary exit is needed
sys.exit(code)
