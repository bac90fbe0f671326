"""View-models and controllers: they call the core and hold what the pages show.

Pages only lay out widgets and forward clicks; everything that talks to the Pi, the history or
the tuning lives here, as asyncio tasks kept by a TaskRunner.
"""
