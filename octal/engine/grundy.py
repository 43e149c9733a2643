"""The resumable nim sequence of one code, G(0), G(1), …, grown in compact numpy storage by the kernel that is
cheapest there (kernel_choice.py), widened in dtype as values grow; and the recheck of values handed to it or read
back from a file, by the mex recurrence (a checksum proves a file unchanged, not right)."""

from __future__ import annotations

import time

import numpy as np

from ..displays import HtmlRepr
from ..errors import InvalidArgumentError, ResourceLimitError
from ..rules.code import GENERAL, HEXADECIMAL, OCTAL, OctalCode
from ..rules.presets import as_code
from ..validate import value_array, whole_number
from . import kernels
from .kernel_choice import AUTO_MIN_N, KERNELS, PROBE_SHARE, auto_choice, dearer, sparse_hopeless, stretch
from .kernels import small
from .memory import check_fits as check_memory
from .moves import count_cap, kernel_moves, tie_table
from .rare import rare_split
from .sparse_run import NARROW, RareList, SparseMoves, sparse_fill
from .threads import current_choice
from .values import DTYPES, Progress, narrowest, wider

GENERAL_MAX_N = 1 << 16  # the general kernel costs O(N² log N): beyond this a run would take hours


def estimate_bytes(code: OctalCode, n: int, itemsize: int = 1) -> int:
    """Memory for n values: G and its reversed copy (octal), G and one 64-bit split bitset row per heap
    (hexadecimal), or G and the general kernel's four partition tables of J + 1 counts per heap."""
    if code.tier == HEXADECIMAL:
        return n * (itemsize + 8)
    if code.tier == GENERAL:
        return n * (itemsize + 4 * 8 * (count_cap(code) + 1))
    return 2 * n * itemsize


RECHECK_ALL = 1024  # values handed in or read back: every heap below this is checked (all at once, in numpy)
RECHECK_SAMPLE = 48  # and this many heaps spread over the rest, each recomputed from the values below it
RECHECK_LAST = 16  # and the last ones, where a resumed run goes on from
RECHECK_PREFIX = 512  # codes leaving three or more heaps: the first heaps recomputed whole instead (a census of
# 3,584 hexadecimal rows reads them all: 512 heaps cost ~10 ms a row, 2,048 up to 0.5 s)


def recheck_heaps(n: int) -> np.ndarray:
    """The heaps from RECHECK_ALL on that `first_wrong_value` recomputes one by one: RECHECK_SAMPLE spread evenly
    over 0..n−1, and the last RECHECK_LAST."""
    spread = np.linspace(0, n - 1, min(n, RECHECK_SAMPLE)).astype(np.int64)
    heaps = np.unique(np.concatenate([spread, np.arange(max(0, n - RECHECK_LAST), n)]))
    return heaps[heaps >= RECHECK_ALL]


