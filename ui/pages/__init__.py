"""The wizard's pages, one module each. They lay out widgets and forward clicks to controllers."""
