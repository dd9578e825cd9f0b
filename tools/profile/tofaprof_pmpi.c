/* libtofaprof: the C MPI entry points. Each records what the call sends and
 * forwards to the PMPI_ symbol unchanged, so results and return codes are the
 * library's own. All traffic is counted once, by its sender, when the send is
 * posted; receives, waits and tests are intercepted only for the trace
 * (tofaprof_trace.c), which also brackets every call with tp_trace_enter/exit.
 *
 * One-sided accounting (origin o, target t): Put/Rput/Accumulate/Raccumulate
 * o -> t origin bytes; Get/Rget t -> o origin bytes; Get_accumulate and
 * Rget_accumulate o -> t origin bytes (none for MPI_NO_OP) and t -> o result
 * bytes; Fetch_and_op o -> t one element (none for MPI_NO_OP) and t -> o one
 * element; Compare_and_swap o -> t two elements and t -> o one element.
 * Each direction is one message. */
#include "tofaprof.h"

#include <stdlib.h>
#include <string.h>

#define IN_PLACE(buf) ((buf) == MPI_IN_PLACE)

/* ---- life cycle ---- */

int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) tp_setup();
  return rc;
}

int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) tp_setup();
  return rc;
}

int MPI_Finalize(void) {
  tp_teardown();
  return PMPI_Finalize();
}

/* ---- point to point ---- */

#define BLOCKING_SEND(NAME)                                                              \
  int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,      \
                 MPI_Comm comm) {                                                        \
    tp_trace_enter();                                                                    \
    tp_p2p(comm, dest, count, type);                                                     \
    tp_trace_send(comm, dest, tag, count, type, NULL);                                   \
    return tp_trace_exit(PMPI_##NAME(buf, count, type, dest, tag, comm));                \
  }
BLOCKING_SEND(Send)
BLOCKING_SEND(Bsend)
BLOCKING_SEND(Ssend)
BLOCKING_SEND(Rsend)

#define NONBLOCKING_SEND(NAME)                                                           \
  int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,      \
                 MPI_Comm comm, MPI_Request *req) {                                      \
    tp_trace_enter();                                                                    \
    tp_p2p(comm, dest, count, type);                                                     \
    int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                        \
    if (rc == MPI_SUCCESS) tp_trace_send(comm, dest, tag, count, type, req);             \
    return tp_trace_exit(rc);                                                            \
  }
NONBLOCKING_SEND(Isend)
NONBLOCKING_SEND(Ibsend)
NONBLOCKING_SEND(Issend)
NONBLOCKING_SEND(Irsend)

#define PERSISTENT_SEND(NAME)                                                            \
  int MPI_##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag,      \
                 MPI_Comm comm, MPI_Request *req) {                                      \
    int rc = PMPI_##NAME(buf, count, type, dest, tag, comm, req);                        \
    if (rc == MPI_SUCCESS) tp_persistent_add(*req, comm, dest, count, type);             \
    return rc;                                                                           \
  }
PERSISTENT_SEND(Send_init)
PERSISTENT_SEND(Bsend_init)
PERSISTENT_SEND(Ssend_init)
PERSISTENT_SEND(Rsend_init)

int MPI_Start(MPI_Request *req) {
  tp_trace_enter();
  tp_persistent_start(*req);
  return tp_trace_exit(PMPI_Start(req));
}

int MPI_Startall(int n, MPI_Request reqs[]) {
  tp_trace_enter();
  for (int i = 0; i < n; ++i) tp_persistent_start(reqs[i]);
  return tp_trace_exit(PMPI_Startall(n, reqs));
}

int MPI_Request_free(MPI_Request *req) {
  tp_trace_enter();
  tp_persistent_remove(*req);
  return tp_trace_exit(PMPI_Request_free(req));
}

int MPI_Sendrecv(const void *sbuf, int scount, MPI_Datatype stype, int dest, int stag, void *rbuf,
                 int rcount, MPI_Datatype rtype, int source, int rtag, MPI_Comm comm,
                 MPI_Status *status) {
  tp_trace_enter();
  tp_p2p(comm, dest, scount, stype);
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  int rc = PMPI_Sendrecv(sbuf, scount, stype, dest, stag, rbuf, rcount, rtype, source, rtag, comm,
                         status);
  if (rc == MPI_SUCCESS) tp_trace_sendrecv(comm, dest, stag, scount, stype, rtype, status);
  return tp_trace_exit(rc);
}

