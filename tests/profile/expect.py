#!/usr/bin/env python3
"""Expected G_v / G_m of the profile test programs, computed from the
algorithm table documented in tools/profile/tofaprof_collectives.c (written
again here, independently of the library), and compared with what
libtofaprof wrote.

usage: expect.py CASE P DIR [ARGS...]   -> exit 0 when DIR/comm.mat and
DIR/comm.msgs.mat equal the expectation, else prints the differences."""
import sys


class Expect:
    def __init__(self, p):
        self.p = p
        self.bytes = [[0] * p for _ in range(p)]
        self.msgs = [[0] * p for _ in range(p)]

    def send(self, src, dst, nbytes, allow_empty=False):
        if nbytes == 0 and not allow_empty:
            return
        self.bytes[src][dst] += nbytes
        self.msgs[src][dst] += 1


# ---- the documented algorithms; `world` maps communicator rank -> world rank

def bcast(e, world, n, root):
    p = len(world)
    for v in range(p):
        limit = p if v == 0 else v & -v
        m = 1
        while m < limit:
            if v + m < p:
                e.send(world[(v + root) % p], world[(v + m + root) % p], n)
            m *= 2


def reduce(e, world, n, root):
    p = len(world)
    for v in range(1, p):
        e.send(world[(v + root) % p], world[(v - (v & -v) + root) % p], n)


def allreduce(e, world, n):
    p = len(world)
    q = 1
    while q * 2 <= p:
        q *= 2
    extra = p - q
    real = lambda t: 2 * t + 1 if t < extra else t + extra
    for r in range(p):
        if r < 2 * extra and r % 2 == 0:
            e.send(world[r], world[r + 1], n)            # fold in
            continue
        s = r // 2 if r < 2 * extra else r - extra
        m = 1
        while m < q:
            e.send(world[r], world[real(s ^ m)], n)
            m *= 2
        if r < 2 * extra:
            e.send(world[r], world[r - 1], n)            # fold out


def allgatherv(e, world, blocks):
    p = len(world)
    for r in range(p):
        for s in range(p - 1):
            e.send(world[r], world[(r + 1) % p], blocks[(r - s) % p])


def pairwise(e, world, n_of):  # alltoall(v), reduce_scatter: r -> j n_of(r, j)
    for r in range(len(world)):
        for j in range(len(world)):
            if j != r:
                e.send(world[r], world[j], n_of(r, j))


def gather(e, world, n_of, root):
    for r in range(len(world)):
        if r != root:
            e.send(world[r], world[root], n_of(r))


def scatter(e, world, n, root):
    for j in range(len(world)):
        if j != root:
            e.send(world[root], world[j], n)


def barrier(e, world):
    p = len(world)
    for r in range(p):
        m = 1
        while m < p:
            e.send(world[r], world[(r + m) % p], 0, allow_empty=True)
            m *= 2


def scan(e, world, n):
    p = len(world)
    for r in range(p):
        m = 1
        while r + m < p:
            e.send(world[r], world[r + m], n)
            m *= 2


# ---- the test programs (sizes from their header comments)

def case_p2p(e, args):
    p = e.p
    for r in range(p):
        e.send(r, (r + 1) % p, 1000 * 8)
        e.send(r, (r - 1) % p, 300 * 4)
        for _ in range(3):
            e.send(r, (r + 1) % p, 10)
        e.send(r, (r + 2) % p, 64)
        e.send(r, (r + 1) % p, 0, allow_empty=True)


def case_halo2d(e, args):
    px, py = int(args[0]), int(args[1])
    p = e.p
    world = lambda c: p - 1 - c                 # reversed split, no reorder
    for c in range(p):
        x, y = divmod(c, py)
        for _ in range(5):
            for d in (-1, 1):
                e.send(world(c), world(((x + d) % px) * py + y), 50 * 8)
            for d in (-1, 1):
                e.send(world(c), world(x * py + (y + d) % py), 100 * 8)


def case_bcast(e, args):
    world = list(range(e.p))
    bcast(e, world, 1000, 0)
    bcast(e, world, 750 * 4, 3)
    bcast(e, world, 500, 5)
    bcast(e, world, 0, 1)


def case_alltoall_rows(e, args):
    cols = int(args[0])
    for first in range(0, e.p, cols):
        world = list(range(first, min(first + cols, e.p)))
        pairwise(e, world, lambda i, j: 16 * 4)
        pairwise(e, world, lambda i, j: (i + j + 1) * 4)
        pairwise(e, world, lambda i, j: 2 * 8)


def case_colls(e, args):
    p = e.p
    world = list(range(p))
    allreduce(e, world, 100 * 8)
    allreduce(e, world, 10 * 4)
    reduce(e, world, 7 * 8, 2)
    allgatherv(e, world, [5 * 4] * p)
    allgatherv(e, world, [(k + 1) * 4 for k in range(p)])
    gather(e, world, lambda r: 3 * 4, 1)
    scatter(e, world, 2 * 8, 4 % p)
    pairwise(e, world, lambda r, j: (j + 1) * 4)     # reduce_scatter
    pairwise(e, world, lambda r, j: 3 * 4)           # reduce_scatter_block
    barrier(e, world)
    barrier(e, world)                                # ibarrier
    scan(e, world, 4 * 4)
    scan(e, world, 4 * 4)                            # exscan
    allreduce(e, world, 8 * 8)                       # iallreduce
    allreduce(e, world, 0)


def case_rma(e, args):
    p = e.p
    for r in range(p):
        e.send((r + 2) % p, r, 5 * 4)
        e.send(r, (r + 1) % p, 10 * 4)
        e.send(r, (r + 3) % p, 3 * 4)


def case_fring(e, args):
    p = e.p
    for r in range(p):
        e.send(r, (r + 1) % p, 200 * 8)
        e.send(r, (r - 1) % p, 7 * 4)
    allreduce(e, list(range(p)), 4 * 8)
    allgatherv(e, list(range(p)), [3 * 4] * p)


def read_matrix(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.split('#')[0].split()
            if line:
                rows.append([int(x) for x in line])
    n = rows[0][0]
    assert len(rows) == n + 1, f"{path}: {len(rows) - 1} rows, expected {n}"
    return rows[1:]


def main():
    case, p, out, args = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    e = Expect(p)
    globals()['case_' + case](e, args)
    bad = 0
    for name, want in (('comm.mat', e.bytes), ('comm.msgs.mat', e.msgs)):
        got = read_matrix(f"{out}/{name}")
        for i in range(p):
            for j in range(p):
                if got[i][j] != want[i][j]:
                    bad += 1
                    if bad <= 10:
                        print(f"{case}: {name} ({i},{j}) = {got[i][j]}, expected {want[i][j]}")
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
