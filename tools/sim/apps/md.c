/* tofa-sim-md: a LAMMPS-like SMPI application (short-range molecular
 * dynamics with a brick decomposition), written for the project.
 *
 *   smpirun -np N ... tofa-sim-md [-s STEPS] [-a ATOMS] [-e EVERY]
 *       [-c CUTOFF] [-d DENSITY] [-b BYTES_PER_ATOM] [-f FLOPS_PER_ATOM]
 *       [-r REDUCE_DOUBLES] [-m MATRIX]
 *
 * Model. ATOMS atoms (default 32000, the size of LAMMPS's rhodopsin and LJ
 * benchmarks) fill a periodic cube at DENSITY atoms per unit volume
 * (0.8442, LJ units), side L = (ATOMS / DENSITY)^(1/3). The N ranks split it
 * into P x Q x R bricks (md_grid.h); rank = x + P*(y + Q*z). Each of STEPS
 * steps (default 100):
 *  1. halo exchange: every rank sends to each of its 26 neighbours the
 *     ghost atoms of the region they share, a face CUTOFF*s_a*s_b, an edge
 *     CUTOFF^2*s_a or a corner CUTOFF^3 (s = L/P, L/Q, L/R; CUTOFF default
 *     2.8 = LJ cutoff 2.5 + skin 0.3), BYTES_PER_ATOM bytes per ghost atom
 *     (default 48: positions out and forces back, 3 doubles each), rounded
 *     to whole bytes; all 26 receives and sends are nonblocking, then a
 *     wait. A neighbour reached both ways (a dimension of 2 ranks) gets two
 *     messages; a dimension of 1 rank wraps onto the rank itself: nothing is
 *     sent;
 *  2. force computation: smpi_execute_flops(ATOMS / N * FLOPS_PER_ATOM)
 *     (default 1000: about 39 pairs inside the cutoff per atom with
 *     Newton's third law, ~25 flops each);
 *  3. every EVERY steps (default 10; 0: never) an MPI_Allreduce of
 *     REDUCE_DOUBLES doubles (default 8), the thermodynamic output.
 * Exactly the library's halo_exchange_graph with box L, tasks P x Q x R and
 * bytes_per_volume = DENSITY * BYTES_PER_ATOM per step (tofa-sim graph
 * --app md); tofa-sim runs it with --cfg=smpi/allreduce:rdb, the recursive
 * doubling the graph's allreduce edges describe.
 *
 * Output (rank 0, stdout):
 *   tofa-sim-md: time=T steps=S steps_per_second=X ranks=N grid=PxQxR atoms=A
 * T: simulated seconds from a barrier before the first step to a barrier
 * after the last. With -m MATRIX rank 0 writes the halo bytes each rank
 * sent to each other rank (the project's dense comm.mat format; the
 * allreduce's messages are SMPI's and are not counted).
 * Errors: a message on stderr, exit status 1. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sent_matrix.h"

#include "md_grid.h"

struct settings {
  long steps;
  double atoms;
  long every;
  double cutoff, density, bytes_per_atom, flops_per_atom;
  int reduce_doubles;
  const char *matrix;
};

static int parse(int argc, char **argv, struct settings *s) {
  for (int i = 1; i < argc; ++i) {
    if (i + 1 >= argc || argv[i][0] != '-' || strlen(argv[i]) != 2) return -1;
    const char *value = argv[++i];
    char *end = NULL;
    const double number = strtod(value, &end);
    const int numeric = *end == 0 && end != value && isfinite(number);
    switch (argv[i - 1][1]) {
      case 's':
        s->steps = (long)number;
        break;
      case 'a':
        s->atoms = number;
        break;
      case 'e':
        s->every = (long)number;
        break;
      case 'c':
        s->cutoff = number;
        break;
      case 'd':
        s->density = number;
        break;
      case 'b':
        s->bytes_per_atom = number;
        break;
      case 'f':
        s->flops_per_atom = number;
        break;
      case 'r':
        s->reduce_doubles = (int)number;
        break;
      case 'm':
        s->matrix = value;
        continue;
      default:
        return -1;
    }
    if (!numeric) return -1;
  }
  if (s->steps < 1 || !(s->atoms >= 1) || s->every < 0 || !(s->cutoff > 0) || !(s->density > 0) ||
      !(s->bytes_per_atom >= 0) || !(s->flops_per_atom >= 0) || s->reduce_doubles < 1)
    return -1;
  return 0;
}

struct neighbour {
  int rank; /* where this rank's ghost region for `offset` goes */
  int from; /* who sends to this rank with the same tag */
  long long bytes;
};

