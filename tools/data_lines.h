/* A text file read line by line for its data: '#' starts a comment, blank
 * lines are skipped, lines are counted for "FILE:LINE:COLUMN" errors.
 * Shared by the C tools that read the project's matrix format
 * (tofa-heatmap, tofa-sim-replay). */
#ifndef TOFA_DATA_LINES_H
#define TOFA_DATA_LINES_H

#include <ctype.h>
#include <stdio.h>
#include <string.h>

struct data_lines {
  const char *path;
  FILE *f;
  char *line; /* getline's buffer: free() it */
  size_t cap;
  int line_no;
};

/* The next line with data, its comment cut; NULL at the end of the file. */
static inline char *next_data_line(struct data_lines *r) {
  while (getline(&r->line, &r->cap, r->f) >= 0) {
    ++r->line_no;
    char *hash = strchr(r->line, '#');
    if (hash) *hash = 0;
    for (const char *c = r->line; *c; ++c)
      if (!isspace((unsigned char)*c)) return r->line;
  }
  return NULL;
}

#endif
