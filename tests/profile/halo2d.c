/* 2D periodic halo exchange on a px x py Cartesian grid (argv: px py) built
 * on a sub-communicator whose ranks are MPI_COMM_WORLD's reversed, so every
 * recorded pair must be translated (expect.py "halo2d"). Cartesian rank c has
 * coordinates (c / py, c % py); world rank = p-1-c. Per iteration, with
 * MPI_Sendrecv: to each neighbour along dimension 0 a column of 50 doubles,
 * along dimension 1 a row of 100 doubles; 5 iterations. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { COL = 50, ROW = 100, ITERATIONS = 5 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int dims[2] = {atoi(argv[1]), atoi(argv[2])}, periods[2] = {1, 1};
  MPI_Comm reversed, cart;
  MPI_Comm_split(MPI_COMM_WORLD, 0, p - 1 - r, &reversed);
  MPI_Cart_create(reversed, 2, dims, periods, 0, &cart);
  double send[ROW], recv[ROW], checksum = 0;
  for (int it = 0; it < ITERATIONS; ++it)
    for (int dim = 0; dim < 2; ++dim)
      for (int dir = -1; dir <= 1; dir += 2) {
        int source, dest, n = dim == 0 ? COL : ROW;
        MPI_Cart_shift(cart, dim, dir, &source, &dest);
        for (int i = 0; i < n; ++i) send[i] = r + it + i;
        MPI_Sendrecv(send, n, MPI_DOUBLE, dest, 7, recv, n, MPI_DOUBLE, source, 7, cart,
                     MPI_STATUS_IGNORE);
        for (int i = 0; i < n; ++i) checksum += recv[i];
      }
  printf("rank %d checksum %.1f\n", r, checksum);
  MPI_Comm_free(&cart);
  MPI_Comm_free(&reversed);
  MPI_Finalize();
  return 0;
}
