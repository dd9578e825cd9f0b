/* libtofaprof: the time-independent trace (TOFAPROF_TRACE=1), what tofa-sim
 * replays on any placement. Each rank writes OUT/NAME.trace/R.trace (OUT and
 * NAME as for the matrix): a header line "tofaprof-trace 1 rank R size P",
 * then one line per event in program order. Ranks are MPI_COMM_WORLD ranks,
 * sizes bytes, request ids this rank's own sequence numbers (never handles):
 *
 *   c SECONDS                 CPU time of the thread between two MPI calls
 *   s DST TAG BYTES           blocking send
 *   S ID DST TAG BYTES        nonblocking send posted
 *   r SRC TAG BYTES           blocking receive, as it matched (status)
 *   R ID SRC TAG              nonblocking receive posted (-1: any)
 *   w ID SRC TAG BYTES        request ID completed (a receive: its status;
 *                             a send: -1 -1 -1)
 *   k KEY SEQ CLASS SIZE      collective SEQ of communicator KEY (a hash of
 *                             its members' world ranks) of SIZE ranks, CLASS
 *                             as in the summary (bcast, barrier, ...); the
 *                             "m" lines after it are the messages this rank
 *                             sends in it
 *   m ROUND DST BYTES         one of them, in round ROUND of its algorithm
 *                             (tofaprof_collectives.c): a rank receives in a
 *                             round what the others send to it in that round
 *   u WHAT                    a call the trace cannot replay (one-sided,
 *                             neighbourhood collectives, persistent requests)
 *   e                         the end, at MPI_Finalize (a trace without it
 *                             was cut short)
 *
 * CPU time (CLOCK_THREAD_CPUTIME_ID) rather than wall time: ranks
 * oversubscribing cores would otherwise count each other's turns. Time inside
 * the MPI calls is not computation and is not written. Fortran calls are not
 * traced (their shims call PMPI directly). */
#include "tofaprof.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static FILE *trace;
static double last_exit;
static uint64_t next_id;
static pthread_mutex_t trace_lock = PTHREAD_MUTEX_INITIALIZER;

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* mkdir -p: every rank may be the first to create it. */
static int make_directories(char *path) {
  for (char *slash = strchr(path + 1, '/');; slash = strchr(slash + 1, '/')) {
    if (slash) *slash = 0;
    int made = mkdir(path, 0755) == 0 || errno == EEXIST;
    if (slash) *slash = '/';
    if (!made) return -1;
    if (!slash) return 0;
  }
}

void tp_trace_setup(int rank, int size) {
  const char *on = getenv("TOFAPROF_TRACE");
  if (!on || !*on || strcmp(on, "0") == 0) return;
  const char *out = getenv("TOFAPROF_OUT");
  const char *name = getenv("TOFAPROF_NAME");
  char dir[4096], path[4160];
  snprintf(dir, sizeof dir, "%s/%s.trace", out && *out ? out : ".", name && *name ? name : "comm");
  if (make_directories(dir) != 0) {
    fprintf(stderr, "libtofaprof: cannot create the trace directory %s: %s\n", dir, strerror(errno));
    return;
  }
  snprintf(path, sizeof path, "%s/%d.trace", dir, rank);
  trace = fopen(path, "w");
  if (!trace) {
    fprintf(stderr, "libtofaprof: cannot write %s: %s\n", path, strerror(errno));
    return;
  }
  setvbuf(trace, NULL, _IOFBF, 1 << 20);
  fprintf(trace, "tofaprof-trace 1 rank %d size %d\n", rank, size);
  last_exit = cpu_now();
}

static void line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void line(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  pthread_mutex_lock(&trace_lock);
  vfprintf(trace, fmt, args);
  pthread_mutex_unlock(&trace_lock);
  va_end(args);
}

void tp_trace_teardown(void) {
  if (!trace) return;
  tp_trace_enter();
  line("e\n");
  fclose(trace);
  trace = NULL;
}

int tp_tracing(void) { return trace != NULL; }

void tp_trace_enter(void) {
  if (!trace) return;
  double spent = cpu_now() - last_exit;
  if (spent > 0) line("c %.9g\n", spent);
}

int tp_trace_exit(int rc) {
  if (trace) last_exit = cpu_now();
  return rc;
}

/* ---- requests: handle -> id, chained hash table ---- */

struct pending {
  MPI_Request req;
  uint64_t id;
  int recv;
  const struct tp_comm *comm;
  MPI_Datatype type;
  struct pending *next;
};
#define TRACE_BUCKETS 4096
static struct pending *table[TRACE_BUCKETS];

static unsigned bucket(MPI_Request req) { return tp_request_bucket(req, TRACE_BUCKETS); }

/* Remembers a posted request; a handle seen again replaces its old entry
 * (a request freed without completion leaves one behind). */
