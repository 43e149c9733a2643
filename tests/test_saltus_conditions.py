"""Issue #50: every condition of the power-of-two saltus theorem's test, in both implementations (octal's engine,
octal/engine/arithmetic.py, and the verifier's, octal/certify/saltus.py), has a case where it alone decides: a
candidate (p, n0, s) that the values follow, which that condition refuses (and the brute force shows false, or the
condition is the theorem's as written), or a bound that its term alone sets. Each case was found by weakening that one
condition and searching random codes for a candidate whose answer changed."""

import itertools

import numpy as np
import pytest
from reference import reference_hex_values

from octal import certify, nim_sequence
from octal.certify import saltus as verifier
from octal.engine import arithmetic as engine
from octal.engine.periodicity import APPARENT, PROVEN
from octal.rules.code import parse_code


def _both(code: str, n: int, p: int, n0: int, s: int) -> tuple[int | None, tuple[int | None, str]]:
    G = nim_sequence(code, n).values.astype(np.int64)
    return engine.saltus_bound(parse_code(code), G, p, n0, s), verifier.saltus_bound(certify.digits(code), G, n0, p, s)


def _follows(values, p: int, n0: int, s: int) -> bool:
    G = np.asarray(values, dtype=np.int64)
    return bool(np.all(G[n0 + p:] - G[n0:len(G) - p] == s))


def test_a_period_is_proven_only_once_the_values_reach_its_bound():
    """0.8's proof needs heaps 0..21: with 21 heaps the same period is apparent, with 22 proven (kills
    `_find_arithmetic` proving a period whose bound lies past the heaps computed)."""
    short, full = nim_sequence("0.8", 21).periodicity, nim_sequence("0.8", 22).periodicity
    assert (short.status, short.period, short.saltus, short.proof_bound) == (APPARENT, 3, 1, 22)
    assert (full.status, full.proof_bound) == (PROVEN, 22)


def test_a_saltus_that_is_no_power_of_two_is_refused_before_any_shape_is_built(monkeypatch):
    """0.3F follows period 6, saltus 3 (apparent). With the test itself made to accept anything, both entries still
    refuse saltus 3, by the power-of-two check alone (the test would refuse it too: a low part G & (s − 1) has fewer
    than s values unless s is a power of two — but the guard must not rest on that)."""
    G = nim_sequence("0.3F", 200).values.astype(np.int64)
    monkeypatch.setattr(engine, "lifting_bound", lambda *a: 99)
    monkeypatch.setattr(verifier, "_test", lambda *a: (99, ""))
    assert engine.saltus_bound(parse_code("0.3F"), G, 6, 0, 3) is None
    assert verifier.saltus_bound(certify.digits("0.3F"), G, 0, 6, 3) == (None, "saltus 3 is not a power of two")
    assert engine.saltus_bound(parse_code("0.3F"), G, 6, 0, 4) == 99  # the patched test is reached for s = 4
    assert verifier.saltus_bound(certify.digits("0.3F"), G, 0, 6, 4) == (99, "")


def test_the_bound_s_last_digit_term_decides_where_it_is_the_larger():
    """B = max(a + (d* + Ĥ + 3)·p, t + 3a − 2): for 0.C followed by thirteen zeros and a 1 (t = 14, period 2 from
    heap 1, saltus 1) the second term, 16, is the larger; one more zero makes it 17."""
    assert _both("0.C00000000000001", 100, 2, 1, 1) == (16, (16, ""))
    assert _both("0.C000000000000001", 100, 2, 1, 1) == (17, (17, ""))
    assert _follows(reference_hex_values("0.C00000000000001", 200), 2, 1, 1)


def _breaks(code: str, n: int, p: int, n0: int, s: int) -> int | None:
    """The first heap past n0 + p where the brute-force reference leaves G(n + p) = G(n) + s (None: it holds to n)."""
    G = np.array(reference_hex_values(code, n), dtype=np.int64)
    bad = np.flatnonzero(G[n0 + p:] - G[n0:n - p] != s)
    return int(bad[0]) + n0 + p if len(bad) else None


