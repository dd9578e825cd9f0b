/* libtofaprof internals: per-rank traffic counters and the recording API
 * shared by the C wrappers, the Fortran shims and the collective emulation.
 *
 * Every rank records only traffic it originates (sender side), so receives,
 * probes and waits never need to be counted and nothing is counted twice.
 * The one exception is one-sided MPI_Get-like calls, where the data flows from
 * the target to the origin; the origin records them in a separate "incoming"
 * row that is folded into the senders' rows at MPI_Finalize. */
#ifndef TOFAPROF_H
#define TOFAPROF_H

#include <mpi.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Primitive classes reported separately in the JSON summary. */
enum tp_class {
  TP_P2P,
  TP_BCAST,
  TP_REDUCE,
  TP_ALLREDUCE,
  TP_ALLGATHER,
  TP_ALLTOALL,
  TP_GATHER,
  TP_SCATTER,
  TP_REDUCE_SCATTER,
  TP_BARRIER,
  TP_SCAN,
  TP_RMA,
  TP_CLASS_COUNT
};

/** Name of a class as written in the JSON summary ("p2p", "bcast", ...). */
const char *tp_class_name(int cls);

/** Ranks of one communicator translated to MPI_COMM_WORLD. For an
 *  inter-communicator, `world` translates the remote group (the group that
 *  point-to-point ranks address). world == NULL means the identity. */
struct tp_comm {
  int size;   /* size of the addressed group */
  int rank;   /* my rank in the local group */
  int inter;  /* non-zero for an inter-communicator */
  int *world; /* world[r]: MPI_COMM_WORLD rank of rank r of the addressed group */
  uint64_t key;   /* hash of the members' world ranks: names the communicator in traces */
  uint64_t calls; /* collectives traced on it so far */
};

/** Called from MPI_Init / MPI_Init_thread after PMPI_Init succeeded. */
void tp_setup(void);
/** Called from MPI_Finalize before PMPI_Finalize: gathers and writes output. */
void tp_teardown(void);
/** Non-zero between tp_setup and tp_teardown. */
int tp_active(void);

/* tofaprof_comms.c: set up by tp_setup, torn down by tp_teardown. */
void tp_comms_setup(int world_rank, int world_size);
void tp_comms_teardown(void);
/** Looks up (and caches as an attribute) the world translation of `comm`.
 *  Returns NULL when the profiler is inactive or comm is MPI_COMM_NULL. */
const struct tp_comm *tp_comm_of(MPI_Comm comm);
/** The same for the group of a one-sided window. */
const struct tp_comm *tp_win_of(MPI_Win win);
/** World rank of `rank` in `comm`, or -1 (MPI_PROC_NULL, out of range). */
int tp_world_rank(const struct tp_comm *c, int rank);

/** Size in bytes of `count` elements of `type` (0 for MPI_DATATYPE_NULL). */
uint64_t tp_bytes(int count, MPI_Datatype type);

/** One message of `bytes` from this rank to world rank `dst`. */
void tp_send(int cls, int dst, uint64_t bytes);
/** One message of `bytes` from world rank `src` to this rank (MPI_Get). */
void tp_recv(int cls, int src, uint64_t bytes);
/** Counts one call of a class (for the JSON summary). */
void tp_call(int cls);
/** Counts one call that was not recorded (inter-communicator collectives). */
void tp_unsupported(void);

/** Point-to-point send of count x type to `dest` of `comm` (PROC_NULL ok). */
void tp_p2p(MPI_Comm comm, int dest, int count, MPI_Datatype type);

/** Tables keyed by request handle: the bucket of `req` among `buckets`
 *  (a power of two), and handle equality (handles may be structs). */
unsigned tp_request_bucket(MPI_Request req, unsigned buckets);
int tp_same_request(MPI_Request a, MPI_Request b);

/* Persistent sends: remembered at *_init, recorded at every MPI_Start. */
void tp_persistent_add(MPI_Request req, MPI_Comm comm, int dest, int count, MPI_Datatype type);
void tp_persistent_start(MPI_Request req);
void tp_persistent_remove(MPI_Request req);

