/* libtofaprof: the MPI-3 neighbourhood collectives, MPI_Neighbor_allgather(v),
 * MPI_Neighbor_alltoall(v,w) and their MPI_Ineighbor_* forms (C entry points,
 * and Open MPI Fortran shims for the reason given in tofaprof_fortran.c).
 *
 * There is no algorithm to emulate here: the standard fixes the messages.
 * Block k of the send buffer goes to out-neighbour k of the communicator's
 * virtual topology, so rank r records one message r -> out-neighbour k of
 *   n_k = sendcount x sendtype size      Neighbor_allgather(v), Neighbor_alltoall
 *   n_k = sendcounts[k] x sendtype size  Neighbor_alltoallv
 *   n_k = sendcounts[k] x sendtypes[k]   Neighbor_alltoallw
 * Out-neighbours, in send-block order:
 *   Cartesian (MPI_Cart_create): for every dimension d, the source and then
 *     the destination of MPI_Cart_shift(d, 1); an MPI_PROC_NULL neighbour
 *     keeps its block index but receives nothing;
 *   graph (MPI_Graph_create): MPI_Graph_neighbors of my rank;
 *   distributed graph: the destinations of MPI_Dist_graph_neighbors.
 * A neighbour listed twice (a periodic dimension of size 2) gets two messages;
 * a neighbour that is the rank itself (periodic dimension of size 1, graph
 * self-loop) is recorded on the diagonal like a point-to-point send to self.
 * As for the other collectives: ranks are translated to MPI_COMM_WORLD,
 * 0-byte messages are not recorded, the nonblocking forms record when posted,
 * and Neighbor_allgather(v) counts as class "allgather", Neighbor_alltoall
 * (v,w) as "alltoall" in the JSON summary. A call on a communicator without
 * a topology (erroneous in MPI) is counted as unsupported.
 * Not covered: the MPI-4 persistent (*_init) and large-count (*_c) forms. */
#include "tofaprof.h"

#include <stdlib.h>

/* The send blocks of one call: block k holds counts[k] (else count) elements
 * of types[k] (else ftypes[k], a Fortran handle; else type). */
struct blocks {
  int count;
  const int *counts;
  MPI_Datatype type;
  const MPI_Datatype *types;
  const MPI_Fint *ftypes;
};

static uint64_t block_bytes(const struct blocks *b, int k) {
  int count = b->counts ? b->counts[k] : b->count;
  if (b->types) return tp_bytes(count, b->types[k]);
  if (b->ftypes) return tp_bytes(count, PMPI_Type_f2c(b->ftypes[k]));
  return tp_bytes(count, b->type);
}

static int *ints(int n) { return malloc((size_t)(n > 0 ? n : 1) * sizeof(int)); }

/* Out-neighbours of `rank` as ranks of `comm`, in send-block order: returns
 * how many and sets *list (free it), or returns -1 when comm has no topology. */
static int out_neighbours(MPI_Comm comm, int rank, int **list) {
  int topology = MPI_UNDEFINED, n = 0;
  PMPI_Topo_test(comm, &topology);
  if (topology == MPI_CART) {
    int ndims = 0;
    PMPI_Cartdim_get(comm, &ndims);
    n = 2 * ndims;
    int *shifts = *list = ints(n);
    for (int d = 0; d < ndims; ++d) PMPI_Cart_shift(comm, d, 1, &shifts[2 * d], &shifts[2 * d + 1]);
  } else if (topology == MPI_GRAPH) {
    PMPI_Graph_neighbors_count(comm, rank, &n);
    *list = ints(n);
    PMPI_Graph_neighbors(comm, rank, n, *list);
  } else if (topology == MPI_DIST_GRAPH) {
    int in = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &n, &weighted);
    int *sources = ints(in), *source_weights = ints(in), *dest_weights = ints(n);
    *list = ints(n);
    PMPI_Dist_graph_neighbors(comm, in, sources, source_weights, n, *list, dest_weights);
    free(sources);
    free(source_weights);
    free(dest_weights);
  } else {
    return -1;
  }
  return n;
}

