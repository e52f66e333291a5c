#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The product's imports: layers call only downward, and no circle.

Layers, top to bottom: tools/ -> provider/ -> alg/ (with its cipher rooms,
alg/<cipher>/) -> engine/ -> detect/.  A unit is a .c file with the .h of
the same name beside it.  Fails (exit 1) on an #include from a lower layer
into a higher one, or on any cycle of units; prints the units and arrows
counted.  usage: check-imports.py [ROOT]
"""
import os
import re
import sys

LAYERS = ["tools", "provider", "alg", "engine", "detect"]
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer(path):
    return LAYERS.index(path.split("/")[0])


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files = []
    for top in LAYERS:
        for d, _, names in os.walk(os.path.join(root, top)):
            files += [os.path.relpath(os.path.join(d, n), root) for n in names
                      if n.endswith((".c", ".h"))]
    unit = {f: os.path.splitext(f)[0] for f in files}
    arrows, bad = set(), []
    for f in sorted(files):
        with open(os.path.join(root, f), encoding="utf-8") as fh:
            text = fh.read()
        for inc in INCLUDE.findall(text):
            target = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            if target not in unit:
                continue  # a test or system header
            if layer(target) < layer(f):
                bad.append(f"{f} includes {target}: upward ({target.split('/')[0]}/ is above "
                           f"{f.split('/')[0]}/)")
            if unit[target] != unit[f]:
                arrows.add((unit[f], unit[target]))
    graph = {}
    for a, b in arrows:
        graph.setdefault(a, set()).add(b)
    # Tarjan's strongly connected components: a component of two or more is a circle.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(set(unit.values())):
        if v not in index:
            visit(v)
    for c in comps:
        bad.append("import circle: " + " -> ".join(c))
    print(f"imports: {len(set(unit.values()))} units, {len(arrows)} arrows, "
          f"{len(comps)} circles, {len(bad) - len(comps)} upward")
    for b in bad:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
