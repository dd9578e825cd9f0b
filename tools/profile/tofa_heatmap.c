/* tofa-heatmap: render a communication matrix file as a PNG heatmap.
 *
 *   tofa-heatmap [--title TEXT] [--unit NAME] MATRIX OUT.png
 *
 * MATRIX is the project's dense format (a first data line "N", then N rows of
 * N non-negative numbers, '#' comments) or a bare square matrix without the
 * "N" line (as Open MPI's monitoring scripts write). Entry (i,j) is drawn at
 * row i (sender), column j (receiver). Errors: "tofa-heatmap: FILE:LINE:COL:
 * what was expected", exit status 1. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../data_lines.h"
#include "heatmap.h"

static void fail(const struct data_lines *r, int column, const char *what) {
  fprintf(stderr, "tofa-heatmap: %s:%d:%d: %s\n", r->path, r->line_no, column, what);
  exit(1);
}

/* Parses the numbers of `line` into values[0..max); returns how many. */
static int parse_numbers(const struct data_lines *r, char *line, double *values, int max) {
  int count = 0;
  char *c = line;
  for (;;) {
    while (*c && isspace((unsigned char)*c)) ++c;
    if (!*c) return count;
    char *end;
    errno = 0;
    double v = strtod(c, &end);
    int column = (int)(c - line) + 1;
    if (end == c || (*end && !isspace((unsigned char)*end)) || errno || v < 0 || v != v) {
      char what[128];
      int len = (int)strcspn(c, " \t\r\n");
      snprintf(what, sizeof what, "expected a non-negative number, found '%.*s'",
               len > 40 ? 40 : len, c);
      fail(r, column, what);
    }
    if (count == max) {
      char what[96];
      snprintf(what, sizeof what, "expected %d numbers in this row, found more", max);
      fail(r, column, what);
    }
    values[count++] = v;
    c = end;
  }
}

static int count_tokens(const char *line) {
  int n = 0;
  for (const char *c = line; *c;) {
    while (*c && isspace((unsigned char)*c)) ++c;
    if (!*c) break;
    ++n;
    while (*c && !isspace((unsigned char)*c)) ++c;
  }
  return n;
}

int main(int argc, char **argv) {
  const char *title = NULL, *unit = "BYTES";
  int arg = 1;
  for (; arg + 1 < argc && strncmp(argv[arg], "--", 2) == 0; arg += 2) {
    if (strcmp(argv[arg], "--title") == 0)
      title = argv[arg + 1];
    else if (strcmp(argv[arg], "--unit") == 0)
      unit = argv[arg + 1];
    else
      break;
  }
  if (argc - arg != 2) {
    fprintf(stderr, "usage: tofa-heatmap [--title TEXT] [--unit NAME] MATRIX OUT.png\n");
    return 2;
  }
  struct data_lines r = {argv[arg], fopen(argv[arg], "r"), NULL, 0, 0};
  if (!r.f) {
    fprintf(stderr, "tofa-heatmap: %s: %s\n", r.path, strerror(errno));
    return 1;
  }
  char *line = next_data_line(&r);
  if (!line) fail(&r, 0, "expected the matrix size N, found an empty file");
  int tokens = count_tokens(line), n;
  int have_row = tokens > 1; /* a bare matrix: this line is row 0 */
  if (have_row) {
    n = tokens;
  } else {
    char *end;
    long v = strtol(line + strspn(line, " \t"), &end, 10);
    if (v < 1 || v > 1000000 || (*end && !isspace((unsigned char)*end)))
      fail(&r, 1, "expected the matrix size N (a positive integer)");
    n = (int)v;
  }
  struct tp_heatmap *h = tp_heatmap_new(n);
  double *row = malloc((size_t)n * sizeof *row);
  if (!h || !row) {
    fprintf(stderr, "tofa-heatmap: out of memory for a %d x %d matrix\n", n, n);
    return 1;
  }
  for (int i = 0; i < n; ++i) {
    if (!have_row && !(line = next_data_line(&r))) {
      char what[96];
      snprintf(what, sizeof what, "expected %d rows, found %d", n, i);
      fail(&r, 0, what);
    }
    have_row = 0;
    int got = parse_numbers(&r, line, row, n);
    if (got != n) {
      char what[96];
      snprintf(what, sizeof what, "expected %d numbers in this row, found %d", n, got);
      fail(&r, 0, what);
    }
    tp_heatmap_add_row(h, i, row);
  }
  if (next_data_line(&r)) fail(&r, 1, "expected the end of the matrix, found another row");
  fclose(r.f);
  char default_title[128], error[512];
  if (!title) {
    const char *base = strrchr(r.path, '/');
    snprintf(default_title, sizeof default_title, "%s, %d RANKS", base ? base + 1 : r.path, n);
    title = default_title;
  }
  int rc = tp_heatmap_write_png(h, argv[arg + 1], title, unit, error, (int)sizeof error);
  if (rc != 0) fprintf(stderr, "tofa-heatmap: %s\n", error);
  tp_heatmap_free(h);
  free(row);
  free(r.line);
  return rc == 0 ? 0 : 1;
}