static void record(int cls, MPI_Comm comm, struct blocks b) {
  tp_trace_unsupported("neighbourhood collective");
  const struct tp_comm *c = tp_comm_of(comm);
  if (!c) return;
  tp_call(cls);
  int *neighbours = NULL;
  int n = c->inter ? -1 : out_neighbours(comm, c->rank, &neighbours);
  if (n < 0) {
    tp_unsupported();
    return;
  }
  for (int k = 0; k < n; ++k) {
    uint64_t bytes = block_bytes(&b, k);
    int dst = tp_world_rank(c, neighbours[k]); /* -1 for MPI_PROC_NULL */
    if (bytes > 0 && dst >= 0) tp_send(cls, dst, bytes);
  }
  free(neighbours);
}

#define SAME(count_, type_) ((struct blocks){.count = (count_), .type = (type_)})
#define PER_BLOCK(counts_, type_) ((struct blocks){.counts = (counts_), .type = (type_)})
#define PER_BLOCK_TYPES(counts_, types_) ((struct blocks){.counts = (counts_), .types = (types_)})

/* ---- C entry points ---- */

int MPI_Neighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  record(TP_ALLGATHER, comm, SAME(scount, stype));
  return PMPI_Neighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}
int MPI_Ineighbor_allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) {
  record(TP_ALLGATHER, comm, SAME(scount, stype));
  return PMPI_Ineighbor_allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}

int MPI_Neighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                            const int rcounts[], const int displs[], MPI_Datatype rtype,
                            MPI_Comm comm) {
  record(TP_ALLGATHER, comm, SAME(scount, stype));
  return PMPI_Neighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm);
}
int MPI_Ineighbor_allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                             const int rcounts[], const int displs[], MPI_Datatype rtype,
                             MPI_Comm comm, MPI_Request *req) {
  record(TP_ALLGATHER, comm, SAME(scount, stype));
  return PMPI_Ineighbor_allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req);
}

int MPI_Neighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                          int rcount, MPI_Datatype rtype, MPI_Comm comm) {
  record(TP_ALLTOALL, comm, SAME(scount, stype));
  return PMPI_Neighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm);
}
int MPI_Ineighbor_alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                           int rcount, MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) {
  record(TP_ALLTOALL, comm, SAME(scount, stype));
  return PMPI_Ineighbor_alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req);
}

int MPI_Neighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                           MPI_Datatype stype, void *rbuf, const int rcounts[],
                           const int rdispls[], MPI_Datatype rtype, MPI_Comm comm) {
  record(TP_ALLTOALL, comm, PER_BLOCK(scounts, stype));
  return PMPI_Neighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                 comm);
}
int MPI_Ineighbor_alltoallv(const void *sbuf, const int scounts[], const int sdispls[],
                            MPI_Datatype stype, void *rbuf, const int rcounts[],
                            const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                            MPI_Request *req) {
  record(TP_ALLTOALL, comm, PER_BLOCK(scounts, stype));
  return PMPI_Ineighbor_alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype,
                                  comm, req);
}

int MPI_Neighbor_alltoallw(const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
                           const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                           const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm) {
  record(TP_ALLTOALL, comm, PER_BLOCK_TYPES(scounts, stypes));
  return PMPI_Neighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                                 comm);
}
int MPI_Ineighbor_alltoallw(const void *sbuf, const int scounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                            MPI_Request *req) {
  record(TP_ALLTOALL, comm, PER_BLOCK_TYPES(scounts, stypes));
  return PMPI_Ineighbor_alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes,
                                  comm, req);
}

/* ---- Open MPI Fortran shims (gfortran names, as in tofaprof_fortran.c) ---- */

#ifdef OPEN_MPI

#define F MPI_Fint *
#define COMM(f) PMPI_Comm_f2c(*(f))
#define TYPE(f) PMPI_Type_f2c(*(f))

/* Defines mpi_NAME_ that records with RECORD and forwards ARGS to Open MPI's
 * pmpi_NAME_ (weak: only Fortran programs, which link it, call the shim). */
