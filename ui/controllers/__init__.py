"""Qt adapters over sbctune.workflow: they run its steps as asyncio tasks kept by a TaskRunner
and turn what happens into signals the pages show.

Pages only lay out widgets and forward clicks; everything that talks to the Pi, the history or
the tuning lives here or, for what the CLI shares, in sbctune.workflow.
"""
