/* The processor grid of tofa-sim-md, shared by the application (C) and
 * tofa-sim's description of its communication (C++). */
#ifndef TOFA_SIM_MD_GRID_H
#define TOFA_SIM_MD_GRID_H

/* P x Q x R = ranks for a cubic box: the factorization whose sub-domains
 * have the least surface (1/PQ + 1/QR + 1/PR), ties going to the smallest P,
 * then the smallest Q. Writes grid[0..2] = P, Q, R; ranks >= 1. */
static inline void md_grid(int ranks, int grid[3]) {
  double best = 0;
  grid[0] = 1, grid[1] = 1, grid[2] = ranks;
  for (int p = 1; p <= ranks; ++p) {
    if (ranks % p) continue;
    for (int q = 1; q <= ranks / p; ++q) {
      if ((ranks / p) % q) continue;
      const int r = ranks / p / q;
      const double surface = 1.0 / (p * q) + 1.0 / (q * r) + 1.0 / (p * r);
      if (best == 0 || surface < best - 1e-12) {
        best = surface;
        grid[0] = p, grid[1] = q, grid[2] = r;
      }
    }
  }
}

/* LAMMPS's rank order (its MPI_Cart_create grid, row-major): z fastest,
 * rank = z + R*(y + Q*x). */
static inline int md_rank(const int x[3], const int grid[3]) {
  return x[2] + grid[2] * (x[1] + grid[1] * x[0]);
}

static inline void md_coords(int rank, const int grid[3], int x[3]) {
  x[2] = rank % grid[2];
  x[1] = rank / grid[2] % grid[1];
  x[0] = rank / (grid[1] * grid[2]);
}

#endif
