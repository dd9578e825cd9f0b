/* tofa-sim-replay: an SMPI application that replays a communication matrix.
 *
 *   smpirun ... tofa-sim-replay [-r ROUNDS] [-f FLOPS] MATRIX
 *
 * MATRIX is the project's dense format, what tofa-profile writes as comm.mat:
 * a first data line N (the number of ranks, which must be the MPI world's
 * size), then N rows of N non-negative numbers, '#' starting a comment;
 * entry (i,j) is the number of bytes rank i sends to rank j.
 *
 * Phases. The matrix is replayed in ROUNDS rounds (default 10), each moving
 * an equal share of every entry: in round r, entry B moves
 * floor(B(r+1)/ROUNDS) - floor(B r/ROUNDS) bytes (B rounded to whole bytes),
 * so the rounds add up to B exactly. In a round every rank first computes
 * FLOPS flops (default 0), then posts a nonblocking receive for its share of
 * every non-zero entry of its column and a nonblocking send for every
 * non-zero entry of its row, waits for all of them and enters a barrier. A
 * round thus lasts as long as its slowest transfer under the contention of
 * all the others; the barriers keep rounds from overlapping, so the result
 * depends on the placement through the network only. A share above 1 GiB is
 * sent as several messages.
 *
 * Output (rank 0, stdout):
 *   tofa-sim-replay: time=T ranks=N rounds=K bytes=B
 * T is the simulated time in seconds from a barrier after the matrix is read
 * to the end of the last round's barrier. Errors: "tofa-sim-replay:
 * FILE:LINE:COLUMN: what was expected" on stderr, exit status 1.
 *
 * Run it with --cfg=smpi/simulate-computation:no (tofa-sim run does):
 * otherwise SMPI adds the host's real time spent between MPI calls. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../data_lines.h"

#define MAX_PIECE (1LL << 30)

struct matrix_part {
  int n;
  long long *row;    /* row[j]: bytes this rank sends to j */
  long long *column; /* column[i]: bytes i sends to this rank */
};

struct reader {
  struct data_lines in;
  char error[512];
};

static int fail(struct reader *r, int column, const char *what) {
  snprintf(r->error, sizeof r->error, "%s:%d:%d: %s", r->in.path, r->in.line_no, column, what);
  return -1;
}

/* Reads the number at *cursor as whole bytes; 1 when found, 0 at the end of
 * the line, -1 on a bad token. */
static int next_amount(struct reader *r, char **cursor, long long *value) {
  char *c = *cursor;
  while (*c && isspace((unsigned char)*c)) ++c;
  if (!*c) return 0;
  const int column = (int)(c - r->in.line) + 1;
  char *end;
  errno = 0;
  const double v = strtod(c, &end);
  const int decimal = isdigit((unsigned char)*c) || *c == '.';
  if (!decimal || end == c || (*end && !isspace((unsigned char)*end)) || errno || !(v >= 0) ||
      v > 4e18) {
    char what[96];
    const int length = (int)strcspn(c, " \t\r\n");
    snprintf(what, sizeof what, "expected a non-negative number of bytes, found '%.*s'",
             length > 40 ? 40 : length, c);
    return fail(r, column, what);
  }
  *value = llround(v);
  *cursor = end;
  return 1;
}

/* Reads the whole matrix, keeping only the row and column of `rank`. */
static int read_part(struct reader *r, int rank, int ranks, struct matrix_part *part) {
  char *line = next_data_line(&r->in);
  if (!line) return fail(r, 0, "empty file: expected the number of ranks N on the first line");
  char *end;
  const long n = strtol(line, &end, 10);
  while (*end && isspace((unsigned char)*end)) ++end;
  if (n < 1 || *end) return fail(r, 1, "expected the number of ranks N alone on the first line");
  if (n != ranks) {
    char what[128];
    snprintf(what, sizeof what, "the matrix has %ld ranks, the MPI world %d", n, ranks);
    return fail(r, 1, what);
  }
  part->n = (int)n;
  part->row = calloc((size_t)n, sizeof *part->row);
  part->column = calloc((size_t)n, sizeof *part->column);
  if (!part->row || !part->column) return fail(r, 0, "out of memory");
  for (int i = 0; i < n; ++i) {
    char *cursor = next_data_line(&r->in);
    if (!cursor) {
      char what[64];
      snprintf(what, sizeof what, "expected %ld rows, found %d", n, i);
      return fail(r, 0, what);
    }
    for (int j = 0; j <= n; ++j) {
      long long value = 0;
      const int got = next_amount(r, &cursor, &value);
      if (got < 0) return -1;
      if ((got == 0) != (j == n)) {
        char what[64];
        snprintf(what, sizeof what, "row %d has %s %ld values", i,
                 got ? "more than" : "fewer than", n);
        return fail(r, got ? (int)(cursor - r->in.line) : 0, what);
      }
      if (got == 0) break;
      if (i == rank && j != i) part->row[j] = value;
      if (j == rank && j != i) part->column[i] = value;
    }
  }
  if (next_data_line(&r->in)) return fail(r, 1, "expected the end of the matrix");
  return 0;
}

