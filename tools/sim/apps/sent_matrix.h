/* --sent-matrix of the SMPI applications: the bytes each rank sent to each
 * other rank, gathered on rank 0, written in the project's dense matrix
 * format (first line N, then N rows). */
#ifndef TOFA_SIM_SENT_MATRIX_H
#define TOFA_SIM_SENT_MATRIX_H

#include <stdio.h>

static void write_sent_matrix(const char *program, const char *path, const long long *rows,
                              int n) {
  FILE *out = fopen(path, "w");
  if (!out) {
    fprintf(stderr, "%s: cannot write '%s'\n", program, path);
    return;
  }
  fprintf(out, "%d\n", n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      fprintf(out, "%lld%c", rows[(size_t)i * n + j], j + 1 < n ? ' ' : '\n');
  fclose(out);
}

#endif
