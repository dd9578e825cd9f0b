/* libtofaprof: the traffic of each collective, emulated with one fixed,
 * documented algorithm. Real MPI libraries pick algorithms by message size
 * and communicator size; a placement tool needs a stable, explainable graph,
 * so we record what the algorithm below would send, not what the library did.
 *
 * Notation: p = communicator size, r = my rank in it, root = the root's rank,
 * v = (r - root + p) mod p (rank relative to the root), n = bytes of one block
 * (count x type size; with MPI_IN_PLACE the receive count and type are used
 * where the standard says the send arguments are ignored),
 * lowbit(v) = largest power of two dividing v (v > 0).
 * "a -> b: x" means one message of x bytes from rank a to rank b; ranks are
 * translated to MPI_COMM_WORLD before recording. A message whose size would be
 * 0 bytes is not recorded, except in MPI_Barrier (below). Non-blocking
 * variants (MPI_Ibcast, ...) record exactly what the blocking call would, when
 * they are posted. Collectives on inter-communicators are not recorded (they
 * are counted as "unsupported_calls" in the summary).
 *
 * | collective                 | algorithm            | messages sent by rank r                                  |
 * |----------------------------|----------------------|----------------------------------------------------------|
 * | Bcast, Ibcast              | binomial tree        | v -> v+m: n, for every power of two m < lowbit(v) with    |
 * |                            |                      | v+m < p (for v = 0: every power of two m < p)            |
 * | Reduce, Ireduce            | binomial tree        | v -> v - lowbit(v): n, for v > 0 (the root sends nothing) |
 * | Allreduce, Iallreduce      | recursive doubling   | q = largest power of two <= p, e = p - q.                |
 * |                            | (odd p: fold-in/out) | 1. r < 2e and r even: r -> r+1: n (r then idles)         |
 * |                            |                      | 2. active ranks get new rank s = r/2 (r < 2e, r odd) or  |
 * |                            |                      |    s = r - e (r >= 2e); for m = 1, 2, .., q/2:           |
 * |                            |                      |    r -> real(s XOR m): n, real(t) = 2t+1 if t < e else t+e|
 * |                            |                      | 3. r < 2e and r odd: r -> r-1: n                          |
 * | Allgather(v), Iallgather(v)| ring                 | for s = 0 .. p-2: r -> (r+1) mod p: n_b with             |
 * |                            |                      | b = (r - s) mod p (n_b = block b's size; equal for       |
 * |                            |                      | Allgather)                                                |
 * | Alltoall(v,w), Ialltoall.. | pairwise exchange    | r -> j: n_j (block j of my send buffer), every j != r    |
 * | Gather(v), Igather(v)      | linear               | r -> root: n, for r != root                               |
 * | Scatter(v), Iscatter(v)    | linear               | root -> j: n_j, every j != root                           |
 * | Reduce_scatter(_block), I..| pairwise exchange    | r -> j: recvcounts[j] x type size, every j != r           |
 * | Barrier, Ibarrier          | dissemination        | r -> (r + m) mod p: 0 bytes, for m = 1, 2, 4, .. < p      |
 * |                            |                      | (the one case where 0-byte messages are recorded)         |
 * | Scan, Exscan, I(ex)scan    | recursive doubling   | r -> r+m: n, for m = 1, 2, 4, .. with r+m < p             |
 *
 * Examples: Bcast on p = 8, root 0 sends 0->4, 0->2, 0->1, 2->3, 4->6, 4->5,
 * 6->7 (7 messages, each n). Allreduce on p = 6 (q = 4, e = 2): 0->1, 2->3;
 * then among 1,3,4,5: 1<->3, 4<->5 (m = 1), 1<->4, 3<->5 (m = 2); then 1->0,
 * 3->2: every message n bytes.
 */
#include "tofaprof.h"

#include <stdint.h>
#include <stdlib.h>

/* Records one message from me to rank `to` of the communicator. */
static void to(int cls, const struct tp_comm *c, int round, int rank, uint64_t bytes,
               int allow_empty) {
  if (bytes == 0 && !allow_empty) return;
  int dst = tp_world_rank(c, rank);
  if (dst < 0) return;
  tp_send(cls, dst, bytes);
  tp_trace_message(round, dst, bytes);
}

