/* MPI-3 neighbourhood collectives on 6 ranks (argv[1] picks the topology;
 * run_tests.sh holds the expected matrices, computed by hand). Send block k
 * goes to out-neighbour k; sizes per block:
 *   cart       3x2 periodic Cartesian on a communicator whose ranks are
 *              MPI_COMM_WORLD's reversed (reorder = 0), blocks -x, +x, -y, +y:
 *              Neighbor_alltoall 10 int, Neighbor_allgather 3 double,
 *              Neighbor_alltoallv {5, 6, 8, 8} float, Ineighbor_alltoall 7 double
 *   cart-open  3x2 non-periodic Cartesian on MPI_COMM_WORLD (MPI_PROC_NULL
 *              neighbours): Neighbor_alltoall 6 int, Ineighbor_alltoallv
 *              {1, 2, 3, 4} int
 *   dist       MPI_Dist_graph_create_adjacent (weighted), r -> r+1, r+3 (mod 6):
 *              Neighbor_alltoall 4 int, Neighbor_alltoallv {3, 0} double,
 *              Neighbor_alltoallw {2 double, 5 short}, Ineighbor_allgather
 *              9 char, Neighbor_allgatherv 11 int
 *   graph      MPI_Graph_create, neighbours r+2, r+4 (mod 6):
 *              Neighbor_alltoall 13 byte, Neighbor_alltoallv {1, 2} int; then
 *              MPI_Dist_graph_create (unweighted), r -> r+5: Neighbor_alltoall
 *              3 short */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RANKS = 6, MAX = 64 };

static double sum_doubles(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}

static double sum_ints(const int *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += v[i];
  return s;
}

/* Block displacements (in elements) for `n` blocks of counts[]. */
static void displacements(const int counts[], int n, int displs[]) {
  for (int k = 0, at = 0; k < n; at += counts[k], ++k) displs[k] = at;
}

