"""Node Kayles on graphs of at most 64 vertices: vertex sets as uint64 masks, an open-addressing memo.

An explicit stack replaces recursion: a frame holds a connected component, the vertices not yet tried
as moves, and the option values seen (a one-hot mask). A move at v leaves comp minus N[v], split into
components; unknown ones are pushed and the move is retried once they are known. Components that are
paths or cycles are also recognised by shape, so every path (cycle) of a given length is solved once,
wherever its vertices lie: the isomorphism sharing that costs nothing to detect.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.compile_lock import share_compiles
from ..engine.compile_notice import loaded
from ..engine.kernels.bits import popcount64, stamped_mex

EMPTY = np.uint64(0)
PATH, CYCLE = 1, 2


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


@njit(cache=True)
def shape(adj, comp):
    """(kind, size): kind PATH or CYCLE when the connected component is one, else 0."""
    size = 0
    degsum = 0
    maxdeg = 0
    rest = comp
    while rest:
        low = _low(rest)
        v = popcount64(low - np.uint64(1))
        d = popcount64(adj[v] & comp)
        degsum += d
        if d > maxdeg:
            maxdeg = d
        size += 1
        rest ^= low
    if maxdeg <= 2 and degsum == 2 * (size - 1):
        return PATH, size
    if maxdeg == 2 and degsum == 2 * size:
        return CYCLE, size
    return 0, size


@njit(cache=True)
def _known(keys, vals, by_shape, adj, comp):
    """The memoized value of a component, by vertex set or (paths, cycles) by shape; −1 if unknown."""
    gv = memo_get(keys, vals, comp)
    if gv >= 0:
        return gv
    kind, size = shape(adj, comp)
    if kind:
        return np.int64(by_shape[kind, size])
    return -1


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
def node_kayles_value(adj, closed, T, mask, keys, vals, by_shape, count, max_states):
    """Grundy value of the subgraph induced by `mask`; returns (value, keys, vals, count, status).

    `by_shape[PATH, s]` and `by_shape[CYCLE, s]` hold the values of paths and cycles of s vertices (−1 if
    not yet known); they fill as the search meets them.

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
        known = _known(keys, vals, by_shape, adj, root)
        if known >= 0:
            total ^= known
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
                kind, size = shape(adj, comp)
                if kind:
                    by_shape[kind, size] = g
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
                gv = _known(keys, vals, by_shape, adj, c)
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
        total ^= _known(keys, vals, by_shape, adj, root)
    return total, keys, vals, count, 0


