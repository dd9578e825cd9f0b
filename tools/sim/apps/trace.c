/* tofa-sim-trace: an SMPI application that replays recorded MPI runs, one or
 * several at once (jobs sharing the machine).
 *
 *   smpirun -np N ... tofa-sim-trace [-f FLOPS_PER_SECOND] [-m MATRIX] JOB_DIR...
 *
 * Each JOB_DIR holds R.replay for its ranks R = 0 .. P-1, what `tofa-sim
 * trace` makes of a `tofa-profile --trace` recording (tools/sim/
 * trace_resolve.cpp). World ranks go to the jobs in order: the first job's P1
 * ranks are world ranks 0 .. P1-1, and so on; N must be the sum. Every job
 * runs in its own communicator and starts at time 0.
 *
 * A replay file: the line "tofa-replay 1 rank R size P", then one event per
 * line, ranks being the job's:
 *   c SECONDS             compute SECONDS x FLOPS_PER_SECOND flops (the
 *                         CPU time measured between two MPI calls; -f
 *                         default 6e9, the seed's host speed, replays it as
 *                         measured on a 6 Gflop/s host)
 *   s DST TAG BYTES       MPI_Send
 *   S ID DST TAG BYTES    MPI_Isend, request ID
 *   r SRC TAG BYTES       MPI_Recv
 *   R ID SRC TAG BYTES    MPI_Irecv, request ID
 *   w ID                  MPI_Wait on request ID
 * Message contents are one SMPI shared buffer, never copied.
 *
 * Output (world rank 0, stdout):
 *   tofa-sim-trace: time=T jobs=J ranks=N job0=T0 job1=T1 ... bytes=B
 * Tj: simulated seconds from the start to the end of job j's last rank; T
 * the longest; B the bytes sent, all jobs. With -m (one job) rank 0 writes
 * the bytes each rank sent to each other rank (the project's comm.mat
 * format). Errors: "tofa-sim-trace: FILE:LINE: what was expected" on
 * stderr, exit status 1.
 *
 * Run it with --cfg=smpi/simulate-computation:no (tofa-sim does). */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sent_matrix.h"

struct request {
  unsigned long long id;
  MPI_Request req;
};

struct replay {
  const char *path;
  FILE *in;
  int line_no;
  MPI_Comm comm;
  int size;
  char *buffer;
  size_t buffer_bytes;
  struct request *open; /* requests posted and not yet waited for */
  int open_count, open_cap;
  long long *sent; /* bytes to each rank of the job */
};