int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest, int stag, int source,
                         int rtag, MPI_Comm comm, MPI_Status *status) {
  tp_trace_enter();
  tp_p2p(comm, dest, count, type);
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  int rc = PMPI_Sendrecv_replace(buf, count, type, dest, stag, source, rtag, comm, status);
  if (rc == MPI_SUCCESS) tp_trace_sendrecv(comm, dest, stag, count, type, type, status);
  return tp_trace_exit(rc);
}

/* ---- receives and completions: only the trace needs them ---- */

int MPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status *status) {
  tp_trace_enter();
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  int rc = PMPI_Recv(buf, count, type, source, tag, comm, status);
  if (rc == MPI_SUCCESS) tp_trace_recv(comm, type, status);
  return tp_trace_exit(rc);
}

int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
              MPI_Request *req) {
  tp_trace_enter();
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, req);
  if (rc == MPI_SUCCESS) tp_trace_irecv(comm, source, tag, type, *req);
  return tp_trace_exit(rc);
}

int MPI_Wait(MPI_Request *req, MPI_Status *status) {
  tp_trace_enter();
  MPI_Request before = *req;
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  int rc = PMPI_Wait(req, status);
  if (rc == MPI_SUCCESS) tp_trace_completed(before, status);
  return tp_trace_exit(rc);
}

int MPI_Test(MPI_Request *req, int *flag, MPI_Status *status) {
  tp_trace_enter();
  MPI_Request before = *req;
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  int rc = PMPI_Test(req, flag, status);
  if (rc == MPI_SUCCESS && *flag) tp_trace_completed(before, status);
  return tp_trace_exit(rc);
}

/* Copies of the handles (the call nulls the completed ones) and statuses
 * to read even when the caller ignores them. */
struct completions {
  MPI_Request *before;
  MPI_Status *statuses;
};

static struct completions completions_of(int n, const MPI_Request reqs[], MPI_Status statuses[]) {
  struct completions c = {NULL, statuses};
  if (n <= 0 || !tp_tracing()) return c;
  c.before = malloc((size_t)n * sizeof *c.before);
  if (c.before) memcpy(c.before, reqs, (size_t)n * sizeof *c.before);
  if (statuses == MPI_STATUSES_IGNORE) c.statuses = malloc((size_t)n * sizeof *c.statuses);
  return c;
}

static void completed(struct completions *c, int index) {
  if (c->before && c->statuses) tp_trace_completed(c->before[index], &c->statuses[index]);
}

static void completions_done(struct completions *c, MPI_Status statuses[]) {
  free(c->before);
  if (c->statuses != statuses) free(c->statuses);
}

int MPI_Waitall(int n, MPI_Request reqs[], MPI_Status statuses[]) {
  tp_trace_enter();
  struct completions c = completions_of(n, reqs, statuses);
  int rc = PMPI_Waitall(n, reqs, c.statuses ? c.statuses : statuses);
  if (rc == MPI_SUCCESS)
    for (int i = 0; i < n; ++i) completed(&c, i);
  completions_done(&c, statuses);
  return tp_trace_exit(rc);
}

int MPI_Testall(int n, MPI_Request reqs[], int *flag, MPI_Status statuses[]) {
  tp_trace_enter();
  struct completions c = completions_of(n, reqs, statuses);
  int rc = PMPI_Testall(n, reqs, flag, c.statuses ? c.statuses : statuses);
  if (rc == MPI_SUCCESS && *flag)
    for (int i = 0; i < n; ++i) completed(&c, i);
  completions_done(&c, statuses);
  return tp_trace_exit(rc);
}

static int any_done(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status, int wait) {
  MPI_Request *before = n > 0 && tp_tracing() ? malloc((size_t)n * sizeof *before) : NULL;
  if (before) memcpy(before, reqs, (size_t)n * sizeof *before);
  MPI_Status own;
  if (status == MPI_STATUS_IGNORE) status = &own;
  int rc = wait ? PMPI_Waitany(n, reqs, index, status) : PMPI_Testany(n, reqs, index, flag, status);
  if (rc == MPI_SUCCESS && (wait || *flag) && *index != MPI_UNDEFINED && before)
    tp_trace_completed(before[*index], status);
  free(before);
  return rc;
}

int MPI_Waitany(int n, MPI_Request reqs[], int *index, MPI_Status *status) {
  tp_trace_enter();
  return tp_trace_exit(any_done(n, reqs, index, NULL, status, 1));
}

