/* The communication patterns of graph/patterns, performed by MPI: profiled
 * with libtofaprof, each must give the graph that
 * "tofa-map --graph pattern:SPEC" generates (tests/profile/test_patterns.sh).
 *   halo NDIMS RANKS... CELLS... PERIODIC WIDTH CELL_BYTES  MPI_Cart_create + shifts
 *   ring BYTES                 ring allreduce with MPI_Sendrecv (as NCCL)
 *   allreduce BYTES            MPI_Allreduce
 *   binomial BYTES             MPI_Reduce to 0 then MPI_Bcast from 0
 *   bcast BYTES ROOT ALGO      MPI_Bcast (binomial), sends (linear, pipeline)
 *   alltoall BYTES             MPI_Alltoall, BYTES per pair
 *   fft ROWS COLUMNS GX GY GZ POINT_BYTES   MPI_Alltoall in row, then column
 *   training TP PP DP LAYERS HIDDEN SEQ MB MBS PARAMS DTYPE_BYTES
 *                              MPI_Comm_split tensor and data groups */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int p, me;

static char *buffer(long bytes) { return calloc(bytes > 0 ? (size_t) bytes : 1, 1); }

/* MPI_Allreduce of `bytes` as doubles (bytes must be a multiple of 8). */
static void allreduce(long bytes, MPI_Comm comm) {
  double *in = (double *) buffer(bytes), *out = (double *) buffer(bytes);
  MPI_Allreduce(in, out, (int) (bytes / 8), MPI_DOUBLE, MPI_SUM, comm);
  free(in);
  free(out);
}

static void halo(char **a) {
  int ndims = atoi(a[0]), dims[3], periods[3], width, cell_bytes;
  long cells[3];
  for (int k = 0; k < ndims; ++k) dims[k] = atoi(a[1 + k]);
  for (int k = 0; k < ndims; ++k) cells[k] = atol(a[1 + ndims + k]);
  for (int k = 0; k < ndims; ++k) periods[k] = atoi(a[1 + 2 * ndims]);
  width = atoi(a[2 + 2 * ndims]);
  cell_bytes = atoi(a[3 + 2 * ndims]);
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, ndims, dims, periods, 0, &cart);
  for (int k = 0; k < ndims; ++k) {
    long face = (long) width * cell_bytes;
    for (int j = 0; j < ndims; ++j)
      if (j != k) face *= cells[j];
    char *send = buffer(face), *recv = buffer(face);
    for (int dir = -1; dir <= 1; dir += 2) {
      int source, dest;
      MPI_Cart_shift(cart, k, dir, &source, &dest);
      MPI_Sendrecv(send, (int) face, MPI_BYTE, dest, 1, recv, (int) face, MPI_BYTE, source, 1,
                   cart, MPI_STATUS_IGNORE);
    }
    free(send);
    free(recv);
  }
  MPI_Comm_free(&cart);
}

