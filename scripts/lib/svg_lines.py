"""Log-log line charts as standalone SVG (no plotting library needed)."""

import math
from xml.sax.saxutils import escape

from svg_bars import PALETTE


def _decades(low, high):
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    return [10.0 ** e for e in range(first, last + 1)]


def loglog_lines(title, x_label, y_label, series, targets=(), note=""):
    """series: [(label, [(x, y), ...])], x and y > 0; targets: [(x, y, label)]
    drawn as crosses (a goal at that x)."""
    width, height = 680, 440
    left, right, top, bottom = 75, 150, 50, 75
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [x for _, points in series for x, _ in points] + [t[0] for t in targets]
    ys = [y for _, points in series for _, y in points] + [t[1] for t in targets]
    x_ticks, y_ticks = _decades(min(xs), max(xs)), _decades(min(ys), max(ys))
    lx0, lx1 = math.log10(x_ticks[0]), math.log10(x_ticks[-1])
    ly0, ly1 = math.log10(y_ticks[0]), math.log10(y_ticks[-1])
    lx1, ly1 = max(lx1, lx0 + 1), max(ly1, ly0 + 1)

    def x_of(x):
        return left + plot_w * (math.log10(x) - lx0) / (lx1 - lx0)

    def y_of(y):
        return top + plot_h - plot_h * (math.log10(y) - ly0) / (ly1 - ly0)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left + plot_w / 2}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>',
        f'<text x="{left + plot_w / 2}" y="{height - 38}" text-anchor="middle">{escape(x_label)}</text>',
        f'<text transform="translate(16,{top + plot_h / 2}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>',
    ]
    for v in x_ticks:
        x = x_of(v)
        out.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{x:.1f}" y="{top + plot_h + 16}" text-anchor="middle">{v:g}</text>')
    for v in y_ticks:
        y = y_of(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#e0e0e0"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{v:g}</text>')
    out.append(f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#888"/>')
    for s, (label, points) in enumerate(series):
        color = PALETTE[(s + 1) % len(PALETTE)]
        path = " ".join(f"{x_of(x):.1f},{y_of(y):.1f}" for x, y in sorted(points))
        out.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        for x, y in points:
            out.append(f'<circle cx="{x_of(x):.1f}" cy="{y_of(y):.1f}" r="3" fill="{color}"/>')
        ly = top + 14 + 18 * s
        out.append(f'<line x1="{left + plot_w + 12}" y1="{ly - 4}" x2="{left + plot_w + 32}" '
                   f'y2="{ly - 4}" stroke="{color}" stroke-width="2"/>')
        out.append(f'<text x="{left + plot_w + 38}" y="{ly}">{escape(label)}</text>')
    for x, y, label in targets:
        cx, cy = x_of(x), y_of(y)
        out.append(f'<path d="M{cx - 5:.1f},{cy - 5:.1f}L{cx + 5:.1f},{cy + 5:.1f}'
                   f'M{cx - 5:.1f},{cy + 5:.1f}L{cx + 5:.1f},{cy - 5:.1f}" stroke="black" stroke-width="2"/>')
        out.append(f'<text x="{cx + 7:.1f}" y="{cy - 6:.1f}" font-size="10">{escape(label)}</text>')
    if note:
        out.append(f'<text x="{left}" y="{height - 14}" font-size="11" fill="#555">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
