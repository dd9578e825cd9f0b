/* tofa-sim-dt: an NPB-DT-like SMPI application (the NAS Parallel Benchmarks'
 * Data Traffic benchmark, written for the project from its specification).
 *
 *   smpirun -np N ... tofa-sim-dt [-c CLASS] [-g BH|WH|SH] [-m MATRIX]
 *
 * Graphs. The class (S, W, A, B, C or D; default B) fixes the sources,
 * 4 * 2^i, and the samples per feature array, 1728 * 8^i. Node v of the
 * graph runs on rank v and the world must have exactly as many ranks as the
 * graph has nodes (BH and WH: 43 for class B, 85 for C; SH: 192 for B):
 *  - BH, black hole: the sources, then layers of comparators, comparator c
 *    of a layer taking the previous layer's nodes 4c..4c+3, until at most 4
 *    remain; they feed one sink. Ids count layer by layer.
 *  - WH, white hole: BH with every arc reversed and node v renamed
 *    N - 1 - v, so that one source (node 0) fans out to the sinks.
 *  - SH, shuffle: layers of `sources` nodes: sources, log2(sources) - 1
 *    layers of comparators, sinks; node i of layer j + 1 takes nodes i and
 *    i xor 2^j of layer j.
 * These are the library's npb_dt_graph (tofa-sim graph --app dt).
 *
 * Messages. Along every arc the tail sends, as DT does, one int (the
 * array's length in doubles), then the feature array: samples x 4 doubles.
 * DT's sources vary their arrays' length by up to +-STD_DEVIATION samples
 * (at most 0.03% at class C); here every array has the nominal length, as
 * the library counts it. Sends and receives are blocking and go arc by arc
 * in arc order, as DT's do. A node receives from its in-arcs, combines the
 * arrays (comparator) or reduces them to a checksum (sink), then sends to
 * its out-arcs; sinks send their checksum (one double) to rank 0.
 *
 * Data. Each array is allocated with SMPI_PARTIAL_SHARED_MALLOC: its first
 * PREFIX_SAMPLES samples are private and travel with the message, the rest
 * is shared memory whose contents SMPI neither stores per rank nor copies.
 * Sources fill the prefix with pseudo-random features, comparators combine
 * prefixes with a nearest-window filter, sinks reduce them: the checksum
 * depends on the graph, class and arc order, never on the placement.
 * Computation is charged with smpi_execute_flops from per-sample estimates
 * of DT's loops (FLOPS_* below) over the whole array; run with
 * --cfg=smpi/simulate-computation:no (tofa-sim does) so that the host's own
 * time does not count.
 *
 * Output (rank 0, stdout):
 *   tofa-sim-dt: time=T checksum=C graph=BH class=B nodes=N arcs=A bytes=B
 * T: simulated seconds from a barrier before the first send to rank 0's
 * receipt of the last sink's checksum; B: feature-array bytes over all arcs.
 * With -m MATRIX rank 0 also writes the feature-array bytes each rank sent
 * to each other rank as a dense matrix (the project's comm.mat format; the
 * 4-byte lengths and checksums are left out, as in the library's graph).
 * Errors: a message on stderr, exit status 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sent_matrix.h"

#define MAX_IN_DEGREE 4
#define DOUBLES_PER_SAMPLE 4
#define PREFIX_SAMPLES 1024
/* Flops per sample: generating a source's features, one window-filter pass
 * of a comparator over one input (three 4-D squared distances, a choice, a
 * scaled copy), the final division by the in-degree, and a sink's reduction
 * of one input (a square and a weighted sum per value). */
#define FLOPS_SOURCE 8.0
#define FLOPS_COMBINE 45.0
#define FLOPS_NORMALIZE 4.0
#define FLOPS_REDUCE 12.0

struct arc {
  int tail, head;
};

struct graph {
  int nodes;
  int arcs;
  struct arc *arc; /* in creation order; the index is the MPI tag */
};

static void add_arc(struct graph *g, int tail, int head) {
  g->arc[g->arcs++] = (struct arc){tail, head};
}

static void build_black_hole(struct graph *g, int sources) {
  int first = 0, width = sources, next = sources;
  while (width > MAX_IN_DEGREE) {
    const int comparators = (width + MAX_IN_DEGREE - 1) / MAX_IN_DEGREE;
    for (int c = 0; c < comparators; ++c)
      for (int k = c * MAX_IN_DEGREE; k < width && k < (c + 1) * MAX_IN_DEGREE; ++k)
        add_arc(g, first + k, next + c);
    first = next;
    next += comparators;
    width = comparators;
  }
  for (int k = 0; k < width; ++k) add_arc(g, first + k, next);
  g->nodes = next + 1;
}

