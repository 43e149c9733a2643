"""Issue #49: partizan heap games, Left moving by one code and Right by another — values against an independent
enumeration of the moves (tests/reference.py reads the digits), outcomes against a game-tree search, and the proven
outcome periods of partizan subtraction games held far past where they were proven."""

import io
import json
import random
from functools import lru_cache
from itertools import combinations_with_replacement

import pytest
from reference import reference_digits
from typer.testing import CliRunner

from octal.errors import InvalidArgumentError
from octal.front.cli import app
from octal.front.progress import ProgressLine
from octal.partizan import ZERO, game, number, to_text, total
from octal.partizan.heap_games import partizan_values


def _code(subtraction: set[int]) -> str:
    """The code of a subtraction set: digit 3 at each k of it."""
    return "0." + "".join("3" if k in subtraction else "0" for k in range(1, max(subtraction) + 1))


def _leaves(digits: list[int], h: int) -> set[tuple[int, ...]]:
    """Every multiset of heaps a move leaves from h, read from the digits alone (bit 1: none, when k = h; bit 2: one;
    bit 4: two; bit 8: three; every heap left ≥ 1)."""
    out = set()
    for k, d in enumerate(digits):
        m = h - k
        if m < 0:
            break
        if d & 1 and m == 0 and k > 0:
            out.add(())
        if d & 2 and m >= 1 and k > 0:
            out.add((m,))
        for j, bit in ((2, 4), (3, 8)):
            if d & bit:
                out |= {parts for parts in combinations_with_replacement(range(1, m), j) if sum(parts) == m}
    return out


def _reference_values(left: str, right: str, n: int) -> list:
    dl, dr = reference_digits(left)[0], reference_digits(right)[0]
    values = []
    for h in range(n):
        values.append(game([total(values[x] for x in p) for p in _leaves(dl, h)],
                           [total(values[x] for x in p) for p in _leaves(dr, h)]))
    return values


def _search_outcomes(sl: set[int], sr: set[int], n: int) -> list[str]:
    """Outcome classes by a game-tree search, no canonical forms: Left moving first wins at h when some Left move
    leaves a heap where Right, moving first, loses."""
    @lru_cache(maxsize=None)
    def left_first(h: int) -> bool:
        return any(not right_first(h - a) for a in sl if a <= h)

    @lru_cache(maxsize=None)
    def right_first(h: int) -> bool:
        return any(not left_first(h - b) for b in sr if b <= h)

    return [{(True, False): "L", (False, True): "R", (True, True): "N", (False, False): "P"}[
        (left_first(h), right_first(h))] for h in range(n)]


def test_values_agree_with_an_independent_enumeration_of_the_moves():
    rng = random.Random(6)
    pairs = [("0.137", "0.4"), ("0.4", "0.07"), ("0.77", "0.3"), ("4.07", "0.6"), ("0.8", "0.3"), ("0.14", "0.07")]
    pairs += [(_code(set(rng.sample(range(1, 6), rng.randint(1, 3)))),
               _code(set(rng.sample(range(1, 6), rng.randint(1, 3))))) for _ in range(10)]
    for left, right in pairs:
        seq = partizan_values(left, right, 22)
        assert list(seq.values) == _reference_values(left, right, 22), (left, right)


def test_partizan_subtraction_games_outcomes_by_search_and_their_proven_periods_hold():
    rng = random.Random(7)
    proven = 0
    for _ in range(20):
        sl = set(rng.sample(range(1, 7), rng.randint(1, 3)))
        sr = set(rng.sample(range(1, 7), rng.randint(1, 3)))
        seq = partizan_values(_code(sl), _code(sr), 40)
        far = _search_outcomes(sl, sr, 400)
        assert list(seq.outcomes) == far[:40], (sl, sr)
        op = seq.outcome_period
        if op is not None and op.proven:
            proven += 1
            assert all(far[m] == far[m + op.period] for m in range(op.preperiod, 400 - op.period)), (sl, sr)
            assert op.preperiod == 0 or far[op.preperiod - 1] != far[op.preperiod - 1 + op.period]
    assert proven >= 15


def test_a_splitting_game_s_outcome_period_is_never_proven():
    seq = partizan_values("0.137", "0.4", 30)
    assert seq.outcome_period is None or not seq.outcome_period.proven


