"""Each kernel, called by name, against a plain-Python brute force (tests/reference.py) on chosen and random codes;
then the driver (`nim_sequence`), whichever kernel it picks.

A short run goes to the numpy kernel or to the compiled naive one depending on whether the latter is already loaded
in the process, so the driver tests alone would hold one of them to brute force by accident of test order: the
kernel tests below call each kernel themselves (numpy `small.fill_octal`, compiled `kernels.fill_octal`, the sparse
kernel in both its word and its stamp variants, under the driver's masks and under fixed ones, and `fill_hex`).
"""

import functools
import time
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import reference_code, reference_values

from octal import GrundySequence, ResourceLimitError, nim_sequence, parse_code
from octal.engine import grundy, kernels
from octal.engine.kernel_choice import PROBE_SHARE, dearer, sparse_hopeless, stretch
from octal.engine.kernels import small
from octal.engine.kernels.reasons import LARGE_VALUE, NEW_RARE, RARE_FULL, WIDEN
from octal.engine.moves import kernel_moves
from octal.engine.rare import parity_variant_allowed
from octal.engine.sparse_run import RareList, SparseMoves, sparse_step

DTYPES = (np.uint8, np.uint16, np.uint32)


def _wider(G: np.ndarray) -> np.ndarray:
    return G.astype(DTYPES[DTYPES.index(G.dtype.type) + 1])


def _limit(G: np.ndarray) -> int:
    return int(np.iinfo(G.dtype).max)


def _octal_moves(code, n):
    moves = kernel_moves(code, n)
    two, tie2, eq = moves.octal_split()
    return moves, two, tie2, eq


def run_numpy(code, n: int) -> list[int]:
    """`small.fill_octal` alone, from a uint8 array widened whenever it stops early."""
    moves, two, tie2, eq = _octal_moves(code, n)
    G, reached, top = np.zeros(n, np.uint8), 0, 0
    while reached < n:
        reached, top = small.fill_octal(G, reached, n, top, moves.whole, moves.one, two, tie2, eq, _limit(G))
        if reached < n:
            G = _wider(G)
    return G.tolist()


def run_naive(code, n: int, threads: int = 1) -> list[int]:
    """The compiled naive kernel alone, with its reversed copy R rebuilt on widening: each heap marks its own pairs
    (`kernels.fill_octal`, one thread), or a block's far pairs are marked together (`threads` > 1,
    `kernels.fill_octal_parallel`)."""
    moves, two, tie2, eq = _octal_moves(code, n)
    G, R, reached, top = np.zeros(n, np.uint8), np.zeros(n, np.uint8), 0, 0
    fill = kernels.fill_octal if threads == 1 else kernels.fill_octal_parallel
    while reached < n:
        reached, top = fill(G, R, reached, n, top, moves.whole, moves.one, two, tie2, eq, _limit(G), threads)
        if reached < n:
            G = _wider(G)
            R = np.zeros(n, G.dtype)
            R[n - reached:] = G[:reached][::-1]
    return G.tolist()


def run_hex(code, n: int) -> list[int]:
    """The compiled hexadecimal kernel `kernels.fill_hex` alone: one word of split bitsets at first, widened (bitsets
    rebuilt by `split_sets`) or the dtype widened whenever it stops early."""
    moves = kernel_moves(code, n)
    assert not len(moves.two_unequal) and not len(moves.two_equal), "fill_hex runs plain digits only"
    G, S2, reached, top = np.zeros(n, np.uint8), np.zeros((n, 1), np.uint64), 0, 0
    while reached < n:
        reached, top = kernels.fill_hex(G, S2, reached, n, top, moves.whole, moves.one, moves.two, moves.three,
                                        _limit(G))
        if reached < n:
            if 64 * S2.shape[1] <= _limit(G):
                S2 = np.zeros((n, 2 * S2.shape[1]), np.uint64)
                kernels.split_sets(G, S2, 0, reached)
            else:
                G = _wider(G)
    return G.tolist()


