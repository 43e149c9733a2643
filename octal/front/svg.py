"""Small self-contained SVG charts for the site: a scatter of G(n) with rare positions, no plotting library needed."""

from __future__ import annotations

import math
from html import escape

import numpy as np

WIDTH, HEIGHT = 760, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 34, 50  # margins for labels in 15-px type (the page shows the chart at its size)


def _ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """Round tick positions (1, 2 or 5 times a power of ten) covering lo..hi."""
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    step = 10 ** math.floor(math.log10(raw))
    step *= next(m for m in (1, 2, 5, 10) if step * m >= raw)
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step) + 1)]


def scatter_svg(xs: np.ndarray, ys: np.ndarray, title: str, rare_x: np.ndarray | None = None,
                rare_y: np.ndarray | None = None, xlabel: str = "heap n", ylabel: str = "G(n)") -> str:
    """G(n) against n as dots (rare positions as larger red dots), axes with thousands separators."""
    xs = np.asarray(xs, np.float64)
    ys = np.asarray(ys, np.float64)
    x_hi = max(float(xs.max()) if len(xs) else 1.0, 1.0)
    y_hi = max(float(ys.max()) if len(ys) else 1.0, 1.0)
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def sx(x):
        return LEFT + pw * np.asarray(x, np.float64) / x_hi

    def sy(y):
        return TOP + ph * (1 - np.asarray(y, np.float64) / y_hi)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
           'font-family="sans-serif" font-size="15" role="img">',
           f'<title>{escape(title)}</title>',
           f'<text x="{LEFT}" y="20" font-size="17" font-weight="bold">{escape(title)}</text>',
           f'<rect x="{LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>']
    for t in _ticks(0, x_hi):
        x = float(sx(t))
        out.append(f'<line x1="{x:.1f}" y1="{TOP + ph}" x2="{x:.1f}" y2="{TOP + ph + 4}" stroke="#666"/>'
                   f'<text x="{x:.1f}" y="{TOP + ph + 19}" text-anchor="middle">{t:,.0f}</text>')
    for t in _ticks(0, y_hi, 5):
        y = float(sy(t))
        out.append(f'<line x1="{LEFT - 4}" y1="{y:.1f}" x2="{LEFT}" y2="{y:.1f}" stroke="#666"/>'
                   f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{t:,.0f}</text>')
    out.append(f'<text x="{LEFT + pw / 2}" y="{HEIGHT - 6}" text-anchor="middle">{escape(xlabel)}</text>')
    out.append(f'<text x="16" y="{TOP + ph / 2}" text-anchor="middle" transform="rotate(-90 16 {TOP + ph / 2})">'
               f'{escape(ylabel)}</text>')
    dots = "".join(f"M{x:.1f} {y:.1f}h0" for x, y in zip(sx(xs), sy(ys)))
    out.append(f'<path d="{dots}" stroke="#1f4e79" stroke-width="2.5" stroke-linecap="round" fill="none"/>')
    if rare_x is not None and len(rare_x):
        for x, y in zip(sx(rare_x), sy(rare_y)):
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="#c0392b"/>')
    out.append("</svg>")
    return "\n".join(out)