def first_wrong_value(code: OctalCode, values: np.ndarray) -> int | None:
    """The first heap whose stored value the rules contradict, or None: a checksum proves a file unchanged, not right.

    Octal codes: every heap below RECHECK_ALL is checked at once (`small.mex_all`), then the heaps of
    `recheck_heaps`, each G(h) recomputed as the mex of its options from the stored G(0..h−1) (O(h) in numpy, so a
    million values cost a fraction of a second). Past RECHECK_ALL this is a sample: a value changed at a heap it does
    not read can pass (the checksum is there for accidents; this is for edits). Other codes are recomputed whole over
    their first RECHECK_PREFIX heaps.
    """
    n = len(values)
    if n == 0:
        return None
    if code.tier != OCTAL:
        m = min(n, RECHECK_PREFIX)
        ref = GrundySequence(code).extend(m)
        bad = np.flatnonzero(ref.astype(np.int64) != np.asarray(values[:m], np.int64))
        return int(bad[0]) if len(bad) else None
    G = np.asarray(values, np.int64).copy()
    moves = kernel_moves(code, n)
    two, tie2, eq = moves.octal_split()
    # a mex is at least 0 and at most the number of options: a value outside is wrong wherever it stands (and the
    # compiled check below sizes its marks by the values it reads, so a forged huge value must not reach it)
    options = len(moves.whole) + len(moves.one) + len(eq) + len(two) * (np.arange(n) // 2)
    over = np.flatnonzero((G > options) | (G < 0))
    if len(over):
        return int(over[0])
    m = min(n, RECHECK_ALL)
    top = np.iinfo(np.int64).max
    if _naive_loaded():  # compiled (a census reads thousands of rows): the same recurrence, ~50× cheaper than numpy
        # in the narrowest dtype, as a run holds them: the compiled kernel then runs as compiled for runs, not again
        # for int64; a recomputed value past the dtype differs from every stored one (the kernel stops before it)
        G = narrowest(G, int(G.max()))
        top = int(np.iinfo(G.dtype).max)
        head = np.zeros(m, G.dtype)  # one thread: small work never goes parallel (a census checks thousands)
        reached, _ = kernels.fill_octal(head, np.zeros(m, G.dtype), 0, m, 0, moves.whole, moves.one, two, tie2, eq,
                                        top, 1)
        bad = np.flatnonzero(head[:reached] != G[:reached])
        if not len(bad) and reached < m:
            return int(reached)
    else:
        bad = np.flatnonzero(small.mex_all(G, m, moves.whole, moves.one, two, tie2, eq) != G[:m])
    if len(bad):
        return int(bad[0])
    R = G[::-1].copy() if _naive_loaded() else None
    largest = np.maximum.accumulate(G)  # the compiled kernel sizes its marks by the largest value below h
    for h in recheck_heaps(n).tolist():
        stored = int(G[h])
        if R is None:
            small.fill_octal(G, h, h + 1, 0, moves.whole, moves.one, two, tie2, eq, top)
        else:  # G(h) recomputed from the stored values below it (they are unchanged: each failure returns at once)
            reached, _ = kernels.fill_octal(G, R, h, h + 1, int(largest[h - 1]) if h else 0, moves.whole, moves.one,
                                            two, tie2, eq, top, 1)
            if reached == h:  # its value does not fit the stored values' dtype: not the stored value
                return h
        if int(G[h]) != stored:
            return h
    return None


def check_fits(code: OctalCode, n: int, itemsize: int = 1) -> None:
    """Refuse before allocating what cannot fit: ResourceLimitError names the need and what is free."""
    check_memory(estimate_bytes(code, n, itemsize), f"N = {n:,} for code {code}")


def check_general(code: OctalCode, n: int) -> None:
    """Refuse N beyond GENERAL_MAX_N for a code only the general kernel can run (its cost grows like N² log N)."""
    if code.tier == GENERAL and n > GENERAL_MAX_N:
        raise ResourceLimitError(
            f"{code} runs on the general kernel, whose cost grows like N² log N: at most {GENERAL_MAX_N:,} heaps, "
            f"not {n:,}")


class GrundySequence(HtmlRepr):
    """G(0), G(1), … of one code, kept in the narrowest dtype that holds it; `extend` resumes from n.

    Five kernels fill it: the numpy one (kernels/small.py, short runs: nothing to compile), the compiled naive one
    (with a reversed copy R of G), the hexadecimal one (three heaps, with split bitsets S2), the general one
    (constraints and open counts, with partition tables) and the sparse one (rare/common, in its word and stamp
    forms). `auto` times stretches of the run and moves to the sparse kernel once it is cheaper; the values are the
    same whichever runs.
    """

    def __init__(self, code: OctalCode | str, values: np.ndarray | None = None, kernel: str = "auto"):
        code = as_code(code)
        if kernel not in KERNELS:
            raise InvalidArgumentError(f"unknown kernel {kernel!r}: choose one of {', '.join(KERNELS)}")
        if kernel == "sparse" and code.tier != OCTAL:
            raise InvalidArgumentError(
                f"the sparse kernel cannot run {code}: splits into three or more heaps break the rare/common argument"
            )
        self.code = code
        self.kernel = kernel
        self._G = np.zeros(0, np.uint8)
        self._R: np.ndarray | None = None
        self._S2: np.ndarray | None = None
        self._words = 1  # the general kernel's bitset width
        self._tables = None  # the general kernel's partition tables (see _general_tables)
        self._target = 0  # the heap count the current extend() is computing to
        self._n = 0
        self._max = 0
        # sparse state: mask, parity bit, rare positions and their values
        self.mask, self.e, self.k0 = 0, 0, 0
        self._split: RareList | None = None  # the sparse kernel's rare list (None: rebuilt when it next runs)
        self._short = False
        self.last_kernel = "naive"
        self.seeded = 0  # heaps 0..seeded−1 came from outside (a file, a caller) and were checked on a sample only
        if values is not None:
            self._seed(values)

    def __repr__(self) -> str:
        return f"GrundySequence({self.code}: {self.n:,} values computed, max {self.max_value}, {self.values.dtype})"

    def _seed(self, values: np.ndarray) -> None:
        G = value_array(values, "seed values")  # the narrowest unsigned dtype
        top = int(G.max()) if len(G) else 0
        if G.dtype.type not in DTYPES:
            raise ResourceLimitError(f"value {top} does not fit in 32 bits")
        wrong = first_wrong_value(self.code, G)
        if wrong is not None:
            raise InvalidArgumentError(f"the values handed in are not those of {self.code}: G({wrong:,}) = "
                                       f"{int(G[wrong])} is not the mex of its options")
        self._G = G.copy()
        self._n = self.seeded = len(G)
        self._max = top

    def check_seed(self, upto: int) -> int | None:
        """Recompute heaps 0..min(upto, seeded)−1 from the rules and compare them with the values seeded: the first
        that differs, or None (and those heaps count as computed here from now on). A proof resting on seeded
        values asks this first: the sample checked on seeding passes a value changed where it does not look."""
        m = min(upto, self.seeded)
        if m <= 0:
            return None
        own = GrundySequence(self.code, kernel=self.kernel).extend(m)
        bad = np.flatnonzero(own.astype(np.int64) != self._G[:m].astype(np.int64))
        if len(bad):
            return int(bad[0])
        self.seeded = 0 if m == self.seeded else self.seeded
        return None

    n = property(lambda self: self._n, doc="How many heaps (0..n−1) are computed.")
    max_value = property(lambda self: self._max, doc="The largest value computed so far.")

    @property
    def values(self) -> np.ndarray:
        """The computed values G(0..n−1), a read-only view."""
        v = self._G[: self._n].view()
        v.flags.writeable = False
        return v

    @property
    def rare(self) -> np.ndarray:
        """Rare positions under the current mask (sparse kernel state; empty before it has run)."""
        return np.zeros(0, np.int64) if self._split is None else self._split.positions[: self._split.count]

    # ---- storage ----------------------------------------------------------------------------
    def _grow(self, capacity: int) -> None:
        """Reallocate G for `capacity` heaps, keeping what is computed; auxiliary arrays follow lazily."""
        dtype = self._G.dtype
        check_fits(self.code, capacity, dtype.itemsize)
        G = np.zeros(capacity, dtype)
        G[: self._n] = self._G[: self._n]
        self._G = G
        self._R = None
        if self.code.tier == HEXADECIMAL:
            old = self._S2
            width = 1 if old is None else old.shape[1]
            while 64 * width <= self._max:  # seeded values: bitsets wide enough for every nim-sum of two of them
                width *= 2
            self._S2 = np.zeros((capacity, width), np.uint64)
            if old is not None:
                self._S2[: self._n] = old[: self._n]  # split bitsets of computed heaps stay valid
            else:
                kernels.split_sets(self._G, self._S2, 0, self._n)

    def _reversed(self) -> np.ndarray:
        """R with R[len(G)−1−n] = G(n), built when the naive kernel first needs it."""
        cap = len(self._G)
        if self._R is None or len(self._R) != cap or self._R.dtype != self._G.dtype:
            R = np.zeros(cap, self._G.dtype)
            if self._n:
                R[cap - self._n :] = self._G[: self._n][::-1]
            self._R = R
        return self._R

    def _general_tables(self, ties: np.ndarray, stop: int) -> tuple:
        """The general kernel's partition tables, kept from stretch to stretch (M, D, next size to fold, largest
        count); built afresh, for totals up to the run's target, when the bitsets widen or the counts change."""
        jmax = kernels.largest_count(ties)
        t = self._tables
        if t is None or t[0].shape[2] < stop or t[3] != jmax:
            M, D = kernels.general_tables(ties, max(stop, self._target), self._words)
            return M, D, 1, jmax
        M, D, folded, _ = t
        if M.shape[3] != self._words:  # wider bitsets hold the same sets: copy them over, no folding again
            M2, D2 = kernels.general_tables(ties, M.shape[2], self._words)
            M2[..., : M.shape[3]] = M
            D2[..., : D.shape[2]] = D
            return M2, D2, folded, jmax
        return t

    def _widen(self, at: int) -> None:
        """The value at heap `at` does not fit: move to the next dtype, or to wider split bitsets."""
        G = self._G
        limit = int(np.iinfo(G.dtype).max)
        if self.code.tier == GENERAL and self._words * 64 <= limit:
            self._words *= 2
            check_fits(self.code, len(G), G.dtype.itemsize + (self._words - 1) * 4 * 8 * (count_cap(self.code) + 1))
            return
        if self.code.tier == HEXADECIMAL and self._S2 is not None and self._S2.shape[1] * 64 <= limit + 1:
            width = self._S2.shape[1] * 2
            check_fits(self.code, len(G), G.dtype.itemsize + 8 * width - 8)
            self._S2 = np.zeros((len(G), width), np.uint64)
            kernels.split_sets(G, self._S2, 0, at)
            return
        self._G = wider(G, at)
        self._R = None

    # ---- the sparse kernel's state ----------------------------------------------------------
    def restore_rare(self, mask: int, e: int, k0: int, positions: np.ndarray) -> None:
        """Take a saved rare/common state (checked against the values) instead of recomputing it."""
        if len(positions) == 0:
            return
        split = rare_split(self.values, self.code, mask, e, k0)
        if not np.array_equal(split.positions, positions):
            return  # a mismatch is simply recomputed when the sparse kernel runs
        self.mask, self.e, self.k0 = mask, e, k0
        self._split = RareList.holding(mask, e, k0, positions, self._G[positions])

    def status(self) -> str:
        """A few words on the kernel state for progress lines: kernel, rare count, mask."""
        if self.last_kernel == "sparse":
            return f"sparse · rare {len(self.rare):,} · mask {self.mask:#x}" + (" +parity" if self.e else "")
        return self.last_kernel

    def _fewest_rare(self) -> int:
        """The rare positions among the values so far under the mask that makes fewest (what the sparse kernel would
        start from)."""
        return len(rare_split(self.values, self.code).positions)

    def _rechoose_mask(self) -> None:
        """Pick the mask with the fewest rare positions (Walsh–Hadamard) and rebuild the rare list."""
        self._split = RareList.choose(self.values, self.code)
        self.mask, self.e, self.k0 = self._split.mask, self._split.e, self._split.k0

    # the sparse run's store (sparse_run.SparseStore): one array from heap 0, widened in place as values grow
    compact = False  # uint16 for the stamp kernel: one compile on a first run (sparse_run.sparse_dtype)

    def sparse_arrays(self) -> tuple[np.ndarray, int, np.ndarray]:
        return self._G, 0, self._G

    def sparse_computed(self, begin: int, end: int, maxv: int) -> None:
        self._n, self._max = end, maxv

    def sparse_new_rare(self) -> RareList:
        self._rechoose_mask()
        return self._split

    def sparse_blocked(self, why: int, at: int) -> bool:
        if why == NARROW:  # every value so far is below 64
            self._G = self._G.astype(np.uint8)
        else:
            self._widen(at)  # WIDEN: every value is held, so the kernel never stops for a gap
        return True

    def _run_sparse(self, stop: int, moves: SparseMoves) -> None:
        """One stretch on the sparse kernel, from the split extend() chose (its timing leaves that choice out)."""
        begin = self._n
        self._n, self._max, self._split, _ = sparse_fill(self, self._split, moves, self._n, stop, self._max)
        if self._R is not None and len(self._R) == len(self._G) and self._R.dtype == self._G.dtype:
            cap = len(self._G)  # keep the naive kernel's reversed copy in step
            self._R[cap - self._n : cap - begin] = self._G[begin : self._n][::-1]
        else:
            self._R = None

    def _run_dense(self, stop, whole, one, two, tie2, eq, three) -> bool:
        """One stretch on a dense kernel; True when it ran compiled (a numpy stretch's time says nothing of it)."""
        compiled = True
        limit = int(np.iinfo(self._G.dtype).max)
        if self.code.tier == GENERAL:
            ties = tie_table(self.code, stop)
            M, D, folded, jmax = self._general_tables(ties, stop)
            reached, top, folded = kernels.fill_general_from(self._G, self._n, stop, self._max, ties, M, D, folded,
                                                             jmax, limit)
            self._tables = (M, D, folded, jmax)
        elif self.code.tier == HEXADECIMAL:
            reached, top = kernels.fill_hex(self._G, self._S2, self._n, stop, self._max, whole, one, two, three, limit)
        elif self._short or (self._n < AUTO_MIN_N and not _naive_loaded()):  # a short run, or the head of a long one
            # while the compiled naive kernel is not loaded: numpy, nothing to compile for heaps the sparse kernel takes
            reached, top = small.fill_octal(self._G, self._n, stop, self._max, whole, one, two, tie2, eq, limit)
            self._R = None  # the compiled kernel rebuilds its reversed copy if it takes over
            compiled = False
        else:
            reached, top = self._run_naive(stop, whole, one, two, tie2, eq, limit)
        self._n, self._max = int(reached), int(top)
        self._split = None  # rare positions are rebuilt when the sparse kernel resumes
        if reached < stop:
            self._widen(int(reached))
        return compiled

    def _run_naive(self, stop, whole, one, two, tie2, eq, limit) -> tuple[int, int]:
        """The compiled naive kernel towards stop, in the pieces the run's ThreadChoice times, each on the thread count
        it picks (its cost per heap grows like n); (heap reached, largest value)."""
        choice = current_choice()
        n, top = self._n, self._max
        while n < stop:
            threads, end = choice.piece("naive", n, stop, scale=n)
            kernels.set_threads(threads)
            t0, c0 = time.perf_counter(), time.thread_time()
            fill = kernels.fill_octal if threads == 1 else kernels.fill_octal_parallel
            reached, top = fill(self._G, self._reversed(), n, end, top, whole, one, two, tie2, eq, limit, threads)
            choice.record("naive", threads, int(reached) - n, time.perf_counter() - t0, scale=(n + reached) / 2,
                          cpu=time.thread_time() - c0)
            if reached < end:
                return int(reached), int(top)
            n = int(reached)
        return n, int(top)

    # ---- the driver ---------------------------------------------------------------------------
    def extend(self, n: int, progress: Progress | None = None) -> np.ndarray:
        """Compute up to heaps 0..n−1, reusing what is done; returns the values.

        Work goes in stretches of about kernel_choice.CHUNK_SECONDS so progress can be shown and Ctrl-C lands between
        stretches. With kernel="auto", the cost per heap of each kernel is measured on real stretches:
        the naive cost grows with n, the sparse one with the rare count, so the cheaper one runs.
        """
        n = whole_number(n, "the number of heaps")
        if n <= self._n:
            return self.values
        check_general(self.code, n)
        self._target = n
        if len(self._G) < n:
            self._grow(n)
        moves = kernel_moves(self.code, n)
        whole, one, three = moves.whole, moves.one, moves.three
        two, tie2, eq = moves.octal_split()
        sparse_moves = SparseMoves(whole, one, two, tie2, eq)
        can_sparse = self.code.tier == OCTAL and len(two) > 0
        # a short run stays on one kernel: numpy, unless the compiled one is loaded already (a census, a notebook)
        self._short = n <= small.MAX_N and not _naive_loaded()
        auto = self.kernel == "auto" and can_sparse and not self._short
        choice = "sparse" if self.kernel == "sparse" else "naive"
        # measured seconds per heap (naive: per heap and per unit of heap size, its cost grows with n)
        cost: dict[str, float | None] = {"naive": None, "sparse": None}
        timed_at = {"naive": 0, "sparse": 0}
        while self._n < n:
            if auto and self._n >= AUTO_MIN_N:
                choice, naive_out = auto_choice(cost, timed_at, self._n, len(self.rare))
                if choice == "sparse" and cost["sparse"] is None and sparse_hopeless(self._fewest_rare(), self._n):
                    choice, timed_at["sparse"] = "naive", self._n  # looked at again when the run has doubled
                if naive_out:
                    self._R = None  # the naive kernel's reversed copy is not coming back: free it
            # the general kernel's cost per heap grows with n: doubling stretches keep the calls few
            size = max(self._n, 256) if self.code.tier == GENERAL else stretch(choice, cost[choice], self._n)
            if auto and choice == dearer(cost, self._n):
                size = max(64, size // PROBE_SHARE)
            stop = min(n, self._n + size)
            begin = self._n
            if choice == "sparse" and self._split is None:
                self._rechoose_mask()  # once per switch from a dense kernel, not per heap: left out of the timing
            t0 = time.perf_counter()
            timed = True
            if choice == "sparse":
                self._run_sparse(stop, sparse_moves)
            else:
                timed = self._run_dense(stop, whole, one, two, tie2, eq, three)
            dt = time.perf_counter() - t0
            done = self._n - begin
            self.last_kernel = choice
            if done > 0 and timed:
                per = max(dt, 1e-6) / done
                cost[choice] = per / max(self._n, 1) if choice == "naive" else per
                timed_at[choice] = self._n
            if progress is not None:
                progress(self._n, n, self._max, self.status())
        self._G = narrowest(self._G, self._max)  # the stamp kernel's uint16 (sparse_dtype), or uint8 again
        return self.values


def _naive_loaded() -> bool:
    """Whether the compiled naive kernel is loaded in this process (a census, a notebook): then it is the cheaper
    one."""
    return kernels.compiled_loaded("naive")
