#!/usr/bin/env python3
"""Writes the communication matrices of the torus3d comparison's job stream
(tests/integration/torus3d/stream.txt) into a directory, deterministically.

    graphs.py OUTDIR NAME...

Names: stencilAxBxC (3D 7-point halo, no wrap, 1 MiB a face, ranks in
row-major order, x fastest), stencilAxB (2D), a "-shuffled" suffix permutes
the ranks with a fixed seed (traffic far from the diagonal, as a profiler sees
a code whose rank order does not follow its grid); treeN (a binary reduction
tree whose messages grow towards the root, 64 KiB at the leaves), ringN
(neighbours 512 KiB), pairsN (heavy pairs 2k, 2k+1 of 4 MiB, light 4 KiB links
between consecutive pairs), randomN (each task talks to 3 random partners,
64 KiB - 2 MiB). The format is README's "Communication matrix": first data
line N, then N rows of bytes sent from the row's rank to the column's rank.
"""
import random
import re
import sys
from pathlib import Path

MIB = 1 << 20


def stencil(dims):
    """Edges of a non-periodic nearest-neighbour grid, x fastest."""
    dims = list(dims) + [1] * (3 - len(dims))
    X, Y, Z = dims
    ident = lambda x, y, z: x + X * (y + Y * z)
    edges = {}
    for z in range(Z):
        for y in range(Y):
            for x in range(X):
                for dx, dy, dz in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
                    if x + dx < X and y + dy < Y and z + dz < Z:
                        edges[(ident(x, y, z), ident(x + dx, y + dy, z + dz))] = MIB
    return X * Y * Z, edges


def tree(n):
    edges = {}
    for child in range(1, n):
        parent = (child - 1) // 2
        depth = (child + 1).bit_length() - 1
        edges[(child, parent)] = (64 << 10) << (2 * max(0, 3 - depth))
    return n, edges


def ring(n):
    return n, {(i, (i + 1) % n): 512 << 10 for i in range(n)}


def pairs(n):
    edges = {(2 * k, 2 * k + 1): 4 * MIB for k in range(n // 2)}
    for k in range(n // 2 - 1):
        edges[(2 * k + 1, 2 * k + 2)] = 4 << 10
    return n, edges


def random_graph(n, seed):
    rng = random.Random(seed)
    edges = {}
    for i in range(n):
        for j in rng.sample([k for k in range(n) if k != i], 3):
            edges[(min(i, j), max(i, j))] = rng.randint(1, 32) * (64 << 10)
    return n, edges


def build(name):
    base, shuffled = (name[: -len("-shuffled")], True) if name.endswith("-shuffled") else (name, False)
    m = re.fullmatch(r"stencil(\d+)x(\d+)(?:x(\d+))?", base)
    if m:
        n, edges = stencil([int(v) for v in m.groups() if v])
    elif (m := re.fullmatch(r"(tree|ring|pairs|random)(\d+)", base)):
        kind, size = m.group(1), int(m.group(2))
        n, edges = {"tree": tree, "ring": ring, "pairs": pairs,
                    "random": lambda k: random_graph(k, 1000 + k)}[kind](size)
    else:
        raise SystemExit(f"graphs.py: unknown graph name '{name}'")
    rank = list(range(n))
    if shuffled:
        random.Random(7 * n + 1).shuffle(rank)
    rows = [[0] * n for _ in range(n)]
    for (i, j), w in edges.items():
        rows[rank[i]][rank[j]] += w
        rows[rank[j]][rank[i]] += w
    return n, rows


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name in sys.argv[2:]:
        n, rows = build(name)
        with open(out / f"{name}.mat", "w") as f:
            f.write(f"# {name}: bytes sent from row rank to column rank "
                    f"(tests/integration/torus3d/graphs.py)\n{n}\n")
            for row in rows:
                f.write(" ".join(str(v) for v in row) + "\n")


if __name__ == "__main__":
    main()
