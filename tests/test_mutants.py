"""Tests for mutants that a mutation audit planted one at a time and that no test killed (issue #42, item 6): each test
below passes on the real code and fails with the planted bug its docstring names. The thread tests run in a child
process whose numba pool holds four threads (NUMBA_NUM_THREADS, as test_threads.py does), so 2, 3 and 4 threads run
on any machine; a race that gives no wrong value (a block done twice) is forced, not waited for, by running the
kernel's own Python code under the interleaving that loses; damaged files are re-signed the way octal signs its own
(an accident to a file octal wrote), so that the check under test, and no other, is the one that refuses them."""

import inspect
import itertools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
import types
import zlib

import numpy as np
import pytest
from test_damage import _npz, _write_npz
from test_threads import digest, numpy_values
from test_trust import _forge_stream

from octal import GrundySequence, find_period, misere_quotient, nim_sequence, nim_stream, parse_code
from octal.census import CensusDB, merge_census, run_census, run_misere_census, stored_sequence, verified_rows
from octal.census.misere import verified_misere_rows
from octal.census.normal import compute_code
from octal.census.store import row_signature
from octal.engine import kernels
from octal.engine.checkpoint import CheckpointError
from octal.engine.checkpoint import digest as checkpoint_digest
from octal.engine.grundy import first_wrong_value, recheck_heaps
from octal.engine.kernels import small
from octal.engine.kernels import sparse_small_parallel as words_parallel
from octal.engine.kernels import sparse_stamp as stamp
from octal.engine.kernels import sparse_stamp_parallel as stamp_parallel
from octal.engine.kernels.parity import parity_table
from octal.engine.kernels.sparse import _rare_ranges, reversed_head
from octal.engine.moves import kernel_moves
from octal.engine.periodicity import judge, proof_bound, scan_period
from octal.engine.sparse_run import RareList
from octal.engine.stream_state import StreamStateError, read_stream
from octal.errors import DataFileError
from octal.trust import sign

HERE = os.path.dirname(__file__)


