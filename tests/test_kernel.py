"""The numba kernels against a plain-Python brute force, on random and on chosen codes."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import reference_values

from octal import GrundySequence, ResourceLimitError, nim_sequence, parse_code

HEX = "0123456789ABCDEF"


@st.composite
def codes(draw, hexadecimal: bool):
    top = 15 if hexadecimal else 7
    d0 = draw(st.sampled_from([0, 4, 8, 12] if hexadecimal else [0, 4]))
    digits = draw(st.lists(st.integers(0, top), min_size=1, max_size=5))
    return [d0] + digits


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(codes(hexadecimal=False), st.integers(1, 200))
def test_octal_codes_match_brute_force(digits, n):
    text = HEX[digits[0]] + "." + "".join(HEX[d] for d in digits[1:])
    assert nim_sequence(text, n).values.tolist() == reference_values(digits, n)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(codes(hexadecimal=True), st.integers(1, 90))
def test_hexadecimal_codes_match_brute_force(digits, n):
    text = HEX[digits[0]] + "." + "".join(HEX[d] for d in digits[1:])
    assert nim_sequence(text, n).values.tolist() == reference_values(digits, n)


@pytest.mark.parametrize(
    "text, digits, tail, n",
    [
        ("0.[3]", [0], [3], 300),  # Nim: values pass 255, the array widens to uint16
        ("0.0[7]", [0, 0], [7], 150),
        ("0.3[03]", [0, 3], [0, 3], 150),
        ("0.8", [0, 8], [], 160),  # hexadecimal values pass 64: the option bitsets widen
        ("0.[7]", [0], [7], 300),
    ],
)
def test_widening_and_tails_match_brute_force(text, digits, tail, n):
    got = nim_sequence(text, n).values
    assert got.tolist() == reference_values(digits, n, tail)
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
    assert values.tolist() == reference_values([0, 0, 0, 7], n)


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
