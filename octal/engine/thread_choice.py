"""How many threads each piece of a run runs on: one, or every thread in force, whichever did more heaps per second
lately. A parallel pass pays only while each of its threads has a core: on a busy machine a descheduled thread keeps
the others waiting at the pass's end (each super-block of heaps is one fork-join pass), and two threads measured up
to 30× slower than one (0.167 to 2²², two busy processes beside it on two cores). So a run allowed several threads
works in pieces of about PIECE_SECONDS, times each, and keeps to the faster way; it tries the other now and then, in
stages that grow to a whole piece (several threads from a single pass: a slow parallel pass costs little to find out;
one thread from 1/8 of a piece, long enough that a call's set-up does not decide it), any of which ends the try once
it is LOSS times slower, ever more rarely while it keeps losing. A short run (under SERIAL_SECONDS of work) never
goes parallel, nor one whose own thread has not had a core of its own lately (its CPU time under OWN_CORE of its
pieces' wall: other work holds the cores, so a second thread would have none, and even loading the parallel entry
from the cache would take time from the run). Time decides only how many threads compute a value, never the value:
the kernels give the same values for any count (kernels/sparse.py and kernels/naive.py say why)."""

from __future__ import annotations

from dataclasses import dataclass, field

PIECE_SECONDS = 0.02  # a piece's length in time when more than one thread is allowed
FIRST_PIECE = 256  # heaps of a run's first piece, before any cost is measured
MIN_PIECE = 16  # heaps of the shortest piece (a try on the naive kernel, whose heaps cost O(n) each, at large n)
SERIAL_SECONDS = 0.05  # work done on one thread before several are tried: small work never goes parallel
TRY_STAGES = (1 << 12, 64, 8, 1)  # a try of the other way runs MIN_PIECE heaps (one pass), 1/64 of a piece, 1/8,
# then a whole one ...
ONE_FIRST_STAGE = 3  # ... where a try of one thread starts at 1/8: one thread is at worst `most` times slower, never
# the 30× of a pass whose threads have no core, and a shorter try times a call's set-up (0.1–0.3 ms, the caches the
# other thread left cold) more than its heaps, so one thread always lost and a run stayed on two that ran slower
LOSS = 1.3  # ... each only if the stage before was not this many times slower than the way in use (else it lost),
TRY_SLACK = 0.001  # give or take this many seconds when trying several threads: a parallel call's fixed cost (its
# threads woken), well below what a pass costs that waits for a thread without a core (a scheduler's time slice)
ONE_SLACK = 0.0001  # and when trying one thread: a call's cost from Python, so a try of one thread on an idle machine
# ends at its second stage, not after a whole piece at a single thread's pace
OWN_CORE = 0.9  # a share of a core: below it on one thread's pieces, the machine has no core to spare
CORE_MEMORY = 0.8  # how much of the core share measured so far each new piece of one thread keeps (about 5 pieces)
RETRY_FIRST, RETRY_MOST = 4, 32  # pieces between tries of the way not in use: doubled each time it loses


