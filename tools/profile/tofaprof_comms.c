/* libtofaprof: communicators and windows -> MPI_COMM_WORLD ranks, byte
 * counts, request handles as hash keys. */
#include "tofaprof.h"

#include <stdlib.h>
#include <string.h>

static int ready;
static int comm_keyval = MPI_KEYVAL_INVALID;
static int win_keyval = MPI_KEYVAL_INVALID;
static struct tp_comm world_comm;

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

/* FNV-1a over the members' world ranks (world == NULL: 0 .. size-1). */
static uint64_t members_key(const int *world, int size) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int r = 0; r < size; ++r) {
    h ^= (uint64_t)(uint32_t)(world ? world[r] : r);
    h *= 0x100000001b3ull;
  }
  return h;
}

void tp_comms_setup(int world_rank, int world_size) {
  world_comm.size = world_size;
  world_comm.rank = world_rank;
  world_comm.inter = 0;
  world_comm.world = NULL;
  world_comm.key = members_key(NULL, world_size);
  PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_comm_attr, &comm_keyval, NULL);
  PMPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, delete_win_attr, &win_keyval, NULL);
  ready = 1;
}

void tp_comms_teardown(void) { ready = 0; }

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
  if (!ready || comm == MPI_COMM_NULL) return NULL;
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

const struct tp_comm *tp_win_of(MPI_Win win) {
  if (!ready || win == MPI_WIN_NULL) return NULL;
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

unsigned tp_request_bucket(MPI_Request req, unsigned buckets) {
  uint64_t key = 0;
  memcpy(&key, &req, sizeof req < sizeof key ? sizeof req : sizeof key);
  key ^= key >> 17;
  key *= 0x9E3779B97F4A7C15ull;
  return (unsigned)(key >> 32) & (buckets - 1);
}

int tp_same_request(MPI_Request a, MPI_Request b) { return memcmp(&a, &b, sizeof a) == 0; }