int MPI_Testany(int n, MPI_Request reqs[], int *index, int *flag, MPI_Status *status) {
  tp_trace_enter();
  return tp_trace_exit(any_done(n, reqs, index, flag, status, 0));
}

static int some_done(int n, MPI_Request reqs[], int *outcount, int indices[],
                     MPI_Status statuses[], int wait) {
  struct completions c = completions_of(n, reqs, statuses);
  MPI_Status *st = c.statuses ? c.statuses : statuses;
  int rc = wait ? PMPI_Waitsome(n, reqs, outcount, indices, st)
                : PMPI_Testsome(n, reqs, outcount, indices, st);
  if (rc == MPI_SUCCESS && *outcount != MPI_UNDEFINED && c.before && c.statuses)
    for (int k = 0; k < *outcount; ++k) tp_trace_completed(c.before[indices[k]], &c.statuses[k]);
  completions_done(&c, statuses);
  return rc;
}

int MPI_Waitsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]) {
  tp_trace_enter();
  return tp_trace_exit(some_done(n, reqs, outcount, indices, statuses, 1));
}

int MPI_Testsome(int n, MPI_Request reqs[], int *outcount, int indices[], MPI_Status statuses[]) {
  tp_trace_enter();
  return tp_trace_exit(some_done(n, reqs, outcount, indices, statuses, 0));
}

/* ---- collectives ---- */

int MPI_Barrier(MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_barrier(comm);
  return tp_trace_exit(PMPI_Barrier(comm));
}
int MPI_Ibarrier(MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_barrier(comm);
  return tp_trace_exit(PMPI_Ibarrier(comm, req));
}

int MPI_Bcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_bcast(comm, count, type, root);
  return tp_trace_exit(PMPI_Bcast(buf, count, type, root, comm));
}
int MPI_Ibcast(void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm,
               MPI_Request *req) {
  tp_trace_enter();
  tp_coll_bcast(comm, count, type, root);
  return tp_trace_exit(PMPI_Ibcast(buf, count, type, root, comm, req));
}

int MPI_Reduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
               MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_reduce(comm, count, type, root);
  return tp_trace_exit(PMPI_Reduce(sbuf, rbuf, count, type, op, root, comm));
}
int MPI_Ireduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, int root,
                MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_reduce(comm, count, type, root);
  return tp_trace_exit(PMPI_Ireduce(sbuf, rbuf, count, type, op, root, comm, req));
}

int MPI_Allreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_allreduce(comm, count, type);
  return tp_trace_exit(PMPI_Allreduce(sbuf, rbuf, count, type, op, comm));
}
int MPI_Iallreduce(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                   MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_allreduce(comm, count, type);
  return tp_trace_exit(PMPI_Iallreduce(sbuf, rbuf, count, type, op, comm, req));
}

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_allgather(comm, IN_PLACE(sbuf), scount, stype, rcount, rtype);
  return tp_trace_exit(PMPI_Allgather(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}
int MPI_Iallgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                   MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_allgather(comm, IN_PLACE(sbuf), scount, stype, rcount, rtype);
  return tp_trace_exit(PMPI_Iallgather(sbuf, scount, stype, rbuf, rcount, rtype, comm, req));
}

int MPI_Allgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                   const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_allgatherv(comm, rcounts, rtype);
  return tp_trace_exit(PMPI_Allgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm));
}
int MPI_Iallgatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                    const int rcounts[], const int displs[], MPI_Datatype rtype, MPI_Comm comm,
                    MPI_Request *req) {
  tp_trace_enter();
  tp_coll_allgatherv(comm, rcounts, rtype);
  return tp_trace_exit(PMPI_Iallgatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, comm, req));
}

int MPI_Alltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_alltoall(comm, IN_PLACE(sbuf), scount, stype, rcount, rtype);
  return tp_trace_exit(PMPI_Alltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm));
}
int MPI_Ialltoall(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                  MPI_Datatype rtype, MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_alltoall(comm, IN_PLACE(sbuf), scount, stype, rcount, rtype);
  return tp_trace_exit(PMPI_Ialltoall(sbuf, scount, stype, rbuf, rcount, rtype, comm, req));
}

int MPI_Alltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                  void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                  MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_alltoallv(comm, IN_PLACE(sbuf), scounts, stype, rcounts, rtype);
  return tp_trace_exit(PMPI_Alltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm));
}
int MPI_Ialltoallv(const void *sbuf, const int scounts[], const int sdispls[], MPI_Datatype stype,
                   void *rbuf, const int rcounts[], const int rdispls[], MPI_Datatype rtype,
                   MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_alltoallv(comm, IN_PLACE(sbuf), scounts, stype, rcounts, rtype);
  return tp_trace_exit(PMPI_Ialltoallv(sbuf, scounts, sdispls, stype, rbuf, rcounts, rdispls, rtype, comm, req));
}

