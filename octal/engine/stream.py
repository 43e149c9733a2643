"""Stream runs: the rare/common kernel over a sliding window, for sequences too long to hold in memory.

Memory holds the head G(0..S−1) (the split pairs (a, m − a) read G(a) for small a), a window of the newest heaps (at
least S, and always the largest rare position plus the largest removal, so every rare pair G(r) ⊕ G(m − r) is at
hand), the rare positions with their values, and the value counts. Values older than the window leave memory; with
`store=True` they are first written to checksummed chunks (`chunks.py`) that `read_values` reads back. Counts over
heaps 1..2^k are recorded at every power of two (DIR/frequencies.json), the period is tracked online (`OnlinePeriod`)
and proven by Guy–Smith as soon as the bound is reached, and the whole state is checkpointed to DIR every few seconds.
A heap whose scan of split pairs needs a value no longer held stops the run with StreamGapError (or, with stored
values, widens head and window from disk and goes on).
"""

from __future__ import annotations

import dataclasses
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from ..defaults import CHECKPOINT_EVERY, RUN_MAX_N, RUN_N, STREAM_WINDOW
from ..errors import InvalidArgumentError, ResourceLimitError
from ..rules.code import OCTAL, OctalCode
from ..rules.presets import resolve
from ..validate import positive, whole_number
from . import kernels
from .chunks import ChunkStore
from .grundy import first_wrong_value
from .memory import check_fits
from .moves import kernel_moves
from .periodicity import PROVEN, OnlinePeriod, Periodicity, judge, proof_bound
from .sparse_run import WIDEN, RareList, RecomputeStore, SparseMoves, sparse_dtype, sparse_fill
from .stream_result import StreamResult  # noqa: F401 (octal.StreamResult is read from here)
from .stream_state import (
    StreamState,
    StreamStateError,
    chunk_difference,
    held_counts,
    read_frequencies,
    read_stream,
    read_values,
    recount,
    save_stream,
    state_difference,
    write_frequencies,
)
from .threads import check_threads, using_threads
from .values import Progress, wider

DEFAULT_WINDOW = STREAM_WINDOW
MIN_WINDOW = 1 << 8
PERIOD_SPAN = 1 << 21  # the online period search reads at most the newest 2^21 heaps: periods up to PERIOD_SPAN/6
STRETCH_SECONDS = 0.2
# what a stream run's frequency table rests on: every value (counted as computed, or recounted from the values on
# disk or in memory), or the checkpoint's counts for heaps that left memory unstored (held against the rest only)
COUNTED = "every value, counted"
FROM_FILE = "the checkpoint's counts of heaps no longer held (values not stored)"


class StreamGapError(ResourceLimitError):
    """A heap needs a value that has left memory and was not stored."""


def check_streamable(code: OctalCode) -> None:
    """Stream runs need the sparse kernel's moves fixed in advance: a finite octal code."""
    if code.tier != OCTAL or not code.is_finite:
        raise InvalidArgumentError(
            f"stream mode runs finite octal codes (at most two heaps left, no repeating tail); {code} is not one")