static uint64_t remember(MPI_Request req, int recv, const struct tp_comm *comm, MPI_Datatype type) {
  pthread_mutex_lock(&trace_lock);
  struct pending **link = &table[bucket(req)];
  while (*link && !tp_same_request((*link)->req, req)) link = &(*link)->next;
  struct pending *p = *link;
  if (!p) {
    p = calloc(1, sizeof *p);
    p->req = req;
    *link = p;
  }
  p->id = ++next_id;
  p->recv = recv;
  p->comm = comm;
  p->type = type;
  uint64_t id = p->id;
  pthread_mutex_unlock(&trace_lock);
  return id;
}

static int forget(MPI_Request req, struct pending *copy) {
  pthread_mutex_lock(&trace_lock);
  int found = 0;
  for (struct pending **link = &table[bucket(req)]; *link; link = &(*link)->next)
    if (tp_same_request((*link)->req, req)) {
      struct pending *dead = *link;
      *copy = *dead;
      *link = dead->next;
      free(dead);
      found = 1;
      break;
    }
  pthread_mutex_unlock(&trace_lock);
  return found;
}

/* ---- events ---- */

static int world_of(const struct tp_comm *c, int rank) { return c ? tp_world_rank(c, rank) : -1; }

void tp_trace_send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
                   const MPI_Request *req) {
  if (!trace) return;
  int dst = world_of(tp_comm_of(comm), dest);
  if (dst < 0) return; /* MPI_PROC_NULL */
  uint64_t bytes = tp_bytes(count, type);
  if (req)
    line("S %llu %d %d %llu\n",
         (unsigned long long)remember(*req, 0, NULL, MPI_DATATYPE_NULL), dst, tag,
         (unsigned long long)bytes);
  else
    line("s %d %d %llu\n", dst, tag, (unsigned long long)bytes);
}

static uint64_t received(const MPI_Status *st, MPI_Datatype type) {
  int count = 0;
  PMPI_Get_count(st, type, &count);
  return count == MPI_UNDEFINED ? 0 : tp_bytes(count, type);
}

void tp_trace_recv(MPI_Comm comm, MPI_Datatype type, const MPI_Status *st) {
  if (!trace || st->MPI_SOURCE == MPI_PROC_NULL) return;
  int src = world_of(tp_comm_of(comm), st->MPI_SOURCE);
  if (src >= 0)
    line("r %d %d %llu\n", src, st->MPI_TAG, (unsigned long long)received(st, type));
}

void tp_trace_irecv(MPI_Comm comm, int source, int tag, MPI_Datatype type, MPI_Request req) {
  if (!trace || source == MPI_PROC_NULL) return;
  const struct tp_comm *c = tp_comm_of(comm);
  int src = source == MPI_ANY_SOURCE ? -1 : world_of(c, source);
  line("R %llu %d %d\n", (unsigned long long)remember(req, 1, c, type), src,
       tag == MPI_ANY_TAG ? -1 : tag);
}

void tp_trace_completed(MPI_Request before, const MPI_Status *st) {
  if (!trace || before == MPI_REQUEST_NULL) return;
  struct pending p;
  if (!forget(before, &p)) return; /* not a traced request (a collective's, persistent) */
  if (!p.recv) {
    line("w %llu -1 -1 -1\n", (unsigned long long)p.id);
    return;
  }
  line("w %llu %d %d %llu\n", (unsigned long long)p.id, world_of(p.comm, st->MPI_SOURCE),
       st->MPI_TAG, (unsigned long long)received(st, p.type));
}

void tp_trace_collective(const struct tp_comm *c, int cls) {
  if (!trace) return;
  struct tp_comm *counted = (struct tp_comm *)c; /* the cached translation keeps the count */
  line("k %llx %llu %s %d\n", (unsigned long long)c->key, (unsigned long long)counted->calls++,
       tp_class_name(cls), c->size);
}

void tp_trace_message(int round, int dst, uint64_t bytes) {
  if (trace) line("m %d %d %llu\n", round, dst, (unsigned long long)bytes);
}

void tp_trace_unsupported(const char *what) {
  if (trace) line("u %s\n", what);
}

/* As a nonblocking send and receive, both then waited for: neither side may
 * block the other in the replay. */
void tp_trace_sendrecv(MPI_Comm comm, int dest, int stag, int scount, MPI_Datatype stype,
                       MPI_Datatype rtype, const MPI_Status *st) {
  if (!trace) return;
  const struct tp_comm *c = tp_comm_of(comm);
  int dst = world_of(c, dest);
  int src = st->MPI_SOURCE == MPI_PROC_NULL ? -1 : world_of(c, st->MPI_SOURCE);
  pthread_mutex_lock(&trace_lock);
  unsigned long long send_id = ++next_id, recv_id = ++next_id;
  pthread_mutex_unlock(&trace_lock);
  if (dst >= 0)
    line("S %llu %d %d %llu\n", send_id, dst, stag, (unsigned long long)tp_bytes(scount, stype));
  if (src >= 0) line("R %llu %d %d\n", recv_id, src, st->MPI_TAG);
  if (dst >= 0) line("w %llu -1 -1 -1\n", send_id);
  if (src >= 0)
    line("w %llu %d %d %llu\n", recv_id, src, st->MPI_TAG, (unsigned long long)received(st, rtype));
}