int MPI_Alltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                  const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                  const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_alltoallw(comm, IN_PLACE(sbuf), scounts, stypes, rcounts, rtypes);
  return tp_trace_exit(PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm));
}
int MPI_Ialltoallw(const void *sbuf, const int scounts[], const int sdispls[],
                   const MPI_Datatype stypes[], void *rbuf, const int rcounts[],
                   const int rdispls[], const MPI_Datatype rtypes[], MPI_Comm comm,
                   MPI_Request *req) {
  tp_trace_enter();
  tp_coll_alltoallw(comm, IN_PLACE(sbuf), scounts, stypes, rcounts, rtypes);
  return tp_trace_exit(PMPI_Ialltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, comm,
                         req));
}

int MPI_Gather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
               MPI_Datatype rtype, int root, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_gather(comm, IN_PLACE(sbuf), scount, stype, root);
  return tp_trace_exit(PMPI_Gather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}
int MPI_Igather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_gather(comm, IN_PLACE(sbuf), scount, stype, root);
  return tp_trace_exit(PMPI_Igather(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req));
}

int MPI_Gatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_gather(comm, IN_PLACE(sbuf), scount, stype, root);
  return tp_trace_exit(PMPI_Gatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm));
}
int MPI_Igatherv(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                 const int rcounts[], const int displs[], MPI_Datatype rtype, int root,
                 MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_gather(comm, IN_PLACE(sbuf), scount, stype, root);
  return tp_trace_exit(PMPI_Igatherv(sbuf, scount, stype, rbuf, rcounts, displs, rtype, root, comm, req));
}

int MPI_Scatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                MPI_Datatype rtype, int root, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_scatter(comm, scount, stype, root);
  return tp_trace_exit(PMPI_Scatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm));
}
int MPI_Iscatter(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_scatter(comm, scount, stype, root);
  return tp_trace_exit(PMPI_Iscatter(sbuf, scount, stype, rbuf, rcount, rtype, root, comm, req));
}

int MPI_Scatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                 void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_scatterv(comm, scounts, stype, root);
  return tp_trace_exit(PMPI_Scatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm));
}
int MPI_Iscatterv(const void *sbuf, const int scounts[], const int displs[], MPI_Datatype stype,
                  void *rbuf, int rcount, MPI_Datatype rtype, int root, MPI_Comm comm,
                  MPI_Request *req) {
  tp_trace_enter();
  tp_coll_scatterv(comm, scounts, stype, root);
  return tp_trace_exit(PMPI_Iscatterv(sbuf, scounts, displs, stype, rbuf, rcount, rtype, root, comm, req));
}

int MPI_Reduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_reduce_scatter(comm, rcounts, type);
  return tp_trace_exit(PMPI_Reduce_scatter(sbuf, rbuf, rcounts, type, op, comm));
}
int MPI_Ireduce_scatter(const void *sbuf, void *rbuf, const int rcounts[], MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_reduce_scatter(comm, rcounts, type);
  return tp_trace_exit(PMPI_Ireduce_scatter(sbuf, rbuf, rcounts, type, op, comm, req));
}

int MPI_Reduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                             MPI_Op op, MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_reduce_scatter_block(comm, rcount, type);
  return tp_trace_exit(PMPI_Reduce_scatter_block(sbuf, rbuf, rcount, type, op, comm));
}
int MPI_Ireduce_scatter_block(const void *sbuf, void *rbuf, int rcount, MPI_Datatype type,
                              MPI_Op op, MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_reduce_scatter_block(comm, rcount, type);
  return tp_trace_exit(PMPI_Ireduce_scatter_block(sbuf, rbuf, rcount, type, op, comm, req));
}

int MPI_Scan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
             MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_scan(comm, count, type);
  return tp_trace_exit(PMPI_Scan(sbuf, rbuf, count, type, op, comm));
}
int MPI_Iscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
              MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_scan(comm, count, type);
  return tp_trace_exit(PMPI_Iscan(sbuf, rbuf, count, type, op, comm, req));
}
int MPI_Exscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
               MPI_Comm comm) {
  tp_trace_enter();
  tp_coll_scan(comm, count, type);
  return tp_trace_exit(PMPI_Exscan(sbuf, rbuf, count, type, op, comm));
}
int MPI_Iexscan(const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op,
                MPI_Comm comm, MPI_Request *req) {
  tp_trace_enter();
  tp_coll_scan(comm, count, type);
  return tp_trace_exit(PMPI_Iexscan(sbuf, rbuf, count, type, op, comm, req));
}