@dataclass
class ThreadChoice:
    """One run's record of its pieces: the measured seconds per unit of work of each kernel kind on one thread and
    on `most`, and when the way not in use is tried next. `heaps` counts the heaps each count computed."""

    most: int
    cost: dict[tuple[str, int], float] = field(default_factory=dict)
    wait: dict[str, int] = field(default_factory=dict)
    backoff: dict[str, int] = field(default_factory=dict)
    trying: dict[str, int] = field(default_factory=dict)  # 0: no try; else the stage under way, from 1
    serial: dict[str, float] = field(default_factory=dict)  # seconds of work this kind has done on one thread
    warm: set[str] = field(default_factory=set)  # kinds whose first piece ran (it may compile: not timed)
    heaps: dict[int, int] = field(default_factory=dict)
    core: tuple[float, float] = (0.0, 0.0)  # CPU and wall seconds of the one-thread pieces, older ones fading
    gathering: dict[tuple[str, int], tuple[int, float]] = field(default_factory=dict)  # cut pieces not yet judged

    def __repr__(self) -> str:
        return f"ThreadChoice(most={self.most}, heaps by threads {dict(sorted(self.heaps.items()))})"

    def _best(self, kind: str) -> int:
        c1, cm = self.cost.get((kind, 1)), self.cost.get((kind, self.most))
        return self.most if cm is not None and (c1 is None or cm < c1) else 1

    def ripe(self, kind: str) -> bool:
        """Whether several threads may be tried on `kind` at all: more are allowed, SERIAL_SECONDS of its work
        are done (small work never goes parallel), and the run's one thread had OWN_CORE of a core lately."""
        return (self.most > 1 and self.serial.get(kind, 0.0) >= SERIAL_SECONDS
                and self.core[0] >= OWN_CORE * self.core[1])

    def piece(self, kind: str, n: int, stop: int, scale: float = 1.0, shareable: bool = True) -> tuple[int, int]:
        """(threads, end) for the next piece of heaps n..stop−1 of kernel `kind`, whose work per heap is `scale`
        units at n (the naive kernel's grows like n: its pieces never more than double n). `shareable`: whether the
        parallel way can run now (enough work to share out); if not, one thread."""
        if self.most == 1:
            return 1, stop
        best = self._best(kind) if shareable else 1
        cost = self.cost.get((kind, best))
        if cost is None:  # the first pieces: one to compile (untimed), one to time
            return 1, min(stop, n + FIRST_PIECE)
        threads, part = best, 1
        other = self.most if best == 1 else 1
        if shareable and self.ripe(kind) and (self.trying.get(kind) or (kind, other) not in self.cost
                                              or self.wait.get(kind, 0) <= 0):
            threads = other
            self.trying[kind] = self.trying.get(kind, 0) or (1 if other > 1 else ONE_FIRST_STAGE)
            part = TRY_STAGES[self.trying[kind] - 1]
        else:
            self.wait[kind] = self.wait.get(kind, RETRY_FIRST) - 1
        size = int(PIECE_SECONDS / (cost * max(scale, 1.0)) / part)
        return threads, min(stop, n + max(MIN_PIECE, min(size, max(n, FIRST_PIECE))))  # at most doubling n

    def _gathered(self, kind: str, threads: int, heaps: int, seconds: float, planned: int) -> tuple[int, float]:
        """(heaps, seconds) to judge a piece by: with those of the pieces before it on as many threads that were cut
        short, once they make half of `planned`; (0, 0.0) while they make less. Over such a span the dear heaps a
        stop ends on count as often as they come, not once a piece."""
        h, s = self.gathering.pop((kind, threads), (0, 0.0))
        h, s = h + heaps, s + seconds
        if 2 * h < planned:
            self.gathering[(kind, threads)] = (h, s)
            return 0, 0.0
        return h, s

    def record(self, kind: str, threads: int, heaps: int, seconds: float, scale: float = 1.0,
               cpu: float | None = None, planned: int | None = None) -> None:
        """A piece of `heaps` heaps of `kind` took `seconds` on `threads` threads, `cpu` of them on the calling
        thread's CPU clock (None: all of them); `scale`: their mean work per heap in units (as in `piece`); `planned`:
        the heaps it was given. One the kernel cut short to under half of them ends on its dearest heap (the sparse
        kernel stops right after a new rare value, whose heap scanned every pair): it is judged together with the
        next pieces on as many threads, once they make half a piece (`_gathered`)."""
        if heaps <= 0:
            return
        self.heaps[threads] = self.heaps.get(threads, 0) + heaps
        if kind not in self.warm:
            self.warm.add(kind)
            return
        cost = max(seconds, 1e-7) / (heaps * max(scale, 1.0))
        if threads == 1:
            self.serial[kind] = self.serial.get(kind, 0.0) + seconds
            used = seconds if cpu is None else min(cpu, seconds)
            self.core = (CORE_MEMORY * self.core[0] + used, CORE_MEMORY * self.core[1] + seconds)
        if planned is not None:
            heaps, seconds = self._gathered(kind, threads, heaps, seconds, planned)
            if not heaps:
                return
            cost = max(seconds, 1e-7) / (heaps * max(scale, 1.0))
        stage = self.trying.get(kind, 0)
        if not stage:
            if heaps >= MIN_PIECE:  # a piece cut short by its stretch's end says more of a call's cost than a heap's
                before = self.cost.get((kind, threads), cost)
                self.cost[(kind, threads)] = (before + cost) / 2  # smoothed: one noisy piece does not flip the way
            return
        best = self._best(kind)
        best_cost = self.cost.get((kind, best), cost)
        slack = ONE_SLACK if threads == 1 else TRY_SLACK
        if stage < len(TRY_STAGES) and seconds <= LOSS * best_cost * heaps * max(scale, 1.0) + slack:
            self.trying[kind] = stage + 1  # not far behind: a longer stage, next, looks again
            return
        self.trying[kind] = 0
        self.cost[(kind, threads)] = cost
        if cost < best_cost:  # it won: the way in use from now on, and the loser is tried again soon
            self.backoff[kind] = RETRY_FIRST
        else:
            self.backoff[kind] = min(2 * self.backoff.get(kind, RETRY_FIRST), RETRY_MOST)
        self.wait[kind] = self.backoff[kind]