static void build_white_hole(struct graph *g, int sources) {
  build_black_hole(g, sources);
  for (int a = 0; a < g->arcs; ++a) {
    const struct arc bh = g->arc[a];
    g->arc[a] = (struct arc){g->nodes - 1 - bh.head, g->nodes - 1 - bh.tail};
  }
}

static void build_shuffle(struct graph *g, int sources) {
  int layers = 0; /* comparator layers: log2(sources) - 1 */
  while ((2 << layers) < sources) ++layers;
  for (int j = 0; j <= layers; ++j)
    for (int i = 0; i < sources; ++i) {
      add_arc(g, j * sources + i, (j + 1) * sources + i);
      add_arc(g, j * sources + (i ^ (1 << j)), (j + 1) * sources + i);
    }
  g->nodes = (layers + 2) * sources;
}

/* 0 on success, -1 on an unknown class or graph name. */
static int build_graph(struct graph *g, char npb_class, const char *kind, long long *samples) {
  static const char classes[] = "SWABCD";
  const char *found = strchr(classes, npb_class);
  if (!npb_class || !found) return -1;
  const int index = (int)(found - classes);
  const int sources = 4 << index;
  *samples = 1728LL << (3 * index);
  g->arcs = 0;
  g->arc = malloc(sizeof *g->arc * (size_t)(2 * sources * 8)); /* SH has the most: 2 per node */
  if (!g->arc) return -1;
  if (strcmp(kind, "BH") == 0)
    build_black_hole(g, sources);
  else if (strcmp(kind, "WH") == 0)
    build_white_hole(g, sources);
  else if (strcmp(kind, "SH") == 0)
    build_shuffle(g, sources);
  else
    return -1;
  return 0;
}

/* A feature array: the whole array for the network, the prefix for data. */
struct features {
  double *value;
  long long doubles;
  int prefix; /* doubles in the private prefix */
};

static struct features new_features(long long samples) {
  struct features f;
  f.doubles = samples * DOUBLES_PER_SAMPLE;
  f.prefix = (int)((samples < PREFIX_SAMPLES ? samples : PREFIX_SAMPLES) * DOUBLES_PER_SAMPLE);
  const size_t bytes = (size_t)f.doubles * sizeof(double);
  const size_t shared[2] = {(size_t)f.prefix * sizeof(double), bytes};
  f.value = SMPI_PARTIAL_SHARED_MALLOC(bytes, shared, 1);
  return f;
}

