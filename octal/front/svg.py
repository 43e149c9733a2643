"""Small self-contained SVG charts for the site: a scatter of G(n) with rare positions, no plotting library needed."""

from __future__ import annotations

import math
from html import escape

import numpy as np

WIDTH, HEIGHT = 760, 320
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 34, 50  # margins for labels in 15-px type (the page shows the chart at its size)
# Dots: (colour, diameter in pixels, grid points per pixel). Each dot moves to the nearest point of its grid, half a
# grid step at most in x and in y (a tenth of a common dot's diameter, a twelfth of a rare one's), and dots on the
# same grid point are drawn once: a page draws at most one dot per grid point, however many heaps it plots.
COMMON_DOT = ("#1f4e79", 2.5, 2)
RARE_DOT = ("#c0392b", 6, 1)


def _ticks(lo: float, hi: float, count: int = 6) -> list[float]:
    """Round tick positions (1, 2 or 5 times a power of ten) covering lo..hi."""
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    step = 10 ** math.floor(math.log10(raw))
    step *= next(m for m in (1, 2, 5, 10) if step * m >= raw)
    first = math.ceil(lo / step) * step
    return [first + i * step for i in range(int((hi - first) / step) + 1)]


def _grid(px: np.ndarray, py: np.ndarray, grid: int) -> np.ndarray:
    """Points in pixels → the distinct points of the 1/grid-pixel grid they round to, as integer (x, y) rows (in grid
    steps) sorted by x then y."""
    pts = np.rint(np.column_stack([np.asarray(px, np.float64), np.asarray(py, np.float64)]) * grid).astype(np.int64)
    return np.unique(pts, axis=0) if len(pts) else pts.reshape(0, 2)


def _rows_in(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Whether each (x, y) row of a is a row of b."""
    def key(p):
        return p[:, 0] * (1 << 32) + p[:, 1]
    return np.isin(key(a), key(b))


def _dot_path(pts: np.ndarray, colour: str, diameter: float, grid: int) -> str:
    """One <path> with a dot at each grid point: per dot a move relative to the last one (the first "m" of a path
    is absolute) and a zero-length line, "h0", that the round line cap draws as a disc of the stroke's width; the
    path is drawn scaled by 1/grid, so its coordinates are whole grid steps."""
    steps = np.diff(pts, axis=0, prepend=np.zeros((1, 2), np.int64)).tolist()
    d = "".join(f"m{dx}{dy}h0" if dy < 0 else f"m{dx} {dy}h0" for dx, dy in steps)
    factor = f"{1 / grid:g}".lstrip("0")  # .5
    scale = f' transform="scale({factor})"' if grid != 1 else ""
    return (f'<path d="{d}"{scale} stroke="{colour}" stroke-width="{diameter * grid:g}" stroke-linecap="round" '
            'fill="none"/>')


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
    # each class of dots is one path, the rare dots last, over the common ones
    (c_colour, c_size, c_grid), (r_colour, r_size, r_grid) = COMMON_DOT, RARE_DOT
    common = _grid(sx(xs), sy(ys), c_grid)
    rare = _grid(sx(rare_x), sy(rare_y), r_grid) if rare_x is not None and len(rare_x) else None
    # a common dot whose grid point rounds to a rare dot's is hidden under it (centres 0.71 px apart at most, and the
    # rare dot's radius, 3 px, is the common one's, 1.25 px, and more): left out
    if rare is not None and len(common):
        common = common[~_rows_in(np.rint(common * (r_grid / c_grid)).astype(np.int64), rare)]
    if len(common):
        out.append(_dot_path(common, c_colour, c_size, c_grid))
    if rare is not None:
        out.append(_dot_path(rare, r_colour, r_size, r_grid))
    out.append("</svg>")
    return "\n".join(out)
