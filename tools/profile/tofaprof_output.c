/* libtofaprof: at MPI_Finalize, gather every rank's counters on rank 0 and
 * write DIR/NAME.mat (bytes), DIR/NAME.msgs.mat (messages), DIR/NAME.json
 * (totals per primitive class, top pairs) and DIR/NAME.png (heatmap).
 * DIR is $TOFAPROF_OUT (default "."), NAME is $TOFAPROF_NAME (default
 * "comm"). Rows travel one at a time, so rank 0 never holds the whole matrix. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "heatmap.h"
#include "tofaprof.h"

static const char *const class_names[TP_CLASS_COUNT] = {
    "p2p",     "bcast",   "reduce",         "allreduce", "allgather", "alltoall",
    "gather",  "scatter", "reduce_scatter", "barrier",   "scan",      "rma"};

const char *tp_class_name(int cls) { return class_names[cls]; }

#define TOP_PAIRS 20
#define ROW_TAG 7331

struct pair {
  int from, to;
  uint64_t bytes, msgs;
};

struct writer {
  FILE *bytes, *msgs;
  struct tp_heatmap *heat;
  double *row_values;
  struct pair top[TOP_PAIRS];
  int top_count;
  int failed;
};

/* Keeps the TOP_PAIRS largest pairs by bytes, sorted, first seen first on ties. */
static void keep_top(struct writer *w, struct pair p) {
  if (p.bytes == 0 && p.msgs == 0) return;
  int k;
  if (w->top_count < TOP_PAIRS)
    k = w->top_count++;
  else if (w->top[TOP_PAIRS - 1].bytes < p.bytes)
    k = TOP_PAIRS - 1;
  else
    return;
  while (k > 0 && w->top[k - 1].bytes < p.bytes) {
    w->top[k] = w->top[k - 1];
    --k;
  }
  w->top[k] = p;
}

static void write_row(struct writer *w, int n, int i, const uint64_t *row) {
  for (int j = 0; j < n; ++j) {
    fprintf(w->bytes, j ? " %llu" : "%llu", (unsigned long long)row[j]);
    fprintf(w->msgs, j ? " %llu" : "%llu", (unsigned long long)row[n + j]);
    w->row_values[j] = (double)row[j];
    if (i != j) keep_top(w, (struct pair){i, j, row[j], row[n + j]});
  }
  fputc('\n', w->bytes);
  fputc('\n', w->msgs);
  if (w->heat) tp_heatmap_add_row(w->heat, i, w->row_values);
}

static FILE *open_matrix(const char *path, int n, const char *what) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "libtofaprof: %s: %s\n", path, strerror(errno));
    return NULL;
  }
  fprintf(f, "# tofa communication matrix written by libtofaprof\n");
  fprintf(f, "# entry (i,j): %s sent from MPI_COMM_WORLD rank i to rank j\n", what);
  fprintf(f, "%d\n", n);
  return f;
}

static void write_json(const char *path, int n, const struct tp_totals *t, const struct writer *w) {
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "libtofaprof: %s: %s\n", path, strerror(errno));
    return;
  }
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0;
  PMPI_Get_library_version(version, &len);
  version[strcspn(version, "\n\r")] = 0; /* first line; JSON-safe below */
  for (char *c = version; *c; ++c)
    if ((unsigned char)*c < 0x20 || *c == '"' || *c == '\\') *c = ' ';
  uint64_t bytes = 0, msgs = 0;
  for (int c = 0; c < TP_CLASS_COUNT; ++c) {
    bytes += t->bytes[c];
    msgs += t->msgs[c];
  }
  fprintf(f, "{\n  \"tool\": \"libtofaprof\",\n  \"mpi_library\": \"%s\",\n", version);
  fprintf(f, "  \"ranks\": %d,\n  \"total_bytes\": %llu,\n  \"total_messages\": %llu,\n", n,
          (unsigned long long)bytes, (unsigned long long)msgs);
  fprintf(f, "  \"unsupported_calls\": %llu,\n  \"classes\": {\n",
          (unsigned long long)t->unsupported);
  for (int c = 0; c < TP_CLASS_COUNT; ++c)
    fprintf(f, "    \"%s\": {\"calls\": %llu, \"bytes\": %llu, \"messages\": %llu}%s\n",
            tp_class_name(c), (unsigned long long)t->calls[c], (unsigned long long)t->bytes[c],
            (unsigned long long)t->msgs[c], c + 1 < TP_CLASS_COUNT ? "," : "");
  fprintf(f, "  },\n  \"top_pairs\": [\n");
  for (int k = 0; k < w->top_count; ++k)
    fprintf(f, "    {\"from\": %d, \"to\": %d, \"bytes\": %llu, \"messages\": %llu}%s\n",
            w->top[k].from, w->top[k].to, (unsigned long long)w->top[k].bytes,
            (unsigned long long)w->top[k].msgs, k + 1 < w->top_count ? "," : "");
  fprintf(f, "  ]\n}\n");
  fclose(f);
}

