"""Numba kernels that fill a Grundy-value array; they know nothing of codes as text, files or the CLI."""

from .naive import fill_hex, fill_octal, split_sets

__all__ = ["fill_octal", "fill_hex", "split_sets"]
