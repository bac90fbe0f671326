"""Tuning: tweaks that are read, applied, verified and reverted under an auto-revert guard."""
