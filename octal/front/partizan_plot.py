"""Pictures of partizan games for a paper or a course (matplotlib, the optional 'plot' extra): the thermograph of one
game, drawn as Winning Ways draws it (values increase to the left, so Left's wall is on the left; temperature up),
and the means and temperatures of a partizan heap game's values against the heap size."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ..partizan.heap_games import PartizanSequence
from ..partizan.notation import to_text
from ..partizan.thermal import Thermograph, thermograph
from .plot import check_image_path, pyplot, save_figure


def wall_points(th: Thermograph) -> tuple[list[Fraction], list[Fraction], list[Fraction]]:
    """(t, left wall x, right wall x) at every temperature where a wall turns, from t = −1 to the game's temperature:
    the polygon a thermograph is drawn from (the mast at the mean goes on above)."""
    top = th.temperature
    ts = sorted({t for w in (th.left, th.right) for t in w.breaks() if t <= top} | {Fraction(-1), top})
    return ts, [th.left.at(t) for t in ts], [th.right.at(t) for t in ts]


def plot_thermograph(g, path: str | Path, title: str | None = None) -> Path:
    """Save the thermograph of the canonical game g (a .png, .svg or .pdf); returns the path."""
    p = check_image_path(path)
    plt, _, _ = pyplot()
    th = thermograph(g)
    ts, left, right = wall_points(th)
    mast = float(th.temperature) + max(1.0, (float(th.temperature) + 1) / 3)
    fig, ax = plt.subplots(figsize=(7, 5))
    ax.plot([float(x) for x in left], [float(t) for t in ts], color="#1f4e79", lw=2, label="left wall")
    ax.plot([float(x) for x in right], [float(t) for t in ts], color="#c0392b", lw=2, label="right wall")
    ax.plot([float(th.mean)] * 2, [float(th.temperature), mast], color="black", lw=2, label="mast")
    ax.axhline(0, color="grey", lw=0.8, ls=":")
    ax.invert_xaxis()  # Winning Ways' convention: Left's larger values on the left
    ax.set_xlabel("value (Left's side on the left)")
    ax.set_ylabel("temperature t")
    ax.set_title(title or f"thermograph of {to_text(g)}: mean {th.mean}, temperature {th.temperature}", fontsize=11)
    ax.legend(loc="best")
    ax.grid(alpha=0.3)
    return save_figure(fig, plt, p)


def plot_heap_means(seq: PartizanSequence, path: str | Path) -> Path:
    """Save the means and temperatures of a partizan heap game's values against the heap size; returns the path."""
    p = check_image_path(path)
    plt, _, _ = pyplot()
    heaps = list(range(seq.n))
    ths = [thermograph(v) for v in seq.values]
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 6), sharex=True)
    top.plot(heaps, [float(t.mean) for t in ths], marker="o", ms=3, color="#1f4e79")
    top.set_ylabel("mean")
    top.set_title(f"partizan heap game: Left moves by {seq.left}, Right by {seq.right} (heaps 0..{seq.n - 1})",
                  fontsize=11)
    bottom.plot(heaps, [float(t.temperature) for t in ths], marker="o", ms=3, color="#c0392b")
    bottom.set_ylabel("temperature")
    bottom.set_xlabel("heap n")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    return save_figure(fig, plt, p)
