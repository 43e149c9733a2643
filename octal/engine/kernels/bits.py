"""Bit helpers every compiled kernel shares (the octal, sparse and general kernels, and the graph and misère
searches above the engine): popcount, trailing zeros, XOR-translation within a word, the mex of a bitset, the OR of
split-pair values as one word."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..compile_lock import share_compiles


@njit(cache=True, inline="always")
def popcount64(x):
    """Set bits of a word (SWAR): byte counts, then the bytes summed by shifts, so no step wraps past 64 bits (the
    usual multiply by 0x0101… wraps on purpose, which numpy reports as an overflow when the kernels run as Python)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    x = x + (x >> np.uint64(8))
    x = x + (x >> np.uint64(16))
    x = x + (x >> np.uint64(32))
    return np.int64(x & np.uint64(0x7F))


@njit(cache=True, inline="always")
def ctz64(x):
    """Trailing zeros of a non-zero word."""
    return popcount64((x & (~x + np.uint64(1))) - np.uint64(1))


@njit(cache=True, inline="always")
def xor_permute(x, c):
    """The bits of word x moved from position i to i ^ c (c < 64): XOR-translation within a word. For each bit s of
    c, blocks of s bits swap with their neighbours: the mask 0x5555…, 0x3333…, 0x0F0F…, … is (2⁶⁴ − 1) / (2^s + 1).
    The loop runs six times with constant s, so LLVM unrolls it and folds each division."""
    s = 1
    while s < 64:
        if c & s:
            m = np.uint64(0xFFFFFFFFFFFFFFFF) // np.uint64((1 << s) + 1)
            x = ((x & m) << np.uint64(s)) | ((x >> np.uint64(s)) & m)
        s <<= 1
    return x


@njit(cache=True, inline="always")
def stamped_mex(seen, stamp):
    """The least value v with seen[v] != stamp: the mex of the values marked with this heap's stamp."""
    v = 0
    while seen[v] == stamp:
        v += 1
    return v


@njit(cache=True, inline="always")
def mex_words(opts, W):
    """The least value absent from a bitset of W words (64·W when every bit is set): the mex."""
    for w in range(W):
        word = opts[w]
        if word != np.uint64(0xFFFFFFFFFFFFFFFF):
            b = 0
            while (word >> np.uint64(b)) & np.uint64(1):
                b += 1
            return 64 * w + b
    return 64 * W


@njit(cache=True)
def or_onehot(a, b, length):
    """OR of 1 << (a[i] ^ b[i]): split pairs G(a) ⊕ G(m − a) as one word of values; with both streams ascending LLVM
    vectorises it (a reversed read measured 2–2.5× slower)."""
    acc = np.uint64(0)
    for i in range(length):
        acc |= np.uint64(1) << np.uint64(a[i] ^ b[i])
    return acc


share_compiles(globals())  # processes sharing the cache compile each function once
