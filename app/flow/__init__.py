"""The one-click flow: baseline, tune under the guard, measure again, results."""
