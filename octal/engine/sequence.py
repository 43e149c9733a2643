"""The driver: grow a nim sequence in compact numpy storage, widen its dtype, time-slice for progress.

`GrundySequence` is the resumable state of one code; `nim_sequence` is the one-call API that also
finds and proves the period (geometric checkpoints, then straight to the Guy–Smith bound).
"""

from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..displays import HtmlRepr
from ..errors import InvalidArgumentError, ResourceLimitError
from ..io import check_writable, save_values
from ..rules.code import GENERAL, HEXADECIMAL, OCTAL, OctalCode
from ..rules.presets import Preset, as_code, resolve
from ..validate import positive, value_array, whole_number
from . import kernels
from .checkpoint import CheckpointError, Checkpointer, read_checkpoint
from .kernels import small
from .memory import available_memory, human_bytes
from .moves import count_cap, kernel_moves, tie_table
from .periodicity import APPARENT, PROVEN, Periodicity, exceptions, find_period as scan_values
from .rare import rare_split
from .sparse_run import LARGE_VALUE, NEW_RARE, RARE_FULL, WIDEN, RareList, SparseMoves, sparse_step

DTYPES = (np.uint8, np.uint16, np.uint32)
DEFAULT_N = 1000
DEFAULT_MAX_N = 2**24
FIRST_CHECKPOINT = 64
CHUNK_SECONDS = 0.2
AUTO_MIN_N = 2048  # below this the naive kernel always wins
GENERAL_MAX_N = 1 << 16  # the general kernel costs O(N² log N): beyond this a run would take hours

Progress = Callable[[int, int, int, str], None]
"""progress(heaps done, heaps wanted, largest value so far, kernel state in words)."""


def estimate_bytes(code: OctalCode, n: int, itemsize: int = 1) -> int:
    """Memory for n values: G and its reversed copy (octal), G and one 64-bit split bitset row per heap
    (hexadecimal), or G and the general kernel's four partition tables of J + 1 counts per heap."""
    if code.tier == HEXADECIMAL:
        return n * (itemsize + 8)
    if code.tier == GENERAL:
        return n * (itemsize + 4 * 8 * (count_cap(code) + 1))
    return 2 * n * itemsize


RESUMED = "resumed"  # the state a progress report names when a run starts from values computed before
RECHECK_ALL = 1024  # values handed in or read back: every heap below this is checked (all at once, in numpy)
RECHECK_SAMPLE = 48  # and this many heaps spread over the rest, each recomputed from the values below it
RECHECK_LAST = 16  # and the last ones, where a resumed run goes on from
RECHECK_PREFIX = 2048  # codes leaving three or more heaps: the first heaps recomputed whole instead


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
    m = min(n, RECHECK_ALL)
    bad = np.flatnonzero(small.mex_all(G, m, moves.whole, moves.one, two, tie2, eq) != G[:m])
    if len(bad):
        return int(bad[0])
    for h in recheck_heaps(n).tolist():
        stored = int(G[h])
        small.fill_octal(G, h, h + 1, 0, moves.whole, moves.one, two, tie2, eq, np.iinfo(np.int64).max)
        if int(G[h]) != stored:
            return h
    return None


def check_fits(code: OctalCode, n: int, itemsize: int = 1) -> None:
    """Refuse before allocating what cannot fit: ResourceLimitError names the need and what is free."""
    need = estimate_bytes(code, n, itemsize)
    have = available_memory()
    if need > 0.8 * have:
        raise ResourceLimitError(
            f"N = {n:,} needs about {human_bytes(need)} of memory for code {code}; "
            f"only {human_bytes(have)} is available"
        )


def check_general(code: OctalCode, n: int) -> None:
    """Refuse N beyond GENERAL_MAX_N for a code only the general kernel can run (its cost grows like N² log N)."""
    if code.tier == GENERAL and n > GENERAL_MAX_N:
        raise ResourceLimitError(
            f"{code} runs on the general kernel, whose cost grows like N² log N: at most {GENERAL_MAX_N:,} heaps, "
            f"not {n:,}")


KERNELS = ("auto", "naive", "sparse")


