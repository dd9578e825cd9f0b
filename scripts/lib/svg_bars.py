"""Grouped bar charts as standalone SVG (no plotting library needed)."""

from xml.sax.saxutils import escape

PALETTE = ["#7f7f7f", "#bcbd22", "#17becf", "#9467bd", "#d62728", "#1f77b4", "#2ca02c", "#ff7f0e"]


def grouped_bars(title, y_label, groups, series, values, note="", reference=None):
    """groups: x labels; series: legend labels; values[s][g]: number or None.

    reference: draw a dashed horizontal line at this value (e.g. 1.0 for ratios)."""
    width, height = max(640, 90 + len(groups) * (24 + 14 * len(series))), 420
    left, right, top, bottom = 70, 20, 50, 95
    plot_w, plot_h = width - left - right, height - top - bottom
    finite = [v for row in values for v in row if v is not None]
    top_value = max(finite + ([reference] if reference else []) + [1e-12]) * 1.1
    group_w = plot_w / max(1, len(groups))
    bar_w = (group_w - 14) / max(1, len(series))

    def y_of(v):
        return top + plot_h - plot_h * v / top_value

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2}" y="22" text-anchor="middle" font-size="15">{escape(title)}</text>',
        f'<text transform="translate(16,{top + plot_h / 2}) rotate(-90)" '
        f'text-anchor="middle">{escape(y_label)}</text>',
    ]
    for i in range(6):
        v = top_value * i / 5
        y = y_of(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                   f'stroke="#e0e0e0"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{v:.3g}</text>')
    for g, group in enumerate(groups):
        x0 = left + g * group_w + 7
        for s in range(len(series)):
            v = values[s][g]
            if v is None:
                continue
            x, y = x0 + s * bar_w, y_of(v)
            out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_w - 1:.1f}" '
                       f'height="{top + plot_h - y:.1f}" fill="{PALETTE[s % len(PALETTE)]}">'
                       f'<title>{escape(series[s])}, {escape(group)}: {v:.4g}</title></rect>')
        out.append(f'<text x="{x0 + (group_w - 14) / 2:.1f}" y="{top + plot_h + 16}" '
                   f'text-anchor="middle">{escape(group)}</text>')
    if reference:
        y = y_of(reference)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                   f'stroke="black" stroke-dasharray="4,3"/>')
    out.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" '
               f'y2="{top + plot_h}" stroke="black"/>')
    lx = left
    for s, name in enumerate(series):
        out.append(f'<rect x="{lx}" y="{height - 58}" width="12" height="12" '
                   f'fill="{PALETTE[s % len(PALETTE)]}"/>')
        out.append(f'<text x="{lx + 16}" y="{height - 48}">{escape(name)}</text>')
        lx += 28 + 7 * len(name)
    if note:
        out.append(f'<text x="{left}" y="{height - 18}" fill="#555">{escape(note)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"