def test_partizan_splittles_is_the_code_with_digit_7_at_each_take():
    """Partizan Splittles (Albert and Nowakowski, Games of No Chance 3): a player takes s of their own set from a
    heap and may split what is left into two heaps — the code with digit 7 at each s. The values are checked against
    moves enumerated from that rule, not from the codes."""
    for sl, sr in (({1, 2}, {2, 3}), ({1}, {2, 4}), ({2, 3}, {1, 3, 4})):
        codes = ["0." + "".join("7" if k in s else "0" for k in range(1, max(s) + 1)) for s in (sl, sr)]
        values: list = []
        for h in range(16):
            sides = [[], []]
            for side, takes in zip(sides, (sl, sr)):
                for s in sorted(t for t in takes if t <= h):
                    rest = h - s  # none left, one heap, or two heaps a and rest − a
                    side += [values[rest]] + [values[a] + values[rest - a] for a in range(1, rest // 2 + 1)]
            values.append(game(*sides))
        assert list(partizan_values(*codes, 16).values) == values, codes


def test_a_value_period_with_a_number_as_saltus_is_found():
    """Left takes 2 and Right takes 1, each leaving no heap, one or two (0.07 and 0.7): G(n + 4) = G(n) − 1 from
    heap 0, apparent. The saltus −1 holds for octal's values and for pycgt's (an independent library), built here
    from the same moves."""
    pycgt = pytest.importorskip("pycgt")
    seq = partizan_values("0.07", "0.7", 40)
    vp = seq.value_period
    assert (vp.period, vp.preperiod, vp.saltus) == (4, 0, number(-1))
    assert all(seq.values[n + 4] is seq.values[n] + number(-1) for n in range(36))
    dl, dr = reference_digits("0.07")[0], reference_digits("0.7")[0]
    theirs: list = []
    for h in range(16):
        def total_of(p):
            out = pycgt.ZERO
            for x in p:
                out = pycgt.add(out, theirs[x])
            return out
        theirs.append(pycgt.game([total_of(p) for p in _leaves(dl, h)], [total_of(p) for p in _leaves(dr, h)]))
    assert all(theirs[n + 4] == pycgt.add(theirs[n], pycgt.number(-1)) for n in range(12))


def test_octal_partizan_prints_a_table_and_json():
    r = CliRunner().invoke(app, ["partizan", "0.3", "0.33", "--n", "12", "--json"])
    doc = json.loads(r.stdout)
    assert list(doc) == ["left", "right", "n", "values", "outcomes", "outcome_period", "value_period", "value_forms"]
    assert doc["values"][:4] == ["0", "*", to_text(_reference_values("0.3", "0.33", 4)[2]), doc["values"][3]]
    assert len(doc["values"]) == len(doc["outcomes"]) == 12 and doc["outcomes"][0] == "P"
    text = CliRunner().invoke(app, ["partizan", "0.3", "0.33", "--n", "12"]).stdout
    assert text.startswith("partizan heap game: Left moves by 0.3, Right by 0.33") and "outcomes  period" in text
    bad = CliRunner().invoke(app, ["partizan", "0.3", "0.x3"])
    assert bad.exit_code == 2 and bad.stdout == "" and bad.stderr.count("\n") == 1
    with pytest.raises(InvalidArgumentError):
        partizan_values("0.3", "0.3", 0)
    with pytest.raises(InvalidArgumentError, match="at most 100,000 heaps"):
        partizan_values("0.3", "0.3", 10**12)  # refused at once, not run until memory runs out
    assert partizan_values("0.3", "0.3", 1).values == (ZERO,)


def test_a_long_heap_game_says_how_far_it_is_on_a_terminal():
    """The progress line (heap n of N, the last value's birthday) is drawn while the values are computed, and the
    values are the same with it as without."""
    stream = io.StringIO()
    line = ProgressLine(stream=stream, enabled=True, delay=0)
    seq = partizan_values("0.3", "0.33", 30, progress=line)
    drawn = stream.getvalue()
    assert "heap 2 of 30" in drawn and "the last value born on day 1" in drawn and "largest" not in drawn
    assert seq.values == partizan_values("0.3", "0.33", 30).values


def test_values_too_long_to_write_are_described_and_given_as_definitions():
    """0.37 against 0.33: heap n's value shares its subgames, its text doubles with n (heap 30: 27 subgames, 800,000
    characters): the table describes it, --json gives null and its definitions, and both come at once."""
    r = CliRunner().invoke(app, ["partizan", "0.37", "0.33", "--n", "32"])
    assert r.exit_code == 0
    row = [line for line in r.stdout.splitlines() if line.strip().startswith("31 ")][0]
    assert "subgames born on day" in row and "characters written out" in row
    first = [line for line in r.stdout.splitlines() if line.strip().startswith("1 ")][0]
    assert first.split() == ["1", "N", "*"]  # the long values widen no column of the short ones
    doc = json.loads(CliRunner().invoke(app, ["partizan", "0.37", "0.33", "--n", "32", "--json"]).stdout)
    long = [h for h, v in enumerate(doc["values"]) if v is None]
    assert long and sorted(map(int, doc["value_forms"])) == long
    seq = partizan_values("0.37", "0.33", 32)
    assert doc["values"][5] == to_text(seq.values[5])
    assert doc["value_forms"]["31"][0].startswith("G = {")


def test_plots_of_a_heap_game_and_of_a_thermograph(tmp_path):
    pytest.importorskip("matplotlib")
    r = CliRunner().invoke(app, ["partizan", "0.07", "0.7", "--n", "12", "--plot", str(tmp_path / "m.svg")])
    assert r.exit_code == 0 and (tmp_path / "m.svg").read_text().count("<path") > 10
    r = CliRunner().invoke(app, ["game", "{3||2*|1*}", "--plot", str(tmp_path / "t.png")])
    assert r.exit_code == 0 and (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"
    bad = CliRunner().invoke(app, ["game", "1", "--plot", str(tmp_path / "t.txt")])
    assert bad.exit_code == 2 and not (tmp_path / "t.txt").exists()