static double cart(int r) {
  int dims[2] = {3, 2}, periods[2] = {1, 1};
  MPI_Comm reversed, comm;
  MPI_Comm_split(MPI_COMM_WORLD, 0, RANKS - 1 - r, &reversed);
  MPI_Cart_create(reversed, 2, dims, periods, 0, &comm);
  int si[4 * 10], ri[4 * 10];
  double sd[4 * 7], rd[4 * 7];
  float sf[4 * 8], rf[4 * 8];
  for (int i = 0; i < 40; ++i) si[i] = r * 100 + i;
  for (int i = 0; i < 28; ++i) sd[i] = r + i * 0.5;
  for (int i = 0; i < 32; ++i) sf[i] = (float)(r * 10 + i);
  double check = 0;
  MPI_Neighbor_alltoall(si, 10, MPI_INT, ri, 10, MPI_INT, comm);
  check += sum_ints(ri, 40);
  MPI_Neighbor_allgather(sd, 3, MPI_DOUBLE, rd, 3, MPI_DOUBLE, comm);
  check += sum_doubles(rd, 12);
  /* in-neighbour k sent me its block for the opposite direction */
  int scounts[4] = {5, 6, 8, 8}, rcounts[4] = {6, 5, 8, 8}, sdispls[4], rdispls[4];
  displacements(scounts, 4, sdispls);
  displacements(rcounts, 4, rdispls);
  memset(rf, 0, sizeof rf);
  MPI_Neighbor_alltoallv(sf, scounts, sdispls, MPI_FLOAT, rf, rcounts, rdispls, MPI_FLOAT, comm);
  for (int i = 0; i < 27; ++i) check += rf[i];
  MPI_Request req;
  MPI_Ineighbor_alltoall(sd, 7, MPI_DOUBLE, rd, 7, MPI_DOUBLE, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  check += sum_doubles(rd, 28);
  MPI_Comm_free(&comm);
  MPI_Comm_free(&reversed);
  return check;
}

static double cart_open(int r) {
  int dims[2] = {3, 2}, periods[2] = {0, 0};
  MPI_Comm comm;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &comm);
  int s[MAX], rv[MAX];
  for (int i = 0; i < MAX; ++i) s[i] = r * 1000 + i;
  memset(rv, 0, sizeof rv);
  double check = 0;
  MPI_Neighbor_alltoall(s, 6, MPI_INT, rv, 6, MPI_INT, comm);
  check += sum_ints(rv, 24);
  int scounts[4] = {1, 2, 3, 4}, rcounts[4] = {2, 1, 4, 3}, sdispls[4], rdispls[4];
  displacements(scounts, 4, sdispls);
  displacements(rcounts, 4, rdispls);
  memset(rv, 0, sizeof rv);
  MPI_Request req;
  MPI_Ineighbor_alltoallv(s, scounts, sdispls, MPI_INT, rv, rcounts, rdispls, MPI_INT, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  check += sum_ints(rv, 10);
  MPI_Comm_free(&comm);
  return check;
}

static double dist(int r) {
  int sources[2] = {(r + 5) % RANKS, (r + 3) % RANKS};
  int dests[2] = {(r + 1) % RANKS, (r + 3) % RANKS};
  int weights[2] = {1, 1}; /* weighted here, unweighted in graph() */
  MPI_Comm comm;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 2, sources, weights, 2, dests, weights,
                                 MPI_INFO_NULL, 0, &comm);
  int si[MAX], ri[MAX];
  double sd[MAX], rd[MAX];
  char sc[MAX], rc[MAX];
  for (int i = 0; i < MAX; ++i) {
    si[i] = r * 100 + i;
    sd[i] = r + i * 0.25;
    sc[i] = (char)('a' + (r + i) % 26);
  }
  double check = 0;
  MPI_Neighbor_alltoall(si, 4, MPI_INT, ri, 4, MPI_INT, comm);
  check += sum_ints(ri, 8);
  int scounts[2] = {3, 0}, rcounts[2] = {3, 0}, sdispls[2] = {0, 3}, rdispls[2] = {0, 3};
  MPI_Neighbor_alltoallv(sd, scounts, sdispls, MPI_DOUBLE, rd, rcounts, rdispls, MPI_DOUBLE, comm);
  check += sum_doubles(rd, 3);
  /* block 0: 2 doubles at byte 0, block 1: 5 shorts at byte 16 */
  struct {
    double d[2];
    short s[5];
  } wsend = {{r + 0.5, r + 1.5}, {1, 2, 3, 4, (short)r}}, wrecv;
  int wcounts[2] = {2, 5};
  MPI_Aint wdispls[2] = {0, (MPI_Aint)((char *)wsend.s - (char *)&wsend)};
  MPI_Datatype wtypes[2] = {MPI_DOUBLE, MPI_SHORT};
  MPI_Neighbor_alltoallw(&wsend, wcounts, wdispls, wtypes, &wrecv, wcounts, wdispls, wtypes, comm);
  check += wrecv.d[0] + wrecv.d[1] + wrecv.s[4];
  MPI_Request req;
  MPI_Ineighbor_allgather(sc, 9, MPI_CHAR, rc, 9, MPI_CHAR, comm, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  for (int i = 0; i < 18; ++i) check += rc[i];
  int gcounts[2] = {11, 11}, gdispls[2] = {0, 11};
  MPI_Neighbor_allgatherv(si, 11, MPI_INT, ri, gcounts, gdispls, MPI_INT, comm);
  check += sum_ints(ri, 22);
  MPI_Comm_free(&comm);
  return check;
}

static double graph(int r) {
  int index[RANKS], edges[2 * RANKS];
  for (int v = 0; v < RANKS; ++v) {
    index[v] = 2 * (v + 1);
    edges[2 * v] = (v + 2) % RANKS;
    edges[2 * v + 1] = (v + 4) % RANKS;
  }
  MPI_Comm comm;
  MPI_Graph_create(MPI_COMM_WORLD, RANKS, index, edges, 0, &comm);
  unsigned char sb[2 * 13], rb[2 * 13];
  int si[3], ri[3];
  for (int i = 0; i < 26; ++i) sb[i] = (unsigned char)(r * 7 + i);
  for (int i = 0; i < 3; ++i) si[i] = r * 10 + i;
  double check = 0;
  MPI_Neighbor_alltoall(sb, 13, MPI_BYTE, rb, 13, MPI_BYTE, comm);
  for (int i = 0; i < 26; ++i) check += rb[i];
  /* neighbour r+2 has me as its neighbour 1, r+4 as its neighbour 0 */
  int scounts[2] = {1, 2}, rcounts[2] = {2, 1}, sdispls[2] = {0, 1}, rdispls[2] = {0, 2};
  MPI_Neighbor_alltoallv(si, scounts, sdispls, MPI_INT, ri, rcounts, rdispls, MPI_INT, comm);
  check += sum_ints(ri, 3);
  MPI_Comm_free(&comm);

  int source = r, degree = 1, dest = (r + 5) % RANKS;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &source, &degree, &dest, MPI_UNWEIGHTED, MPI_INFO_NULL,
                        0, &comm);
  short ss[3] = {(short)r, 2, 3}, rs[3];
  MPI_Neighbor_alltoall(ss, 3, MPI_SHORT, rs, 3, MPI_SHORT, comm);
  check += rs[0] + rs[1] + rs[2];
  MPI_Comm_free(&comm);
  return check;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int p, r;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  const char *mode = argc > 1 ? argv[1] : "";
  if (p != RANKS) {
    if (r == 0) fprintf(stderr, "neighbor: needs %d ranks, got %d\n", RANKS, p);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  double check;
  if (strcmp(mode, "cart") == 0)
    check = cart(r);
  else if (strcmp(mode, "cart-open") == 0)
    check = cart_open(r);
  else if (strcmp(mode, "dist") == 0)
    check = dist(r);
  else if (strcmp(mode, "graph") == 0)
    check = graph(r);
  else {
    if (r == 0)
      fprintf(stderr, "neighbor: unknown mode '%s' (cart, cart-open, dist, graph)\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
    return 2;
  }
  printf("rank %d %s checksum %.2f\n", r, mode, check);
  MPI_Finalize();
  return 0;
}