@pytest.mark.parametrize("code, p, n0, s, breaks, why", [
    # (B)'s second half against every shape that may reach N's own level, not only the sure ones: 0.11B's candidate
    # passes everything else for k = 2 (weakened, it would be proven with heaps 0..60) and breaks at heap 24
    ("0.11B", 3, 7, 1, 24, "(A) for k = 1; (B: L_R reachable on N's own level) for k = 2, 4, 8, 16"),
    # (D) at both parities d* + 1 and d* + 2: 0.03B's fails it for k = 16 only at one parity (weakened, heaps 0..281)
    ("0.03B", 2, 26, 1, 62, "(A) for k = 1, 2, 4, 8; (D) for k = 16"),
    # F1 for one tail heap: on the level T only (its y is T exactly), not every level up to T: 0.615D's (C) fails
    ("0.615D", 7, 5, 4, 33, "(C) for k = 1, 2, 4, 8, 16"),
    ("0.18C4", 4, 2, 2, 17, "(C) for k = 1, 2, 4, 8, 16"),
    # (C) through d* + 2, not d* + 1: 0.E54's G(n) = n − 1 has d* = 0 and fails (C) at offset 2 alone (checked to
    # offset 1, both would prove it with heaps 0..8); the game's heap 10 has value 3
    ("0.E54", 1, 1, 1, 10, "(C) for k = 1, 2, 4, 8, 16"),
])
def test_a_false_candidate_is_refused_by_the_condition_that_alone_catches_it(code, p, n0, s, breaks, why):
    """Values that follow (p, n0, s) to where the test looks, refused by one condition; the brute force shows the
    candidate false at heap `breaks`, so the condition weakened would print a false proof."""
    G = nim_sequence(code, max(n0, 1) + 16 * p + 2).values.astype(np.int64)
    assert _follows(G[:breaks], p, n0, s)
    assert _both(code, len(G), p, n0, s) == (None, (None, why))
    assert _breaks(code, breaks + 1, p, n0, s) == breaks


@pytest.mark.parametrize("code, p, n0, s, bound", [
    ("0.7A58F", 4, 3, 4, 39),  # F4 at N's level: e at least the middle high part (the largest: bound 67)
    ("0.CBE81", 6, 3, 4, 51),  # F4 at a small level: a high part ≤ h (< h: refused), d*'s c = 3 term (2·middle)
    ("0.CBE81", 3, 3, 2, 30),  # B's d* + Ĥ + 3 (+ 2: 27)
    ("0.6FB2A", 1, 1, 1, 12),  # Ĥ at least 1 (the largest high part alone, 0 here: 11)
    ("0.BBE5", 1, 4, 1, 40),  # the lift: (A) fails for k = 1 and 2, and (4p, 4s) proves it
    ("0.FBE", 1, 5, 1, 41),
    ("C.48E544", 1, 1, 1, 12),  # d*'s term for at most two tail heaps, D + H_R − ΣH (one less: 11)
    ("8.36C", 2, 1, 1, 19),  # "possible at offset 0" asks ΣH − D − H_R even (without: k = 1 refused, 33 by a lift)
])
def test_a_true_candidate_is_proven_with_the_bound_each_term_sets(code, p, n0, s, bound):
    """Both implementations prove these with exactly this bound (each comment: the term that sets it, and what a
    weakened term gives instead), and the brute force holds them to four times the bound."""
    assert _both(code, max(bound, max(n0, 1) + 16 * p + 2), p, n0, s) == (bound, (bound, ""))
    assert _breaks(code, 4 * bound, p, n0, s) is None


def _built(head: list[int], p: int, s: int, n: int = 200) -> np.ndarray:
    """Values built to follow a candidate: `head` = G(0..a + p − 1), then G(n) = G(n − p) + s."""
    G = list(head)
    while len(G) < n:
        G.append(G[-p] + s)
    return np.array(G, dtype=np.int64)


@pytest.mark.parametrize("code, head, p, n0, s, why", [
    # (B)'s first half: a low part below L_R that no shape reaches for sure on N's own level (the mex there would be
    # less than L_R); weakened to the second half alone, both would prove it with heaps 0..25
    ("0.CBC", [0, 1, 0, 0, 1], 1, 4, 1,
     "(A) for k = 1; (B: a low part below L_R not reached for sure) for k = 2, 4, 8, 16"),
    # F2 makes a shape of two tail heaps sure on a level only when one of their high parts is 0: here neither is, so
    # a low part below L_R is not sure (F2 without that condition would prove it with heaps 0..16)
    ("0.CD8", [0, 1, 2], 2, 1, 2, "(B: a low part below L_R not reached for sure) for k = 1, 2, 4, 8, 16"),
    # (D) at the offset d* + 1 (checked at d* + 2 only, both would prove it with heaps 0..57)
    ("0.EF", [0, 0, 2], 1, 2, 1, "(D) for k = 1, 2, 4, 8, 16"),
    # F4 on the levels at or above Ĥ asks e ≥ the middle one of the three high parts, not the least (with the least,
    # both would prove it with heaps 0..16)
    ("0.7F8", [0, 1, 2], 2, 0, 2, "(C) for k = 1, 2; (B: a low part below L_R not reached for sure) for k = 4, 8, 16"),
])
def test_values_built_to_follow_a_candidate_are_refused_by_the_condition_as_written(code, head, p, n0, s, why):
    """Values that are no game's, built to follow (p, n0, s): the condition refuses them, in both implementations,
    exactly as the theorem states it (the case was found by weakening that condition alone)."""
    G = _built(head, p, s)
    assert engine.saltus_bound(parse_code(code), G, p, n0, s) is None
    assert verifier.saltus_bound(certify.digits(code), G, n0, p, s) == (None, why)