/* Pairwise exchange: r sends to j in round (j - r) mod p, so j receives
 * from r in the round it sends to r + (j - r): every round is a shift. */
static int pairwise_round(const struct tp_comm *c, int j) { return (j - c->rank + c->size) % c->size; }

/* The communicator, or NULL when the call must not be recorded. */
static const struct tp_comm *intra(int cls, MPI_Comm comm) {
  const struct tp_comm *c = tp_comm_of(comm);
  if (!c) return NULL;
  tp_call(cls);
  if (c->inter) {
    tp_unsupported();
    return NULL;
  }
  tp_trace_collective(c, cls);
  return c;
}

static int lowbit(int v) { return v & -v; }

static int log2_floor(int m) {
  int k = 0;
  while (m > 1) m >>= 1, ++k;
  return k;
}

void tp_coll_bcast(MPI_Comm comm, int count, MPI_Datatype type, int root) {
  const struct tp_comm *c = intra(TP_BCAST, comm);
  if (!c) return;
  int p = c->size, v = (c->rank - root + p) % p;
  uint64_t n = tp_bytes(count, type);
  int limit = v == 0 ? p : lowbit(v), last_round = log2_floor(p - 1);
  for (int m = 1; m < limit; m <<= 1)
    if (v + m < p) to(TP_BCAST, c, last_round - log2_floor(m), (v + m + root) % p, n, 0);
}

void tp_coll_reduce(MPI_Comm comm, int count, MPI_Datatype type, int root) {
  const struct tp_comm *c = intra(TP_REDUCE, comm);
  if (!c) return;
  int p = c->size, v = (c->rank - root + p) % p;
  if (v > 0)
    to(TP_REDUCE, c, log2_floor(lowbit(v)), (v - lowbit(v) + root) % p, tp_bytes(count, type), 0);
}

void tp_coll_allreduce(MPI_Comm comm, int count, MPI_Datatype type) {
  const struct tp_comm *c = intra(TP_ALLREDUCE, comm);
  if (!c) return;
  int p = c->size, r = c->rank;
  uint64_t n = tp_bytes(count, type);
  int q = 1;
  while (q * 2 <= p) q *= 2;
  int e = p - q;
  if (r < 2 * e && r % 2 == 0) {
    to(TP_ALLREDUCE, c, 0, r + 1, n, 0);
    return;
  }
  int s = r < 2 * e ? r / 2 : r - e;
  for (int m = 1; m < q; m <<= 1) {
    int t = s ^ m;
    to(TP_ALLREDUCE, c, 1 + log2_floor(m), t < e ? 2 * t + 1 : t + e, n, 0);
  }
  if (r < 2 * e) to(TP_ALLREDUCE, c, 1 + log2_floor(q), r - 1, n, 0);
}

static void ring(int cls, const struct tp_comm *c, const uint64_t *block) {
  int p = c->size, r = c->rank;
  for (int s = 0; s < p - 1; ++s) to(cls, c, s, (r + 1) % p, block[((r - s) % p + p) % p], 0);
}

void tp_coll_allgather(MPI_Comm comm, int in_place, int scount, MPI_Datatype stype, int rcount,
                       MPI_Datatype rtype) {
  const struct tp_comm *c = intra(TP_ALLGATHER, comm);
  if (!c) return;
  uint64_t n = in_place ? tp_bytes(rcount, rtype) : tp_bytes(scount, stype);
  for (int s = 0; s < c->size - 1; ++s) to(TP_ALLGATHER, c, s, (c->rank + 1) % c->size, n, 0);
}

void tp_coll_allgatherv(MPI_Comm comm, const int rcounts[], MPI_Datatype rtype) {
  const struct tp_comm *c = intra(TP_ALLGATHER, comm);
  if (!c) return;
  uint64_t *block = malloc((size_t)c->size * sizeof *block);
  for (int b = 0; b < c->size; ++b) block[b] = tp_bytes(rcounts[b], rtype);
  ring(TP_ALLGATHER, c, block);
  free(block);
}

