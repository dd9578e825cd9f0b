/* Point-to-point traffic with known sizes on p ranks (see expect.py "p2p"):
 *   r -> r+1: 1000 doubles by MPI_Send, received after MPI_Probe
 *   r -> r-1: 300 ints by MPI_Isend / MPI_Irecv
 *   r -> r+1: 10 chars, persistent send started 3 times
 *   r -> r+2: 64 bytes by MPI_Sendrecv
 *   r -> r+1: a zero-byte MPI_Send; a send to MPI_PROC_NULL (not recorded)
 * (all modulo p). No collectives. Each rank prints a checksum of what it
 * received; argv[1], when given, is the exit status after MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int provided, p, r;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int next = (r + 1) % p, prev = (r - 1 + p) % p;
  double checksum = 0;

  double dsend[1000], drecv[1000];
  for (int i = 0; i < 1000; ++i) dsend[i] = r * 1000 + i;
  MPI_Status status;
  if (r % 2 == 0) {
    MPI_Send(dsend, 1000, MPI_DOUBLE, next, 1, MPI_COMM_WORLD);
    MPI_Probe(prev, 1, MPI_COMM_WORLD, &status);
    MPI_Recv(drecv, 1000, MPI_DOUBLE, status.MPI_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Probe(prev, 1, MPI_COMM_WORLD, &status);
    MPI_Recv(drecv, 1000, MPI_DOUBLE, status.MPI_SOURCE, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(dsend, 1000, MPI_DOUBLE, next, 1, MPI_COMM_WORLD);
  }
  for (int i = 0; i < 1000; ++i) checksum += drecv[i];

  int isend[300], irecv[300];
  for (int i = 0; i < 300; ++i) isend[i] = r + i;
  MPI_Request reqs[2];
  MPI_Irecv(irecv, 300, MPI_INT, next, 2, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(isend, 300, MPI_INT, prev, 2, MPI_COMM_WORLD, &reqs[1]);
  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
  for (int i = 0; i < 300; ++i) checksum += irecv[i];

  char csend[10], crecv[10];
  MPI_Request persistent[2];
  MPI_Send_init(csend, 10, MPI_CHAR, next, 3, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(crecv, 10, MPI_CHAR, prev, 3, MPI_COMM_WORLD, &persistent[1]);
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < 10; ++i) csend[i] = (char)(r + round + i);
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
    for (int i = 0; i < 10; ++i) checksum += crecv[i];
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);

  unsigned char bsend[64], brecv[64];
  for (int i = 0; i < 64; ++i) bsend[i] = (unsigned char)(r * 3 + i);
  MPI_Sendrecv(bsend, 64, MPI_BYTE, (r + 2) % p, 4, brecv, 64, MPI_BYTE, (r - 2 + 2 * p) % p, 4,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  for (int i = 0; i < 64; ++i) checksum += brecv[i];

  MPI_Request zero;
  MPI_Irecv(NULL, 0, MPI_INT, prev, 5, MPI_COMM_WORLD, &zero);
  MPI_Send(NULL, 0, MPI_INT, next, 5, MPI_COMM_WORLD);
  MPI_Wait(&zero, MPI_STATUS_IGNORE);
  MPI_Send(dsend, 10, MPI_DOUBLE, MPI_PROC_NULL, 6, MPI_COMM_WORLD);

  printf("rank %d checksum %.1f\n", r, checksum);
  MPI_Finalize();
  return argc > 1 ? atoi(argv[1]) : 0;
}