/* Bytes of entry `total` moved in round `round` of `rounds`. */
static long long share(long long total, int round, int rounds) {
  const long double t = (long double)total;
  return (long long)(t * (round + 1) / rounds) - (long long)(t * round / rounds);
}

static int pieces(long long bytes) { return (int)((bytes + MAX_PIECE - 1) / MAX_PIECE); }

/* Posts every transfer of one round of one direction into requests[*count..]. */
static void post(const long long *amounts, int n, int round, int rounds, int sending,
                 char *buffer, MPI_Request *requests, int *count) {
  for (int peer = 0; peer < n; ++peer) {
    long long left = share(amounts[peer], round, rounds);
    while (left > 0) {
      const int size = (int)(left < MAX_PIECE ? left : MAX_PIECE);
      if (sending)
        MPI_Isend(buffer, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &requests[(*count)++]);
      else
        MPI_Irecv(buffer, size, MPI_BYTE, peer, 0, MPI_COMM_WORLD, &requests[(*count)++]);
      left -= size;
    }
  }
}

static int parse_options(int argc, char **argv, int *rounds, double *flops, const char **path) {
  for (int i = 1; i < argc; ++i) {
    char *end = NULL;
    if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
      const long value = strtol(argv[++i], &end, 10);
      if (*end || value < 1 || value > 1000000) return -1;
      *rounds = (int)value;
    } else if (strcmp(argv[i], "-f") == 0 && i + 1 < argc) {
      *flops = strtod(argv[++i], &end);
      if (*end || !(*flops >= 0) || isinf(*flops)) return -1;
    } else if (!*path && argv[i][0] != '-') {
      *path = argv[i];
    } else {
      return -1;
    }
  }
  return *path ? 0 : -1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  int rounds = 10;
  double flops = 0;
  const char *path = NULL;
  /* Every rank meets the same error (same arguments, same file): rank 0
   * reports it and all exit with status 1, which smpirun returns (MPI_Abort
   * would leave it 0). */
  if (parse_options(argc, argv, &rounds, &flops, &path) != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: tofa-sim-replay [-r ROUNDS >= 1] [-f FLOPS >= 0] MATRIX\n");
    exit(1);
  }
  struct reader r = {{path, fopen(path, "r"), NULL, 0, 0}, ""};
  struct matrix_part part = {0, NULL, NULL};
  if (!r.in.f) {
    snprintf(r.error, sizeof r.error, "%s: cannot open: %s", path, strerror(errno));
  } else {
    read_part(&r, rank, ranks, &part);
    fclose(r.in.f);
  }
  free(r.in.line);
  if (r.error[0]) {
    if (rank == 0) fprintf(stderr, "tofa-sim-replay: %s\n", r.error);
    exit(1);
  }

  long long largest = 1, sent = 0;
  int most_requests = 0;
  for (int peer = 0; peer < ranks; ++peer) {
    sent += part.row[peer];
    const long long top[2] = {share(part.row[peer], rounds - 1, rounds),
                              share(part.column[peer], rounds - 1, rounds)};
    for (int k = 0; k < 2; ++k) {
      /* The last round moves ceil(B/ROUNDS), the largest share. */
      if (top[k] > largest) largest = top[k] < MAX_PIECE ? top[k] : MAX_PIECE;
      most_requests += pieces(top[k]) + 1;
    }
  }
  /* Contents never matter: SMPI's shared malloc gives every rank the same
   * few pages and skips the copies. */
  char *send_buffer = SMPI_SHARED_MALLOC((size_t)largest);
  char *receive_buffer = SMPI_SHARED_MALLOC((size_t)largest);
  MPI_Request *requests = malloc(sizeof *requests * (size_t)(most_requests + 1));
  if (!requests) MPI_Abort(MPI_COMM_WORLD, 1);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (int round = 0; round < rounds; ++round) {
    if (flops > 0) smpi_execute_flops(flops);
    int count = 0;
    post(part.column, ranks, round, rounds, 0, receive_buffer, requests, &count);
    post(part.row, ranks, round, rounds, 1, send_buffer, requests, &count);
    MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  const double elapsed = MPI_Wtime() - start;

  long long total = 0;
  MPI_Reduce(&sent, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0)
    printf("tofa-sim-replay: time=%.9f ranks=%d rounds=%d bytes=%lld\n", elapsed, ranks, rounds,
           total);
  free(requests);
  SMPI_SHARED_FREE(send_buffer);
  SMPI_SHARED_FREE(receive_buffer);
  free(part.row);
  free(part.column);
  MPI_Finalize();
  return 0;
}