/* ---- one-sided ---- */

int MPI_Put(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
            int tcount, MPI_Datatype ttype, MPI_Win win) {
  tp_trace_enter();
  tp_rma_put(win, target, ocount, otype);
  return tp_trace_exit(PMPI_Put(obuf, ocount, otype, target, disp, tcount, ttype, win));
}
int MPI_Rput(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
             int tcount, MPI_Datatype ttype, MPI_Win win, MPI_Request *req) {
  tp_trace_enter();
  tp_rma_put(win, target, ocount, otype);
  return tp_trace_exit(PMPI_Rput(obuf, ocount, otype, target, disp, tcount, ttype, win, req));
}
int MPI_Get(void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
            MPI_Datatype ttype, MPI_Win win) {
  tp_trace_enter();
  tp_rma_get(win, target, ocount, otype);
  return tp_trace_exit(PMPI_Get(obuf, ocount, otype, target, disp, tcount, ttype, win));
}
int MPI_Rget(void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp, int tcount,
             MPI_Datatype ttype, MPI_Win win, MPI_Request *req) {
  tp_trace_enter();
  tp_rma_get(win, target, ocount, otype);
  return tp_trace_exit(PMPI_Rget(obuf, ocount, otype, target, disp, tcount, ttype, win, req));
}
int MPI_Accumulate(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
                   int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
  tp_trace_enter();
  tp_rma_put(win, target, ocount, otype);
  return tp_trace_exit(PMPI_Accumulate(obuf, ocount, otype, target, disp, tcount, ttype, op, win));
}
int MPI_Raccumulate(const void *obuf, int ocount, MPI_Datatype otype, int target, MPI_Aint disp,
                    int tcount, MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *req) {
  tp_trace_enter();
  tp_rma_put(win, target, ocount, otype);
  return tp_trace_exit(PMPI_Raccumulate(obuf, ocount, otype, target, disp, tcount, ttype, op, win, req));
}
int MPI_Get_accumulate(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf, int rcount,
                       MPI_Datatype rtype, int target, MPI_Aint disp, int tcount,
                       MPI_Datatype ttype, MPI_Op op, MPI_Win win) {
  tp_trace_enter();
  if (op != MPI_NO_OP) tp_rma_put(win, target, ocount, otype);
  tp_rma_get(win, target, rcount, rtype);
  return tp_trace_exit(PMPI_Get_accumulate(obuf, ocount, otype, rbuf, rcount, rtype, target, disp, tcount, ttype,
                             op, win));
}
int MPI_Rget_accumulate(const void *obuf, int ocount, MPI_Datatype otype, void *rbuf, int rcount,
                        MPI_Datatype rtype, int target, MPI_Aint disp, int tcount,
                        MPI_Datatype ttype, MPI_Op op, MPI_Win win, MPI_Request *req) {
  tp_trace_enter();
  if (op != MPI_NO_OP) tp_rma_put(win, target, ocount, otype);
  tp_rma_get(win, target, rcount, rtype);
  return tp_trace_exit(PMPI_Rget_accumulate(obuf, ocount, otype, rbuf, rcount, rtype, target, disp, tcount,
                              ttype, op, win, req));
}
int MPI_Fetch_and_op(const void *obuf, void *rbuf, MPI_Datatype type, int target, MPI_Aint disp,
                     MPI_Op op, MPI_Win win) {
  tp_trace_enter();
  if (op != MPI_NO_OP) tp_rma_put(win, target, 1, type);
  tp_rma_get(win, target, 1, type);
  return tp_trace_exit(PMPI_Fetch_and_op(obuf, rbuf, type, target, disp, op, win));
}
int MPI_Compare_and_swap(const void *obuf, const void *cbuf, void *rbuf, MPI_Datatype type,
                         int target, MPI_Aint disp, MPI_Win win) {
  tp_trace_enter();
  tp_rma_put(win, target, 2, type);
  tp_rma_get(win, target, 1, type);
  return tp_trace_exit(PMPI_Compare_and_swap(obuf, cbuf, rbuf, type, target, disp, win));
}