class StreamRun:
    """The resumable state of one stream run in DIR (see the module docstring)."""

    compact = True  # a sparse store that keeps uint8 values for the stamp kernel too (sparse_run.sparse_dtype)

    def __init__(self, code: OctalCode, directory: str | os.PathLike, window: int = DEFAULT_WINDOW,
                 store: bool = False):
        check_streamable(code)
        window = whole_number(window, "--window", MIN_WINDOW)
        check_fits(4 * window, f"--window {window:,}")  # head and a buffer of twice the window, a byte a value
        self.code = code
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InvalidArgumentError(f"cannot create stream folder {self.directory}: {exc.strerror}") from None
        moves = kernel_moves(code, len(code.digits) + 1)
        self.moves = SparseMoves(moves.whole, moves.one, *moves.octal_split())
        self.kmax = int(moves.one[-1]) if len(moves.one) else 0
        saved = read_stream(self.directory, str(code))
        self.counts_from = COUNTED
        if saved is None:
            saved = StreamState(str(code), 0, 0, window, np.zeros(0, np.uint8), np.zeros(0, np.uint8),
                                np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(1, np.int64), stored=store)
        else:
            if not saved.signed:  # not this user's own file: made again from heap 0, in full
                saved = self._made_again(saved)
            else:
                # the signature shows the file unchanged since octal wrote it; against accidents, the values held
                # from heap 0 (the head, or the window while nothing has left memory) must follow the rules (the mex
                # recurrence, on a sample of heaps)
                held = saved.window if saved.base == 0 else saved.head
                wrong = first_wrong_value(code, held)
                if wrong is not None:
                    raise StreamStateError(f"the stream state in {self.directory} does not follow the rules of {code}: "
                                           f"G({wrong:,}) = {int(held[wrong])} is not the mex of its options; move "
                                           "it away to start over")
            if saved.stored:
                recount(saved, self.directory)  # the table rests on the stored values, not on the file's counts
            elif not held_counts(saved)[1]:
                self.counts_from = FROM_FILE  # held against the values in memory as lower bounds only
        if store and not saved.stored:
            if saved.base > 0:
                raise InvalidArgumentError(
                    f"the run in {self.directory} did not store its values and some have left memory: "
                    "--store-values must be given from the start")
            saved.stored = True
        self._restore(saved)
        wrong = self._first_wrong_in_window() if self.frozen else None
        if wrong is not None:
            raise StreamStateError(f"the stream state in {self.directory} does not follow the rules of {code}: the "
                                   f"kernel, run again from the state before heap {wrong:,}, does not give its stored "
                                   "value; move it away to start over")

    def _made_again(self, saved: StreamState) -> StreamState:
        """A state this user did not sign (another user's, or edited and re-hashed): the run is made again from heap 0
        in a scratch folder, as costly as the run itself, and must say the same of the values (`state_difference`,
        `chunk_difference`); the fresh run's own state is the one resumed from."""
        with tempfile.TemporaryDirectory(prefix="octal-check-") as scratch:
            fresh = StreamRun(self.code, scratch, saved.size, store=saved.stored)
            fresh.extend(saved.n)
            if saved.stored:
                fresh.save()  # its own chunks, every heap done: the saved ones are held against them one by one
            again = fresh.state()
            why = (chunk_difference(ChunkStore(self.directory, saved.chunks), fresh.store) if saved.stored
                   else None) or state_difference(saved, again)
        if why is not None:
            raise StreamStateError(f"the stream state in {self.directory} is not what the rules of {self.code} give: "
                                   f"{why} (it carries no signature of this user's, so it was checked in full); move "
                                   "it away to start over")
        return dataclasses.replace(again, stored=saved.stored, chunks=saved.chunks, signed=True)

    # ---- state ----------------------------------------------------------------------------------
    def _restore(self, s: StreamState) -> None:
        self.size, self.n, self.base, self.max = s.size, s.n, s.base, s.max
        self.period = OnlinePeriod(s.period, s.preperiod)
        self.records = list(s.records)
        self.store = ChunkStore(self.directory, s.chunks) if s.stored else None
        dtype = sparse_dtype(np.result_type(s.window.dtype, s.head.dtype), s.max >= kernels.SMALL, self.compact)
        self.frozen = s.base > 0
        self.head = s.head.astype(dtype) if self.frozen else None
        self.W = np.zeros(max(2 * self.size, len(s.window) + self.size), dtype)  # room to go on, not twice
        self.W[: len(s.window)] = s.window
        self.split = RareList.holding(s.mask, s.e, s.k0, s.rare, s.rval)
        self.counts = s.counts.astype(np.int64)
        self.ready = self.n > 0 and (s.mask != 0 or s.e != 0)  # a split was chosen (mask 0 is none)

    def _first_wrong_in_window(self) -> int | None:
        """The first heap of the window whose stored value the sparse kernel, run again from the values before it
        (head, window, rare positions below it), does not give; None when all agree. Every heap is recomputed from
        the first one whose pairs are all still held (base + `_keep`, as the run itself would need), at the cost of
        computing the window once; the heaps before it are held to the tracked period instead (stream_state._check),
        the only use a resumed run makes of them."""
        lo = max(len(self.head), self.base + self._keep())  # heaps whose pairs the window and head still hold
        if lo >= self.n:
            return None
        W, stored = self.W, self.W[lo - self.base : self.n - self.base].copy()  # recomputed in place, then restored
        sp = self.split
        probe = RareList(sp.mask, sp.e, sp.k0, sp.positions.copy(), sp.values.copy(),
                         int(np.searchsorted(sp.positions[: sp.count], lo)))
        try:
            h, _, _, why = sparse_fill(RecomputeStore(W, self.base, self.head), probe, self.moves, lo, self.n, self.max)
            if why == WIDEN:
                return h  # a value past the stored type: the stored one is not it
            # (GAP: the pairs of heap h need values no longer held, and the rest cannot be recomputed here)
            bad = np.flatnonzero(W[lo - self.base : h - self.base] != stored[: h - lo])
            return lo + int(bad[0]) if len(bad) else None
        finally:
            W[lo - self.base : self.n - self.base] = stored

    def state(self) -> StreamState:
        """The state for the checkpoint, as views of the run's arrays (valid until the run goes on: no copies)."""
        head = self.head if self.frozen else self.W[: min(self.size, self.n)]
        return StreamState(
            str(self.code), self.n, self.base, self.size, head, self.W[: self.n - self.base],
            self.split.positions[: self.nrare], self.split.values[: self.nrare], self.counts,
            mask=self.mask,
            e=self.e, k0=self.k0, max=self.max, period=self.period.period, preperiod=self.period.preperiod,
            stored=self.store is not None, records=self.records, chunks=list(self.store.chunks) if self.store else [])

    def save(self) -> None:
        """Checkpoint. A run that stores its values stores every heap done first, and the checkpoint names those
        chunks instead of holding head and window: each value is written once, as it is computed."""
        if self.store is not None and self.store.stop < self.n:
            self.store.append(self.store.stop, self.W[self.store.stop - self.base : self.n - self.base])
        save_stream(self.directory, self.state(), in_chunks=self.store is not None)
        write_frequencies(self.directory, str(self.code), self.records)

    @property
    def memory_bytes(self) -> int:
        """Bytes held by the run's arrays (window, head, rare lists, counts)."""
        head = self.head.nbytes if self.frozen else 0
        return self.W.nbytes + head + self.split.positions.nbytes + self.split.values.nbytes + self.counts.nbytes

    def status(self) -> str:
        where = f"window {self.n - self.base:,}" if self.frozen else "all in memory"
        return f"stream · rare {self.nrare:,} · mask {self.mask:#x} · {where}"

    def _bound(self) -> int | None:
        """Heaps the Guy–Smith proof of the current candidate needs (None: no candidate or no theorem)."""
        if not self.period.period or self.period.preperiod is None:
            return None
        return proof_bound(self.code.proof_criteria, self.period.period, self.period.preperiod)

    def periodicity(self) -> Periodicity:
        return judge(self.code, self.n, self.period.period, self.period.preperiod)

    # ---- memory -----------------------------------------------------------------------------------
    def _keep(self) -> int:
        """Heaps the window must keep: S, and every G(m − r) a rare pair reads."""
        return max(self.size, (self.last_rare or 0) + self.kmax + 2)

    def _track_period(self) -> None:
        """Look for the period in the newest heaps (at most PERIOD_SPAN of them, however wide the window grew)."""
        lo = max(self.base, self.n - PERIOD_SPAN)
        self.period = self.period.update(self.W[lo - self.base : self.n - self.base], lo)

    def _slide(self) -> None:
        """The buffer is full: store what leaves, freeze the head, keep the newest heaps."""
        self._track_period()
        keep = self._keep()
        new_base = max(self.n - keep, self.base)
        if new_base > self.base:
            if self.store is not None and self.store.stop < new_base:  # after a widening part may be stored already
                self.store.append(self.store.stop, self.W[self.store.stop - self.base : new_base - self.base])
            if not self.frozen:
                self.head = self.W[: self.size].copy()
                self.frozen = True
            held = self.n - new_base
            self.W[:held] = self.W[new_base - self.base : self.n - self.base]
            self.base = new_base
        held = self.n - self.base
        if held + self._margin(held) > len(self.W):
            W = np.zeros(held + self._margin(held), self.W.dtype)
            W[:held] = self.W[:held]
            self.W = W

    def _next_check(self, target: int, until_proven: bool) -> int:
        """The next heap count at which the period is looked for: each multiple of half the window (so no exception
        comes and goes unseen), each 2^k + 1 (a record), the target, and with `until_proven` the candidate's proof
        bound. Fixed in heaps, not seconds: where a run stops and what it finds never depend on how long a stretch
        took (a stretch ends early for progress and Ctrl-C, and the look waits for the check)."""
        span = max(min(self.size, PERIOD_SPAN) // 2, 1)
        check = min(target, (self.n // span + 1) * span, (1 << max(self.n - 1, 0).bit_length()) + 1)
        bound = self._bound()
        if until_proven and bound is not None and self.n < bound:
            check = min(check, bound)
        return check

    def _margin(self, held: int) -> int:
        """Room for new heaps beside `held` ones in the buffer: S, or a quarter of a window widened past 4S (a
        slide then moves the held values once per held/4 heaps, and the buffer is not twice the window)."""
        return max(self.size, held // 4)

    def _widen_memory(self, at: int) -> None:
        """Heap `at` needs a value no longer held: read a twice larger head and window back from disk."""
        if self.store is None:
            self.save()
            raise StreamGapError(
                f"heap {at:,} needs values that have left memory (held: heaps 0..{len(self.head) - 1:,} and "
                f"{self.base:,}..{self.n - 1:,}); move {self.directory} away and run again with a larger --window "
                f"(now {self.size:,}) or with --store-values")
        self.size *= 2
        self.store.append(self.store.stop, self.W[self.store.stop - self.base : self.n - self.base])  # all on disk
        lo = max(0, min(self.base, self.n - max(self.size, self._keep())))
        held = self.n - lo
        W = np.zeros(held + self._margin(held), self.W.dtype)  # filled in place: the old window and the new one only
        W[self.base - lo : held] = self.W[: self.n - self.base]
        self.store.read_into(lo, self.base, W)
        self.W, self.base, self.frozen = W, lo, lo > 0  # from heap 0 the window is the head
        heads = min(self.size, self.n)
        self.head = self.store.read_into(0, heads, np.zeros(heads, W.dtype)) if self.frozen else None

    def _widen_dtype(self, at: int) -> None:
        self.W = wider(self.W, at)
        if self.frozen:
            self.head = self.head.astype(self.W.dtype)

    def _rechoose_mask(self) -> None:
        """Before any value leaves memory, pick the mask with the fewest rare positions (Walsh–Hadamard)."""
        self.split = RareList.choose(self.W[: self.n], self.code)
        self.ready = True

    # the split's parts, as the state file and the result name them
    mask = property(lambda self: self.split.mask)
    e = property(lambda self: self.split.e)
    k0 = property(lambda self: self.split.k0)
    nrare = property(lambda self: self.split.count)
    last_rare = property(lambda self: int(self.split.positions[self.split.count - 1]) if self.split.count else None)

    # ---- the run ----------------------------------------------------------------------------------
    def _fill(self, stop: int) -> None:
        """Compute heaps n..stop−1 (stop ≤ base + len(W)) through the one sparse run loop; a gap widens head and
        window from disk (or stops the run) and ends the stretch: the caller re-plans it."""
        if self.n == 0:
            self.W[0] = 0  # G(0) = 0: no move from an empty heap
            self.n = 1
        if not self.ready:
            self._rechoose_mask()
        self.n, self.max, self.split, _ = sparse_fill(self, self.split, self.moves, self.n, stop, self.max)

    # the sparse run's store (sparse_run.SparseStore): a frozen head and a sliding window, counted as they are filled
    def sparse_arrays(self) -> tuple[np.ndarray, int, np.ndarray]:
        return self.W, self.base, self.head if self.frozen else self.W

    def sparse_computed(self, begin: int, end: int, maxv: int) -> None:
        self.n, self.max = end, maxv
        self._count(begin, end)

    def sparse_new_rare(self) -> RareList | None:
        if self.frozen:
            return None  # values have left memory: the split chosen from all of them stays
        self._rechoose_mask()
        return self.split

    def sparse_blocked(self, why: int, at: int) -> bool:
        if why == WIDEN:
            self._widen_dtype(at)
            return True
        self._widen_memory(at)  # GAP: read more from disk, or stop the run
        return False  # the buffer changed: the caller re-plans the stretch

    def _count(self, begin: int, end: int) -> None:
        """Add heaps max(begin, 1)..end−1 to the value counts."""
        begin = max(begin, 1)
        if end <= begin:
            return
        c = np.bincount(self.W[begin - self.base : end - self.base], minlength=len(self.counts))
        if len(c) > len(self.counts):
            self.counts = np.concatenate([self.counts, np.zeros(len(c) - len(self.counts), np.int64)])
        self.counts += c

    def _record(self) -> None:
        """At n = 2^k + 1 (heap 2^k just computed): counts over heaps 1..2^k and the rare/common summary."""
        heaps = self.n - 1
        if heaps < 1 or heaps & (heaps - 1) or (self.records and self.records[-1]["n"] >= heaps):
            return
        self.records.append({
            "n": heaps, "max": self.max, "counts": self.counts[: self.max + 1].tolist(), "rare": self.nrare,
            "last_rare": self.last_rare, "mask": self.mask, "e": self.e,
        })

    def extend(self, target: int, until_proven: bool = False, progress: Progress | None = None,
               save_every: float = CHECKPOINT_EVERY) -> None:
        """Compute heaps up to target−1 (or until the period is proven), saving the state every `save_every` s."""
        last_save = time.monotonic()
        cost = None
        try:
            while self.n < target and not (until_proven and self.periodicity().status == PROVEN):
                if self.n - self.base >= len(self.W):
                    self._slide()
                check = self._next_check(target, until_proven)
                stop = min(check, self.base + len(self.W))
                if cost:
                    stop = min(stop, self.n + max(256, int(STRETCH_SECONDS / cost)))
                t0, begin = time.perf_counter(), self.n
                self._fill(stop)
                if self.n > begin:
                    cost = max(time.perf_counter() - t0, 1e-6) / (self.n - begin)
                self._record()
                if self.n == check:
                    self._track_period()
                if progress is not None:
                    progress(self.n, target, self.max, self.status())
                if time.monotonic() - last_save >= save_every:
                    self.save()
                    last_save = time.monotonic()
        finally:
            self.save()

    def result(self, name: str | None) -> StreamResult:
        return StreamResult(
            self.code, name, self.n, self.max, self.periodicity(), self.counts[: self.max + 1].copy(),
            list(self.records), str(self.directory), self.size, self.store is not None, self.nrare,
            self.last_rare, self.mask, self.e, self.memory_bytes, self.counts_from)


def nim_stream(
    game: str | OctalCode,
    directory: str | os.PathLike,
    n: int | None = None,
    *,
    until_proven: bool = False,
    max_n: int = RUN_MAX_N,
    window: int | None = None,
    store_values: bool = False,
    progress: Progress | None = None,
    checkpoint_every: float = CHECKPOINT_EVERY,
    threads: int | None = None,
) -> StreamResult:
    """Compute G(0..n−1) of a finite octal code in bounded memory, resuming from DIR's saved state.

    With `until_proven` it runs until the Guy–Smith bound of the tracked period is met (or `max_n`).
    DIR receives the checkpoint, frequencies.json and, with `store_values`, the values in chunks. `threads` kernel
    threads share the work (default: every core the process may use); a run resumes with any count.
    """
    code, preset = resolve(game)
    target = whole_number(n, "N (the number of heaps)", 1) if n is not None else (
        whole_number(max_n, "--max-n", 1) if until_proven else RUN_N)
    checkpoint_every = positive(checkpoint_every, "--checkpoint-every")
    threads = check_threads(threads)
    run = StreamRun(code, directory, DEFAULT_WINDOW if window is None else window, store_values)
    notes = []
    if window is not None and run.n and window != run.size:
        notes.append(f"resumed the run in {directory}: its window of {run.size:,} heaps is kept (--window {window:,} "
                     "applies to a new run only)")
    if run.n > target:
        notes.append(f"the run in {directory} already holds {run.n:,} heaps, more than the {target:,} asked for: "
                     "nothing was computed, and it reports all of them")
    with using_threads(threads):
        run.extend(target, until_proven, progress, checkpoint_every)
    return dataclasses.replace(run.result(preset.name if preset else None), notes=tuple(notes), threads=threads)


__all__ = ["StreamRun", "StreamResult", "StreamGapError", "nim_stream", "read_values", "read_frequencies",
           "DEFAULT_WINDOW"]

