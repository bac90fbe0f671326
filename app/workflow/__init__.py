"""The user's path as one typed, Qt-free layer: the state (session, inventory, chosen NIC, runs,
tuning in force), the rules both front ends share, and the one-click flow. The CLI commands and
the GUI controllers adapt it (issue 12 part 1; filled in by that work).

Its place in the layers (pyproject.toml): below ui and cli, above export, compare and advice.
"""