def run_sparse(code, n: int, words: bool = True, mask: tuple[int, int, int] | None = None) -> list[int]:
    """The sparse kernel alone through `sparse_step` (one call of `fill_sparse_small`, or of `fill_sparse` when
    `words` is False or a value reaches kernels.SMALL): with mask None the mask is re-chosen at every new rare value,
    as the driver does; else (mask, e, k0) is kept for the whole run (the kernel is exact under any mask)."""
    moves, two, tie2, eq = _octal_moves(code, n)
    sparse_moves = SparseMoves(moves.whole, moves.one, two, tie2, eq)
    G = np.zeros(n, np.uint8)
    none = np.zeros(0, np.int64)
    split = RareList.choose(G[:0], code) if mask is None else RareList.holding(*mask, none, none)
    reached, top = 0, 0
    while reached < n:
        reached, top, why = sparse_step(split, sparse_moves, G, 0, G, reached, n, top, words)
        if why == NEW_RARE and mask is None:
            split = RareList.choose(G[:reached], code)
        elif why == LARGE_VALUE:
            words = False
        elif why == RARE_FULL:
            split.grow()
        elif why == WIDEN:
            G = _wider(G)
        else:
            assert why in (0, NEW_RARE), why  # GAP cannot happen with every value held
    if mask is not None:  # the kernel's rare list is every rare position under the fixed mask
        m, e, k0 = mask
        rare = [h for h in range(n) if (int(G[h] & m).bit_count() + e * ((h - k0) & 1)) % 2 == 0]
        assert split.positions[: split.count].tolist() == rare
    return G.tolist()


@functools.cache
def brute_force(text: str, n: int) -> tuple[int, ...]:
    digits, tail, marks = reference_code(text)
    return tuple(reference_values(digits, n, tail, marks))


# (code, heaps): Kayles, Dawson's Chess, Officers, Treblecross (values pass 64: the word paths give way to the
# stamp paths), a whole-heap split digit, Grundy's game and other unequal, not-all-equal and equal-only splits, a
# periodic tail, Nim (values pass 255: uint8 widens to uint16)
OCTAL_CASES = [("0.77", 200), ("0.137", 200), ("0.6", 300), ("0.165", 200), ("0.007", 1500), ("4.07", 200),
               ("4!.0", 300), ("0.4!4", 200), ("0.4?", 200), ("0.6=", 100), ("4=.0", 100), ("0.3[03]", 150),
               ("0.[3]", 300), ("0.[7]", 120)]
PLAIN_CASES = [c for c in OCTAL_CASES if not any(m in c[0] for m in "!?=")]
# hexadecimal codes for fill_hex: three-heap splits (C.FF passes 64, 128 and 255 by 150 heaps: the split bitsets
# widen to two and four words, then the array to uint16 and the bitsets to eight words)
HEX_CASES = [("0.F", 90), ("0.8", 150), ("0.48", 90), ("0.B", 90), ("8.0", 90), ("0.0F", 90), ("C.4", 90),
             ("C.FF", 150)]


@pytest.mark.parametrize("text, n", OCTAL_CASES)
@pytest.mark.parametrize("kernel", ["numpy", "naive", "naive-shared", "sparse", "sparse-stamps"])
def test_each_octal_kernel_matches_brute_force(kernel, text, n):
    code = parse_code(text)
    if kernel == "numpy":
        got = run_numpy(code, n)
    elif kernel.startswith("naive"):
        got = run_naive(code, n, 2 if kernel == "naive-shared" else 1)
    else:
        got = run_sparse(code, n, words=kernel == "sparse")
    assert got == list(brute_force(text, n))


@pytest.mark.parametrize("text, n", HEX_CASES + PLAIN_CASES[:6])
def test_the_hexadecimal_kernel_matches_brute_force(text, n):
    assert run_hex(parse_code(text), n) == list(brute_force(text, n))


@pytest.mark.parametrize("text, n", [("0.77", 200), ("0.6", 200), ("0.165", 200), ("0.007", 1500), ("4!.0", 200),
                                     ("0.4!4", 150), ("0.52", 200)])
def test_the_sparse_kernel_is_exact_under_any_mask(text, n):
    """The rare/common method holds for every mask (and parity bit, where every split digit has one parity), not
    only for the one the driver picks: values and the rare list it keeps, under fixed masks."""
    code = parse_code(text)
    allowed, k0 = parity_variant_allowed(code)
    masks = [(m, 0, 0) for m in (1, 2, 3, 6, 64)] + ([(m, 1, k0) for m in (0, 1, 5)] if allowed else [])
    for mask in masks:
        for words in (True, False):
            assert run_sparse(code, n, words, mask) == list(brute_force(text, n)), (mask, words)