/* The 26 exchanges of `rank`; returns how many involve another rank. */
static int neighbours(int rank, const int grid[3], const struct settings *s,
                      struct neighbour out[26]) {
  const double side = cbrt(s->atoms / s->density);
  const int x[3] = {rank % grid[0], rank / grid[0] % grid[1], rank / (grid[0] * grid[1])};
  int count = 0;
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int offset[3] = {dx, dy, dz};
        if (!dx && !dy && !dz) continue;
        int to = 0, from = 0;
        double volume = 1;
        for (int d = 2; d >= 0; --d) {
          to = to * grid[d] + (x[d] + offset[d] + grid[d]) % grid[d];
          from = from * grid[d] + (x[d] - offset[d] + grid[d]) % grid[d];
        }
        /* The same product, in the same order, as the library's ghost volume. */
        for (int d = 0; d < 3; ++d) volume *= offset[d] ? s->cutoff : side / grid[d];
        if (to == rank) continue;
        out[count++] =
            (struct neighbour){to, from, llround(volume * s->density * s->bytes_per_atom)};
      }
  return count;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  struct settings s = {100, 32000, 10, 2.8, 0.8442, 48, 1000, 8, NULL};
  /* Every rank meets the same error: all exit with status 1, which smpirun
   * returns. */
  if (parse(argc, argv, &s) != 0) {
    if (rank == 0)
      fprintf(stderr,
              "usage: tofa-sim-md [-s STEPS>=1] [-a ATOMS] [-e EVERY>=0] [-c CUTOFF] [-d DENSITY]"
              " [-b BYTES_PER_ATOM] [-f FLOPS_PER_ATOM] [-r REDUCE_DOUBLES>=1] [-m MATRIX]\n");
    exit(1);
  }
  int grid[3];
  md_grid(ranks, grid);
  const double side = cbrt(s.atoms / s.density);
  for (int d = 0; d < 3; ++d)
    if (s.cutoff > side / grid[d]) {
      if (rank == 0)
        fprintf(stderr,
                "tofa-sim-md: cutoff %g exceeds the sub-domain side %g (box %g, grid %dx%dx%d): "
                "more atoms or fewer ranks\n",
                s.cutoff, side / grid[d], side, grid[0], grid[1], grid[2]);
      exit(1);
    }

  struct neighbour halo[26];
  const int count = neighbours(rank, grid, &s, halo);
  long long largest = 1;
  for (int k = 0; k < count; ++k)
    if (halo[k].bytes > largest) largest = halo[k].bytes;
  /* Ghost contents never matter: SMPI's shared malloc skips the copies. */
  char *send_buffer = SMPI_SHARED_MALLOC((size_t)largest);
  char *receive_buffer = SMPI_SHARED_MALLOC((size_t)largest * 26);
  MPI_Request requests[52];
  double *thermo = calloc((size_t)s.reduce_doubles, sizeof(double));
  double *total = calloc((size_t)s.reduce_doubles, sizeof(double));
  long long *sent = calloc((size_t)ranks, sizeof(long long));
  if (!thermo || !total || !sent) MPI_Abort(MPI_COMM_WORLD, 1);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long step = 0; step < s.steps; ++step) {
    /* Message k goes to halo[k].rank and, by symmetry of the offsets, as
     * many bytes come back from halo[k].from under the same tag. */
    for (int k = 0; k < count; ++k)
      MPI_Irecv(receive_buffer + (size_t)k * (size_t)largest, (int)halo[k].bytes, MPI_BYTE,
                halo[k].from, k, MPI_COMM_WORLD, &requests[k]);
    for (int k = 0; k < count; ++k) {
      MPI_Isend(send_buffer, (int)halo[k].bytes, MPI_BYTE, halo[k].rank, k, MPI_COMM_WORLD,
                &requests[count + k]);
      sent[halo[k].rank] += halo[k].bytes;
    }
    MPI_Waitall(2 * count, requests, MPI_STATUSES_IGNORE);
    smpi_execute_flops(s.atoms / ranks * s.flops_per_atom);
    if (s.every > 0 && (step + 1) % s.every == 0) {
      thermo[0] = (double)step;
      MPI_Allreduce(thermo, total, s.reduce_doubles, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double elapsed = MPI_Wtime() - start;

  long long *rows = rank == 0 ? malloc(sizeof *rows * (size_t)ranks * (size_t)ranks) : NULL;
  MPI_Gather(sent, ranks, MPI_LONG_LONG, rows, ranks, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf(
        "tofa-sim-md: time=%.9f steps=%ld steps_per_second=%.6f ranks=%d grid=%dx%dx%d "
        "atoms=%.0f\n",
        elapsed, s.steps, (double)s.steps / elapsed, ranks, grid[0], grid[1], grid[2], s.atoms);
    if (s.matrix) write_sent_matrix("tofa-sim-md", s.matrix, rows, ranks);
    free(rows);
  }
  free(sent);
  free(thermo);
  free(total);
  SMPI_SHARED_FREE(send_buffer);
  SMPI_SHARED_FREE(receive_buffer);
  MPI_Finalize();
  return 0;
}
