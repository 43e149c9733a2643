"""Issue #43: arithmetic periods G(n + p) = G(n) + s proven by the power-of-two saltus theorem (docs/periodicity.md),
checked against a brute-force reference far past each bound; a code outside the theorem, or values failing its
test, stays apparent; a census row's arithmetic claim is proven again when read back."""

import csv
import random
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from reference import reference_digits, reference_hex_values, reference_values
from typer.testing import CliRunner

from octal import certify, nim_sequence
from octal.census import enumerate_codes, run_census, stored_sequence
from octal.certify.saltus import _moves as verifier_moves
from octal.engine.arithmetic import _moves, lifting_bound, saltus_bound
from octal.engine.grundy import GrundySequence
from octal.engine.partial import PartialPeriod, find_partial
from octal.engine.periodicity import APPARENT, NONE, PROVEN, SALTUS_THEOREM, scan_period
from octal.errors import DamagedRowError
from octal.front.cli import app
from octal.rules.code import OctalCode, parse_code

HEX = "0123456789ABCDEF"
TABLE = Path(__file__).resolve().parent.parent / "data" / "census-hex.csv"
SMALL_HEX = [f"0.{a}" for a in HEX[8:]] + [f"0.{a}{b}" for a in HEX for b in HEX[1:] if max(a, b) >= "8"]


def _follows(values, p: int, n0: int, s: int) -> bool:
    G = np.asarray(values, dtype=np.int64)
    return bool(np.all(G[n0 + p:] - G[n0:len(G) - p] == s))


def test_the_fast_reference_is_the_plain_brute_force():
    """reference_hex_values (nim-sums of two-heap splits kept as sets) against reference_values (every split
    enumerated), d0 splits included: the reference the proofs are checked on is itself checked."""
    for text in ("0.8", "0.F8", "0.E0C", "C.48", "4.8C", "8.0", "0.0F1"):
        assert reference_hex_values(text, 110) == reference_values(reference_digits(text)[0], 110), text


def test_the_first_hexadecimal_games_are_proven_with_their_saltus():
    """0.8: G(n) = ⌊(n − 1)/3⌋ for n ≥ 1 (period 3, saltus 1); 0.C: period 2, saltus 1; 0.F8: period 6, saltus 4
    from heap 7 — each proven, naming the theorem, and its closed form checked on the brute-force reference."""
    for text, (p, n0, s) in {"0.8": (3, 1, 1), "0.C": (2, 1, 1), "0.F8": (6, 7, 4)}.items():
        r = nim_sequence(text, until_proven=True)
        v = r.periodicity
        assert (v.status, v.period, v.preperiod, v.saltus) == (PROVEN, p, n0, s)
        assert v.theorem == SALTUS_THEOREM and SALTUS_THEOREM in v.describe() and r.n >= v.proof_bound
        ref = reference_hex_values(text, 4 * v.proof_bound)
        assert _follows(ref, p, n0, s) and ref[n0 - 1 + p] - ref[n0 - 1] != s
    ref = reference_hex_values("0.8", 300)
    assert ref[1:] == [(n - 1) // 3 for n in range(1, 300)]
    assert nim_sequence("0.8", until_proven=True).value(10**12) == (10**12 - 1) // 3


def test_every_one_and_two_digit_code_with_a_power_of_two_saltus_is_proven():
    """The 1- and 2-digit hexadecimal codes are the 3-digit table's rows 0.d00 and 0.dd0: each whose arithmetic period
    has a power-of-two saltus is proven (70 codes), the others say why not. Each proven game is checked on the
    brute-force reference by tests/test_census_hex_data.py; here three are computed again from scratch."""
    with TABLE.open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["code"].endswith("0")]
    assert len(rows) == len(SMALL_HEX)
    arithmetic = [r for r in rows if r["saltus"] not in ("", "0")]
    powers = [r for r in arithmetic if int(r["saltus"]) & (int(r["saltus"]) - 1) == 0]
    assert len(powers) == 70 and all(r["status"] == PROVEN for r in powers)
    assert all(r["status"] != PROVEN for r in arithmetic if r not in powers)
    for r in powers[::25]:
        v = nim_sequence(r["code"], until_proven=True).periodicity
        assert (v.status, v.period, v.preperiod, v.saltus, v.proof_bound) == (
            PROVEN, int(r["period"]), int(r["preperiod"]), int(r["saltus"]), int(r["proof_bound"]))


