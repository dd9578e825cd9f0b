/* All-to-all inside rows of a grid (argv: cols): world rank w is in row
 * w / cols at position w % cols; the row communicator comes from
 * MPI_Comm_split(color = w / cols, key = w % cols). In every row
 * (expect.py "alltoall_rows"):
 *   MPI_Alltoall of 16 ints per pair,
 *   MPI_Alltoallv where position i sends i + j + 1 ints to position j,
 *   MPI_Alltoall with MPI_IN_PLACE of 2 doubles per pair. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int w, cols = atoi(argv[1]);
  MPI_Comm_rank(MPI_COMM_WORLD, &w);
  MPI_Comm row;
  MPI_Comm_split(MPI_COMM_WORLD, w / cols, w % cols, &row);
  int n, i;
  MPI_Comm_size(row, &n);
  MPI_Comm_rank(row, &i);
  long checksum = 0;

  int *send = malloc(sizeof(int) * 16 * n), *recv = malloc(sizeof(int) * 16 * n);
  for (int k = 0; k < 16 * n; ++k) send[k] = w * 100 + k;
  MPI_Alltoall(send, 16, MPI_INT, recv, 16, MPI_INT, row);
  for (int k = 0; k < 16 * n; ++k) checksum += recv[k];

  int *scounts = malloc(sizeof(int) * n), *sdispls = malloc(sizeof(int) * n);
  int *rcounts = malloc(sizeof(int) * n), *rdispls = malloc(sizeof(int) * n);
  int stotal = 0, rtotal = 0;
  for (int j = 0; j < n; ++j) {
    scounts[j] = i + j + 1;
    rcounts[j] = j + i + 1;
    sdispls[j] = stotal;
    rdispls[j] = rtotal;
    stotal += scounts[j];
    rtotal += rcounts[j];
  }
  int *vsend = malloc(sizeof(int) * stotal), *vrecv = malloc(sizeof(int) * rtotal);
  for (int k = 0; k < stotal; ++k) vsend[k] = w + k;
  MPI_Alltoallv(vsend, scounts, sdispls, MPI_INT, vrecv, rcounts, rdispls, MPI_INT, row);
  for (int k = 0; k < rtotal; ++k) checksum += vrecv[k];

  double *inplace = malloc(sizeof(double) * 2 * n);
  for (int k = 0; k < 2 * n; ++k) inplace[k] = w + k;
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 2, MPI_DOUBLE, row);
  for (int k = 0; k < 2 * n; ++k) checksum += (long)inplace[k];

  printf("rank %d checksum %ld\n", w, checksum);
  MPI_Comm_free(&row);
  MPI_Finalize();
  return 0;
}
