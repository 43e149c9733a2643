"""A picture of a nim sequence: G(n) against n, rare positions marked (matplotlib, an optional extra)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..engine.rare import rare_split
from ..engine.sequence import NimSequence
from ..errors import DataFileError, OctalError
from ..io import check_writable


class MissingExtraError(OctalError):
    """An optional dependency (matplotlib for plots) is not installed."""


IMAGE_SUFFIXES = (".png", ".svg", ".pdf")


def check_image_path(path: str | Path) -> Path:
    """Fail before computing when the picture cannot be written: a known suffix, a writable folder."""
    p = Path(path)
    if p.suffix.lower() not in IMAGE_SUFFIXES:
        raise DataFileError(f"cannot plot to {p}: the suffix must be {', '.join(IMAGE_SUFFIXES)}")
    return check_writable(p, IMAGE_SUFFIXES)


def plot_sequence(result: NimSequence, path: str | Path, max_points: int = 200_000) -> Path:
    """Save a scatter of G(n) (thinned to `max_points`) with rare positions in red; returns the path."""
    try:  # matplotlib is an optional extra ('octal[plot]'): imported only when a picture is asked for
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise MissingExtraError("octal plot needs matplotlib: pip install 'octal[plot]'") from exc
    p = check_image_path(path)
    values = result.values
    n = len(values)
    step = max(1, n // max_points)
    xs = np.arange(0, n, step)
    split = rare_split(values, result.code)
    fig, ax = plt.subplots(figsize=(10, 4.5), dpi=120)
    ax.scatter(xs, values[::step], s=1, c="#1f4e79", label="common positions", rasterized=True)
    if split.count:
        ax.scatter(split.positions, values[split.positions], s=6, c="#c0392b", label=f"rare positions ({split.count:,})")
    name = f" ({result.name})" if result.name else ""
    ax.set_title(f"{result.code}{name}: G(n) for n < {n:,}; mask {split.mask:#x}; {result.periodicity.describe()}",
                 fontsize=8)
    ax.set_xlabel("heap n")
    ax.set_ylabel("G(n)")
    ax.legend(loc="upper left", fontsize=8, markerscale=3)
    fig.tight_layout()
    try:
        fig.savefig(p)
    except OSError as exc:
        raise DataFileError(f"cannot write {p}: {exc.strerror}") from exc
    finally:
        plt.close(fig)
    return p
