import subprocess
import sys

import numpy as np
import pytest

from octal import find_period, nim_sequence, parse_code
from octal.engine import periodicity
from octal.engine.periodicity import Periodicity, exceptions, proof_bound, scan_period
from octal.front.rows_html import sequence_table


@pytest.mark.parametrize("code, period, preperiod", [("0.77", 12, 71), ("0.07", 34, 53), ("0.137", 34, 52)])
def test_classical_periods_are_proven(code, period, preperiod):
    r = nim_sequence(code, until_proven=True)
    p = r.periodicity
    assert (p.status, p.period, p.preperiod) == ("proven", period, preperiod)
    assert p.last_exception == preperiod - 1
    assert p.proof_bound == 2 * preperiod + 2 * period + parse_code(code).max_take
    assert r.n == p.proof_bound  # stops at once when the bound is reached


def test_kayles_stops_well_before_300():
    r = nim_sequence("kayles", until_proven=True)
    assert r.n == 168 < 300
    assert "proven by the Guy–Smith bound with heaps 0..167" in r.periodicity.describe()


def test_zero_preperiod_trap_0_04():
    # 0.04: G(0..3) = 0 0 0 0 but G(4) = 1. With n0 = 0 the bound 2·0 + p + t would wrongly
    # "prove" period 1 from four values; max(n0, 1) must be used.
    values = nim_sequence("0.04", 4).values
    assert values.tolist() == [0, 0, 0, 0]
    assert find_period(values, parse_code("0.04")).status != "proven"
    assert nim_sequence("0.04", 5).values[4] == 1


def test_verdict_is_apparent_before_the_bound():
    values = nim_sequence("0.77", 150).values
    p = find_period(values, parse_code("0.77"))
    assert (p.status, p.period, p.preperiod, p.proof_bound) == ("apparent", 12, 71, 168)


def test_too_short_run_has_no_period():
    assert find_period(nim_sequence("0.77", 84).values, parse_code("0.77")).status == "none"


def test_without_a_code_nothing_is_proven():
    values = nim_sequence("0.77", 400).values
    p = find_period(values)
    assert (p.status, p.period, p.preperiod) == ("apparent", 12, 71)


def test_minimal_period_and_preperiod_on_a_synthetic_sequence():
    rng = np.random.default_rng(5)
    head = rng.integers(0, 9, 37)
    block = rng.integers(0, 9, 7)
    block[0] = head[-1] + 1 if head[-1] < 8 else 0  # heap 36 is the last exception
    seq = np.concatenate([head, np.tile(block, 30)]).astype(np.uint8)
    p = find_period(seq)
    assert p.period == 7
    assert p.preperiod <= 37 and seq[p.preperiod - 1] != seq[p.preperiod - 1 + 7]


def test_arithmetic_periodicity_of_nim():
    p = nim_sequence("nim", 200).periodicity
    assert (p.status, p.period, p.saltus, p.preperiod) == ("apparent", 1, 1, 0)
    assert "arithmetic" in p.describe()


def test_finite_octal_codes_are_never_called_arithmetic():
    p = scan_period(np.arange(100, dtype=np.uint8), parse_code("0.77"))
    assert p.saltus == 0


def test_repeating_tail_code_gets_no_proof():
    p = nim_sequence("0.[30]", 300).periodicity
    assert p.status == "apparent" and p.proof_bound is None


def test_hexadecimal_bound_uses_three_heaps():
    code = parse_code("0.F")
    assert proof_bound(code.proof_criteria, 2, 0) == 3 * 1 + 3 * 2 + 1


def test_value_through_the_period():
    r = nim_sequence("kayles", until_proven=True)
    big = 10**12
    n0, p = 71, 12
    assert r.value(big) == r.values[n0 + (big - n0) % p]
    assert r.value(5) == 4


def test_until_proven_stops_where_no_theorem_applies():
    r = nim_sequence("0.3F", until_proven=True)  # saltus 3: the power-of-two saltus theorem does not apply
    assert r.periodicity.status == "apparent" and r.periodicity.saltus == 3 and r.n < 1000
    assert nim_sequence("nim", until_proven=True).n < 1000


def test_a_period_short_of_credible_evidence_is_seen_but_not_reported():
    """Period 4 repeated over fewer heaps than the preperiod: no verdict by default, found with share = 0
    (the until-proven hint); its multiples are not re-checked (they would cost O(N) each)."""
    rng = np.random.default_rng(7)
    head = rng.integers(5, 60, 20_000)
    values = np.concatenate([head, np.tile([0, 1, 2, 3], 3_000)]).astype(np.uint8)
    assert find_period(values).status == "none"
    hint = find_period(values, share=0.0)
    assert (hint.status, hint.period, hint.preperiod) == ("apparent", 4, 20_000)


WINNING_WAYS_EXCEPTIONS = {  # the heaps Winning Ways marks before the period (values off their residue class's)
    "0.77": [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70],  # Kayles: period 12 from 71
    "0.07": [0, 1, 15, 17, 18, 32, 35, 52],  # Dawson's Kayles: period 34 from 53
    "0.137": [0, 14, 16, 17, 31, 34, 51],  # Dawson's Chess: period 34 from 52
}


@pytest.mark.parametrize("code", sorted(WINNING_WAYS_EXCEPTIONS))
def test_exceptions_follow_the_literature(code):
    r = nim_sequence(code, until_proven=True)
    assert r.exceptions == WINNING_WAYS_EXCEPTIONS[code] == r.to_dict()["exceptions"]
    marked = [int(cell.split('title="G(')[1].split(")")[0]) for cell in sequence_table(r).split("<td")[1:]
              if cell.startswith(' class="exc"')]
    assert marked == WINNING_WAYS_EXCEPTIONS[code]