static void fail(const struct replay *r, const char *what) {
  fprintf(stderr, "tofa-sim-trace: %s:%d: %s\n", r->path, r->line_no, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

static void check_rank(const struct replay *r, long long rank) {
  if (rank < 0 || rank >= r->size) fail(r, "a rank outside the job");
}

static void *message_buffer(struct replay *r, unsigned long long bytes) {
  if (bytes > (unsigned long long)INT_MAX) fail(r, "a message above 2 GiB");
  if (bytes > r->buffer_bytes) {
    if (r->buffer) SMPI_SHARED_FREE(r->buffer);
    r->buffer_bytes = bytes < (1u << 20) ? (1u << 20) : bytes;
    r->buffer = SMPI_SHARED_MALLOC(r->buffer_bytes);
  }
  return r->buffer;
}

static MPI_Request *post(struct replay *r, unsigned long long id) {
  if (r->open_count == r->open_cap) {
    r->open_cap = r->open_cap ? 2 * r->open_cap : 64;
    r->open = realloc(r->open, (size_t)r->open_cap * sizeof *r->open);
    if (!r->open) fail(r, "out of memory for requests");
  }
  r->open[r->open_count].id = id;
  return &r->open[r->open_count++].req;
}

static void wait_for(struct replay *r, unsigned long long id) {
  for (int i = 0; i < r->open_count; ++i)
    if (r->open[i].id == id) {
      MPI_Wait(&r->open[i].req, MPI_STATUS_IGNORE);
      r->open[i] = r->open[--r->open_count];
      return;
    }
  fail(r, "a wait for a request that was not posted");
}

static void replay_file(struct replay *r, double flops_per_second) {
  char line[256];
  while (fgets(line, sizeof line, r->in)) {
    ++r->line_no;
    double seconds;
    long long peer, tag;
    unsigned long long id, bytes;
    switch (line[0]) {
      case 'c':
        if (sscanf(line, "c %lf", &seconds) != 1 || seconds < 0) fail(r, "expected 'c SECONDS'");
        smpi_execute_flops(seconds * flops_per_second);
        break;
      case 's':
        if (sscanf(line, "s %lld %lld %llu", &peer, &tag, &bytes) != 3) fail(r, "expected 's DST TAG BYTES'");
        check_rank(r, peer);
        MPI_Send(message_buffer(r, bytes), (int)bytes, MPI_BYTE, (int)peer, (int)tag, r->comm);
        r->sent[peer] += (long long)bytes;
        break;
      case 'S':
        if (sscanf(line, "S %llu %lld %lld %llu", &id, &peer, &tag, &bytes) != 4)
          fail(r, "expected 'S ID DST TAG BYTES'");
        check_rank(r, peer);
        MPI_Isend(message_buffer(r, bytes), (int)bytes, MPI_BYTE, (int)peer, (int)tag, r->comm,
                  post(r, id));
        r->sent[peer] += (long long)bytes;
        break;
      case 'r':
        if (sscanf(line, "r %lld %lld %llu", &peer, &tag, &bytes) != 3) fail(r, "expected 'r SRC TAG BYTES'");
        check_rank(r, peer);
        MPI_Recv(message_buffer(r, bytes), (int)bytes, MPI_BYTE, (int)peer, (int)tag, r->comm,
                 MPI_STATUS_IGNORE);
        break;
      case 'R':
        if (sscanf(line, "R %llu %lld %lld %llu", &id, &peer, &tag, &bytes) != 4)
          fail(r, "expected 'R ID SRC TAG BYTES'");
        check_rank(r, peer);
        MPI_Irecv(message_buffer(r, bytes), (int)bytes, MPI_BYTE, (int)peer, (int)tag, r->comm,
                  post(r, id));
        break;
      case 'w':
        if (sscanf(line, "w %llu", &id) != 1) fail(r, "expected 'w ID'");
        wait_for(r, id);
        break;
      default:
        fail(r, "expected one of c s S r R w");
    }
  }
  if (r->open_count) fail(r, "requests left open at the end");
}

/* long: the arguments, the communicators per job, then the replay loop. */
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int world_rank, world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  double flops_per_second = 6e9;
  const char *matrix = NULL;
  int opt;
  while ((opt = getopt(argc, argv, "f:m:")) != -1) {
    if (opt == 'f') flops_per_second = atof(optarg);
    else if (opt == 'm') matrix = optarg;
    else optind = argc + 1;
  }
  const int jobs = argc - optind;
  if (optind > argc || jobs < 1 || !(flops_per_second > 0)) {
    if (world_rank == 0)
      fprintf(stderr, "usage: tofa-sim-trace [-f FLOPS_PER_SECOND] [-m MATRIX] JOB_DIR...\n");
    MPI_Finalize();
    return 1;
  }

  /* This rank's job: read every job's size from its rank 0 file. */
  int job = -1, first = 0, total = 0, job_rank = 0, job_size = 0;
  char path[4096];
  for (int j = 0; j < jobs; ++j) {
    snprintf(path, sizeof path, "%s/0.replay", argv[optind + j]);
    FILE *f = fopen(path, "r");
    int size = 0;
    if (!f || fscanf(f, "tofa-replay 1 rank 0 size %d", &size) != 1 || size < 1) {
      if (world_rank == 0) fprintf(stderr, "tofa-sim-trace: %s: expected 'tofa-replay 1 rank 0 size P'\n", path);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    fclose(f);
    if (world_rank >= total && world_rank < total + size) job = j, first = total, job_size = size;
    total += size;
  }
  if (total != world_size) {
    if (world_rank == 0)
      fprintf(stderr, "tofa-sim-trace: the jobs have %d ranks, the MPI world %d\n", total, world_size);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  job_rank = world_rank - first;

  struct replay r = {0};
  snprintf(path, sizeof path, "%s/%d.replay", argv[optind + job], job_rank);
  r.path = path;
  r.in = fopen(path, "r");
  if (!r.in) fail(&r, "cannot read");
  char header[128];
  int file_rank = -1, file_size = -1;
  r.line_no = 1;
  if (!fgets(header, sizeof header, r.in) ||
      sscanf(header, "tofa-replay 1 rank %d size %d", &file_rank, &file_size) != 2 ||
      file_rank != job_rank || file_size != job_size)
    fail(&r, "expected the header 'tofa-replay 1 rank R size P' of this rank");
  MPI_Comm_split(MPI_COMM_WORLD, job, job_rank, &r.comm);
  r.size = job_size;
  r.sent = calloc((size_t)job_size, sizeof *r.sent);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  replay_file(&r, flops_per_second);
  double mine = MPI_Wtime() - start;
  fclose(r.in);

  double job_time = 0;
  MPI_Reduce(&mine, &job_time, 1, MPI_DOUBLE, MPI_MAX, 0, r.comm);
  long long my_bytes = 0, bytes = 0;
  for (int j = 0; j < job_size; ++j) my_bytes += r.sent[j];
  MPI_Reduce(&my_bytes, &bytes, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  /* World rank 0 gathers the jobs' times from their rank 0. */
  double *times = world_rank == 0 ? calloc((size_t)world_size, sizeof *times) : NULL;
  double sent_time = job_rank == 0 ? job_time : -1;
  MPI_Gather(&sent_time, 1, MPI_DOUBLE, times, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  long long *rows = NULL;
  if (matrix && jobs == 1) {
    rows = world_rank == 0 ? malloc(sizeof *rows * (size_t)job_size * (size_t)job_size) : NULL;
    MPI_Gather(r.sent, job_size, MPI_LONG_LONG, rows, job_size, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  }
  if (world_rank == 0) {
    double longest = 0;
    for (int i = 0; i < world_size; ++i)
      if (times[i] > longest) longest = times[i];
    printf("tofa-sim-trace: time=%.9f jobs=%d ranks=%d", longest, jobs, world_size);
    for (int i = 0, j = 0; i < world_size; ++i)
      if (times[i] >= 0) printf(" job%d=%.9f", j++, times[i]);
    printf(" bytes=%lld\n", bytes);
    if (rows) write_sent_matrix("tofa-sim-trace", matrix, rows, job_size);
  }
  free(rows);
  free(times);
  free(r.sent);
  free(r.open);
  if (r.buffer) SMPI_SHARED_FREE(r.buffer);
  MPI_Comm_free(&r.comm);
  MPI_Finalize();
  return 0;
}