#define SHIM(name, params, args, record_call)                        \
  extern void pmpi_##name##_ params __attribute__((weak));           \
  void mpi_##name##_ params;                                         \
  void mpi_##name##_ params {                                        \
    record_call;                                                     \
    pmpi_##name##_ args;                                             \
  }

/* Parameter and argument lists without the trailing (request,) ierror. */
#define GATHER_PARAMS(...) \
  (void *sbuf, F scount, F stype, void *rbuf, F rcount, F rtype, F comm, __VA_ARGS__)
#define GATHER_ARGS(...) (sbuf, scount, stype, rbuf, rcount, rtype, comm, __VA_ARGS__)
#define GATHERV_PARAMS(...) \
  (void *sbuf, F scount, F stype, void *rbuf, F rcounts, F displs, F rtype, F comm, __VA_ARGS__)
#define GATHERV_ARGS(...) (sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, __VA_ARGS__)
#define ALLTOALLV_PARAMS(...)                                                                  \
  (void *sbuf, F scounts, F sdispls, F stype, void *rbuf, F rcounts, F rdispls, F rtype, F comm, \
   __VA_ARGS__)
#define ALLTOALLV_ARGS(...) \
  (sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, __VA_ARGS__)
#define ALLTOALLW_PARAMS(...)                                                                \
  (void *sbuf, F scounts, MPI_Aint *sdispls, F stypes, void *rbuf, F rcounts, MPI_Aint *rdispls, \
   F rtypes, F comm, __VA_ARGS__)
#define ALLTOALLW_ARGS(...) \
  (sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm, __VA_ARGS__)
#define FORTRAN_PER_BLOCK_TYPES(counts_, ftypes_) \
  ((struct blocks){.counts = (counts_), .ftypes = (ftypes_)})

SHIM(neighbor_allgather, GATHER_PARAMS(F ierr), GATHER_ARGS(ierr),
     record(TP_ALLGATHER, COMM(comm), SAME(*scount, TYPE(stype))))
SHIM(ineighbor_allgather, GATHER_PARAMS(F req, F ierr), GATHER_ARGS(req, ierr),
     record(TP_ALLGATHER, COMM(comm), SAME(*scount, TYPE(stype))))
SHIM(neighbor_allgatherv, GATHERV_PARAMS(F ierr), GATHERV_ARGS(ierr),
     record(TP_ALLGATHER, COMM(comm), SAME(*scount, TYPE(stype))))
SHIM(ineighbor_allgatherv, GATHERV_PARAMS(F req, F ierr), GATHERV_ARGS(req, ierr),
     record(TP_ALLGATHER, COMM(comm), SAME(*scount, TYPE(stype))))
SHIM(neighbor_alltoall, GATHER_PARAMS(F ierr), GATHER_ARGS(ierr),
     record(TP_ALLTOALL, COMM(comm), SAME(*scount, TYPE(stype))))
SHIM(ineighbor_alltoall, GATHER_PARAMS(F req, F ierr), GATHER_ARGS(req, ierr),
     record(TP_ALLTOALL, COMM(comm), SAME(*scount, TYPE(stype))))
SHIM(neighbor_alltoallv, ALLTOALLV_PARAMS(F ierr), ALLTOALLV_ARGS(ierr),
     record(TP_ALLTOALL, COMM(comm), PER_BLOCK(scounts, TYPE(stype))))
SHIM(ineighbor_alltoallv, ALLTOALLV_PARAMS(F req, F ierr), ALLTOALLV_ARGS(req, ierr),
     record(TP_ALLTOALL, COMM(comm), PER_BLOCK(scounts, TYPE(stype))))
SHIM(neighbor_alltoallw, ALLTOALLW_PARAMS(F ierr), ALLTOALLW_ARGS(ierr),
     record(TP_ALLTOALL, COMM(comm), FORTRAN_PER_BLOCK_TYPES(scounts, stypes)))
SHIM(ineighbor_alltoallw, ALLTOALLW_PARAMS(F req, F ierr), ALLTOALLW_ARGS(req, ierr),
     record(TP_ALLTOALL, COMM(comm), FORTRAN_PER_BLOCK_TYPES(scounts, stypes)))

#endif /* OPEN_MPI */
