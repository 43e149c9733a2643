"""Numba kernels that fill a Grundy-value array; they know nothing of codes as text, files or the CLI."""

from .naive import fill_hex, fill_octal, split_sets
from .sparse import fill_sparse, rare_positions, walsh_hadamard

__all__ = ["fill_octal", "fill_hex", "split_sets", "fill_sparse", "rare_positions", "walsh_hadamard"]
