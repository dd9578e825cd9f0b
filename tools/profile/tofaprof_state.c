/* libtofaprof: counters, communicator -> MPI_COMM_WORLD rank translation,
 * persistent request table. */
#include "tofaprof.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct tp_local local;
static int active;
static int comm_keyval = MPI_KEYVAL_INVALID;
static int win_keyval = MPI_KEYVAL_INVALID;
static MPI_Comm private_world = MPI_COMM_NULL;
static struct tp_comm world_comm;

static const char *const class_names[TP_CLASS_COUNT] = {
    "p2p",     "bcast",   "reduce",         "allreduce", "allgather", "alltoall",
    "gather",  "scatter", "reduce_scatter", "barrier",   "scan",      "rma"};

const char *tp_class_name(int cls) { return class_names[cls]; }

int tp_active(void) { return active; }

static void add(uint64_t *counter, uint64_t value) {
  __atomic_fetch_add(counter, value, __ATOMIC_RELAXED);
}

static int delete_translation(void *handle, int keyval, void *attr, void *extra) {
  (void)handle;
  (void)keyval;
  (void)extra;
  struct tp_comm *c = attr;
  free(c->world);
  free(c);
  return MPI_SUCCESS;
}

static int delete_comm_attr(MPI_Comm comm, int keyval, void *attr, void *extra) {
  return delete_translation(&comm, keyval, attr, extra);
}

static int delete_win_attr(MPI_Win win, int keyval, void *attr, void *extra) {
  return delete_translation(&win, keyval, attr, extra);
}

static uint64_t *zeroed(int n) {
  uint64_t *p = calloc((size_t)n, sizeof *p);
  if (!p) {
    fprintf(stderr, "libtofaprof: out of memory for %d counters\n", n);
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

/* FNV-1a over the members' world ranks (world == NULL: 0 .. size-1). */
static uint64_t members_key(const int *world, int size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int r = 0; r < size; ++r) {
    h ^= (uint64_t)(uint32_t)(world ? world[r] : r);
    h *= 0x100000001b3ull;
  }
  return h;
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
  world_comm.size = n;
  world_comm.rank = local.world_rank;
  world_comm.inter = 0;
  world_comm.world = NULL;
  world_comm.key = members_key(NULL, n);
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_comm_attr, &comm_keyval, NULL);
  PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_win_attr, &win_keyval, NULL);
  PMPI_Comm_dup(MPI_COMM_WORLD, &private_world);
  active = 1;
  tp_trace_setup(local.world_rank, n);
}

void tp_teardown(void) {
  if (!active) return;
  tp_trace_teardown();
  active = 0; /* the gathering below must not record itself */
  tp_write_output(private_world, &local);
  PMPI_Comm_free(&private_world);
  free(local.out_bytes);
  free(local.out_msgs);
  free(local.in_bytes);
  free(local.in_msgs);
}

/* world[r] for every rank r of `group`. */
static int *translate_group(MPI_Group group, int size) {
  MPI_Group world_group;
  PMPI_Comm_group(MPI_COMM_WORLD, &world_group);
  int *ranks = malloc((size_t)size * sizeof *ranks);
  int *world = malloc((size_t)size * sizeof *world);
  for (int r = 0; r < size; ++r) ranks[r] = r;
  PMPI_Group_translate_ranks(group, size, ranks, world_group, world);
  PMPI_Group_free(&world_group);
  free(ranks);
  return world;
}

const struct tp_comm *tp_comm_of(MPI_Comm comm) {
  if (!active || comm == MPI_COMM_NULL) return NULL;
  if (comm == MPI_COMM_WORLD) return &world_comm;
  void *attr = NULL;
  int found = 0;
  PMPI_Comm_get_attr(comm, comm_keyval, &attr, &found);
  if (found) return attr;
  struct tp_comm *c = calloc(1, sizeof *c);
  PMPI_Comm_test_inter(comm, &c->inter);
  PMPI_Comm_rank(comm, &c->rank);
  MPI_Group group;
  if (c->inter) {
    PMPI_Comm_remote_size(comm, &c->size);
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_size(comm, &c->size);
    PMPI_Comm_group(comm, &group);
  }
  c->world = translate_group(group, c->size);
  c->key = members_key(c->world, c->size);
  PMPI_Group_free(&group);
  PMPI_Comm_set_attr(comm, comm_keyval, c);
  return c;
}

static const struct tp_comm *win_of(MPI_Win win) {
  if (!active || win == MPI_WIN_NULL) return NULL;
  void *attr = NULL;
  int found = 0;
  PMPI_Win_get_attr(win, win_keyval, &attr, &found);
  if (found) return attr;
  struct tp_comm *c = calloc(1, sizeof *c);
  MPI_Group group;
  PMPI_Win_get_group(win, &group);
  PMPI_Group_size(group, &c->size);
  PMPI_Group_rank(group, &c->rank);
  c->world = translate_group(group, c->size);
  PMPI_Group_free(&group);
  PMPI_Win_set_attr(win, win_keyval, c);
  return c;
}

int tp_world_rank(const struct tp_comm *c, int rank) {
  if (!c || rank < 0 || rank >= c->size) return -1;
  if (!c->world) return rank;
  return c->world[rank] == MPI_UNDEFINED ? -1 : c->world[rank];
}

uint64_t tp_bytes(int count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0;
  int size = 0;
  PMPI_Type_size(type, &size);
  return (uint64_t)count * (uint64_t)(size > 0 ? size : 0);
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
  int dst = tp_world_rank(win_of(win), target);
  if (dst >= 0) tp_send(TP_RMA, dst, tp_bytes(count, type));
}

void tp_rma_get(MPI_Win win, int target, int count, MPI_Datatype type) {
  if (!active) return;
  tp_trace_unsupported("one-sided");
  tp_call(TP_RMA);
  int src = tp_world_rank(win_of(win), target);
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

unsigned tp_request_bucket(MPI_Request req, unsigned buckets) {
  uint64_t key = 0;
  memcpy(&key, &req, sizeof req < sizeof key ? sizeof req : sizeof key);
  key ^= key >> 17;
  key *= 0x9E3779B97F4A7C15ull;
  return (unsigned)(key >> 32) & (buckets - 1);
}

int tp_same_request(MPI_Request a, MPI_Request b) { return memcmp(&a, &b, sizeof a) == 0; }

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
