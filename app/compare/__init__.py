"""Comparisons of two or more measurement runs, with run-to-run noise."""