static void path_of(char *out, size_t size, const char *dir, const char *name, const char *ext) {
  snprintf(out, size, "%s/%s%s", dir, name, ext);
}

void tp_write_output(MPI_Comm comm, struct tp_local *counters) {
  int n = counters->world_size, me = counters->world_rank;
  /* Fold MPI_Get traffic into the sender's row: rank j receives in_i[j] from
   * every rank i, which is traffic j -> i. */
  uint64_t *fold = malloc(2 * (size_t)n * sizeof *fold);
  uint64_t *row = malloc(2 * (size_t)n * sizeof *row);
  PMPI_Alltoall(counters->in_bytes, 1, MPI_UINT64_T, fold, 1, MPI_UINT64_T, comm);
  PMPI_Alltoall(counters->in_msgs, 1, MPI_UINT64_T, fold + n, 1, MPI_UINT64_T, comm);
  for (int j = 0; j < n; ++j) {
    row[j] = counters->out_bytes[j] + fold[j];
    row[n + j] = counters->out_msgs[j] + fold[n + j];
  }
  free(fold);

  struct tp_totals totals;
  memset(&totals, 0, sizeof totals);
  PMPI_Reduce(&counters->totals, &totals, (int)(sizeof totals / sizeof(uint64_t)), MPI_UINT64_T,
              MPI_SUM, 0, comm);

  if (me != 0) {
    PMPI_Send(row, 2 * n, MPI_UINT64_T, 0, ROW_TAG, comm);
    free(row);
    PMPI_Barrier(comm);
    return;
  }

  const char *dir = getenv("TOFAPROF_OUT");
  const char *name = getenv("TOFAPROF_NAME");
  if (!dir || !*dir) dir = ".";
  if (!name || !*name) name = "comm";
  mkdir(dir, 0777); /* may exist already; fopen reports real problems */
  size_t size = strlen(dir) + strlen(name) + 16;
  char *path = malloc(size);
  struct writer w;
  memset(&w, 0, sizeof w);
  path_of(path, size, dir, name, ".mat");
  w.bytes = open_matrix(path, n, "bytes");
  path_of(path, size, dir, name, ".msgs.mat");
  w.msgs = open_matrix(path, n, "messages");
  w.heat = tp_heatmap_new(n);
  w.row_values = malloc((size_t)n * sizeof *w.row_values);
  uint64_t *other = malloc(2 * (size_t)n * sizeof *other);
  for (int i = 0; i < n; ++i) {
    const uint64_t *r = row;
    if (i > 0) {
      PMPI_Recv(other, 2 * n, MPI_UINT64_T, i, ROW_TAG, comm, MPI_STATUS_IGNORE);
      r = other;
    }
    if (w.bytes && w.msgs) write_row(&w, n, i, r);
  }
  if (w.bytes) fclose(w.bytes);
  if (w.msgs) fclose(w.msgs);
  path_of(path, size, dir, name, ".json");
  write_json(path, n, &totals, &w);
  if (w.heat) {
    char title[128], error[512];
    snprintf(title, sizeof title, "BYTES SENT, %d RANKS", n);
    path_of(path, size, dir, name, ".png");
    if (tp_heatmap_write_png(w.heat, path, title, "BYTES", error, (int)sizeof error) != 0)
      fprintf(stderr, "libtofaprof: %s\n", error);
    tp_heatmap_free(w.heat);
  }
  free(other);
  free(row);
  free(w.row_values);
  free(path);
  PMPI_Barrier(comm); /* nobody finalizes before the files are complete */
}