def interval_node_kayles(starts: np.ndarray, ends: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """Node Kayles on the interval graph of closed intervals [starts[v], ends[v]] (distinct integer endpoints).

    A position is a window (L, R): the intervals strictly inside it. Picking v removes every interval meeting
    [s_v, e_v] and leaves the windows (L, s_v) and (e_v, R), which share no edge, so
    g(L, R) = mex over v inside of g(L, s_v) ⊕ g(e_v, R). Only windows with L an end (or −∞) and R a start (or +∞)
    arise: (n+1)² of them, O(n) each, O(n³) in all. Returns (g of the whole graph, the table, the window indices
    of each interval's left and right sides). The windows are laid out here in numpy (sorting compiled would cost
    seconds of a first run); the table is compiled (_interval_table).
    """
    n = len(starts)
    big = np.int64(1) << 40
    lefts = np.concatenate([[-big], np.sort(ends)])  # window left bounds: −∞ then every end, ascending
    rights = np.concatenate([np.sort(starts), [big]])  # window right bounds: every start, ascending, then +∞
    left_of = np.searchsorted(lefts, ends)  # window index of e_v among lefts
    right_of = np.searchsorted(rights, starts)  # window index of s_v among rights
    width = (rights[None, :] - lefts[:, None]).reshape(-1)
    order = np.argsort(width, kind="stable")
    order = order[width[order] > 0]  # the windows that hold something, narrowest first
    g = _interval_table(starts, ends, lefts, rights, left_of, right_of, order)
    return g[0, n], g, left_of, right_of


@njit(cache=True)
def _interval_table(starts, ends, lefts, rights, left_of, right_of, order):
    """g(L, R) for the windows in `order` (each after every window inside it), as interval_node_kayles says."""
    n = starts.shape[0]
    g = np.zeros((n + 1, n + 1), np.int32)
    seen = np.zeros(n + 2, np.int64)
    stamp = 0
    for w in order:
        i = w // (n + 1)
        j = w % (n + 1)
        L = lefts[i]
        R = rights[j]
        stamp += 1
        for v in range(n):
            if starts[v] > L and ends[v] < R:
                x = g[i, right_of[v]] ^ g[left_of[v], j]
                if x <= n:
                    seen[x] = stamp
        g[i, j] = stamped_mex(seen, stamp)
    return g


@njit(cache=True)
def avoidance_labels(indptr, indices):
    """comp[z, v]: the component of G − N[z] holding v, or −1 when v is in N[z] (O(n·(n + m)))."""
    n = indptr.shape[0] - 1
    comp = np.full((n, n), -1, np.int32)
    stack = np.empty(n, np.int64)
    removed = np.zeros(n, np.bool_)
    for z in range(n):
        removed[:] = False
        removed[z] = True
        for k in range(indptr[z], indptr[z + 1]):
            removed[indices[k]] = True
        label = 0
        for s in range(n):
            if removed[s] or comp[z, s] >= 0:
                continue
            top = 0
            stack[top] = s
            top += 1
            comp[z, s] = label
            while top:
                top -= 1
                v = stack[top]
                for k in range(indptr[v], indptr[v + 1]):
                    u = indices[k]
                    if not removed[u] and comp[z, u] < 0:
                        comp[z, u] = label
                        stack[top] = u
                        top += 1
            label += 1
    return comp


@njit(cache=True)
def asteroidal_set(comp, k, budget):
    """An asteroidal set of k vertices (each two of the others joined by a path avoiding its closed neighbourhood:
    all others in one component of G − N[a], for every member a), found by depth-first extension (every subset of
    an asteroidal set is one). Returns (the set, or an empty array when there is none; False when `budget`
    extension steps ran out first)."""
    n = comp.shape[0]
    chosen = np.empty(k, np.int64)
    d = 0
    chosen[0] = -1
    steps = 0
    while d >= 0:
        chosen[d] += 1
        w = chosen[d]
        if w >= n:
            d -= 1
            continue
        steps += 1
        if steps > budget:
            return chosen[:0], False
        ok = True
        for i in range(d):
            s = chosen[i]
            if comp[s, w] < 0:
                ok = False
                break
            if d >= 2:
                t = chosen[1] if i == 0 else chosen[0]
                if comp[s, t] != comp[s, w]:
                    ok = False
                    break
        if ok and d >= 1:
            c = comp[w, chosen[0]]
            for i in range(1, d):
                if comp[w, chosen[i]] != c:
                    ok = False
                    break
            ok = ok and c >= 0
        if not ok:
            continue
        if d == k - 1:
            return chosen.copy(), True
        d += 1
        chosen[d] = w
    return chosen[:0], True


@njit(cache=True)
def permutation_node_kayles(perm):
    """Node Kayles on the permutation graph of `perm` (i < j adjacent when perm[i] > perm[j]: their segments cross).

    A vertex v leaves the segments that do not cross it: those below-left of it (i < v, perm[i] < perm[v]) and those
    above-right, which cross no segment of the other side. So a position is a box (lo, hi) — the segments strictly
    between two segments on both lines — and g(lo, hi) = mex over v in the box of g(lo, v) ⊕ g(v, hi), with
    sentinels −1 and n: O(n²) boxes, O(n) each. Returns (g of the whole graph, the table; row/column i + 1 is
    segment i).
    """
    n = perm.shape[0]
    p = np.empty(n + 2, np.int64)  # p[i + 1] = perm[i], with sentinels p[0] = −1 and p[n + 1] = n
    p[0] = -1
    p[n + 1] = n
    for i in range(n):
        p[i + 1] = perm[i]
    g = np.zeros((n + 2, n + 2), np.int32)
    seen = np.zeros(n + 2, np.int64)
    stamp = 0
    for d in range(2, n + 2):
        for lo in range(0, n + 2 - d):
            hi = lo + d
            if p[lo] >= p[hi]:
                continue
            stamp += 1
            for v in range(lo + 1, hi):
                if p[lo] < p[v] < p[hi]:
                    x = g[lo, v] ^ g[v, hi]
                    if x <= n:
                        seen[x] = stamp
            g[lo, hi] = stamped_mex(seen, stamp)
    return g[0, n + 1], g


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once
