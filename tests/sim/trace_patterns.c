/* What tofa-profile --trace must record so that the replay sends exactly the
 * recorded graph (tests/sim/test_trace.sh): receives from MPI_ANY_SOURCE
 * completed by MPI_Waitany and MPI_Testsome, MPI_Sendrecv, nonblocking sends
 * completed by MPI_Waitall with ignored statuses, collectives on
 * MPI_COMM_WORLD and on a split communicator (ranks translated to world),
 * and computation between the calls. Run on 6 ranks (not a power of two). */
#include <mpi.h>
#include <stdio.h>

static double spin(int n) {
  volatile double x = 0;
  for (int i = 0; i < n; ++i) x += i * 1e-9;
  return x;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  static double out[4096], in[6][4096];
  double sum = spin(200000 * (r + 1));

  /* everyone sends rank+1 KiB to rank 0, which takes them in arrival order */
  if (r == 0) {
    MPI_Request reqs[6];
    for (int k = 1; k < p; ++k)
      MPI_Irecv(in[k], 4096, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &reqs[k - 1]);
    for (int done = 0; done < p - 1; ++done) {
      int index;
      MPI_Waitany(p - 1, reqs, &index, MPI_STATUS_IGNORE);
    }
  } else {
    MPI_Send(out, 128 * r, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
  }
  sum += spin(100000);

  /* a ring by MPI_Sendrecv, then its reverse by Isend/Irecv and Testsome */
  int next = (r + 1) % p, prev = (r + p - 1) % p;
  MPI_Sendrecv(out, 300, MPI_DOUBLE, next, 1, in[0], 300, MPI_DOUBLE, prev, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Request ring[2];
  MPI_Irecv(in[1], 4096, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &ring[0]);
  MPI_Isend(out, 77, MPI_DOUBLE, prev, 2, MPI_COMM_WORLD, &ring[1]);
  for (int left = 2; left > 0;) {
    int count, indices[2];
    MPI_Testsome(2, ring, &count, indices, MPI_STATUSES_IGNORE);
    if (count != MPI_UNDEFINED) left -= count;
  }

  /* collectives: world, then each half of the world */
  MPI_Allreduce(out, in[2], 100, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Bcast(out, 500, MPI_DOUBLE, 2, MPI_COMM_WORLD);
  MPI_Alltoall(out, 10, MPI_DOUBLE, in[3], 10, MPI_DOUBLE, MPI_COMM_WORLD);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, &half);
  MPI_Allgather(out, 33, MPI_DOUBLE, in[4], 33, MPI_DOUBLE, half);
  MPI_Reduce(out, in[5], 50, MPI_DOUBLE, MPI_SUM, 1, half);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Comm_free(&half);
  if (r == 0) printf("trace_patterns: done %g\n", sum);
  MPI_Finalize();
  return 0;
}