/* Collective emulation (tofaprof_collectives.c documents the algorithms).
 * Each records only the messages this rank sends. `in_place` tells that the
 * caller passed MPI_IN_PLACE as the send buffer. */
void tp_coll_bcast(MPI_Comm comm, int count, MPI_Datatype type, int root);
void tp_coll_reduce(MPI_Comm comm, int count, MPI_Datatype type, int root);
void tp_coll_allreduce(MPI_Comm comm, int count, MPI_Datatype type);
void tp_coll_allgather(MPI_Comm comm, int in_place, int scount, MPI_Datatype stype, int rcount,
                       MPI_Datatype rtype);
void tp_coll_allgatherv(MPI_Comm comm, const int rcounts[], MPI_Datatype rtype);
void tp_coll_alltoall(MPI_Comm comm, int in_place, int scount, MPI_Datatype stype, int rcount,
                      MPI_Datatype rtype);
void tp_coll_alltoallv(MPI_Comm comm, int in_place, const int scounts[], MPI_Datatype stype,
                       const int rcounts[], MPI_Datatype rtype);
void tp_coll_alltoallw(MPI_Comm comm, int in_place, const int scounts[],
                       const MPI_Datatype stypes[], const int rcounts[],
                       const MPI_Datatype rtypes[]);
void tp_coll_gather(MPI_Comm comm, int in_place, int scount, MPI_Datatype stype, int root);
void tp_coll_scatter(MPI_Comm comm, int scount, MPI_Datatype stype, int root);
void tp_coll_scatterv(MPI_Comm comm, const int scounts[], MPI_Datatype stype, int root);
void tp_coll_reduce_scatter(MPI_Comm comm, const int rcounts[], MPI_Datatype type);
void tp_coll_reduce_scatter_block(MPI_Comm comm, int rcount, MPI_Datatype type);
void tp_coll_barrier(MPI_Comm comm);
void tp_coll_scan(MPI_Comm comm, int count, MPI_Datatype type);

/* One-sided: target rank is in the window's group. */
void tp_rma_put(MPI_Win win, int target, int count, MPI_Datatype type);
void tp_rma_get(MPI_Win win, int target, int count, MPI_Datatype type);

/* The time-independent trace (tofaprof_trace.c documents the format). All
 * are no-ops unless TOFAPROF_TRACE is set. enter/exit bracket every traced
 * MPI call so the time between calls is written as computation; exit
 * returns rc. `before` is the request handle as it was passed in. */
void tp_trace_setup(int rank, int size);
void tp_trace_teardown(void);
int tp_tracing(void);
void tp_trace_enter(void);
int tp_trace_exit(int rc);
void tp_trace_send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
                   const MPI_Request *req);
void tp_trace_recv(MPI_Comm comm, MPI_Datatype type, const MPI_Status *st);
void tp_trace_irecv(MPI_Comm comm, int source, int tag, MPI_Datatype type, MPI_Request req);
void tp_trace_sendrecv(MPI_Comm comm, int dest, int stag, int scount, MPI_Datatype stype,
                       MPI_Datatype rtype, const MPI_Status *st);
void tp_trace_completed(MPI_Request before, const MPI_Status *st);
void tp_trace_collective(const struct tp_comm *c, int cls);
void tp_trace_message(int round, int dst, uint64_t bytes);
void tp_trace_unsupported(const char *what);

/* Output (tofaprof_output.c). */
struct tp_totals {
  uint64_t bytes[TP_CLASS_COUNT];
  uint64_t msgs[TP_CLASS_COUNT];
  uint64_t calls[TP_CLASS_COUNT];
  uint64_t unsupported;
};
/** Rank-local counters handed to the output step. */
struct tp_local {
  int world_size;
  int world_rank;
  uint64_t *out_bytes, *out_msgs; /* [world_size], sent by me */
  uint64_t *in_bytes, *in_msgs;   /* [world_size], fetched by me (MPI_Get) */
  struct tp_totals totals;
};
/** Collective over `comm` (a private duplicate of MPI_COMM_WORLD). */
void tp_write_output(MPI_Comm comm, struct tp_local *counters);

#ifdef __cplusplus
}
#endif
#endif