@pytest.mark.slow
def test_the_test_accepts_no_false_candidate_from_short_prefixes():
    """Every (p, n0, s = 2^m) that the first L heaps of a code follow (L = 24 … 192, 120 random codes of up to three
    hexadecimal digits), tried as if it were the period: each the test accepts within L heaps holds to 1,500."""
    rng = random.Random(43)
    codes: set[str] = set()
    while len(codes) < 120:
        body = "".join(rng.choice(HEX) for _ in range(rng.choice((1, 2, 3))))
        if body[-1] != "0" and max(body) >= "8":
            codes.add("0." + body)
    accepted = 0
    for text in sorted(codes):
        G = nim_sequence(text, 1500).values.astype(np.int64)
        code = parse_code(text)
        moves = _moves(code)
        for L in (24, 48, 96, 192):
            for p in range(1, L // 3):
                for m in range(6):
                    s = 1 << m
                    bad = np.flatnonzero(G[p:L] - G[:L - p] != s)
                    n0 = int(bad[-1]) + 1 if len(bad) else 0
                    if n0 + 2 * p > L:
                        continue
                    bound = lifting_bound(G[:L], moves, p, n0, s, int(code.max_take))
                    if bound is not None and bound <= L:
                        accepted += 1
                        assert _follows(G, p, n0, s), (text, L, p, n0, s, bound)
    assert accepted > 100


def test_guy_smith_shaped_bounds_would_prove_false_periods_and_the_test_does_not():
    """0.9 follows (p, n0, s) = (4, 2, 2) through heap 14 and fails at 15; 0.E0C follows (1, 1, 1) through heap 8:
    a bound of the Guy–Smith form would have proven both. The test refuses them on those heaps."""
    for text, (p, n0, s), upto in (("0.9", (4, 2, 2), 15), ("0.E0C", (1, 1, 1), 9)):
        G = np.asarray(reference_hex_values(text, 40), dtype=np.int64)
        assert _follows(G[:upto], p, n0, s) and not _follows(G, p, n0, s)
        assert saltus_bound(parse_code(text), G[:upto], p, n0, s) is None


def test_a_period_outside_the_theorem_stays_apparent_and_says_why():
    """0.3F: G(n) = 3⌊n/6⌋ + (n mod 3), saltus 3 (not a power of two); nim, a repeating tail; a digit leaving four
    heaps (G: bit 4): each apparent, never proven, with the reason."""
    v = nim_sequence("0.3F", until_proven=True).periodicity
    assert (v.status, v.period, v.saltus, v.proof_bound) == (APPARENT, 6, 3, None)
    assert "not a power of two" in v.describe()
    assert reference_hex_values("0.3F", 120) == [3 * (n // 6) + n % 3 for n in range(120)]
    nim = nim_sequence("nim", until_proven=True).periodicity
    assert nim.status == APPARENT and "repeating tail" in nim.describe()
    assert saltus_bound(parse_code("0.G"), np.arange(200), 1, 0, 1) is None


def test_a_hexadecimal_run_resumed_from_values_above_64_extends_them_right():
    """Seeded values past one word of split bitsets (0.129 reaches 340 by heap 1,024): the bitsets are sized for them
    before any split set is built (they were one word wide, and the kernel wrote past them: a crash or worse)."""
    fresh = nim_sequence("0.129", 3000).values
    assert fresh[:1024].max() > 64
    resumed = GrundySequence(parse_code("0.129"), fresh[:1024]).extend(3000)
    assert np.array_equal(resumed, fresh)
    assert reference_hex_values("0.129", 400) == fresh[:400].tolist()


def test_values_handed_in_without_their_code_are_never_proven():
    values = nim_sequence("0.8", 600).values
    assert scan_period(values).status != PROVEN
    assert scan_period(values, "0.8").status == PROVEN


def test_the_hexadecimal_census_enumerates_codes_with_a_digit_of_eight_or_more():
    three = enumerate_codes(3, "0", hexadecimal=True)
    assert len(three) == 16 ** 3 - 8 ** 3 == 3584
    assert all(max(c[2:]) >= "8" for c in three) and len(set(three)) == 3584
    assert enumerate_codes(1, "0", hexadecimal=True) == [f"0.{d}" for d in "89ABCDEF"]


def test_hex_with_misere_is_refused_in_one_line():
    res = CliRunner().invoke(app, ["census", "--hex", "--misere", "--digits", "1"])
    assert res.exit_code == 2 and "--hex" in res.output and "Traceback" not in res.output


def test_six_hexadecimal_digits_are_refused_before_any_code_is_listed(tmp_path):
    """16⁶ codes would be listed, with their rows, in gigabytes before the first one ran: one line, exit 2."""
    res = CliRunner().invoke(app, ["census", "--hex", "--digits", "6", "--db", str(tmp_path / "h.sqlite")])
    assert res.exit_code == 2 and res.output == "error: --digits must be between 1 and 5 with --hex, not 6\n"
    assert len(enumerate_codes(2, hexadecimal=True)) == 16 ** 2 - 8 ** 2


def test_a_census_row_s_arithmetic_claim_is_proven_again_when_read(tmp_path):
    """The census proves 0.8 and 0.F8 arithmetic-periodic; a row whose saltus, bound, theorem or preperiod is edited
    is refused by name when read back, and so is an open row claiming an arithmetic period its values break."""
    db = tmp_path / "hex.sqlite"
    rows = {r["code"]: r for r in run_census(0, codes=["0.8", "0.F8", "0.9"], max_n=4096, workers=1, db=db)}
    assert (rows["0.F8"]["status"], rows["0.F8"]["saltus"], rows["0.F8"]["theorem"]) == (PROVEN, 4, SALTUS_THEOREM)
    assert rows["0.9"]["status"] == "open" and rows["0.9"]["saltus"] is None
    v = stored_sequence(rows["0.F8"]).periodicity
    assert (v.period, v.preperiod, v.saltus) == (6, 7, 4)
    for change in ({"saltus": 8}, {"proof_bound": 30}, {"theorem": "Guy–Smith theorem"}, {"preperiod": 8},
                   {"max_value": rows["0.F8"]["max_value"] + 1}):
        with pytest.raises(DamagedRowError):
            stored_sequence({**rows["0.F8"], **change})
    with pytest.raises(DamagedRowError):
        stored_sequence({**rows["0.9"], "period": 4, "preperiod": 2, "saltus": 2})
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE codes SET saltus = 2 WHERE code = '0.8'")
    again = run_census(0, codes=["0.8", "0.F8", "0.9"], max_n=4096, workers=1, db=db)
    assert {r["code"]: r["saltus"] for r in again}["0.8"] == 1  # the damaged row computed again


def test_an_open_row_past_its_whole_values_keeps_its_apparent_period_twice_over(tmp_path, monkeypatch):
    """An open row past RESUME_MAX keeps only a head: with an apparent arithmetic period, through n0 + 2p, which its
    verification reads (0.7B8: period 17, saltus 16 from heap 919; heads of 512 values, all values kept to 1,024)."""
    from octal.census import normal, store

    monkeypatch.setattr(store, "KEPT_HEAD", 512)
    for module in (normal, store):
        monkeypatch.setattr(module, "RESUME_MAX", 1024)
    db = tmp_path / "late.sqlite"
    (row,) = run_census(0, codes=["0.7b8"], max_n=4096, workers=1, db=db)  # named in lower case: written 0.7B8
    assert (row["code"], row["status"], row["period"], row["saltus"], row["preperiod"]) == ("0.7B8", "open", 17, 16,
                                                                                            919)
    assert len(store.row_values(row)) == 919 + 2 * 17 and row["n"] == 4096
    assert stored_sequence(row).periodicity.saltus == 16
    for change in ({"preperiod": 1000}, {"period": 34, "saltus": 32}, {"period": 600}):
        with pytest.raises(DamagedRowError):
            stored_sequence({**row, **change})
    (again,) = run_census(0, codes=["0.7B8"], max_n=4096, workers=1, db=db)
    assert again["seconds"] == row["seconds"]  # a re-run trusts the row it verified: nothing computed again


def test_d0_s_one_heap_bit_is_no_move_for_the_test_as_for_the_kernels():
    """An OctalCode built directly may carry d₀'s one-heap bit (taking nothing, leaving the heap as it was): the
    kernels ignore it, and the theorem's test reads the same moves as for the code without it, in the engine and in
    the verifier."""
    plain = parse_code("4.07")
    with_bit = OctalCode((6,) + tuple(d.mask for d in plain.digits[1:]))
    assert with_bit.digits[0].mask == 6 and _moves(with_bit) == _moves(plain) == [(0, 2), (2, 1), (2, 2)]
    assert verifier_moves([6, 0, 7]) == verifier_moves(certify.digits("4.07")) == [(0, 2), (2, 1), (2, 2)]
    assert np.array_equal(GrundySequence(with_bit).extend(300), GrundySequence(plain).extend(300))


@pytest.mark.slow
def test_the_ruler_regularity_of_0_2048_is_an_apparent_partial_arithmetic_period():
    """Grossman–Nowakowski (Games of No Chance 4, 2015): 0.2048 follows G(n + 13) = G(n) + 4 on every residue mod 13
    but 2, whose values follow a ruler pattern. octal reports it as apparent, never proven, and the claim holds on
    the brute-force reference to 1,500 heaps; the residue apart really breaks it there, and a code with a whole
    arithmetic period, or none, reports no partial one."""
    r = nim_sequence("0.2048", 1500)
    v = r.periodicity
    assert v.status == NONE and v.partial == PartialPeriod(13, 4, 6, (2,))
    assert "apparent partial arithmetic period 13, saltus 4, from heap 6, on every residue mod 13 but 2" in v.describe()
    ref = np.array(reference_hex_values("0.2048", 1500), dtype=np.int64)
    assert v.partial.holds(ref) and not PartialPeriod(13, 4, 6, ()).holds(ref)
    assert not PartialPeriod(13, 4, 5, (2,)).holds(ref)  # n0 is the least
    assert nim_sequence("0.F8", 500).periodicity.partial is None  # arithmetic-periodic: no partial period
    assert nim_sequence("0.9", 4096).periodicity.partial is None
    assert find_partial(np.arange(4096) % 7 * 0) is None  # constant: differences 0, no saltus
    # too loose to call a regularity: 0.018 follows period 202 on all residues but 10 (to 4,096 heaps); 0.0D1 follows
    # period 4 on residues 0 and 2 only (to 16,384, after one residue apart to 4,096)
    assert find_partial(nim_sequence("0.018", 4096).values) is None
    assert find_partial(nim_sequence("0.0D1", 4096).values) == PartialPeriod(4, 2, 3, (3,))
    assert find_partial(nim_sequence("0.0D1", 16384).values) is None


@pytest.mark.slow
def test_a_partial_arithmetic_period_of_the_hexadecimal_table_holds_on_brute_force():
    """0.83C (found by the census to 16,384 heaps): G(n + 7) = G(n) + 4 from heap 7 on every residue mod 7 but 2, on
    the brute-force reference to 1,200 heaps; residue 2 breaks it there."""
    v = nim_sequence("0.83C", 1200).periodicity
    assert v.status == NONE and v.partial == PartialPeriod(7, 4, 7, (2,))
    ref = np.array(reference_hex_values("0.83C", 1200), dtype=np.int64)
    assert v.partial.holds(ref) and not PartialPeriod(7, 4, 7, ()).holds(ref)
