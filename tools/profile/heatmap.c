/* Heatmap rendering: binning, log colour scale, layout, PNG via libpng. */
#include "heatmap.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tp_heatmap {
  int n;    /* matrix size */
  int bin;  /* ranks per cell */
  int m;    /* cells per side */
  double *cells;
};

struct tp_heatmap *tp_heatmap_new(int n) {
  if (n < 1) return NULL;
  struct tp_heatmap *h = calloc(1, sizeof *h);
  if (!h) return NULL;
  h->n = n;
  h->bin = (n + TP_HEATMAP_MAX_CELLS - 1) / TP_HEATMAP_MAX_CELLS;
  h->m = (n + h->bin - 1) / h->bin;
  h->cells = calloc((size_t)h->m * (size_t)h->m, sizeof *h->cells);
  if (!h->cells) {
    free(h);
    return NULL;
  }
  return h;
}

void tp_heatmap_free(struct tp_heatmap *h) {
  if (!h) return;
  free(h->cells);
  free(h);
}

void tp_heatmap_add_row(struct tp_heatmap *h, int i, const double *row) {
  double *cells = h->cells + (size_t)(i / h->bin) * (size_t)h->m;
  for (int j = 0; j < h->n; ++j) cells[j / h->bin] += row[j];
}

/* Light yellow (little traffic) through orange to dark red (most traffic). */
static void colour(double t, unsigned char out[3]) {
  static const double stops[3][3] = {{255, 237, 160}, {253, 141, 60}, {128, 0, 38}};
  if (t < 0) t = 0;
  if (t > 1) t = 1;
  int k = t < 0.5 ? 0 : 1;
  double u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
  for (int c = 0; c < 3; ++c)
    out[c] = (unsigned char)lround(stops[k][c] + u * (stops[k + 1][c] - stops[k][c]));
}

/* 1234567 -> "1.2M"; values below 1000 are printed whole. */
static void format_value(double v, char *out, size_t size) {
  static const char *const suffix[] = {"", "K", "M", "G", "T", "P"};
  int k = 0;
  while (v >= 1000 && k < 5) {
    v /= 1000;
    ++k;
  }
  if (k == 0)
    snprintf(out, size, "%.0f", v);
  else
    snprintf(out, size, v < 10 ? "%.1f%s" : "%.0f%s", v, suffix[k]);
}

/* Tick step: 1, 2 or 5 times a power of ten, about 8 ticks per axis. */
static int tick_step(int n) {
  int step = 1;
  for (;;) {
    if (n / step <= 8) return step;
    if (n / (2 * step) <= 8) return 2 * step;
    if (n / (5 * step) <= 8) return 5 * step;
    step *= 10;
  }
}

struct canvas {
  unsigned char *rgb;
  int w, h;
};

static void fill(struct canvas *cv, int x0, int y0, int x1, int y1, const unsigned char c[3]) {
  for (int y = y0 < 0 ? 0 : y0; y < y1 && y < cv->h; ++y)
    for (int x = x0 < 0 ? 0 : x0; x < x1 && x < cv->w; ++x)
      memcpy(cv->rgb + 3 * ((size_t)y * (size_t)cv->w + (size_t)x), c, 3);
}

static void text(struct canvas *cv, int x, int y, const char *s) {
  static const unsigned char black[3] = {0, 0, 0};
  tp_font_draw(cv->rgb, cv->w, cv->h, x, y, 2, s, black);
}