void tp_coll_alltoall(MPI_Comm comm, int in_place, int scount, MPI_Datatype stype, int rcount,
                      MPI_Datatype rtype) {
  const struct tp_comm *c = intra(TP_ALLTOALL, comm);
  if (!c) return;
  uint64_t n = in_place ? tp_bytes(rcount, rtype) : tp_bytes(scount, stype);
  for (int j = 0; j < c->size; ++j)
    if (j != c->rank) to(TP_ALLTOALL, c, pairwise_round(c, j), j, n, 0);
}

void tp_coll_alltoallv(MPI_Comm comm, int in_place, const int scounts[], MPI_Datatype stype,
                       const int rcounts[], MPI_Datatype rtype) {
  const struct tp_comm *c = intra(TP_ALLTOALL, comm);
  if (!c) return;
  for (int j = 0; j < c->size; ++j)
    if (j != c->rank)
      to(TP_ALLTOALL, c, pairwise_round(c, j), j,
         in_place ? tp_bytes(rcounts[j], rtype) : tp_bytes(scounts[j], stype), 0);
}

void tp_coll_alltoallw(MPI_Comm comm, int in_place, const int scounts[],
                       const MPI_Datatype stypes[], const int rcounts[],
                       const MPI_Datatype rtypes[]) {
  const struct tp_comm *c = intra(TP_ALLTOALL, comm);
  if (!c) return;
  for (int j = 0; j < c->size; ++j)
    if (j != c->rank)
      to(TP_ALLTOALL, c, pairwise_round(c, j), j,
         in_place ? tp_bytes(rcounts[j], rtypes[j]) : tp_bytes(scounts[j], stypes[j]), 0);
}

void tp_coll_gather(MPI_Comm comm, int in_place, int scount, MPI_Datatype stype, int root) {
  const struct tp_comm *c = intra(TP_GATHER, comm);
  if (!c || c->rank == root || in_place) return;
  to(TP_GATHER, c, 0, root, tp_bytes(scount, stype), 0);
}

void tp_coll_scatter(MPI_Comm comm, int scount, MPI_Datatype stype, int root) {
  const struct tp_comm *c = intra(TP_SCATTER, comm);
  if (!c || c->rank != root) return;
  uint64_t n = tp_bytes(scount, stype);
  for (int j = 0; j < c->size; ++j)
    if (j != root) to(TP_SCATTER, c, 0, j, n, 0);
}

void tp_coll_scatterv(MPI_Comm comm, const int scounts[], MPI_Datatype stype, int root) {
  const struct tp_comm *c = intra(TP_SCATTER, comm);
  if (!c || c->rank != root) return;
  for (int j = 0; j < c->size; ++j)
    if (j != root) to(TP_SCATTER, c, 0, j, tp_bytes(scounts[j], stype), 0);
}

void tp_coll_reduce_scatter(MPI_Comm comm, const int rcounts[], MPI_Datatype type) {
  const struct tp_comm *c = intra(TP_REDUCE_SCATTER, comm);
  if (!c) return;
  for (int j = 0; j < c->size; ++j)
    if (j != c->rank) to(TP_REDUCE_SCATTER, c, pairwise_round(c, j), j, tp_bytes(rcounts[j], type), 0);
}

void tp_coll_reduce_scatter_block(MPI_Comm comm, int rcount, MPI_Datatype type) {
  const struct tp_comm *c = intra(TP_REDUCE_SCATTER, comm);
  if (!c) return;
  uint64_t n = tp_bytes(rcount, type);
  for (int j = 0; j < c->size; ++j)
    if (j != c->rank) to(TP_REDUCE_SCATTER, c, pairwise_round(c, j), j, n, 0);
}

void tp_coll_barrier(MPI_Comm comm) {
  const struct tp_comm *c = intra(TP_BARRIER, comm);
  if (!c) return;
  for (int m = 1; m < c->size; m <<= 1)
    to(TP_BARRIER, c, log2_floor(m), (c->rank + m) % c->size, 0, 1);
}

void tp_coll_scan(MPI_Comm comm, int count, MPI_Datatype type) {
  const struct tp_comm *c = intra(TP_SCAN, comm);
  if (!c) return;
  uint64_t n = tp_bytes(count, type);
  for (int m = 1; c->rank + m < c->size; m <<= 1) to(TP_SCAN, c, log2_floor(m), c->rank + m, n, 0);
}