static unsigned long long next_random(unsigned long long *state) {
  /* splitmix64 */
  unsigned long long z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static void generate(struct features *f, int node) {
  unsigned long long state = 0x5eedULL + (unsigned long long)node;
  for (int i = 0; i < f->prefix; ++i) f->value[i] = (double)(next_random(&state) % 1000);
}

static double distance2(const double *a, const double *b) {
  double sum = 0;
  for (int d = 0; d < DOUBLES_PER_SAMPLE; ++d) sum += (a[d] - b[d]) * (a[d] - b[d]);
  return sum;
}

/* Each interior sample of `into` becomes the sample of `input` at i - 1, i
 * or i + 1 nearest to it, scaled by (k + 1)/(k + 2) for the k-th input. */
static void combine(struct features *into, const struct features *input, int k) {
  const double weight = (k + 1.0) / (k + 2.0);
  const int samples = into->prefix / DOUBLES_PER_SAMPLE;
  for (int s = 1; s + 1 < samples; ++s) {
    double *mine = into->value + s * DOUBLES_PER_SAMPLE;
    int best = s;
    double best_distance = distance2(mine, input->value + s * DOUBLES_PER_SAMPLE);
    for (int t = s - 1; t <= s + 1; t += 2) {
      const double d = distance2(mine, input->value + t * DOUBLES_PER_SAMPLE);
      if (d < best_distance) best = t, best_distance = d;
    }
    for (int d = 0; d < DOUBLES_PER_SAMPLE; ++d)
      mine[d] = weight * input->value[best * DOUBLES_PER_SAMPLE + d];
  }
}

static double reduce(const struct features *f, int node) {
  double sum = 0;
  for (int i = 0; i < f->prefix; ++i) sum += f->value[i] * f->value[i];
  return (node + 1) * sum / f->prefix;
}

struct node_run {
  const struct graph *g;
  int me;
  long long samples;
  long long *sent; /* bytes sent to each rank (feature arrays) */
};

static void send_to_heads(struct node_run *run, struct features *f) {
  const int length = (int)f->doubles;
  for (int a = 0; a < run->g->arcs; ++a) {
    if (run->g->arc[a].tail != run->me) continue;
    const int head = run->g->arc[a].head;
    MPI_Send(&length, 1, MPI_INT, head, a, MPI_COMM_WORLD);
    MPI_Send(f->value, length, MPI_DOUBLE, head, a, MPI_COMM_WORLD);
    run->sent[head] += (long long)length * (long long)sizeof(double);
  }
}

/* Receives the in-arcs' arrays one by one; combines them into `result`
 * (comparator) or returns the sum of their reductions (sink). */
static double receive_from_tails(struct node_run *run, struct features *input,
                                 struct features *result) {
  double checksum = 0;
  int k = 0;
  for (int a = 0; a < run->g->arcs; ++a) {
    if (run->g->arc[a].head != run->me) continue;
    int length = 0;
    MPI_Recv(&length, 1, MPI_INT, run->g->arc[a].tail, a, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (length != input->doubles) MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Recv(input->value, length, MPI_DOUBLE, run->g->arc[a].tail, a, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    if (result) {
      combine(result, input, k);
      smpi_execute_flops(FLOPS_COMBINE * (double)run->samples);
    } else {
      checksum += reduce(input, run->me);
      smpi_execute_flops(FLOPS_REDUCE * (double)run->samples);
    }
    ++k;
  }
  if (result) {
    for (int i = 0; i < result->prefix; ++i) result->value[i] /= k;
    smpi_execute_flops(FLOPS_NORMALIZE * (double)run->samples);
  }
  return checksum;
}

/* This rank's part of the graph; returns its checksum (sinks) or 0. */
static double run_node(struct node_run *run) {
  int in = 0, out = 0;
  for (int a = 0; a < run->g->arcs; ++a) {
    in += run->g->arc[a].head == run->me;
    out += run->g->arc[a].tail == run->me;
  }
  struct features mine = new_features(run->samples);
  double checksum = 0;
  if (in == 0) {
    generate(&mine, run->me);
    smpi_execute_flops(FLOPS_SOURCE * (double)run->samples);
  } else {
    struct features input = new_features(run->samples);
    memset(mine.value, 0, (size_t)mine.prefix * sizeof(double));
    checksum = receive_from_tails(run, &input, out > 0 ? &mine : NULL);
    SMPI_SHARED_FREE(input.value);
  }
  if (out > 0) send_to_heads(run, &mine);
  SMPI_SHARED_FREE(mine.value);
  return checksum;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);

  char npb_class = 'B';
  const char *kind = "BH", *matrix = NULL;
  int usage = 0;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "-c") == 0 && i + 1 < argc && strlen(argv[i + 1]) == 1)
      npb_class = argv[++i][0];
    else if (strcmp(argv[i], "-g") == 0 && i + 1 < argc)
      kind = argv[++i];
    else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
      matrix = argv[++i];
    else
      usage = 1;
  }
  struct graph g = {0, 0, NULL};
  long long samples = 0;
  /* Every rank sees the same arguments: all exit together with status 1,
   * which smpirun returns. */
  if (usage || build_graph(&g, npb_class, kind, &samples) != 0) {
    if (rank == 0)
      fprintf(stderr, "usage: tofa-sim-dt [-c S|W|A|B|C|D] [-g BH|WH|SH] [-m MATRIX]\n");
    exit(1);
  }
  if (g.nodes != ranks) {
    if (rank == 0)
      fprintf(stderr, "tofa-sim-dt: graph %s class %c has %d nodes: run it on %d ranks, not %d\n",
              kind, npb_class, g.nodes, g.nodes, ranks);
    exit(1);
  }

  struct node_run run = {&g, rank, samples, calloc((size_t)ranks, sizeof(long long))};
  if (!run.sent) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  double checksum = run_node(&run);
  const int checksum_tag = g.arcs; /* above every arc's tag */
  int out = 0;
  for (int a = 0; a < g.arcs; ++a) out += g.arc[a].tail == rank;
  if (out == 0 && rank != 0) MPI_Send(&checksum, 1, MPI_DOUBLE, 0, checksum_tag, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int v = 1; v < g.nodes; ++v) {
      int sink = 1;
      for (int a = 0; a < g.arcs && sink; ++a) sink = g.arc[a].tail != v;
      double part = 0;
      if (sink) MPI_Recv(&part, 1, MPI_DOUBLE, v, checksum_tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      checksum += part;
    }
  }
  const double elapsed = MPI_Wtime() - start;

  long long *rows = rank == 0 ? malloc(sizeof *rows * (size_t)ranks * (size_t)ranks) : NULL;
  MPI_Gather(run.sent, ranks, MPI_LONG_LONG, rows, ranks, MPI_LONG_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    long long bytes = 0;
    for (long long k = 0; k < (long long)ranks * ranks; ++k) bytes += rows[k];
    printf("tofa-sim-dt: time=%.9f checksum=%.12e graph=%s class=%c nodes=%d arcs=%d bytes=%lld\n",
           elapsed, checksum, kind, npb_class, g.nodes, g.arcs, bytes);
    if (matrix) write_sent_matrix("tofa-sim-dt", matrix, rows, ranks);
    free(rows);
  }
  free(run.sent);
  free(g.arc);
  MPI_Finalize();
  return 0;
}