def test_a_small_heap_whose_value_reaches_the_saltus_is_refused_before_any_shape_is_built(monkeypatch):
    """(A) from heap 1: (A) asks every small heap's value to lie below s, and 0.FF (G(n) = n) with (p, n0, s) =
    (1, 2, 1) has G(1) = 1. Heap 1 alone can fail (A) only for s = 1 (G(1) ≤ 1), and no search found values where the
    rest of the test then passes; so the check is held to the theorem as written: (A) refuses before any shape is
    built, and the lift (2, 2) proves the period with heaps 0..17, which the brute force holds."""
    G = nim_sequence("0.FF", 40).values.astype(np.int64)

    def built(*args):
        raise AssertionError("a shape was built for a candidate that (A) refuses")

    monkeypatch.setattr(engine, "_shapes", built)
    monkeypatch.setattr(verifier, "shapes", built)
    assert engine.lifting_bound(G, engine._moves(parse_code("0.FF")), 1, 2, 1, 2) is None
    assert verifier._test(certify.digits("0.FF"), G, 2, 1, 1) == (None, "A")
    monkeypatch.undo()
    assert _both("0.FF", 40, 1, 2, 1) == (18, (18, ""))
    assert _breaks("0.FF", 72, 1, 2, 1) is None


def _levels(highs: tuple, T: int) -> set[int]:
    """X_σ by brute force: the nim-sums y_1 ⊕ … ⊕ y_c over every y_i ≥ H_i with Σy_i = T."""
    if len(highs) == 1:
        return {T} if T >= highs[0] else set()
    return {y ^ x for y in range(highs[0], T + 1) for x in _levels(highs[1:], T - y)}


SMALL_SHAPES = [hs for c in (1, 2, 3) for hs in itertools.combinations_with_replacement(range(4), c)]


@pytest.mark.parametrize("hs", SMALL_SHAPES)
def test_what_a_shape_reaches_for_sure_follows_f1_to_f4_on_every_small_shape(hs):
    """Both implementations' "sure" against X_σ by brute force, for every shape with high parts below 4, D ≤ 2 and
    H_R ≤ 3, at offsets 0..9: a shape called sure at a level reaches it (every level from Ĥ on, or the small level);
    every level that F2, F3 or F4's construction reaches (as the theorem writes them) is called sure; one called not
    possible at offset 0 never reaches N's own level; and past the shape's term of d*, only d's parity matters."""
    for D, h_r in itertools.product(range(3), range(4)):
        top = max(max(hs), h_r, 1)  # Ĥ for a code whose high parts include these
        shape = {(D, hs): 1}
        possible = verifier.possible_at_zero(D, hs, h_r)
        assert engine._may_reach_top(D, hs, h_r) == possible
        for d in range(10):
            gap = d - D + sum(hs) - h_r  # T − h = 2e
            sure = verifier.sure_at_offset(D, hs, h_r, d)
            assert (engine._reached(shape, h_r, d) == 1) == sure
            if d > max(verifier.last_offset(D, hs, h_r), 0):
                assert sure == verifier.sure_at_offset(D, hs, h_r, d + 2)
            built = gap >= 0 and (  # the constructions on a level h ≥ Ĥ: F1 (c = 1), F2, F4 with the largest H alone
                gap == 0 if len(hs) == 1 else gap == 0 and hs[0] == 0 if len(hs) == 2 else
                gap % 2 == 0 and gap // 2 >= hs[1])
            assert sure == built, (D, h_r, d)
            for h in range(top, top + 4):
                reached = h in _levels(hs, h + gap) if gap >= 0 else False
                assert reached or not sure, (D, h_r, d, h)
                assert not (d == 0 and reached) or possible, (D, h_r, h)
            for h in range(top):
                small = verifier.sure_at_small_level(D, hs, h_r, h, d)
                assert (engine._reached(shape, h_r, d, h) == 1) == small
                e = gap // 2
                built = gap >= 0 and gap % 2 == 0 and (  # F3 (c = 2, level 0), F4 as written
                    h == 0 and e >= max(hs) if len(hs) == 2 else len(hs) == 3 and any(
                        hs[i] <= h and e >= max(hs[:i] + hs[i + 1:]) for i in range(3)))
                assert small == built, (D, h_r, d, h)
                assert not small or h in _levels(hs, h + gap), (D, h_r, d, h)