class GrundySequence(HtmlRepr):
    """G(0), G(1), … of one code, kept in the narrowest dtype that holds it; `extend` resumes from n.

    Three kernels fill it: the naive one (with a reversed copy R of G), the hexadecimal one (with
    split bitsets S2) and the sparse one (with the rare positions). `auto` times stretches of the run
    and moves to the sparse kernel once it is cheaper; the values are the same whichever runs.
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
        self._n = len(G)
        self._max = top

    @property
    def n(self) -> int:
        """How many heaps (0..n−1) are computed."""
        return self._n

    @property
    def values(self) -> np.ndarray:
        """The computed values G(0..n−1), a read-only view."""
        v = self._G[: self._n].view()
        v.flags.writeable = False
        return v

    @property
    def max_value(self) -> int:
        return self._max

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
            self._S2 = np.zeros((capacity, 1 if old is None else old.shape[1]), np.uint64)
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
        idx = DTYPES.index(G.dtype.type)
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
        if idx + 1 == len(DTYPES):
            raise ResourceLimitError(f"a nim value at heap {at} needs more than 32 bits")
        self._G = G.astype(DTYPES[idx + 1])
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

    def _rechoose_mask(self) -> None:
        """Pick the mask with the fewest rare positions (Walsh–Hadamard) and rebuild the rare list."""
        self._split = RareList.choose(self.values, self.code)
        self.mask, self.e, self.k0 = self._split.mask, self._split.e, self._split.k0

    def _run_sparse(self, stop, moves: SparseMoves):
        begin = self._n
        if self._split is None:
            self._rechoose_mask()
        small_values = self._max < kernels.SMALL
        while self._n < stop:
            self._n, self._max, why = sparse_step(self._split, moves, self._G, 0, self._G, self._n, stop, self._max,
                                                  small_values)
            if why == NEW_RARE:  # a rare value never seen before: maybe a better mask now
                self._rechoose_mask()
            elif why == WIDEN:
                self._widen(self._n)
            elif why == LARGE_VALUE:
                small_values = False
            elif why == RARE_FULL:
                self._split.grow()
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
            reached, top = kernels.fill_octal(self._G, self._reversed(), self._n, stop, self._max, whole, one, two,
                                              tie2, eq, limit)
        self._n, self._max = int(reached), int(top)
        self._split = None  # rare positions are rebuilt when the sparse kernel resumes
        if reached < stop:
            self._widen(int(reached))
        return compiled

    # ---- the driver ---------------------------------------------------------------------------
    def extend(self, n: int, progress: Progress | None = None) -> np.ndarray:
        """Compute up to heaps 0..n−1, reusing what is done; returns the values.

        Work goes in stretches of about CHUNK_SECONDS so progress can be shown and Ctrl-C lands between
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
                choice = self._auto_choice(cost, timed_at)
            # the general kernel's cost per heap grows with n: doubling stretches keep the calls few
            size = max(self._n, 256) if self.code.tier == GENERAL else self._stretch(choice, cost[choice])
            stop = min(n, self._n + size)
            begin = self._n
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
        return self.values

    def _stretch(self, kernel: str, cost: float | None) -> int:
        """Heaps for the next stretch: about CHUNK_SECONDS of work, never more than doubling n.

        The naive cost per heap grows like c·n, so L heaps cost c·(n·L + L²/2): L = √(n² + 2T/c) − n.
        """
        n = max(self._n, 1)
        if not cost:
            size = 1024
        elif kernel == "naive":
            size = int(math.sqrt(n * n + 2 * CHUNK_SECONDS / cost) - n)
        else:
            size = int(CHUNK_SECONDS / cost)
        return max(64, min(size, max(n, 1024), 1 << 24))

    def _auto_choice(self, cost: dict, timed_at: dict) -> str:
        """The kernel with the lower measured cost per heap here; the other is re-timed when n doubles."""
        if cost["sparse"] is None:
            return "sparse"
        if cost["naive"] is None:
            # the naive kernel reads about n/2 pairs per split digit and heap, the sparse one about #rare: with at most
            # n/4 rare positions it cannot win, so it is neither timed nor compiled (the first run compiles less)
            return "sparse" if 4 * len(self.rare) <= self._n else "naive"
        naive = cost["naive"] * self._n
        if cost["sparse"] <= naive:
            # the naive cost only grows with n: once four times dearer it is not worth timing again
            if naive >= 4 * cost["sparse"]:
                self._R = None  # the naive kernel's reversed copy is not coming back: free it
                return "sparse"
            return "naive" if timed_at["naive"] * 2 <= self._n else "sparse"
        return "sparse" if timed_at["sparse"] * 2 <= self._n else "naive"


