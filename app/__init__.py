"""sbctune: guided, measured network tuning for Raspberry Pi and other Linux SBCs.

This package is the core. It never imports Qt; the GUI lives in ``sbctune.ui``.
"""

__version__ = "0.1.0"
