"""Findings (bottlenecks with evidence) and recommendations, from inventory, results and catalog."""
