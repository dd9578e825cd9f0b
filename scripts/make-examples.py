#!/usr/bin/env python3
"""Regenerates the bundled example inputs in examples/ (deterministic).

examples/dt85.mat      85-task DT-like graph (NPB DT class C uses 85 processes):
                       a 4-ary tree 1+4+16+64 whose data grows towards the root,
                       ranks shuffled with a fixed seed so traffic is far from
                       the diagonal, like the seed's Figure 1b. Synthetic.
examples/stencil64.mat 4x4x4 nearest-neighbour stencil, 1 MiB per direction.
examples/torus8x8x8.conf  8x8x8 torus, nodes n000..n511 (first dimension fastest).
examples/faults16.txt  16 nodes with outage probability 0.02 (seeded choice).
"""
import random
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "examples"


def write_matrix(path, n, directed):
    rows = [[0] * n for _ in range(n)]
    for (i, j), value in directed.items():
        rows[i][j] += value
    with open(path, "w") as f:
        f.write(f"# {path.name}: bytes sent from row rank to column rank\n{n}\n")
        for row in rows:
            f.write(" ".join(str(v) for v in row) + "\n")


def dt85():
    rng = random.Random(85)
    rank_of = list(range(85))
    rng.shuffle(rank_of)
    directed = {}
    # Level-order tree: node k's children are 4k+1..4k+4; leaves (level 3) send
    # 1 MiB up, level-2 nodes forward 4 MiB, level-1 nodes 16 MiB to the root.
    for child in range(1, 85):
        parent = (child - 1) // 4
        level = 1 if child <= 4 else 2 if child <= 20 else 3
        size = {1: 16, 2: 4, 3: 1}[level] << 20
        directed[(rank_of[child], rank_of[parent])] = size
        directed[(rank_of[parent], rank_of[child])] = 4096  # small acknowledgements
    write_matrix(OUT / "dt85.mat", 85, directed)


def stencil64():
    directed = {}
    ident = lambda x, y, z: x + 4 * (y + 4 * z)
    for z in range(4):
        for y in range(4):
            for x in range(4):
                for dx, dy, dz in ((1, 0, 0), (0, 1, 0), (0, 0, 1)):
                    if x + dx < 4 and y + dy < 4 and z + dz < 4:
                        a, b = ident(x, y, z), ident(x + dx, y + dy, z + dz)
                        directed[(a, b)] = directed[(b, a)] = 1 << 20
    write_matrix(OUT / "stencil64.mat", 64, directed)


def torus_conf():
    (OUT / "torus8x8x8.conf").write_text(
        "# 8x8x8 torus; n000 is (0,0,0), n001 is (1,0,0): the first dimension varies fastest\n"
        "Dims=8x8x8 Wrap=yes CoresPerNode=1\n"
        "NodeName=n[000-511]\n")


def faults():
    rng = random.Random(16)
    nodes = sorted(rng.sample(range(512), 16))
    with open(OUT / "faults16.txt", "w") as f:
        f.write("# node outage-probability (16 of 512 nodes at 2%, as in the TOFA seed)\n")
        for n in nodes:
            f.write(f"n{n:03d} 0.02\n")


if __name__ == "__main__":
    OUT.mkdir(exist_ok=True)
    dt85()
    stencil64()
    torus_conf()
    faults()
