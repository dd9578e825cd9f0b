#!/usr/bin/env python3
"""The include graph of the product's C and C++ sources, checked.

Fails (exit 1, naming the files) when
  - files include each other in a loop (a .c/.cpp and its .h/.hpp count as one
    unit, so a.cpp -> b.hpp, b.cpp -> a.hpp is a loop), or
  - a file of libtofa (common/) includes a layer above its own: the layers,
    bottom up, are LAYERS below; a folder may include its own layer and any
    layer listed lower, never a higher one or a sibling of the same rank.

Usage: include-graph.py [--root DIR] [--edges]   (--edges prints unit -> unit)
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from c_sources import c_sources  # noqa: E402

SOURCE_DIRS = ("common", "tools", "plugins")
INCLUDE_DIRS = ("common", "plugins", "tools")
# rank: a layer may include layers of lower rank; same rank = separate siblings
LAYERS = {
    "base": 0,
    "graph": 1, "topology": 1,
    "faults": 2, "alloc": 2, "net": 2,
    "metrics": 3,
    "map": 4,
    "service": 5,
    "capi": 6,
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def resolve(root, including, written):
    for base in (os.path.dirname(including),) + INCLUDE_DIRS:
        path = os.path.normpath(os.path.join(base, written))
        if os.path.isfile(os.path.join(root, path)):
            return path
    return None  # a system or Slurm header


def unit(path):
    return os.path.splitext(path)[0]


def layer(path):
    parts = path.split(os.sep)
    return parts[1] if parts[0] == "common" and len(parts) > 2 else None


def strongly_connected(graph):
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    counter = [0]

    def visit(start):
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter[0]
                    counter[0] += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."))
    parser.add_argument("--edges", action="store_true")
    args = parser.parse_args()
    root = os.path.abspath(args.root)

    graph, problems, files = {}, [], 0
    for path in c_sources(root, SOURCE_DIRS):
        files += 1
        with open(os.path.join(root, path), errors="replace") as f:
            text = f.read()
        for written in INCLUDE.findall(text):
            target = resolve(root, path, written)
            if target is None:
                continue
            if unit(target) != unit(path):
                graph.setdefault(unit(path), set()).add(unit(target))
            mine, theirs = layer(path), layer(target)
            if mine and theirs and mine != theirs and mine in LAYERS and theirs in LAYERS \
                    and LAYERS[theirs] >= LAYERS[mine]:
                problems.append(f"{path} includes {target}: layer {theirs} is not below "
                                f"{mine} (layers: {', '.join(sorted(LAYERS, key=LAYERS.get))})")
            elif mine and mine not in LAYERS:
                problems.append(f"{path}: common/{mine}/ is not a known layer")
    if files == 0:
        print(f"include-graph: no C or C++ sources under {root}/{{{','.join(SOURCE_DIRS)}}}")
        return 1
    for component in strongly_connected(graph):
        problems.append("include loop: " + " <-> ".join(component))
    if args.edges:
        for source in sorted(graph):
            for target in sorted(graph[source]):
                print(f"{source} -> {target}")
    for problem in sorted(set(problems)):
        print(problem)
    edges = sum(len(targets) for targets in graph.values())
    print(f"include-graph: {files} files, {edges} includes between units, "
          f"{len(set(problems))} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
