"""Node Kayles on graphs of at most 64 vertices: vertex sets as uint64 masks, an open-addressing memo.

An explicit stack replaces recursion: a frame holds a connected component, the vertices not yet tried
as moves, and the option values seen (a one-hot mask). A move at v leaves comp minus N[v], split into
components; unknown ones are pushed and the move is retried once they are known.
"""

from __future__ import annotations

import numpy as np
from numba import njit

EMPTY = np.uint64(0)


@njit(cache=True, inline="always")
def _low(x):
    return x & (~x + np.uint64(1))


@njit(cache=True)
def neighbour_table(adj):
    """T[c, b] = OR of adj[v] over the bits b of byte c: a set's neighbourhood in 8 lookups."""
    T = np.zeros((8, 256), np.uint64)
    for c in range(8):
        for b in range(256):
            acc = np.uint64(0)
            for i in range(8):
                v = 8 * c + i
                if (b >> i) & 1 and v < adj.shape[0]:
                    acc |= adj[v]
            T[c, b] = acc
    return T


@njit(cache=True, inline="always")
def _neighbourhood(T, s):
    acc = np.uint64(0)
    for c in range(8):
        acc |= T[c, (s >> np.uint64(8 * c)) & np.uint64(255)]
    return acc


@njit(cache=True)
def split_components(T, mask, out):
    """Write the connected components of `mask` into out[0..k−1]; returns k."""
    k = 0
    while mask:
        comp = _low(mask)
        frontier = comp
        while frontier:
            frontier = _neighbourhood(T, frontier) & mask & ~comp
            comp |= frontier
        out[k] = comp
        k += 1
        mask &= ~comp
    return k


@njit(cache=True, inline="always")
def _slot(keys, key):
    cap = keys.shape[0]
    h = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(20)
    i = np.int64(h & np.uint64(cap - 1))
    while keys[i] != EMPTY and keys[i] != key:
        i = (i + 1) & (cap - 1)
    return i


@njit(cache=True)
def memo_get(keys, vals, key):
    i = _slot(keys, key)
    return np.int64(vals[i]) if keys[i] == key else -1


@njit(cache=True)
def _rehash(keys, vals):
    cap = keys.shape[0] * 2
    nk = np.zeros(cap, np.uint64)
    nv = np.zeros(cap, np.uint8)
    for i in range(keys.shape[0]):
        if keys[i] != EMPTY:
            j = _slot(nk, keys[i])
            nk[j] = keys[i]
            nv[j] = vals[i]
    return nk, nv


@njit(cache=True)
def node_kayles_value(adj, closed, T, mask, keys, vals, count, max_states):
    """Grundy value of the subgraph induced by `mask`; returns (value, keys, vals, count, status).

    status 0: done; 1: the state budget ran out; 2: a value reached 64 (the caller falls back).
    """
    n = adj.shape[0]
    depth_cap = n + 2
    st_comp = np.zeros(depth_cap, np.uint64)
    st_rem = np.zeros(depth_cap, np.uint64)
    st_opts = np.zeros(depth_cap, np.uint64)
    parts = np.zeros(64, np.uint64)
    top_parts = np.zeros(64, np.uint64)
    k0 = split_components(T, mask, top_parts)
    total = 0
    for t in range(k0):
        root = top_parts[t]
        if memo_get(keys, vals, root) >= 0:
            total ^= memo_get(keys, vals, root)
            continue
        d = 0
        st_comp[0] = root
        st_rem[0] = root
        st_opts[0] = 0
        while d >= 0:
            comp = st_comp[d]
            rem = st_rem[d]
            if rem == EMPTY:
                opts = st_opts[d]
                g = 0
                while g < 64 and (opts >> np.uint64(g)) & np.uint64(1):
                    g += 1
                if g >= 64:
                    return -1, keys, vals, count, 2
                if 2 * (count + 1) > keys.shape[0]:
                    keys, vals = _rehash(keys, vals)
                i = _slot(keys, comp)
                keys[i] = comp
                vals[i] = g
                count += 1
                if count > max_states:
                    return -1, keys, vals, count, 1
                d -= 1
                continue
            bit = _low(rem)
            v = 0
            b = bit
            while b > np.uint64(1):
                b >>= np.uint64(1)
                v += 1
            child = comp & ~closed[v]
            k = split_components(T, child, parts)
            x = 0
            missing = EMPTY
            for j in range(k):
                c = parts[j]
                if (c & (c - np.uint64(1))) == EMPTY:
                    x ^= 1  # a single vertex is *1
                    continue
                gv = memo_get(keys, vals, c)
                if gv < 0:
                    missing = c
                    break
                x ^= gv
            if missing != EMPTY:
                d += 1
                st_comp[d] = missing
                st_rem[d] = missing
                st_opts[d] = 0
                continue
            st_opts[d] |= np.uint64(1) << np.uint64(x)
            st_rem[d] = rem & ~bit
        total ^= memo_get(keys, vals, root)
    return total, keys, vals, count, 0