def _exceptions_by_definition(values, p, n0, s):
    """Winning Ways' exceptions one heap at a time: G(n) against G(m) − s·(m − n)/p, m = n0 + ((n − n0) mod p)."""
    out = []
    for n in range(n0):
        m = n0 + (n - n0) % p
        if m < len(values) and int(values[n]) != int(values[m]) - s * ((m - n) // p):
            out.append(n)
    return out


@pytest.mark.parametrize("seed", range(6))
def test_the_exceptions_are_their_definition(seed, monkeypatch):
    """Random values with a period, a saltus, and values ending inside the first period (classes unheld), compared
    a few heaps at a time so chunks split the preperiod anywhere."""
    rng = np.random.default_rng(seed)
    monkeypatch.setattr(periodicity, "EXCEPTION_CHUNK", int(rng.integers(1, 40)))
    p, n0, s = int(rng.integers(1, 30)), int(rng.integers(0, 300)), int(rng.integers(0, 3))
    n = n0 + int(rng.integers(0, 3 * p))
    k = np.arange(n) - n0
    values = rng.integers(0, 4, p)[k % p] + s * (k // p) + 2 * s * (n0 // p + 1)  # periodic with saltus s, ≥ 0
    off = rng.random(n) < 0.3
    off[n0:] = False
    values[off] += rng.integers(1, 3, off.sum())  # these heaps before the period, and only these, are exceptions
    got = exceptions(values, Periodicity(period=p, preperiod=n0, saltus=s))
    assert got.dtype == np.int64 and got.tolist() == _exceptions_by_definition(values, p, n0, s)
    assert exceptions(values, Periodicity()).tolist() == []


def _scan_by_definition(G, N, r, t, provable, repeats, min_agree, share):
    """The period search's rules with every n0 found by its definition (no shortcut): the reference below."""
    def n0_of(p):
        bad = [n for n in range(N - p) if G[n + p] != G[n]]
        return bad[-1] + 1 if bad else 0

    best, seen = (0, 0, False), 0
    top = max(N // 4, (N - t - r) // r) if provable else N // 4
    for p in range(1, top + 1):
        if seen and p % seen == 0:
            continue
        n0 = n0_of(p)
        if provable and r * max(n0, 1) + r * p + t <= N:
            return p, n0, True
        if seen == 0 and N - p - n0 >= max(repeats * p, min_agree):
            if N - n0 >= share * n0:  # credible: enough repeats, over at least share·n0 heaps
                seen, best = p, (p, n0, False)
            if not provable:
                break
    return best


@pytest.mark.parametrize("seed", range(12))
def test_the_period_search_matches_its_rules_read_by_definition(seed):
    """Both searches (numpy, and the same code compiled) skip rescanning the tail of a p's multiples once p agrees
    far back (0.376 took 186 s at N = 4·10⁶ without it); the answers are those of the rules with every n0 found by
    its definition, on sequences with long preperiods whose period is not yet credible (0.376's case)."""
    from octal.engine.kernels import period, small

    rng = np.random.default_rng(seed)
    N, p, n0 = 600, int(rng.integers(1, 7)), int(rng.integers(100, 450))
    G = rng.integers(0, 4, N).astype(np.uint8)
    G[n0:] = np.resize(rng.integers(0, 4, p).astype(np.uint8), N - n0)
    G[n0 - 1] = (G[n0 - 1 + p] + 1) % 4  # the last exception
    for args in ((2, 3, True, 3, 0, 1.0), (2, 0, False, 3, 0, 0.0), (3, 5, True, 1, 32, 0.0)):
        want = _scan_by_definition(G, N, *args)
        for search in (small, period):
            got = search.scan_periods(G, N, *args)
            assert (int(got[0]), int(got[1]), bool(got[2])) == want, (search.__name__, args)


@pytest.mark.parametrize("code, reason", [("0.7!", "constraint"), ("0.*", "open count"), ("0.[30]", "repeating tail")])
def test_an_unprovable_period_names_why_no_theorem_applies(code, reason):
    """Only a code with a repeating tail is said to have one: a constraint or an open count is named as such."""
    text = nim_sequence(code, 300).periodicity.describe()
    assert f"no theorem applies to a code with a{'n' if reason[0] == 'o' else ''} {reason}" in text, text
    assert find_period(np.zeros(300, np.uint8)).describe().endswith("no theorem applies to values without their code")


SHARED_SEARCH = """
import numpy as np
from octal import GrundySequence
from octal.engine import kernels
from octal.engine.kernels import small
from octal.engine.periodicity import OnlinePeriod, scan_period
G = np.array(GrundySequence("0.77").extend(small.MAX_N + 100), dtype=np.uint8)  # a writeable copy
stored = G.copy()
stored.flags.writeable = False
assert scan_period(G, "0.77") == scan_period(stored, "0.77")
held = OnlinePeriod().update(G, 0)  # a candidate in hand: the window's next look calls periodic_from itself
assert held.update(G, 0) == held.update(stored, 0) == held == OnlinePeriod(12, 71)
assert G.flags.writeable  # the caller's array is left as it was
print([len(k.signatures) for k in (kernels.scan_periods, kernels.periodic_from)])
"""


def test_stored_and_computed_values_share_one_compiled_search():
    """A stored row read back is a read-only array, a run's values a writeable one: numba compiles a kernel for each
    array type, so the search hands it a read-only view of either (one compile of the period search, not two), with
    the same verdict. In a fresh process: other tests call the kernels with arrays of their own."""
    done = subprocess.run([sys.executable, "-c", SHARED_SEARCH], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["[1,", "1]"], done.stdout
