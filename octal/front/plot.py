"""Pictures of a nim sequence for a paper (matplotlib, an optional extra), in three kinds:

values       G(n) on a logarithmic heap axis, common values as a density, rare positions in their own panel below;
rare         the rare positions alone: their values, and how many there are up to each heap;
frequencies  the frequency table at powers of two: how often each value occurs among heaps 1..2^k.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..engine.rare import rare_split
from ..engine.sequence import NimSequence, nim_sequence
from ..engine.values import Progress
from ..errors import DataFileError, InvalidArgumentError, OctalError
from ..io import check_writable


class MissingExtraError(OctalError):
    """An optional dependency (matplotlib for plots) is not installed."""


IMAGE_SUFFIXES = (".png", ".svg", ".pdf")
KINDS = ("values", "rare", "frequencies")
MAX_LINES = 12  # values drawn in the frequency plot (the most frequent ones)
LINE_COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
                "#17becf", "#000000", "#b8860b")  # one colour per line: matplotlib's ten, then black and dark gold


def check_image_path(path: str | Path) -> Path:
    """Fail before computing when the picture cannot be written: a known suffix, a writable folder."""
    p = Path(path)
    if p.suffix.lower() not in IMAGE_SUFFIXES:
        raise DataFileError(f"cannot plot to {p}: the suffix must be {', '.join(IMAGE_SUFFIXES)}")
    return check_writable(p, IMAGE_SUFFIXES)


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise InvalidArgumentError(f"unknown plot kind {kind!r}: choose {', '.join(KINDS)}")
    return kind


def frequency_table(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(powers 2^k ≤ n − 1, counts[k, v] = #{1 ≤ h ≤ 2^k : G(h) = v}): heaps counted from 1, the published tables'
    convention (G(0) = 0 is left out)."""
    n = len(values)
    top = max(int(np.log2(n - 1)), 0) if n > 1 else 0
    powers = 2 ** np.arange(top + 1)
    counts = np.zeros((top + 1, int(values.max()) + 1 if n else 1), np.int64)
    for k, p in enumerate(powers):
        counts[k] = np.bincount(values[1 : p + 1], minlength=counts.shape[1])
    return powers, counts


def pyplot():
    try:  # matplotlib is an optional extra ('octal[plot]'): imported only when a picture is asked for
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.colors import LogNorm
        from matplotlib.ticker import FuncFormatter
    except ImportError as exc:
        raise MissingExtraError("octal plot needs matplotlib: in the octal folder, pip install '.[plot]'") from exc
    plt.rcParams.update({"font.size": 12, "axes.titlesize": 13, "axes.labelsize": 12, "legend.fontsize": 10})
    return plt, LogNorm, FuncFormatter(lambda x, _: f"{x:,.0f}")


def plot_sequence(result: NimSequence, path: str | Path, kind: str = "values") -> Path:
    """Save the picture of `kind` for `result`; returns the path."""
    check_kind(kind)
    p = check_image_path(path)
    plt, LogNorm, thousands = pyplot()
    values = np.asarray(result.values)
    n = len(values)
    split = rare_split(values, result.code)
    rare = split.positions
    name = f"{result.code}{f' ({result.name})' if result.name else ''}"
    heaps = np.arange(1, n)
    if kind == "values":
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), height_ratios=[3, 2], sharex=True)
        common = np.ones(n, bool)
        common[rare] = False
        common[0] = False
        *_, image = top.hist2d(heaps[common[1:]], values[1:][common[1:]], bins=[np.geomspace(1, n, 200),
                               np.arange(-0.5, int(values.max()) + 1.5)], cmap="viridis_r", cmin=1, norm=LogNorm())
        fig.colorbar(image, ax=top, pad=0.01, label="heaps per cell")
        top.set_ylabel("G(n), common positions")
        top.set_title(f"{name}: G(n) for 1 ≤ n < {n:,}\n{result.periodicity.describe()}", fontsize=11)
        rare_pos = rare[rare > 0]
        bottom.scatter(rare_pos, values[rare_pos], s=14, c="#c0392b")
        bottom.set_ylabel("G(n), rare")
        off_axis = split.count - len(rare_pos)  # heap 0 has no place on a logarithmic axis
        bottom.set_title(f"{split.count:,} rare positions under mask {split.mask:#x}"
                         + (f", the last at {int(rare[-1]):,}" if split.count else "")
                         + (" (heap 0, rare, is left of the log axis)" if off_axis else ""), fontsize=11)
        bottom.set_xscale("log")
        bottom.set_xlabel("heap n (log scale)")
        fig.colorbar(image, ax=bottom, pad=0.01).ax.set_visible(False)  # keep both panels the same width
        for ax in (top, bottom):
            ax.xaxis.set_major_formatter(thousands)
            ax.grid(alpha=0.3)
    elif kind == "rare":
        fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 7), sharex=True)
        rare_pos = rare[rare > 0]
        top.scatter(rare_pos, values[rare_pos], s=14, c="#c0392b")
        top.set_ylabel("G(n)")
        top.set_title(f"{name}: the {split.count:,} rare positions below {n:,} (mask {split.mask:#x})"
                      + ("\nheap 0, rare, is left of the log axis" if split.count > len(rare_pos) else ""))
        bottom.step(np.r_[rare_pos, n - 1], np.r_[np.arange(1, len(rare_pos) + 1), len(rare_pos)], where="post")
        bottom.set_ylabel("rare positions up to n")
        bottom.set_xscale("log")
        bottom.set_xlabel("heap n (log scale)")
        for ax in (top, bottom):
            ax.xaxis.set_major_formatter(thousands)
            ax.yaxis.set_major_formatter(thousands)
            ax.grid(alpha=0.3)
    else:
        powers, counts = frequency_table(values)
        fig, ax = plt.subplots(figsize=(10, 6))
        top_values = np.argsort(-counts[-1])[:MAX_LINES]
        for colour, v in zip(LINE_COLOURS, sorted(top_values)):
            if counts[-1, v]:
                ax.plot(powers, np.where(counts[:, v] > 0, counts[:, v], np.nan), marker="o", ms=3, label=f"G = {v}",
                        color=colour)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("heaps 1..2^k")
        ax.set_ylabel("heaps with that value")
        ax.set_title(f"{name}: frequency of each value at powers of two (the {len(top_values)} most frequent)")
        ax.xaxis.set_major_formatter(thousands)
        ax.yaxis.set_major_formatter(thousands)
        ax.legend(ncol=2, loc="upper left")
        ax.grid(alpha=0.3, which="both")
    return save_figure(fig, plt, p)


def save_figure(fig, plt, p: Path) -> Path:
    """Write the figure to p (its suffix says the format) and close it; returns p."""
    fig.tight_layout()
    try:
        fig.savefig(p, dpi=110)
    except OSError as exc:
        raise DataFileError(f"cannot write {p}: {exc.strerror}") from exc
    finally:
        plt.close(fig)
    return p


def plot_game(game: str, n: int, path: str | Path, kind: str = "values", progress: Progress | None = None) -> Path:
    """`octal plot`: G(0..n−1) of a code or preset (the picture's path and kind checked before computing) drawn
    as `plot_sequence` draws it; returns the path."""
    check_kind(kind)
    check_image_path(path)
    return plot_sequence(nim_sequence(game, n, progress=progress), path, kind)
