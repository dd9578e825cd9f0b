/* Every other emulated collective on MPI_COMM_WORLD, sizes in expect.py
 * "colls" (meant for a non-power-of-two size such as 6). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  double checksum = 0;
  double d[100], e[100];
  int x[64], y[640];
  for (int k = 0; k < 100; ++k) d[k] = r + k;
  for (int k = 0; k < 64; ++k) x[k] = r * 10 + k;

  MPI_Allreduce(d, e, 100, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  checksum += e[99];
  int inplace[10];
  for (int k = 0; k < 10; ++k) inplace[k] = r + k;
  MPI_Allreduce(MPI_IN_PLACE, inplace, 10, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  checksum += inplace[9];
  MPI_Reduce(d, e, 7, MPI_DOUBLE, MPI_SUM, 2, MPI_COMM_WORLD);
  if (r == 2) checksum += e[6];
  MPI_Allgather(x, 5, MPI_INT, y, 5, MPI_INT, MPI_COMM_WORLD);
  checksum += y[5 * p - 1];
  int counts[64], displs[64], total = 0;
  for (int k = 0; k < p; ++k) {
    counts[k] = k + 1;
    displs[k] = total;
    total += counts[k];
  }
  MPI_Allgatherv(x, r + 1, MPI_INT, y, counts, displs, MPI_INT, MPI_COMM_WORLD);
  checksum += y[total - 1];
  for (int k = 0; k < 3 * p; ++k) y[k] = r;
  if (r == 1)
    MPI_Gather(MPI_IN_PLACE, 3, MPI_INT, y, 3, MPI_INT, 1, MPI_COMM_WORLD);
  else
    MPI_Gather(x, 3, MPI_INT, y, 3, MPI_INT, 1, MPI_COMM_WORLD);
  if (r == 1) checksum += y[3 * p - 1];
  MPI_Scatter(d, 2, MPI_DOUBLE, e, 2, MPI_DOUBLE, 4 % p, MPI_COMM_WORLD);
  checksum += e[1];
  int *rs = malloc(sizeof(int) * (size_t)total);
  for (int k = 0; k < total; ++k) rs[k] = r + k;
  MPI_Reduce_scatter(rs, y, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  checksum += y[r];
  MPI_Reduce_scatter_block(rs, y, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  checksum += y[2];
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Scan(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  checksum += y[3];
  MPI_Exscan(x, y, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (r > 0) checksum += y[3];
  MPI_Iallreduce(d, e, 8, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  checksum += e[7];
  MPI_Allreduce(d, e, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* zero bytes */
  printf("rank %d checksum %.1f\n", r, checksum);
  free(rs);
  MPI_Finalize();
  return 0;
}