def _child(script: str, *args: str, threads: int = 4) -> object:
    """Run `script` in a child process whose numba pool holds `threads` threads; its stdout's last line, as JSON."""
    path = [os.path.dirname(HERE), HERE, *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env = {**os.environ, "NUMBA_NUM_THREADS": str(threads), "PYTHONPATH": os.pathsep.join(path)}
    r = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


# ---- 1a: the parallel kernels on codes with unequal splits ------------------------------------------------------

UNEQUAL = ["0.14!", "0.4!7", "0.64!4!", "4.4!"]  # their values pass 64 at heaps 1521, 440, 192, 559: the word kernel
UNEQUAL_N = 1600  # runs before that, the stamp kernel after

SHORT_PIECES = """
import hashlib, json, sys
import numpy as np
from octal import GrundySequence
from octal.engine import threads as thread_module
from octal.engine.kernels import ahead
from octal.engine.threads import current_choice, using_threads
from pieces import RandomChoice

class ShortPieces(RandomChoice):
    '''RandomChoice in pieces of 1 to 200 heaps (not 3,000): the short stretch each code spends on the word kernel
    is cut into many pieces, several of them parallel. Counts the heaps each kernel ran on each thread count.'''
    def piece(self, kind, n, stop, scale=1.0, shareable=True):
        threads = self.rng.choice((1, self.most))
        return (threads if shareable else 1), min(stop, n + self.rng.randint(1, 200))

    def record(self, kind, threads, heaps, seconds, scale=1.0, cpu=None, planned=None):
        super().record(kind, threads, heaps, seconds, scale, cpu, planned)
        self.by_kind = getattr(self, "by_kind", {})
        key = f"{kind} {threads}"
        self.by_kind[key] = self.by_kind.get(key, 0) + max(heaps, 0)

thread_module.ThreadChoice = ShortPieces
ahead.IN_THE_CALLERS_THREAD = True  # parallel pieces from the first (not once compiled in a thread beside the run)
out = {}
for text in json.loads(sys.argv[1]):
    for threads in (2, 3, 4):
        with using_threads(threads):
            v = GrundySequence(text, kernel="sparse").extend(int(sys.argv[2]))
            ran = getattr(current_choice(), "by_kind", {}).get(f"sparse small {threads}", 0)
        out[f"{text} {threads}"] = [hashlib.sha256(np.asarray(v, np.int64).tobytes()).hexdigest(), ran]
print(json.dumps(out))
"""


def test_codes_with_unequal_splits_give_one_sequence_on_two_to_four_threads():
    """Unequal-split codes (0.14!, 0.4!7, 0.64!4!, 4.4!) in short random pieces on 2, 3 and 4 threads give the numpy
    kernel's values. Kills: sparse_small_parallel._words_turn_and_far bounding the next super-block's far work one
    heap late (`call_at(far_at, (F2, s2, ns2, j, sb, …))` → `sb + 1`)."""
    hashes = _child(SHORT_PIECES, json.dumps(UNEQUAL), str(UNEQUAL_N))
    for text in UNEQUAL:
        want = digest(numpy_values(text, UNEQUAL_N))
        for threads in (2, 3, 4):
            got, ran = hashes[f"{text} {threads}"]
            assert ran > 0, (text, threads)  # the word kernel ran parallel pieces
            assert got == want, (text, threads)


# ---- 1b: each far block taken once -------------------------------------------------------------------------------


def _blocks_handed_out(step, threads: int, blocks: int) -> tuple[list[int], list[int]]:
    """Run a pipeline step's own Python code (its compiled function's py_func) on `threads` Python threads, one per
    prange index, under the interleaving a non-atomic counter loses to: every plain read of the shared counter waits
    until each thread has read it. fetch_add stays atomic; the turn and the far work (called at their addresses) are
    stubs that record which block each far call does. Returns (the block numbers done, one per far call; the
    counter's two entries at the end)."""
    barrier = threading.Barrier(threads, timeout=20)
    lock = threading.Lock()
    done, index = [], {}

    class Counter:
        """`taken`: the shared counter, as plain Python; a plain read is a race every thread joins."""

        def __init__(self):
            self.v = [0, 0]

        def __getitem__(self, i):
            x = self.v[i]
            barrier.wait()  # every thread has read it before any writes it back
            return x

        def __setitem__(self, i, x):
            self.v[i] = x

    def fetch_add(counter, i, amount):
        with lock:
            x = counter.v[i]
            counter.v[i] = x + amount
            return x

    def prange(n):  # the prange loop: each Python thread runs the body for its own index, all at once
        barrier.wait()
        return [index[threading.get_ident()]]

    def call_at(address, args, like):  # the turn reaches heap 16 at once; a far call records its block, args[3]
        if address == "far":
            with lock:
                done.append(args[3])
        return (16, 0, 0, 0) if address == "turn" else None

    py = step.py_func
    names = {**py.__globals__, "prange": prange, "fetch_add": fetch_add, "call_at": call_at}
    twin = types.FunctionType(py.__code__, names, py.__name__, py.__defaults__, py.__closure__)
    taken = Counter()
    args = dict.fromkeys(inspect.signature(py).parameters)
    args.update(out=[0] * 4, taken=taken, turn_at="turn", far_at="far", sb=0, se=16, b=0, s2=16, ns2=8 * blocks,
                threads=threads)

    def one(i):
        index[threading.get_ident()] = i
        twin(**args)

    pool = [threading.Thread(target=one, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return sorted(done), taken.v


@pytest.mark.parametrize("kernel", ["words", "stamp"])
@pytest.mark.parametrize("threads", [2, 3])
def test_each_far_block_is_done_once_however_the_threads_interleave(kernel, threads):
    """Each kernel's pipeline step, run as Python with every plain read of its shared block counter raced by all its
    threads: every far block is done exactly once, the counter ends at blocks + threads and the other threads' count
    at most at the blocks. Kills: the counter taken non-atomically (`j = fetch_add(taken, 0, 1)` → `j = taken[0];
    taken[0] = j + 1` in sparse_small_parallel._words_turn_and_far or sparse_stamp_parallel._turn_and_far), whose
    doubled blocks give the same values and so passed every value test."""
    step = words_parallel._words_turn_and_far if kernel == "words" else stamp_parallel._turn_and_far
    done, (total, others) = _blocks_handed_out(step, threads, 10)
    assert done == list(range(10)) and total == 10 + threads and others <= 10


HAMMER = """
import json
import numpy as np
from numba import njit, prange
from octal.engine.kernels.atomic import fetch_add

@njit(parallel=True)
def take(counter, seen, n, threads):
    for i in prange(threads):  # each thread takes n numbers from one counter (and looks at each)
        for _ in range(n):
            seen[i, fetch_add(counter, 0, 1) & 1] += 1

counter, seen = np.zeros(1, np.int64), np.zeros((2, 2), np.int64)
take(counter, seen, 10, 2)
counter[0] = 0
take(counter, seen, 50_000_000, 2)
print(json.dumps(int(counter[0])))
"""


def test_fetch_add_is_atomic():
    """Two threads taking 5·10⁷ numbers each from one counter through atomic.fetch_add: it ends at 10⁸. Kills:
    fetch_add's `atomicrmw` replaced by a load and a store (a non-atomic counter in both kernels at once)."""
    assert _child(HAMMER, threads=2) == 100_000_000


# ---- 1c: the far scan hands on what it left unfound --------------------------------------------------------------


def _far_scan_cases(text: str, n: int, S: int):
    """Every heap's far work from heap 2S on, done as the pipeline on S/32 threads does it (super-blocks of S heaps,
    each read below the start of the one before), by the stamp kernel's _far_block: (n, b, row, info, what it read)."""
    seq = GrundySequence(text, kernel="sparse")
    G = seq.extend(n).astype(np.uint16)
    split = RareList.choose(G, seq.code)
    positions, values = split.positions[: split.count], split.values[: split.count]
    moves = kernel_moves(seq.code, n)
    two, tie2, _ = moves.octal_split()
    P = 1 << int(G.max()).bit_length()
    odd = parity_table(split.mask, 2 * P + 2)
    for s in range(2 * S, n - S, S):
        b = s - S
        Hr = reversed_head(G, b)
        F = stamp._far_arrays(S, len(two), P)
        for j in range(S // 8):
            stamp._far_block(F, s, S, j, b, G, 0, Hr, len(Hr), G, positions, values, int(np.searchsorted(positions, b)),
                             two, tie2, odd, split.e, split.k0, P)
        for q in range(S):
            yield s + q, b, F[0][q], F[3][q], (G, two, tie2, odd, split.e, split.k0, P)


@pytest.mark.parametrize("text", ["0.4!7", "0.64!4!"])
def test_the_far_scan_hands_on_exactly_the_values_it_left_unfound(text):
    """Per heap, the stamp kernel's far scan reports the least common value its far marks leave (c′) and, when at most
    UNFOUND, exactly the rare values below c′ that neither those marks nor any far pair (a, m − a), both below the
    boundary, gives (else −1): checked by brute force. Kills: `_far_scan` handing on one unfound value too many
    (`missing <= UNFOUND` → `missing <= UNFOUND + 1`: nine counted, eight listed)."""
    sizes = {}
    for n, b, row, info, (G, two, tie2, odd, e, k0, P) in _far_scan_cases(text, 4000, 64):
        flip = e & ((n - k0) & 1)
        free = row[: 2 * P] != n + 1  # not marked by the far rare pairs
        common = free & ((odd[: 2 * P] ^ flip) == 1)
        c = int(np.argmax(common)) if common.any() else 2 * P
        assert info[1] == c, (n, info)
        needed = set(np.flatnonzero(free[:c] & ((odd[:c] ^ flip) == 0)).tolist())
        for k, tie in zip(two.tolist(), tie2.tolist()):
            m = n - k
            lo, hi = max(1, m - b + 1), (m - tie) // 2 + 1  # far pairs: a ≤ m − a < b
            if m >= 2 and hi > lo:
                needed -= set((G[lo:hi] ^ G[m - lo : m - hi : -1]).tolist())
        want = [len(needed), *sorted(needed)] if len(needed) <= stamp.UNFOUND else [-1]
        assert info[2 : 2 + len(want)].tolist() == want, (n, sorted(needed), info)
        sizes[len(needed)] = sizes.get(len(needed), 0) + 1
    assert sizes.get(stamp.UNFOUND, 0) and sizes.get(stamp.UNFOUND + 1, 0), sizes  # the edge is met on both sides


# ---- 1d: _rare_ranges ----------------------------------------------------------------------------------------------


def test_rare_ranges_follow_their_definition_at_every_edge():
    """_rare_ranges against its docstring, by brute force on random rare lists, with the head's length set at and
    around the farthest read: window indices are those with G(m − r) at or past base, head indices the others, ok
    exactly when every head read m − r lies below the head's length. Kills: the head test `m - rare[cut] < hlen` →
    `<=`."""
    rng = np.random.default_rng(5)
    edges = 0
    for _ in range(3000):
        rare = np.unique(rng.integers(0, 120, rng.integers(0, 25)))
        rare = np.concatenate([rare, np.zeros(8, np.int64)])  # room past nrare, as the kernels' lists have
        nrare = len(rare) - 8
        m = int(rng.integers(2, 150))
        base = int(rng.integers(0, m + 1))
        skip = int(rng.integers(0, m)) if rng.random() < 0.5 else 0
        idx = [i for i in range(nrare) if 0 < rare[i] < m]  # the hole's index stays in its range
        window = [i for i in idx if m - rare[i] >= base]
        head = [i for i in idx if m - rare[i] < base]
        far = max((m - int(rare[i]) for i in head), default=0)
        hlen = int(rng.choice([far - 1, far, far + 1, int(rng.integers(0, 150))]))
        edges += hlen == far and bool(head)
        lo, cut, hi, hole, ok = _rare_ranges(rare, nrare, m, base, max(hlen, 0), skip)
        assert list(range(lo, cut)) == window and list(range(cut, hi)) == head, (rare[:nrare], m, base)
        assert ok == all(m - rare[i] < max(hlen, 0) for i in head), (rare[:nrare], m, base, hlen)
        holes = [i for i in idx if rare[i] == skip and skip > 0]
        assert hole == (holes[0] if holes else -1)
    assert edges > 100


# ---- 2: value storage --------------------------------------------------------------------------------------------


def test_a_value_of_256_is_stored_in_uint16():
    """0.[3] (every removal, G(n) = n) to 257 heaps: G(256) = 256 needs uint16. Kills: `narrowest` letting 256 into
    uint8 (`largest <= np.iinfo(t).max` → `largest <= np.iinfo(t).max + 1`)."""
    seq = nim_sequence("0.[3]", 257)
    assert seq.values.dtype == np.uint16 and int(seq.values[256]) == 256 and seq.max == 256
    assert nim_sequence("0.[3]", 256).values.dtype == np.uint8


# ---- 3: proofs at the Guy–Smith bound, not one heap before -------------------------------------------------------

KAYLES = nim_sequence("0.77", 200).values


def test_kayles_is_proven_at_its_bound_and_not_one_heap_before():
    """Kayles' proof needs heaps 0..167 (2·71 + 2·12 + 2 = 168): 167 values are apparent, 168 proven, by the whole-
    array search (numpy and compiled alike), find_period and judge. Kills: the whole-array run proving at one heap
    below the bound (`guy_smith_bound(r, t, p, n0) <= N` → `<= N + 1` in small.scan_periods)."""
    assert proof_bound(parse_code("0.77").proof_criteria, 12, 71) == 168
    for n, status in ((167, "apparent"), (168, "proven")):
        G = np.ascontiguousarray(KAYLES[:n])
        for verdict in (find_period(G, "0.77"), scan_period(G, "0.77"), judge(parse_code("0.77"), n, 12, 71)):
            assert (verdict.status, verdict.period, verdict.preperiod, verdict.proof_bound) == (status, 12, 71, 168)
        for search in (small, kernels):  # (p, n0, proven) of both period searches
            assert tuple(search.scan_periods(G, n, 2, 2, True, 3, 0, 1.0)) == (12, 71, status == "proven")


def test_a_census_to_150_heaps_leaves_kayles_open(tmp_path):
    """A census to 150 heaps cannot prove Kayles (its proof needs 168): the row is open, with every value, and reads
    back through the verifier as open. Kills: the census storing an apparent period as proven (`proven = p.status ==
    PROVEN and …` → `p.status in (PROVEN, APPARENT) and …` in compute_code)."""
    db = tmp_path / "c.sqlite"
    rows = run_census(0, codes=["0.77"], max_n=150, workers=1, db=db)
    assert [(r["status"], r["n"], r["period"], r["proof_bound"]) for r in rows] == [("open", 150, None, None)]
    (row, seq), = verified_rows(db)
    assert row["status"] == "open" and seq.periodicity.status != "proven"
    assert np.array_equal(stored_sequence(row).values, KAYLES[:150])


# ---- 4: census files -----------------------------------------------------------------------------------------------


def _open_kayles_row(n: int) -> dict:
    """An open row of Kayles to n heaps, as a census stage with that budget would write it (its values true)."""
    res = compute_code("0.77", 1024)  # proven: its fields, then made open
    vals = np.ascontiguousarray(KAYLES[:n]) if n <= len(KAYLES) else nim_sequence("0.77", n).values
    blob = zlib.compress(vals.tobytes())
    return {**res, "status": "open", "preperiod": None, "period": None, "proof_bound": None, "saltus": None,
            "theorem": None, "n": n,
            "max_value": int(vals.max()), "head": blob, "vals": blob, "dtype": str(vals.dtype), "budget": n}


def test_a_write_never_replaces_a_proven_row_by_an_open_one_with_more_heaps(tmp_path):
    """A proven row stays proven when an open row of the same code with more heaps is stored over it (two censuses
    writing one file). Kills: the upsert's `WHERE codes.status <> 'proven' AND (…)` dropped (CensusDB.upsert)."""
    store = CensusDB(tmp_path / "c.sqlite")
    try:
        store.store(compute_code("0.77", 1024))
        assert store.row("0.77")["status"] == "proven"
        store.store(_open_kayles_row(4096))
        row = store.row("0.77")
        assert (row["status"], row["period"], row["preperiod"]) == ("proven", 12, 71)
    finally:
        store.close()


def test_a_merge_keeps_the_proven_row_over_an_open_one_with_more_heaps(tmp_path):
    """Two shards, one holding Kayles proven, the other open to more heaps: the merge keeps the proven row, whichever
    comes first. Kills: merge._ahead ranking by heaps alone (`(row["status"] == PROVEN, row["n"]) > (…)` →
    `row["n"] > other["n"]`)."""
    for name, res in (("proven", compute_code("0.77", 1024)), ("open", _open_kayles_row(4096))):
        store = CensusDB(tmp_path / f"{name}.sqlite")
        store.store(res)
        store.close()
    for order in (["proven", "open"], ["open", "proven"]):
        db = tmp_path / f"merged-{order[0]}.sqlite"
        merge_census([tmp_path / f"{name}.sqlite" for name in order], db=db)
        (row, seq), = verified_rows(db)
        assert (row["status"], seq.periodicity.status, seq.periodicity.period) == ("proven", "proven", 12)


def _fake_proven_row(text: str, signed: bool) -> dict:
    """A proven row of `text` whose stored values (heaps 0..n0 + p − 1) are all true and follow its claimed period
    (least, from its preperiod), with its bound and heap count right: only the values continued through that period to
    the Guy–Smith bound are wrong."""
    code = parse_code(text)
    truth = nim_sequence(text, 400).values
    for n0, p in itertools.product(range(5, 40), range(3, 20)):
        v = truth[: n0 + p]
        least = not any(np.array_equal(v[n0 + d :], v[n0 : len(v) - d]) for d in range(1, p) if p % d == 0)
        bound = proof_bound(code.proof_criteria, p, n0)
        if least and v[n0 - 1] != v[n0 - 1 + p] and bound <= len(truth):
            ext = np.concatenate([v, v[n0:][np.arange(bound - len(v)) % p]])
            if not np.array_equal(ext, truth[:bound]):
                break
    else:
        raise AssertionError(f"no made-up period of {text} to test with")
    row = {c: None for c in CensusDB.COLUMNS}
    row.update(code=text, status="proven", preperiod=n0, period=p, proof_bound=bound, max_value=int(v.max()), n=bound,
               kernel="naive", seconds=0.0, vals=zlib.compress(np.ascontiguousarray(v).tobytes()), dtype=str(v.dtype),
               budget=bound)
    row["sig"] = row_signature(row) if signed else None
    return row


@pytest.mark.parametrize("signed", [True, False], ids=["own row (sample check)", "unsigned row (full check)"])
def test_a_proven_rows_period_is_checked_through_to_its_bound(signed):
    """Officers (0.6) stored as 'proven' with true values that follow a made-up period: the values continued through
    it to the bound are refused by name. Kills: stored_sequence not checking a proven row's extension to its bound
    (the `if bound is not None:` block of _sample_check, or of full_check, dropped)."""
    row = _fake_proven_row("0.6", signed)
    with pytest.raises(DataFileError, match="its period gives G"):
        stored_sequence(row)


def test_the_all_at_once_recheck_covers_heap_1023(tmp_path):
    """Heap 1023, the last of the all-at-once recheck and in no sample of 5,000 values: a value changed there is named,
    by first_wrong_value and by a 5,000-value checkpoint octal signed. Kills: RECHECK_ALL one short (1024 → 1023,
    or `m = min(n, RECHECK_ALL)` → `RECHECK_ALL - 1`)."""
    h = 1023
    assert h not in recheck_heaps(5000)  # in no sample: only the all-at-once check looks at it
    values = nim_sequence("0.6", 5000, checkpoint=tmp_path).values.copy()
    values[h] ^= 1
    assert first_wrong_value(parse_code("0.6"), values) == h
    path = tmp_path / "checkpoint.npz"
    header, arrays = _npz(path)
    arrays["values"][h] ^= 1
    header["sha256"] = checkpoint_digest(arrays["values"], arrays["rare"], header)
    header["hmac"] = sign(header["sha256"].encode())  # as octal signs its own: the sample check is all there is
    _write_npz(path, header, arrays)
    with pytest.raises(CheckpointError, match=f"G\\({h:,}\\)"):
        nim_sequence("0.6", 6000, checkpoint=tmp_path)


# ---- 5: stream states: each check of a resumed state, alone --------------------------------------------------------

STREAM_CODE, STREAM_WINDOW = "0.167", 1024  # rare positions end at heap 1303; the buffer holds 2048 heaps


@pytest.fixture(scope="module")
def stream_folders(tmp_path_factory):
    """Two clean stream states and the whole-array values: 'slid' (heaps 0..2999: head 0..1023, window 740..2999, the
    window recomputed from 2048 on resume) and 'held' (heaps 0..1499, all in the window: nothing slid, no recompute);
    no period tracked in either."""
    folders = {}
    for name, n in (("slid", 3000), ("held", 1500)):
        folders[name] = tmp_path_factory.mktemp(name)
        nim_stream(STREAM_CODE, folders[name], n, window=STREAM_WINDOW)
        s = read_stream(folders[name])
        assert s.n == n and s.period == 0 and (0 < s.base < len(s.head) if name == "slid" else s.base == 0), s
    return folders, nim_sequence(STREAM_CODE, 4000).values


def _copy(stream_folders, name, tmp_path):
    """A working copy of a clean stream folder, and its state."""
    work = tmp_path / name
    shutil.copytree(stream_folders[0][name], work)
    return work, read_stream(work)


def _resume(work):
    return nim_stream(STREAM_CODE, work, 4000, window=STREAM_WINDOW)


@pytest.mark.parametrize("name", ["slid", "held"])
def test_a_clean_re_signed_stream_state_resumes(stream_folders, tmp_path, name):
    """The control for the tests below: a state re-signed unchanged resumes to the whole-array values."""
    work, _ = _copy(stream_folders, name, tmp_path)
    _forge_stream(work, lambda s: None)
    assert _resume(work).n == 4000
    s, truth = read_stream(work), stream_folders[1]
    assert np.array_equal(s.window, truth[s.base :]) and np.array_equal(s.head, truth[: len(s.head)])


def _move_value(s, h: int, to: int) -> None:
    """G(h) set to `to` where head or window hold it, with the counts and records that include heap h moved alike:
    every count, total and record still agrees with the values held."""
    old = int(s.window[h - s.base]) if h >= s.base else int(s.head[h])
    if h < len(s.head):
        s.head[h] = to
    if h >= s.base:
        s.window[h - s.base] = to
    s.counts[old] -= 1
    s.counts[to] += 1
    for r in s.records:
        if r["n"] >= h:
            r["counts"][old] -= 1
            r["counts"][to] += 1


def _plain_heap(s, lo: int, hi: int) -> tuple[int, int]:
    """A heap in lo..hi−1 that is no rare position, and another value for it (below the largest, as common as any)."""
    rare = set(s.rare.tolist())
    h = next(x for x in range(lo, hi) if x not in rare and 0 < (s.window[x - s.base] if x >= s.base else s.head[x])
             < s.max)
    old = int(s.window[h - s.base]) if h >= s.base else int(s.head[h])
    return h, 0 if old != 0 else 1


def test_a_stream_state_failing_its_checksum_is_refused_by_the_checksum(stream_folders, tmp_path):
    """A frequency record's rare count changed, the checksum and signature left as they were: no other check reads
    that field, so the checksum alone refuses it. Kills: read_stream's `if sha != digest(…)` check switched off."""
    work, _ = _copy(stream_folders, "slid", tmp_path)
    header, arrays = _npz(work / "stream.npz")
    header["records"][-1]["rare"] += 1
    _write_npz(work / "stream.npz", header, arrays)
    with pytest.raises(StreamStateError, match="fails its checksum"):
        _resume(work)


def test_a_wrong_value_in_the_window_is_refused_by_the_window_recompute(stream_folders, tmp_path):
    """One value of the slid window past its recomputed start (base + _keep = 2048) changed, counts moved with it,
    signed: only the kernel run again over the window sees it, and names its heap. Kills: StreamRun's
    `_first_wrong_in_window()` switched off (its result taken as None)."""
    work, s = _copy(stream_folders, "slid", tmp_path)
    h, to = _plain_heap(s, 2100, s.n)
    _forge_stream(work, lambda s: _move_value(s, h, to))
    with pytest.raises(StreamStateError, match=f"run again from the state before heap {h:,}"):
        _resume(work)


def test_a_wrong_value_in_the_head_is_refused_by_the_mex_check(stream_folders, tmp_path):
    """One value of the head below the slid window (heap < base) changed, counts and records moved with it, signed:
    the mex recurrence on the held head names it. Kills: StreamRun's `first_wrong_value(code, held)` on a resumed
    state switched off."""
    work, s = _copy(stream_folders, "slid", tmp_path)
    h, to = _plain_heap(s, 300, s.base)
    _forge_stream(work, lambda s: _move_value(s, h, to))
    with pytest.raises(StreamStateError, match=f"G\\({h:,}\\) = {to} is not the mex of its options"):
        _resume(work)


def test_a_rare_value_unlike_the_window_is_refused_by_the_rare_check(stream_folders, tmp_path):
    """The value stored with a rare position past the head changed in a state whose window never slid (no recompute
    on resume), signed: only the comparison of rare values with the window refuses it. Kills: stream_state._check's
    `rare values differ from the window` check switched off."""
    work, s = _copy(stream_folders, "held", tmp_path)
    i = next(i for i, r in enumerate(s.rare.tolist()) if r >= max(s.base, len(s.head)))

    def edit(s):
        s.rval[i] ^= 1

    _forge_stream(work, edit)
    with pytest.raises(StreamStateError, match="rare values differ from the window"):
        _resume(work)


def test_the_window_keeps_every_heap_a_rare_pair_reads():
    """0.244 (largest one-heap removal 1, largest split removal 3: the window's margin of _keep is exact) streamed
    with a 256-heap window, values not stored: no heap needs a value that left memory, and the window holds the whole
    run's values. Kills: a window one heap short (`_keep`'s `last_rare + kmax + 2` → `+ 1`, or `_slide`'s
    `new_base = n - keep` → `n - keep + 1`)."""
    with tempfile.TemporaryDirectory() as d:
        r = nim_stream("0.244", d, 3000, window=256)
        s = read_stream(d)
    assert r.n == 3000 and np.array_equal(s.window, nim_sequence("0.244", 3000).values[s.base :])


# ---- 6: misère quotients and their census rows ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def kayles_quotient():
    return misere_quotient("0.77")


def test_the_relations_present_a_monoid_of_the_stated_order(kayles_quotient):
    """Misère Kayles: every relation holds in the quotient and rewrites to a smaller word, and the words no relation's
    left side divides are 40, one per element, 9 of them in P — so the commutative monoid the generators and
    relations present has exactly the quotient's order. Kills: a relation dropped from the presentation (e.g.
    `present` returning `relations[:-1]`)."""
    q = kayles_quotient
    pres = q.presentation
    gens = [int(q.phi[h]) for h in pres.heaps]

    def element(word):
        x = 0
        for g, e in zip(gens, word):
            for _ in range(e):
                x = int(q.mul[x, g])
        return x

    def key(word):  # the order of normal forms: degree, then more of the earlier letters
        return (sum(word), tuple(-e for e in word))

    for u, v in pres.relations:
        assert element(u) == element(v) and key(v) < key(u), pres.relation_texts()
    lefts = [u for u, _ in pres.relations]
    standard, layer = [], [(0,) * len(gens)]
    while layer and len(standard) <= q.order:
        standard += layer
        layer = sorted({w[:i] + (w[i] + 1,) + w[i + 1 :] for w in layer for i in range(len(gens))})
        layer = [w for w in layer if not any(all(a >= b for a, b in zip(w, u)) for u in lefts)]
    elements = sorted(element(w) for w in standard)
    assert (q.order, q.p_portion) == (40, 9)
    assert elements == list(range(q.order)) and sum(bool(q.p[x]) for x in elements) == q.p_portion


@pytest.mark.parametrize("column, value", [("q_order", 41), ("p_portion", 8)])
def test_a_misere_row_whose_order_or_p_portion_its_quotient_does_not_have_is_refused(tmp_path, column, value):
    """Kayles' misère row (heaps ≤ 30: order 40, |P| 9) with its order or its P-portion edited is refused when read,
    naming the field. Kills: _quotient_of not comparing the row's q_order (or p_portion) with its stored quotient."""
    db = tmp_path / "m.sqlite"
    (row,) = run_misere_census(0, codes=["0.77"], max_heap=30, workers=1, db=db)
    assert (row["q_order"], row["p_portion"]) == (40, 9) and verified_misere_rows(db)
    with sqlite3.connect(db) as con:
        con.execute(f"UPDATE misere SET {column} = ? WHERE code = '0.77'", (value,))
    with pytest.raises(DataFileError, match=f"{column} {value}"):
        verified_misere_rows(db)


# ---- 7: the compiled period search against the numpy one ------------------------------------------------------------


def _eventually_periodic(rng, n: int) -> np.ndarray:
    p, n0 = int(rng.integers(1, 40)), int(rng.integers(0, 60))
    block = rng.integers(0, int(rng.integers(1, 6)), p)
    head = rng.integers(0, 6, n0)
    v = np.concatenate([head, np.tile(block, n // p + 1)])[:n]
    if rng.random() < 0.3:  # an arithmetic period: G(n + p) = G(n) + s
        v = v + (np.arange(n) // p) * int(rng.integers(1, 4))
    return v.astype((np.uint8, np.uint16, np.int64)[int(rng.integers(0, 3))] if v.max() < 255 else np.int64)


def test_the_compiled_period_search_agrees_with_the_numpy_one():
    """kernels/period.py (what scan_period and find_period use past small.MAX_N values) against kernels/small.py on
    random eventually periodic arrays, with every rule setting, and on real sequences: the same (p, n0, proven),
    periodic_from and arithmetic_from. Kills: any change to the compiled periodic_from or arithmetic_from (e.g. `while
    i >= 0` → `while i > 0`, `i = upto - 1` → `upto - 2`), which only the census reached."""
    from octal.engine.kernels import period  # the compiled search

    rng = np.random.default_rng(11)
    arrays = [_eventually_periodic(rng, int(rng.integers(8, 600))) for _ in range(300)]
    arrays += [nim_sequence(text, 3000).values for text in ("0.77", "0.07", "0.6", "0.144", "0.26", "0.37", "0.[3]")]
    arrays += [np.zeros(50, np.uint8), np.arange(50, dtype=np.uint8)]
    for G in arrays:
        N = len(G)
        for r, t, provable, repeats, min_agree, share in ((2, 2, True, 3, 0, 1.0), (2, 0, False, 3, 0, 0.0),
                                                          (3, 5, True, 2, 50, 0.5), (2, 1, False, 1, 0, 2.0)):
            args = (G, N, r, t, provable, repeats, min_agree, share)
            assert tuple(period.scan_periods(*args)) == tuple(small.scan_periods(*args)), (G[:20], args)
        for p in {1, 2, 3, max(1, N // 7), max(1, N // 3)}:
            for upto in {0, 1, N // 2, N - p}:
                assert period.periodic_from(G, N, p, upto) == small.periodic_from(G, N, p, upto), (p, upto)
            for s in (1, 2):
                assert period.arithmetic_from(G, N, p, s) == small.arithmetic_from(G, N, p, s), (p, s)