HEX = "0123456789ABCDEF"


@st.composite
def codes(draw, hexadecimal: bool):
    """A code's text: hexadecimal digits (octal ones unless `hexadecimal`), an octal digit that splits marked '!' or
    '=' now and then."""
    top = 15 if hexadecimal else 7
    d0 = draw(st.sampled_from([0, 4, 8, 12] if hexadecimal else [0, 4]))
    digits = [d0] + draw(st.lists(st.integers(0, top), min_size=1, max_size=5))
    marks = [draw(st.sampled_from(["", "", "!", "="])) if d & 4 and not hexadecimal else "" for d in digits]
    written = [HEX[d] + m for d, m in zip(digits, marks)]
    return written[0] + "." + "".join(written[1:])


def _wrong_kernels(got: dict[str, list[int]], text: str, n: int) -> list[str]:
    want = list(brute_force(text, n))
    return [name for name, values in got.items() if values != want]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(codes(hexadecimal=False), st.integers(1, 200))
def test_octal_codes_match_brute_force(text, n):
    """Every octal kernel by name, the hexadecimal one on plain digits, and the driver, whichever it picks."""
    code = parse_code(text)
    got = {"driver": nim_sequence(text, n).values.tolist(), "numpy": run_numpy(code, n), "naive": run_naive(code, n),
           "naive-shared": run_naive(code, n, 2), "sparse": run_sparse(code, n),
           "sparse-stamps": run_sparse(code, n, words=False)}
    if not any(m in text for m in "!="):
        got["hex"] = run_hex(code, n)
    assert not _wrong_kernels(got, text, n), (text, n)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(codes(hexadecimal=True), st.integers(1, 90))
def test_hexadecimal_codes_match_brute_force(text, n):
    got = {"driver": nim_sequence(text, n).values.tolist(), "hex": run_hex(parse_code(text), n)}
    assert not _wrong_kernels(got, text, n), (text, n)


@pytest.mark.parametrize(
    "text, n",
    [
        ("0.[3]", 300),  # Nim: values pass 255, the array widens to uint16
        ("0.0[7]", 150),
        ("0.3[03]", 150),
        ("C.FF", 150),  # hexadecimal values pass 64, 128 and 255: the option bitsets widen, then the array
        ("0.[7]", 300),
    ],
)
def test_widening_and_tails_match_brute_force(text, n):
    got = nim_sequence(text, n).values
    assert got.tolist() == list(brute_force(text, n))
    assert got.dtype == (np.uint8 if got.max() < 256 else np.uint16)


def test_storage_starts_narrow_and_widens_without_wrapping():
    r = nim_sequence("0.[3]", 600)
    assert r.values.dtype == np.uint16
    assert r.values.tolist() == list(range(600))
    assert nim_sequence("0.77", 500).values.dtype == np.uint8


def test_small_and_large_value_paths_agree():
    # 0.007 passes 64 (mask path → stamp path) inside one run; brute force checks both sides
    n = 1500
    values = nim_sequence("0.007", n).values
    assert values.max() >= 64
    assert values.tolist() == list(brute_force("0.007", n))


def test_extension_reuses_computed_values():
    seq = GrundySequence(parse_code("0.137"))
    first = seq.extend(100).copy()
    seq._G[:100] ^= 0  # untouched
    seq.extend(250)
    assert seq.n == 250
    assert np.array_equal(seq.values[:100], first)
    assert seq.values.tolist() == nim_sequence("0.137", 250).values.tolist()


def test_resume_from_saved_values():
    head = nim_sequence("0.77", 80).values
    seq = GrundySequence(parse_code("0.77"), np.array(head))
    assert seq.extend(200).tolist() == nim_sequence("0.77", 200).values.tolist()


def test_refuses_what_cannot_fit_in_memory():
    with pytest.raises(ResourceLimitError, match="needs about"):
        nim_sequence("0.77", 10**12)