def _naive_loaded() -> bool:
    """Whether the compiled naive kernel is loaded in this process (a census, a notebook): then it is the cheaper one."""
    return "octal.engine.kernels.naive" in sys.modules


def load_checkpoint(directory: str | os.PathLike, code: OctalCode, kernel: str = "auto") -> GrundySequence | None:
    """The sequence saved in DIR for `code`, resumed with its rare/common state, or None when DIR holds none."""
    saved = read_checkpoint(directory, code)
    if saved is None:
        return None
    try:
        seq = GrundySequence(code, saved.values, kernel=kernel)
    except InvalidArgumentError as exc:
        raise CheckpointError(f"checkpoint in {directory} does not follow the rules of {code}: "
                              f"{str(exc).partition(': ')[2]}; move it away to start over") from None
    seq.restore_rare(saved.mask, saved.e, saved.k0, saved.rare)
    return seq


@dataclass
class NimSequence(HtmlRepr):
    """A computed nim sequence and its periodicity verdict (what `octal run` prints)."""

    code: OctalCode
    name: str | None
    values: np.ndarray
    periodicity: Periodicity

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def max(self) -> int:
        return int(self.values.max()) if self.n else 0

    @property
    def argmax(self) -> int:
        """The first heap where the largest value occurs."""
        return int(np.argmax(self.values)) if self.n else 0

    def __repr__(self) -> str:
        name = f" ({self.name})" if self.name else ""
        return f"NimSequence({self.code}{name}: {self.n:,} values, max {self.max}; {self.periodicity.describe()})"

    def value(self, heap: int) -> int:
        """G(heap), through the proven period beyond the computed range."""
        if heap < 0:
            raise InvalidArgumentError(f"heap sizes are non-negative, not {heap}")
        return self.periodicity.value(self.values, heap)

    @property
    def exceptions(self) -> list[int]:
        """Heaps before the period whose value differs from their residue class's periodic value (Winning Ways)."""
        return exceptions(self.values, self.periodicity)

    def to_dict(self, values: bool = False) -> dict:
        """The `--json` shape: code, name, n, max, period, preperiod, saltus, status, proof_bound, exceptions
        [, values]."""
        p = self.periodicity
        out = {
            "code": str(self.code),
            "name": self.name,
            "n": self.n,
            "max": self.max,
            "period": p.period,
            "preperiod": p.preperiod,
            "saltus": p.saltus,
            "status": p.status,
            "proof_bound": p.proof_bound,
            "exceptions": self.exceptions,
        }
        if values:
            out["values"] = self.values.tolist()
        return out


