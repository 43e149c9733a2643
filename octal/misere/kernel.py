"""Compiled searches over misère-quotient candidates: element sets as rows of uint64 words.

`explore` walks the pairs σ(w) = (Φ(w), O(w)) of words w in order of least weight (Dijkstra), with
σ(w·h) = (Φ(w)Φ(h), O(w)·Φ(h) ∪ Φ(w)·T(h)), and stops at the first pair whose predicted outcome
(Φ(w) ∈ P) disagrees with its options (misère: P ⇔ some option and no option in P). `mark` walks
elements the same way and gives each the outcome of its least word. Both know nothing of codes.
"""

from __future__ import annotations

import heapq

import numpy as np
from numba import njit

from ..engine.compile_lock import share_compiles
from ..engine.compile_notice import loaded
from ..engine.kernels.bits import ctz64

ONE = np.uint64(1)
NONE = np.int64(-1)  # no parent, no generator, no state yet


@njit(cache=True, inline="always")
def _times(s, mul, g, out):
    """out = {x·g : x ∈ s}."""
    for w in range(out.shape[0]):
        out[w] = 0
    for w in range(s.shape[0]):
        bits = s[w]
        while bits:
            x = w * 64 + ctz64(bits)
            y = mul[x, g]
            out[y >> 6] |= ONE << np.uint64(y & 63)
            bits &= bits - ONE


@njit(cache=True, inline="always")
def _times_with(s, mul, g, extra, out):
    """out = {x·g : x ∈ s} ∪ extra: a word's set of option classes times generator g, with the new heap's own."""
    _times(s, mul, g, out)
    for w in range(out.shape[0]):
        out[w] |= extra[w]


@njit(cache=True, inline="always")
def _hash(x, s):
    h = np.uint64(x) * np.uint64(0x9E3779B97F4A7C15)
    for w in range(s.shape[0]):
        h = (h ^ s[w]) * np.uint64(0xBF58476D1CE4E5B9)
        h ^= h >> np.uint64(31)
    return h


@njit(cache=True, inline="always")
def _misere_p(s, pmask):
    """A position whose options have the classes s is a misère P-position: it has an option, none in P."""
    anyopt = False
    for w in range(s.shape[0]):
        if s[w] & pmask[w]:
            return False
        if s[w]:
            anyopt = True
    return anyopt


@njit(cache=True)
def fill_times_masks(mul, elems, out):
    """out[y] |= {y·t : t ∈ elems} as uint64 words, for every element y."""
    for y in range(mul.shape[0]):
        for t in elems:
            z = mul[y, t]
            out[y, z >> 6] |= ONE << np.uint64(z & 63)


@njit(cache=True)
def _grown(a, cap, count, fill):
    """A copy of a[:count] in `cap` entries, the rest `fill`: written out, as every row copy here is (an array
    assigned to a slice compiles numba's shape-mismatch message, about 1.5 s of a first run)."""
    out = np.full(cap, fill, a.dtype)
    for q in range(count):
        out[q] = a[q]
    return out


@njit(cache=True)
def _grown_rows(a, cap, count):
    """A copy of the rows a[:count] in `cap` rows, the rest zero."""
    out = np.zeros((cap, a.shape[1]), a.dtype)
    for q in range(count):
        for w in range(a.shape[1]):
            out[q, w] = a[q, w]
    return out


@njit(cache=True, inline="always")
def _set_row(a, i, row):
    """a[i] = row, written out (see _grown)."""
    for w in range(row.shape[0]):
        a[i, w] = row[w]


