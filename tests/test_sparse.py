"""The sparse (rare/common) kernel and the automatic choice give exactly the naive kernel's values."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from octal import GrundySequence, InvalidArgumentError, parse_code
from octal.engine.kernels.parity import rare_positions, walsh_hadamard
from octal.engine.rare import choose_mask, parity_variant_allowed, rare_split


def values(code: str, n: int, kernel: str) -> np.ndarray:
    return GrundySequence(parse_code(code), kernel=kernel).extend(n).copy()


@pytest.mark.parametrize(
    "code, n",
    [("0.77", 5000), ("0.6", 6000), ("0.007", 6000), ("0.137", 3000), ("0.127", 4000), ("0.16", 3000),
     ("0.4", 3000), ("4.7", 2000), ("0.156", 4000), ("0.0[7]", 600), ("0.[3]", 400), ("0.56", 3000)],
)
def test_sparse_equals_naive(code, n):
    assert np.array_equal(values(code, n, "sparse"), values(code, n, "naive"))


@pytest.mark.parametrize("code", ["4!.0", "0.14!", "4!.04!", "0.4!7", "0.64!4!", "4.4!"])
def test_unequal_splits_in_the_block_pass_equal_naive(code):
    """Unequal splits ('!'): the block pass marks the pairs of 8 heaps at once and cannot skip each heap's (m/2, m/2)
    pair, so a heap whose value 0 came only from it has 0 unmarked again. These codes have thousands of rare
    positions (the block pass runs) and values 0 far out (0.14! has 26 past heap 1,000), so a wrong 0 would show."""
    n = 12_000
    seq = GrundySequence(parse_code(code), kernel="sparse")
    assert np.array_equal(seq.extend(n), values(code, n, "naive"))
    assert len(seq.rare) >= 32  # the kernel's block pass runs from 4·BLOCK rare positions on


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([0, 4]), st.lists(st.integers(0, 7), min_size=1, max_size=4), st.integers(1, 700))
def test_sparse_equals_naive_on_random_codes(d0, digits, n):
    text = f"{d0}." + "".join(map(str, digits))
    assert np.array_equal(values(text, n, "sparse"), values(text, n, "naive"))


def test_every_two_digit_code_from_the_first_heap():
    """The sparse kernel from heap 0 on every code d0.d1d2 (found by hypothesis: 0.51 once got G(4) = 0, because
    the position-parity flip was taken from a split that a small heap cannot make yet)."""
    for d0 in "04":
        for d1 in "01234567":
            for d2 in "01234567":
                text = f"{d0}.{d1}{d2}"
                assert np.array_equal(values(text, 300, "sparse"), values(text, 300, "naive")), text


@pytest.mark.parametrize("code", ["0.77", "0.6", "0.007", "0.127"])
def test_kernels_can_alternate_mid_run(code):
    seq = GrundySequence(parse_code(code), kernel="naive")
    for i, kernel in enumerate(["naive", "sparse", "naive", "sparse", "naive"]):
        seq.kernel = kernel
        seq.extend(1500 * (i + 1))
    assert np.array_equal(seq.values, values(code, 7500, "naive"))


@pytest.mark.parametrize("code, n", [("0.77", 40_000), ("0.6", 30_000), ("0.007", 20_000)])
def test_auto_equals_naive(code, n):
    assert np.array_equal(values(code, n, "auto"), values(code, n, "naive"))


def test_hexadecimal_codes_refuse_the_sparse_kernel():
    with pytest.raises(InvalidArgumentError, match="three or more heaps"):
        GrundySequence(parse_code("0.8"), kernel="sparse")


def test_walsh_hadamard_counts_rare_positions_for_every_mask():
    rng = np.random.default_rng(1)
    vals = rng.integers(0, 32, 500)
    h = np.bincount(vals, minlength=32).astype(np.int64)
    walsh_hadamard(h)
    for mask in range(32):
        rare = sum(1 for v in vals if bin(int(v) & mask).count("1") % 2 == 0)
        assert (len(vals) + h[mask]) // 2 == rare


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int64])
def test_rare_positions_against_the_definition(dtype):
    """n is rare when popcount(G(n) & mask) + e·((n − k0) mod 2) is even: every mask, both parities of k0."""
    rng = np.random.default_rng(3)
    for _ in range(100):
        G = rng.integers(0, 256 if dtype == np.uint8 else 700, rng.integers(0, 50)).astype(dtype)
        mask, e, k0 = int(rng.integers(0, 1024)), int(rng.integers(0, 2)), int(rng.integers(0, 5))
        want = [n for n in range(len(G)) if (bin(int(G[n]) & mask).count("1") + e * ((n - k0) % 2)) % 2 == 0]
        got = rare_positions(G, mask, e, k0)
        assert got.dtype == np.int64 and got.tolist() == want, (G, mask, e, k0)


def test_position_parity_variant():
    assert parity_variant_allowed(parse_code("0.127")) == (True, 3)  # split digits: only k = 3
    assert parity_variant_allowed(parse_code("0.77"))[0] is False  # k = 1 and 2
    split = rare_split(values("0.127", 20_000, "naive"), parse_code("0.127"))
    assert split.e == 1 and split.count < 1000  # the parity bit is what makes 0.127 sparse


def test_officers_rare_split_is_the_published_one():
    # Officers to 2^15: mask 0x1ee already; the last rare heap 20,627 is past this range
    vals = values("0.6", 2**15, "auto")
    mask, e, _ = choose_mask(vals, parse_code("0.6"))
    assert (mask, e) == (0x1EE, 0)
    assert rare_split(vals, parse_code("0.6")).count == 1584


def test_the_stamp_kernel_reads_uint16_and_the_result_is_narrowed_again():
    """Grundy's game passes 63 at heap 4,019 and stays below 256 to 6,000: the stamp kernel takes over from the word
    kernel there, on values widened to uint16 (it is compiled for uint16 and up only: one compile on a first run,
    not two), and the result comes back as uint8 with the naive kernel's values. A stream run (a compact store)
    keeps uint8 (test_stream.py)."""
    from octal.engine.kernels import sparse_stamp
    from octal.engine.sparse_run import sparse_dtype

    before = set(sparse_stamp._turn.signatures)
    seq = GrundySequence(parse_code("4!.0"), kernel="sparse")
    got = seq.extend(6000)
    assert got.dtype == np.uint8 and 64 <= got.max() < 256
    assert np.array_equal(got, values("4!.0", 6000, "naive"))
    widths = {sig[4].dtype.bitwidth for sig in set(sparse_stamp._turn.signatures) - before}  # W
    assert 8 not in widths, widths  # this run compiled nothing for uint8 (a stream run may have, earlier)
    assert sparse_dtype(np.uint8, True) == np.uint16 and sparse_dtype(np.uint8, True, compact=True) == np.uint8


def test_the_word_kernel_reads_uint8_only_and_values_widened_early_are_narrowed_for_it(monkeypatch):
    """0.14!'s zero mask stops the word kernel at heap 8, so the store widens to uint16 for the stamp kernel while its
    values are still small; once a mask gives common values, the values are narrowed to uint8 again and the word
    kernel takes over (it is compiled for uint8 only: one compile on a first run, not two). The values are the naive
    kernel's."""
    from octal.engine import grundy, kernels

    word, calls = kernels.fill_sparse_small, []

    def spy(W, base, Hd, start, *args):
        calls.append((W.dtype, start))
        return word(W, base, Hd, start, *args)

    monkeypatch.setattr(kernels, "fill_sparse_small", spy)
    # stretches of a fixed 128 heaps: their length is otherwise timed, so where the word kernel resumes would depend on
    # the machine's speed (a first run, compiling, measured long stretches and ran the stamp kernel to the end)
    monkeypatch.setattr(grundy, "stretch", lambda kernel, cost, n: 128)
    seq = GrundySequence(parse_code("0.14!"), kernel="sparse")
    got = seq.extend(1500)  # its values pass 63 at heap 1,521
    assert got.max() < 64 and np.array_equal(got, values("0.14!", 1500, "naive"))
    assert max(start for _, start in calls) > 8  # the word kernel ran again after the widening at heap 8 ...
    assert {dtype for dtype, _ in calls} == {np.dtype(np.uint8)}, calls  # ... on values narrowed for it