def test_a_re_timing_runs_a_short_stretch_of_the_dearer_kernel(monkeypatch):
    """kernel="auto" times the kernel that lost again as the run doubles: the dearer one by the last measured costs
    (naive: per heap and unit of heap size) runs a quarter of a stretch, and nothing is dearer until both are timed."""
    cost = {"naive": None, "sparse": 1e-5}
    assert dearer(cost, 4096) is None
    cost["naive"] = 1e-9  # 4.1e-6 s a heap at heap 4,096, 1.0e-3 at 2²⁰
    assert dearer(cost, 4096) == "sparse" and dearer(cost, 1 << 20) == "naive"
    sizes, named, seen = [], [], []
    monkeypatch.setattr(grundy, "stretch", lambda *a: sizes.append(stretch(*a)) or sizes[-1])
    monkeypatch.setattr(grundy, "dearer", lambda *a: named.append(dearer(*a)) or named[-1])
    monkeypatch.setattr(grundy, "sparse_hopeless", lambda rare, n: False)  # timed, though it seldom wins
    run = GrundySequence("0.76", kernel="auto")  # values that grow: the sparse kernel is the dearer one but by noise
    step = run._run_sparse
    run._run_sparse = lambda stop, moves: seen.append((stop - run._n, sizes[-1], named[-1])) or step(stop, moves)
    run.extend(1 << 16)
    assert np.array_equal(run.values, nim_sequence("0.76", 1 << 16, kernel="naive").values)
    retimed = [(ran, size) for ran, size, which in seen if which == "sparse"]  # a stretch it won runs whole
    assert len(retimed) >= 2 and all(ran <= max(64, size // PROBE_SHARE) for ran, size in retimed), seen


def test_the_mask_chosen_on_a_switch_is_not_charged_to_the_sparse_kernel_s_heaps(monkeypatch):
    """kernel="auto" chooses the mask (over every value so far) once per switch to the sparse kernel, outside the
    stretch it times: the sparse cost per heap is the kernel's, so a short re-timing is not lost to a one-off cost.
    The driver's clock here jumps an hour at each such choice (not at those after a new rare value, inside a run)."""
    HOUR = 3600.0
    jumps = [0.0]
    clock = types.SimpleNamespace(perf_counter=lambda: time.perf_counter() + jumps[0], thread_time=time.thread_time)
    monkeypatch.setattr(grundy, "time", clock)
    run = GrundySequence("0.6", kernel="auto")
    events = []
    choose, step, pick = run._rechoose_mask, run._run_sparse, grundy.auto_choice

    def dear_choose():
        if run._split is None:
            jumps[0] += HOUR
        choose()

    def sparse(stop, moves):
        begin = run._n
        step(stop, moves)
        events.append(("ran", run._n - begin))

    monkeypatch.setattr(run, "_rechoose_mask", dear_choose)
    monkeypatch.setattr(run, "_run_sparse", sparse)
    monkeypatch.setattr(grundy, "auto_choice",
                        lambda cost, *a: events.append(("cost", cost["sparse"])) or pick(cost, *a))
    run.extend(20_000)
    assert np.array_equal(run.values, nim_sequence("0.6", 20_000, kernel="naive").values)
    timed = [done * after[1] for (kind, done), after in zip(events, events[1:]) if kind == "ran" and after[0] == "cost"]
    assert jumps[0] >= HOUR and timed and all(seconds < HOUR for seconds in timed), events


def test_the_sparse_kernel_is_not_tried_while_a_quarter_of_the_heaps_are_rare():
    """0.76's values grow and about 40 % of its heaps stay rare under any mask: kernel="auto" never runs (nor, on a
    first run, compiles) the sparse kernel for it; Officers, about a fifth rare at 2,048 heaps, tries it there."""
    assert sparse_hopeless(513, 2048) and not sparse_hopeless(512, 2048)
    for code, tried, n in (("0.76", False, 1 << 16), ("0.6", True, 20_000)):  # past the short runs' numpy kernels
        seen = []
        run = GrundySequence(code, kernel="auto")
        step = run._run_sparse
        run._run_sparse = lambda stop, moves, step=step, seen=seen: seen.append(stop) or step(stop, moves)
        run.extend(n)
        assert bool(seen) == tried, code
        assert np.array_equal(run.values, nim_sequence(code, n, kernel="naive").values), code