static int save_png(const struct canvas *cv, const char *path, char *error, int error_size) {
  FILE *f = fopen(path, "wb");
  if (!f) {
    snprintf(error, (size_t)error_size, "%s: %s", path, strerror(errno));
    return -1;
  }
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
  png_infop info = png ? png_create_info_struct(png) : NULL;
  if (!png || !info || setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    fclose(f);
    snprintf(error, (size_t)error_size, "%s: libpng could not write the image", path);
    return -1;
  }
  png_init_io(png, f);
  png_set_IHDR(png, info, (png_uint_32)cv->w, (png_uint_32)cv->h, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int y = 0; y < cv->h; ++y) png_write_row(png, cv->rgb + 3 * (size_t)y * (size_t)cv->w);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  if (fclose(f) != 0) {
    snprintf(error, (size_t)error_size, "%s: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

int tp_heatmap_write_png(const struct tp_heatmap *h, const char *path, const char *title,
                         const char *unit, char *error, int error_size) {
  static const unsigned char white[3] = {255, 255, 255}, black[3] = {0, 0, 0},
                             grid[3] = {225, 225, 225};
  int cell = h->m >= 640 ? 1 : 640 / h->m;
  int plot = cell * h->m;
  char label[64];
  snprintf(label, sizeof label, "%d", h->n - 1);
  int left = 40 + tp_font_width(label, 2) + 12, top = 44, right = 220, bottom = 84;
  struct canvas cv = {NULL, left + plot + right, top + plot + bottom};
  cv.rgb = malloc(3 * (size_t)cv.w * (size_t)cv.h);
  if (!cv.rgb) {
    snprintf(error, (size_t)error_size, "%s: out of memory for the image", path);
    return -1;
  }
  memset(cv.rgb, 255, 3 * (size_t)cv.w * (size_t)cv.h);

  double lo = 0, hi = 0;
  size_t count = (size_t)h->m * (size_t)h->m;
  for (size_t k = 0; k < count; ++k) {
    double v = h->cells[k];
    if (v > 0 && (lo == 0 || v < lo)) lo = v;
    if (v > hi) hi = v;
  }
  double span = hi > lo ? log(hi) - log(lo) : 0;
  for (int r = 0; r < h->m; ++r)
    for (int c = 0; c < h->m; ++c) {
      double v = h->cells[(size_t)r * (size_t)h->m + (size_t)c];
      unsigned char rgb[3];
      if (v > 0)
        colour(span > 0 ? (log(v) - log(lo)) / span : 1.0, rgb);
      else
        memcpy(rgb, white, 3);
      int x = left + c * cell, y = top + r * cell, gap = cell >= 6 ? 1 : 0;
      if (gap) fill(&cv, x, y, x + cell, y + cell, grid);
      fill(&cv, x + gap, y + gap, x + cell, y + cell, rgb);
    }
  /* frame */
  fill(&cv, left - 1, top - 1, left + plot + 1, top, black);
  fill(&cv, left - 1, top + plot, left + plot + 1, top + plot + 1, black);
  fill(&cv, left - 1, top - 1, left, top + plot + 1, black);
  fill(&cv, left + plot, top - 1, left + plot + 1, top + plot + 1, black);

  /* rank ticks on both axes, at the centre of the rank's row / column */
  int step = tick_step(h->n);
  for (int t = 0; t < h->n; t += step) {
    int pos = (int)((t + 0.5) * plot / h->n);
    snprintf(label, sizeof label, "%d", t);
    fill(&cv, left + pos, top + plot + 1, left + pos + 1, top + plot + 7, black);
    text(&cv, left + pos - tp_font_width(label, 2) / 2, top + plot + 10, label);
    fill(&cv, left - 7, top + pos, left - 1, top + pos + 1, black);
    text(&cv, left - 10 - tp_font_width(label, 2), top + pos - 7, label);
  }
  const char *xlabel = "RECEIVER RANK";
  text(&cv, left + plot / 2 - tp_font_width(xlabel, 2) / 2, top + plot + 36, xlabel);
  const char *ylabel = "SENDER RANK"; /* written downwards, one letter per line */
  int ylen = (int)strlen(ylabel);
  for (int k = 0; k < ylen; ++k) {
    char one[2] = {ylabel[k], 0};
    text(&cv, 8, top + plot / 2 - ylen * 8 + k * 16, one);
  }
  text(&cv, left, 12, title);
  if (h->bin > 1) {
    snprintf(label, sizeof label, "%d RANKS PER CELL", h->bin);
    text(&cv, left, top + plot + 60, label);
  }

  /* colour bar: hi at the top, lo at the bottom, log scale */
  int bx = left + plot + 30, bw = 24;
  for (int y = 0; y < plot; ++y) {
    unsigned char rgb[3];
    colour(1.0 - (double)y / (plot > 1 ? plot - 1 : 1), rgb);
    fill(&cv, bx, top + y, bx + bw, top + y + 1, rgb);
  }
  fill(&cv, bx - 1, top - 1, bx + bw + 1, top, black);
  fill(&cv, bx - 1, top + plot, bx + bw + 1, top + plot + 1, black);
  fill(&cv, bx - 1, top - 1, bx, top + plot + 1, black);
  fill(&cv, bx + bw, top - 1, bx + bw + 1, top + plot + 1, black);
  format_value(hi, label, sizeof label);
  text(&cv, bx + bw + 8, top, label);
  if (hi > 0) {
    format_value(sqrt(lo * hi), label, sizeof label);
    text(&cv, bx + bw + 8, top + plot / 2 - 7, label);
  }
  format_value(lo, label, sizeof label);
  text(&cv, bx + bw + 8, top + plot - 14, label);
  snprintf(label, sizeof label, "%s (LOG)", unit);
  text(&cv, bx, top + plot + 10, label);
  text(&cv, bx, top + plot + 36, "WHITE = 0");

  int rc = save_png(&cv, path, error, error_size);
  free(cv.rgb);
  return rc;
}
