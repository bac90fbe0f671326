"""Prints every import cycle among sbctune's modules; exits 1 when there is one.

Run through `python scripts/static_checks.py cycles` (grimp cannot follow setup.py's
package-dir mapping; static_checks builds a view it can read). grimp is the graph builder
import-linter uses; it records every import statement, those inside functions and under
`if TYPE_CHECKING:` too, so a cycle hidden in a function body is a cycle here.

Output, one block per group of modules that import each other (a strongly connected
component), with one shortest cycle through it:

    cycle: sbctune.a -> sbctune.b (l.12) -> sbctune.a (l.40)
      members: sbctune.a, sbctune.b
"""

from __future__ import annotations

import itertools
import sys
from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import grimp

Graph = dict[str, list[str]]


def import_graph(package: str = "sbctune") -> tuple[grimp.ImportGraph, Graph]:
    import grimp  # here: the graph functions below are tested where grimp is not installed

    graph = grimp.build_graph(package, cache_dir=None)
    edges = {
        module: sorted(
            i for i in graph.find_modules_directly_imported_by(module) if i.split(".")[0] == package
        )
        for module in sorted(graph.modules)
    }
    return graph, edges


def components(edges: Graph) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            targets = edges.get(node, [])
            if child < len(targets):
                work.append((node, child + 1))
                target = targets[child]
                if target not in index:
                    work.append((target, 0))
                elif target in on_stack:
                    low[node] = min(low[node], index[target])
                continue
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(found)


def shortest_cycle(edges: Graph, group: Iterable[str]) -> list[str]:
    """The shortest cycle through the group's first module (breadth-first, inside the group)."""
    members = set(group)
    start = min(members)
    previous: dict[str, str] = {}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for target in edges.get(node, []):
            if target not in members:
                continue
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(previous[path[-1]])
                return [*reversed(path), start]
            if target not in previous:
                previous[target] = node
                queue.append(target)
    return [start]  # unreachable for a real component


def describe(graph: grimp.ImportGraph, cycle: list[str]) -> str:
    parts = [cycle[0]]
    for importer, imported in itertools.pairwise(cycle):
        details = graph.get_import_details(importer=importer, imported=imported)
        lines = ",".join(str(d["line_number"]) for d in details) or "?"
        parts.append(f"{imported} (l.{lines})")
    return " -> ".join(parts)


def main() -> int:
    graph, edges = import_graph()
    groups = components(edges)
    for group in groups:
        print("cycle: " + describe(graph, shortest_cycle(edges, group)))
        print("  members: " + ", ".join(group))
    print(f"{len(groups)} import cycle(s) among {len(edges)} modules")
    return 1 if groups else 0


if __name__ == "__main__":
    sys.exit(main())