def nim_sequence(
    game: str | OctalCode | Preset,
    n: int | None = None,
    *,
    until_proven: bool = False,
    max_n: int = DEFAULT_MAX_N,
    kernel: str = "auto",
    progress: Progress | None = None,
    resume: GrundySequence | np.ndarray | None = None,
    checkpoint: str | os.PathLike | None = None,
    checkpoint_every: float = 5.0,
    out: str | os.PathLike | None = None,
) -> NimSequence:
    """Compute G(0..n−1) of a code or preset and its period; `until_proven` grows N until Guy–Smith proves it.

    With `until_proven`, N grows geometrically (64, 128, …) and jumps straight to the proof bound once a
    period appears, stopping at once when proven or at `max_n`. `resume` reuses values already computed;
    `checkpoint` names a folder whose saved state is resumed and which is re-saved every
    `checkpoint_every` seconds, at the end, and on Ctrl-C. `out` names a values file (.npy, .csv, .json; checked
    before computing) written at the end, or on Ctrl-C with the values computed so far ("complete": false). On
    Ctrl-C the KeyboardInterrupt carries what was computed as `partial` (a NimSequence), whatever was asked.
    """
    code, preset = resolve(game)
    if n is not None:
        n = whole_number(n, "N (the number of heaps)", 1)
    max_n = whole_number(max_n, "--max-n", 1)
    if code.tier == GENERAL:
        check_general(code, n or 0)
        max_n = min(max_n, GENERAL_MAX_N)  # --until-proven stops there (it cannot prove such a code anyway)
    checkpoint_every = positive(checkpoint_every, "--checkpoint-every")
    if out is not None:
        check_writable(out)
    want = n if n is not None else (0 if until_proven else DEFAULT_N)
    check_fits(code, max(want, 1))
    saver = None
    if isinstance(resume, GrundySequence):
        seq = resume
    else:
        seq = None
        if checkpoint is not None and resume is None:
            seq = load_checkpoint(checkpoint, code, kernel)
        if seq is None:
            seq = GrundySequence(code, resume, kernel=kernel)
    if checkpoint is not None:
        saver = Checkpointer(checkpoint, checkpoint_every)
        outer = progress

        def progress(done: int, total: int, largest: int, state: str = "") -> None:
            saver.maybe(seq)
            if outer is not None:
                outer(done, total, largest, state)

    name = preset.name if preset else None
    if progress is not None and seq.n:
        progress(seq.n, max(want, seq.n), seq.max_value, RESUMED)  # where a resumed run starts
    try:
        result = NimSequence(code, name, *_compute(seq, code, want, until_proven, max_n, progress))
    except KeyboardInterrupt as e:  # nothing computed is lost: the state, the values asked for, and the caller's copy
        if saver is not None:
            saver.now(seq)
        e.partial = NimSequence(code, name, seq.values.copy(), Periodicity())
        if out is not None and seq.n:
            save_values(out, seq.values, {"code": str(code), "n": seq.n, "complete": False})
        raise
    if saver is not None:
        saver.now(seq)
    if out is not None:
        save_values(out, result.values, result.to_dict())
    return result


def _compute(seq: GrundySequence, code: OctalCode, want: int, until_proven: bool, max_n: int, progress):
    """(values, periodicity): `want` values, or growth until proven (see nim_sequence)."""
    if not until_proven:
        values = seq.extend(want, progress)[:want]
        return values, scan_values(values, code)
    target = max(want, min(FIRST_CHECKPOINT, max_n))
    while True:
        seq.extend(target, progress)
        verdict = scan_values(seq.values, code)
        if verdict.status == PROVEN or target >= max_n:
            return seq.values, verdict
        if verdict.status == APPARENT and verdict.proof_bound is None:
            return seq.values, verdict  # no theorem applies (repeating tail, arithmetic period): stop here
        if verdict.status == APPARENT and verdict.proof_bound is not None and verdict.proof_bound > target:
            target = min(verdict.proof_bound, max_n)  # straight to the Guy–Smith bound
            continue
        # a period seen once past its preperiod (over at least 32 heaps) is worth trying if it is near
        hint = scan_values(seq.values, code, repeats=1, min_agree=32, share=0.0)
        if hint.status == APPARENT and hint.proof_bound is not None and target < hint.proof_bound <= 2 * target:
            target = min(hint.proof_bound, max_n)
        else:
            target = min(2 * target, max_n)


def find_period(values: np.ndarray, code: OctalCode | str | None = None, repeats: int = 3, min_agree: int = 0,
                share: float = 1.0) -> Periodicity:
    """The period of `values` (see periodicity.find_period); "proven" only when they are the code's own sequence.

    The Guy–Smith theorem proves a period of the code's sequence, not of any array: so a proven verdict is
    given only after G(0..bound−1) is computed from the rules and found equal to the values handed in;
    otherwise the verdict is the one the values earn without a code (apparent at best).
    """
    verdict = scan_values(values, code, repeats, min_agree, share)
    if verdict.status != PROVEN:
        return verdict
    bound = verdict.proof_bound
    own = GrundySequence(as_code(code)).extend(bound)
    if np.array_equal(own.astype(np.int64), np.asarray(values[:bound], np.int64)):
        return verdict
    return scan_values(values, None, repeats, min_agree, share)
