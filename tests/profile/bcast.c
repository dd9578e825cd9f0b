/* Broadcasts of known sizes on MPI_COMM_WORLD (expect.py "bcast"):
 * 1000 bytes from root 0, 750 ints from root 3, MPI_Ibcast of 500 bytes from
 * root 5, and a 0-element broadcast from root 1 (recorded as nothing). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  char a[1000], c[500];
  int b[750];
  for (int i = 0; i < 1000; ++i) a[i] = (char)(r == 0 ? i : 0);
  for (int i = 0; i < 750; ++i) b[i] = r == 3 ? i : 0;
  for (int i = 0; i < 500; ++i) c[i] = (char)(r == 5 ? 2 * i : 0);
  MPI_Bcast(a, 1000, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Bcast(b, 750, MPI_INT, 3, MPI_COMM_WORLD);
  MPI_Request req;
  MPI_Ibcast(c, 500, MPI_CHAR, 5, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Bcast(b, 0, MPI_INT, 1, MPI_COMM_WORLD);
  long checksum = 0;
  for (int i = 0; i < 1000; ++i) checksum += a[i];
  for (int i = 0; i < 750; ++i) checksum += b[i];
  for (int i = 0; i < 500; ++i) checksum += c[i];
  printf("rank %d checksum %ld\n", r, checksum);
  MPI_Finalize();
  return 0;
}