/* Reduce-scatter then allgather, 2(p-1) steps of bytes/p to the right. */
static void ring(long bytes) {
  long chunk = bytes / p;
  char *send = buffer(chunk), *recv = buffer(chunk);
  for (int step = 0; step < 2 * (p - 1); ++step)
    MPI_Sendrecv(send, (int) chunk, MPI_BYTE, (me + 1) % p, 2, recv, (int) chunk, MPI_BYTE,
                 (me + p - 1) % p, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  free(send);
  free(recv);
}

static void bcast(long bytes, int root, const char *algorithm) {
  char *data = buffer(bytes);
  int v = (me - root + p) % p;
  if (!strcmp(algorithm, "binomial")) {
    MPI_Bcast(data, (int) bytes, MPI_BYTE, root, MPI_COMM_WORLD);
  } else if (!strcmp(algorithm, "linear")) {
    if (me == root) {
      for (int r = 0; r < p; ++r)
        if (r != root) MPI_Send(data, (int) bytes, MPI_BYTE, r, 3, MPI_COMM_WORLD);
    } else {
      MPI_Recv(data, (int) bytes, MPI_BYTE, root, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  } else { /* pipeline: a chain from the root */
    if (v > 0) MPI_Recv(data, (int) bytes, MPI_BYTE, (me + p - 1) % p, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (v + 1 < p) MPI_Send(data, (int) bytes, MPI_BYTE, (me + 1) % p, 3, MPI_COMM_WORLD);
  }
  free(data);
}

static void alltoall(long bytes, MPI_Comm comm) {
  int n;
  MPI_Comm_size(comm, &n);
  char *send = buffer(bytes * n), *recv = buffer(bytes * n);
  MPI_Alltoall(send, (int) bytes, MPI_BYTE, recv, (int) bytes, MPI_BYTE, comm);
  free(send);
  free(recv);
}

static void fft(char **a) {
  int rows = atoi(a[0]), columns = atoi(a[1]);
  long local = atol(a[2]) * atol(a[3]) * atol(a[4]) * atol(a[5]) / p;
  MPI_Comm row, column;
  MPI_Comm_split(MPI_COMM_WORLD, me / columns, me % columns, &row);
  MPI_Comm_split(MPI_COMM_WORLD, me % columns, me / columns, &column);
  alltoall(local / columns, row);
  alltoall(local / rows, column);
  MPI_Comm_free(&row);
  MPI_Comm_free(&column);
}

/* Rank = t + tp (d + dp s); the pipeline sends go to world ranks directly. */
static void training(char **a) {
  long tp = atol(a[0]), pp = atol(a[1]), dp = atol(a[2]), layers = atol(a[3]);
  long activation = atol(a[6]) * atol(a[5]) * atol(a[4]) * atol(a[9]);
  long microbatches = atol(a[7]), gradients = atol(a[8]) / (tp * pp) * atol(a[9]);
  long t = me % tp, d = me / tp % dp, s = me / (tp * dp);
  MPI_Comm tensor, data;
  MPI_Comm_split(MPI_COMM_WORLD, (int) (d + dp * s), (int) t, &tensor);
  MPI_Comm_split(MPI_COMM_WORLD, (int) (t + tp * s), (int) d, &data);
  int next = s + 1 < pp ? (int) (me + tp * dp) : MPI_PROC_NULL;
  int previous = s > 0 ? (int) (me - tp * dp) : MPI_PROC_NULL;
  char *send = buffer(activation), *recv = buffer(activation);
  for (long m = 0; m < microbatches; ++m) {
    MPI_Sendrecv(send, (int) activation, MPI_BYTE, next, 4, recv, (int) activation, MPI_BYTE,
                 previous, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* forward */
    for (long k = 0; k < 4 * layers / pp; ++k) allreduce(activation, tensor);
    MPI_Sendrecv(send, (int) activation, MPI_BYTE, previous, 5, recv, (int) activation, MPI_BYTE,
                 next, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* backward */
  }
  allreduce(gradients, data);
  free(send);
  free(recv);
  MPI_Comm_free(&tensor);
  MPI_Comm_free(&data);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  const char *mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "halo")) halo(argv + 2);
  else if (!strcmp(mode, "ring")) ring(atol(argv[2]));
  else if (!strcmp(mode, "allreduce")) allreduce(atol(argv[2]), MPI_COMM_WORLD);
  else if (!strcmp(mode, "binomial")) {
    long bytes = atol(argv[2]);
    double *in = (double *) buffer(bytes), *out = (double *) buffer(bytes);
    MPI_Reduce(in, out, (int) (bytes / 8), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Bcast(out, (int) (bytes / 8), MPI_DOUBLE, 0, MPI_COMM_WORLD);
    free(in);
    free(out);
  } else if (!strcmp(mode, "bcast")) bcast(atol(argv[2]), atoi(argv[3]), argv[4]);
  else if (!strcmp(mode, "alltoall")) alltoall(atol(argv[2]), MPI_COMM_WORLD);
  else if (!strcmp(mode, "fft")) fft(argv + 2);
  else if (!strcmp(mode, "training")) training(argv + 2);
  else {
    if (me == 0) fprintf(stderr, "patterns: unknown mode '%s'\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (me == 0) printf("%s done on %d ranks\n", mode, p);
  MPI_Finalize();
  return 0;
}
