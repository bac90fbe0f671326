"""Reusable widgets: cards, badges, plots, dialogs. Display only."""
