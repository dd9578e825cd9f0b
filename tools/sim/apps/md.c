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
 * into P x Q x R bricks (md_grid.h); rank = z + R*(y + Q*x), z fastest, as
 * LAMMPS's MPI_Cart_create numbers its grid. Each of STEPS
 * steps (default 100):
 *  1. halo exchange as LAMMPS's forward communication does it: three
 *     swaps, in x, y, z order, each sending to both face neighbours along
 *     its axis the ghost atoms within CUTOFF of that face, ghosts received
 *     in the earlier swaps included (so edges and corners travel through
 *     faces): a slab CUTOFF*s_y*s_z in x, CUTOFF*(s_x+2*CUTOFF)*s_z in y,
 *     CUTOFF*(s_x+2*CUTOFF)*(s_y+2*CUTOFF) in z (s = L/P, L/Q, L/R;
 *     CUTOFF default 2.8 = LJ cutoff 2.5 + skin 0.3), BYTES_PER_ATOM bytes
 *     per ghost atom (default 48: positions out and forces back, 3 doubles
 *     each), rounded to whole bytes; each swap's two receives and two sends
 *     are nonblocking, then a wait. An axis of 2 ranks sends both messages
 *     to the same neighbour; an axis of 1 rank wraps onto the rank itself:
 *     nothing is sent;
 *  2. force computation: smpi_execute_flops(ATOMS / N * FLOPS_PER_ATOM)
 *     (default 1000: about 39 pairs inside the cutoff per atom with
 *     Newton's third law, ~25 flops each);
 *  3. every EVERY steps (default 10; 0: never) an MPI_Allreduce of
 *     REDUCE_DOUBLES doubles (default 8), the thermodynamic output.
 * Exactly the library's halo_exchange_graph, staged, with box L, tasks
 * P x Q x R and bytes_per_volume = DENSITY * BYTES_PER_ATOM per step (tofa-sim graph
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

/* The swap along `axis` of `rank`: to the minus and plus neighbours. */
struct swap {
  int minus, plus;
  long long bytes;
};

/* Returns 0 when the axis has a single rank (nothing to send). */
static int swap_along(int rank, int axis, const int grid[3], const struct settings *s,
                      struct swap *out) {
  if (grid[axis] == 1) return 0;
  const double side = cbrt(s->atoms / s->density);
  int x[3];
  md_coords(rank, grid, x);
  const int own = x[axis];
  x[axis] = (own + grid[axis] - 1) % grid[axis];
  out->minus = md_rank(x, grid);
  x[axis] = (own + 1) % grid[axis];
  out->plus = md_rank(x, grid);
  /* The same product, in the same order, as the library's staged volume. */
  double volume = s->cutoff;
  for (int d = 0; d < 3; ++d)
    if (d != axis) volume *= side / grid[d] + (d < axis ? 2 * s->cutoff : 0.0);
  out->bytes = llround(volume * s->density * s->bytes_per_atom);
  return 1;
}

/* long: the arguments, then the proxy's time-step loop. */
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

  struct swap swaps[3];
  int active[3];
  long long largest = 1;
  for (int axis = 0; axis < 3; ++axis) {
    active[axis] = swap_along(rank, axis, grid, &s, &swaps[axis]);
    if (active[axis] && swaps[axis].bytes > largest) largest = swaps[axis].bytes;
  }
  /* Ghost contents never matter: SMPI's shared malloc skips the copies. */
  char *send_buffer = SMPI_SHARED_MALLOC((size_t)largest);
  char *receive_buffer = SMPI_SHARED_MALLOC((size_t)largest * 2);
  MPI_Request requests[4];
  double *thermo = calloc((size_t)s.reduce_doubles, sizeof(double));
  double *total = calloc((size_t)s.reduce_doubles, sizeof(double));
  long long *sent = calloc((size_t)ranks, sizeof(long long));
  if (!thermo || !total || !sent) MPI_Abort(MPI_COMM_WORLD, 1);

  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long step = 0; step < s.steps; ++step) {
    for (int axis = 0; axis < 3; ++axis) {
      if (!active[axis]) continue;
      const struct swap *w = &swaps[axis];
      const int bytes = (int)w->bytes;
      /* Tag 2*axis travels towards plus, 2*axis + 1 towards minus. */
      MPI_Irecv(receive_buffer, bytes, MPI_BYTE, w->minus, 2 * axis, MPI_COMM_WORLD, &requests[0]);
      MPI_Irecv(receive_buffer + largest, bytes, MPI_BYTE, w->plus, 2 * axis + 1, MPI_COMM_WORLD,
                &requests[1]);
      MPI_Isend(send_buffer, bytes, MPI_BYTE, w->plus, 2 * axis, MPI_COMM_WORLD, &requests[2]);
      MPI_Isend(send_buffer, bytes, MPI_BYTE, w->minus, 2 * axis + 1, MPI_COMM_WORLD,
                &requests[3]);
      sent[w->plus] += w->bytes;
      sent[w->minus] += w->bytes;
      MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
    }
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