@njit(cache=True)
def explore(mul, p, pmask, gen_elem, gen_weight, tmask, max_states):
    """Dijkstra over reachable pairs. Returns (failing state or −1, count, xs, sets, parent, parent generator);
    count = −1 when `max_states` was passed."""
    nw = pmask.shape[0]
    ng = gen_elem.shape[0]
    cap = 1024
    xs = np.zeros(cap, np.int64)
    sets = np.zeros((cap, nw), np.uint64)
    best = np.zeros(cap, np.int64)
    parent = np.full(cap, -1, np.int64)
    pgen = np.full(cap, -1, np.int64)
    done = np.zeros(cap, np.bool_)
    tsize = 4096
    table = np.full(tsize, -1, np.int64)
    count = np.int64(1)  # state 0: the empty word (an int64 from the start: a literal 1 compiles _grown twice)
    table[_hash(0, sets[0]) & np.uint64(tsize - 1)] = 0
    queue = [(np.int64(0), np.int64(0))]
    tmp = np.zeros(nw, np.uint64)
    while len(queue):
        cost, i = heapq.heappop(queue)
        if done[i] or cost > best[i]:
            continue
        done[i] = True
        x = xs[i]
        if i and p[x] != _misere_p(sets[i], pmask):
            return i, count, xs[:count], sets[:count], parent[:count], pgen[:count]
        for k in range(ng):
            g = gen_elem[k]
            _times_with(sets[i], mul, g, tmask[k, x], tmp)
            x2 = np.int64(mul[x, g])
            c = cost + gen_weight[k]
            slot = _hash(x2, tmp) & np.uint64(tsize - 1)
            j = -1
            while table[slot] >= 0:
                cand = table[slot]
                if xs[cand] == x2:
                    same = True
                    for w in range(nw):
                        if sets[cand, w] != tmp[w]:
                            same = False
                            break
                    if same:
                        j = cand
                        break
                slot = (slot + np.uint64(1)) & np.uint64(tsize - 1)
            if j < 0:
                if count >= max_states:
                    return -1, -1, xs[:count], sets[:count], parent[:count], pgen[:count]
                if count == cap:
                    cap *= 2
                    xs = _grown(xs, cap, count, NONE)  # fills typed alike: one compile per array type
                    sets = _grown_rows(sets, cap, count)
                    best = _grown(best, cap, count, NONE)
                    parent = _grown(parent, cap, count, NONE)
                    pgen = _grown(pgen, cap, count, NONE)
                    done = _grown(done, cap, count, np.bool_(False))
                j = count
                count += 1
                xs[j] = x2
                _set_row(sets, j, tmp)
                best[j] = c
                parent[j] = i
                pgen[j] = k
                table[slot] = j
                heapq.heappush(queue, (c, np.int64(j)))
                if 2 * count > tsize:  # keep the open-addressing table at most half full
                    tsize *= 2
                    table = np.full(tsize, -1, np.int64)
                    for q in range(count):
                        s2 = _hash(xs[q], sets[q]) & np.uint64(tsize - 1)
                        while table[s2] >= 0:
                            s2 = (s2 + np.uint64(1)) & np.uint64(tsize - 1)
                        table[s2] = q
            elif not done[j] and c < best[j]:
                best[j] = c
                parent[j] = i
                pgen[j] = k
                heapq.heappush(queue, (c, np.int64(j)))
    return -1, count, xs[:count], sets[:count], parent[:count], pgen[:count]


@njit(cache=True)
def mark(mul, gen_elem, gen_weight, tmask):
    """P-portion guess: each element takes the misère outcome of its least word, options met first."""
    m = mul.shape[0]
    nw = tmask.shape[2]
    ng = gen_elem.shape[0]
    p = np.zeros(m, np.bool_)
    pmask = np.zeros(nw, np.uint64)
    final = np.zeros(m, np.bool_)
    best = np.full(m, np.iinfo(np.int64).max, np.int64)
    sets = np.zeros((m, nw), np.uint64)
    best[0] = 0
    queue = [(np.int64(0), np.int64(0))]
    tmp = np.zeros(nw, np.uint64)
    while len(queue):
        cost, x = heapq.heappop(queue)
        if final[x] or cost > best[x]:
            continue
        final[x] = True
        if x and _misere_p(sets[x], pmask):
            p[x] = True
            pmask[x >> 6] |= ONE << np.uint64(x & 63)
        for k in range(ng):
            g = gen_elem[k]
            y = mul[x, g]
            c = cost + gen_weight[k]
            if not final[y] and c < best[y]:
                _times_with(sets[x], mul, g, tmask[k, x], tmp)
                best[y] = c
                _set_row(sets, y, tmp)
                heapq.heappush(queue, (c, np.int64(y)))
    return p


@njit(cache=True)
def candidates(mul, p, pmask, xs, sets, tmask_row, alone_p):
    """Elements x that a new heap (options' classes given by tmask_row[y] = y·T) may pretend to be:
    right outcome alone and beside every known pair (y, O)."""
    m = mul.shape[0]
    nw = pmask.shape[0]
    out = np.zeros(m, np.bool_)
    tmp = np.zeros(nw, np.uint64)
    for x in range(m):
        if p[x] != alone_p:
            continue
        ok = True
        for i in range(xs.shape[0]):
            y = xs[i]
            _times_with(sets[i], mul, x, tmask_row[y], tmp)
            if p[mul[y, x]] != _misere_p(tmp, pmask):
                ok = False
                break
        out[x] = ok
    return out


loaded(globals())  # tells the front, once, when this module will compile on first use
share_compiles(globals())  # processes sharing the cache compile each function once
