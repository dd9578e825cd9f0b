/* One-sided traffic inside fences on a window of 100 ints (expect.py "rma"):
 * MPI_Put of 10 ints to r+1, MPI_Get of 5 ints from r+2 (data flows r+2 -> r),
 * MPI_Accumulate of 3 ints to r+3 (all modulo p). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int base[100], origin[10], fetched[5];
  for (int k = 0; k < 100; ++k) base[k] = r * 100 + k;
  for (int k = 0; k < 10; ++k) origin[k] = -r - k;
  MPI_Win win;
  MPI_Win_create(base, sizeof base, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  MPI_Get(fetched, 5, MPI_INT, (r + 2) % p, 50, 5, MPI_INT, win);
  MPI_Win_fence(0, win);
  MPI_Put(origin, 10, MPI_INT, (r + 1) % p, 0, 10, MPI_INT, win);
  MPI_Accumulate(origin, 3, MPI_INT, (r + 3) % p, 20, 3, MPI_INT, MPI_SUM, win);
  MPI_Win_fence(0, win);
  long checksum = 0;
  for (int k = 0; k < 100; ++k) checksum += base[k];
  for (int k = 0; k < 5; ++k) checksum += fetched[k];
  printf("rank %d checksum %ld\n", r, checksum);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
