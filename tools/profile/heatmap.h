/* Traffic heatmap of an N x N matrix as a PNG (libpng, no plotting stack).
 * Rows are filled one at a time so a 4096-rank matrix never has to be held
 * in memory: ranks are binned onto at most TP_HEATMAP_MAX_CELLS cells per
 * side and each cell shows the sum of its entries on a logarithmic colour
 * scale (white = no traffic, light yellow -> dark red = more). */
#ifndef TOFA_HEATMAP_H
#define TOFA_HEATMAP_H

#ifdef __cplusplus
extern "C" {
#endif

#define TP_HEATMAP_MAX_CELLS 1024

struct tp_heatmap;

/** A heatmap for an n x n matrix (n >= 1); NULL when out of memory. */
struct tp_heatmap *tp_heatmap_new(int n);
/** Adds row `i` (n values, entry j = traffic from i to j). */
void tp_heatmap_add_row(struct tp_heatmap *h, int i, const double *row);
/** Writes the PNG with a title, labelled axes ("SENDER RANK",
 *  "RECEIVER RANK"), rank ticks and a colour bar. `unit` names the values
 *  ("BYTES", "MESSAGES"). Returns 0, or -1 with a message in `error`. */
int tp_heatmap_write_png(const struct tp_heatmap *h, const char *path, const char *title,
                         const char *unit, char *error, int error_size);
void tp_heatmap_free(struct tp_heatmap *h);

/** Draws text in the built-in 5x7 font (upper case; lower case is folded). */
void tp_font_draw(unsigned char *rgb, int width, int height, int x, int y, int scale,
                  const char *text, const unsigned char color[3]);
/** Width in pixels of `text` drawn at `scale`. */
int tp_font_width(const char *text, int scale);

#ifdef __cplusplus
}
#endif
#endif
