/* libtofaprof: the counters between MPI_Init and MPI_Finalize, and the
 * persistent request table. */
#include "tofaprof.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tp_local local;
static int active;
static MPI_Comm private_world = MPI_COMM_NULL;

int tp_active(void) { return active; }

static void add(uint64_t *counter, uint64_t value) {
  __atomic_fetch_add(counter, value, __ATOMIC_RELAXED);
}

static uint64_t *zeroed(int n) {
  uint64_t *p = calloc((size_t)n, sizeof *p);
  if (!p) {
    fprintf(stderr, "libtofaprof: out of memory for %d counters\n", n);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

void tp_setup(void) {
  if (active) return;
  PMPI_Comm_size(MPI_COMM_WORLD, &local.world_size);
  PMPI_Comm_rank(MPI_COMM_WORLD, &local.world_rank);
  int n = local.world_size;
  local.out_bytes = zeroed(n);
  local.out_msgs = zeroed(n);
  local.in_bytes = zeroed(n);
  local.in_msgs = zeroed(n);
  tp_comms_setup(local.world_rank, n);
  PMPI_Comm_dup(MPI_COMM_WORLD, &private_world);
  active = 1;
  tp_trace_setup(local.world_rank, n);
}

void tp_teardown(void) {
  if (!active) return;
  tp_trace_teardown();
  active = 0; /* the gathering below must not record itself */
  tp_comms_teardown();
  tp_write_output(private_world, &local);
  PMPI_Comm_free(&private_world);
  free(local.out_bytes);
  free(local.out_msgs);
  free(local.in_bytes);
  free(local.in_msgs);
}

void tp_send(int cls, int dst, uint64_t bytes) {
  if (!active || dst < 0 || dst >= local.world_size) return;
  add(&local.out_bytes[dst], bytes);
  add(&local.out_msgs[dst], 1);
  add(&local.totals.bytes[cls], bytes);
  add(&local.totals.msgs[cls], 1);
}

void tp_recv(int cls, int src, uint64_t bytes) {
  if (!active || src < 0 || src >= local.world_size) return;
  add(&local.in_bytes[src], bytes);
  add(&local.in_msgs[src], 1);
  add(&local.totals.bytes[cls], bytes);
  add(&local.totals.msgs[cls], 1);
}

void tp_call(int cls) {
  if (active) add(&local.totals.calls[cls], 1);
}

void tp_unsupported(void) {
  if (active) add(&local.totals.unsupported, 1);
}

void tp_p2p(MPI_Comm comm, int dest, int count, MPI_Datatype type) {
  if (!active) return;
  tp_call(TP_P2P);
  int dst = tp_world_rank(tp_comm_of(comm), dest);
  if (dst >= 0) tp_send(TP_P2P, dst, tp_bytes(count, type));
}

void tp_rma_put(MPI_Win win, int target, int count, MPI_Datatype type) {
  if (!active) return;
  tp_trace_unsupported("one-sided");
  tp_call(TP_RMA);
  int dst = tp_world_rank(tp_win_of(win), target);
  if (dst >= 0) tp_send(TP_RMA, dst, tp_bytes(count, type));
}

void tp_rma_get(MPI_Win win, int target, int count, MPI_Datatype type) {
  if (!active) return;
  tp_trace_unsupported("one-sided");
  tp_call(TP_RMA);
  int src = tp_world_rank(tp_win_of(win), target);
  if (src >= 0) tp_recv(TP_RMA, src, tp_bytes(count, type));
}

/* Persistent send requests: a small chained hash table keyed by the handle. */
struct persistent {
  MPI_Request req;
  int dst;
  uint64_t bytes;
  struct persistent *next;
};
#define TP_BUCKETS 1024
static struct persistent *buckets[TP_BUCKETS];
static pthread_mutex_t persistent_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned bucket_of(MPI_Request req) { return tp_request_bucket(req, TP_BUCKETS); }

void tp_persistent_add(MPI_Request req, MPI_Comm comm, int dest, int count, MPI_Datatype type) {
  if (!active) return;
  struct persistent *p = malloc(sizeof *p);
  p->req = req;
  p->dst = tp_world_rank(tp_comm_of(comm), dest);
  p->bytes = tp_bytes(count, type);
  pthread_mutex_lock(&persistent_lock);
  unsigned b = bucket_of(req);
  p->next = buckets[b];
  buckets[b] = p;
  pthread_mutex_unlock(&persistent_lock);
}

void tp_persistent_start(MPI_Request req) {
  if (!active || req == MPI_REQUEST_NULL) return;
  int dst = -2;
  uint64_t bytes = 0;
  pthread_mutex_lock(&persistent_lock);
  for (struct persistent *p = buckets[bucket_of(req)]; p; p = p->next)
    if (tp_same_request(p->req, req)) {
      dst = p->dst;
      bytes = p->bytes;
      break;
    }
  pthread_mutex_unlock(&persistent_lock);
  tp_trace_unsupported("persistent");
  if (dst == -2) return; /* a persistent receive */
  tp_call(TP_P2P);
  if (dst >= 0) tp_send(TP_P2P, dst, bytes);
}

void tp_persistent_remove(MPI_Request req) {
  if (req == MPI_REQUEST_NULL) return;
  pthread_mutex_lock(&persistent_lock);
  for (struct persistent **link = &buckets[bucket_of(req)]; *link; link = &(*link)->next)
    if (tp_same_request((*link)->req, req)) {
      struct persistent *dead = *link;
      *link = dead->next;
      free(dead);
      break;
    }
  pthread_mutex_unlock(&persistent_lock);
}
