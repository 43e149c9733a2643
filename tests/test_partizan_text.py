"""Issue #49, first slice: short games typed in CGSuite's notation, read into canonical form and written back, and
their stops, mean, temperature and thermograph — checked on examples of the literature, against pycgt (MIT, an
independent library) on random games, and against the definitions (the mean value theorem on sums of copies)."""

import json
import random
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from octal.errors import GameSyntaxError
from octal.front.cli import app
from octal.partizan import ZERO, FormTooLarge, add, forget, game, number, number_up_star, thermal, to_text
from octal.partizan.cooling import compare, cool, freeze, heat, incentives
from octal.partizan.invariants import game_facts
from octal.partizan.notation import _Translated
from octal.partizan.parse import parse_game
from octal.partizan.store import STORE
from octal.partizan.thermal import left_stop, right_stop, thermograph

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

F = Fraction


@pytest.mark.parametrize("typed, canonical", [
    ("0", "0"), ("-3/8", "-3/8"), ("*", "*"), ("*4", "*4"), ("^", "^"), ("v", "v"), ("^^", "^^"), ("^3", "^3"),
    ("v3*2", "v3*2"), ("9/8*", "9/8*"), ("6^*", "6^*"), ("73/16v9*8", "73/16v9*8"), ("+-1", "+-1"), ("3+-1", "{4|2}"),
    ("{1|*}", "{1|*}"), ("{3||2*|1*}", "{3||2*|1*}"), ("{0|||0||-1|-3}", "Tiny({3|1})"),
    ("{0|||0||0,*|v,{0|-1}}", "{0|||0||0,*|v,{0|-1}}"),  # Z = {0,*|v,{0|-1}} has mean 0: not below x = 0, not Tiny
    ("Tiny(1)", "Tiny(1)"), ("Miny(2)", "Miny(2)"), ("1+Tiny(1/2)", "1Tiny(1/2)"), ("{0||0|-1}", "Tiny(1)"),
    ("{1|0}", "{1|0}"), ("{1|-1}", "+-1"), ("+-(1*)", "+-(1*)"), ("^<2>", "^<2>"), ("v[3]*", "v[3]*"),
    ("3+^<3>*2", "3^<3>*2"),
    ("{0|v*}", "^<2>"), ("{0|*||*|||*||||*}", "^[4]"), ("{0||0|v*}", "{0|^<2>}"),  # as CGSuite prints them (its tests)
    ("{8|{5|4||3|||2||||1}}", "{8|{5|4||3|||2||||1}}"),  # four bars close braces instead (CGSuite's maxSlashes)
    ("{8|||||5|4||3|||2||||1}", "{8|{5|4||3|||2||||1}}"),
    ("1+2", "3"), ("(1+*)-*", "1"), ("{|}", "0"), ("{1|}", "2"),
    ("{0,*|0,*}", "*2"),  # Winning Ways: {0, *|0, *} = *2
    ("{0|^}", "^^*"),  # Lessons in Play: {0|↑} = ⇑*
    ("{^|v}", "*"), ("{0|*}", "^"), ("{*|0}", "v"), ("^*", "^*"), ("{0,*|0}", "^*"),  # ↑* = {0, *|0}
    ("{1/2|1}", "3/4"), ("{-1|1}", "0"), ("2+-{1|0}", "2"), ("{3 | 2 || 1 | 0}", "{3|2||1|0}"),
    ("-1^", "-1^"), ("-(1^)", "-1v"), ("-^", "v"),  # the sign of a number written first is the number's
])
def test_games_typed_in_cgsuite_s_notation_come_out_in_its_canonical_form(typed, canonical):
    assert to_text(parse_game(typed)) == canonical


def _random_games(seed: int, count: int, day: int = 3) -> list:
    """Random games born by `day`: each day's options drawn from the games made before."""
    rng = random.Random(seed)
    pool = [ZERO]
    for d in range(1, day + 1):
        made = [game(rng.sample(pool, rng.randint(0, min(4, len(pool)))),
                     rng.sample(pool, rng.randint(0, min(4, len(pool))))) for _ in range(count if d == day else 60 * d)]
        pool = list({g.uid: g for g in pool + made}.values())
    return pool


def _pycgt_and_converter():
    """pycgt (the test skipped where it is not installed) and the converter from octal's canonical forms to its
    games that benchmarks/partizan_pycgt.py uses, one for both."""
    pytest.importorskip("pycgt")
    import partizan_pycgt  # noqa: PLC0415 - benchmarks/ imports pycgt at its top: only once it is known installed

    return partizan_pycgt.pycgt, partizan_pycgt.to_pycgt()


def test_whatever_octal_writes_reads_back_to_the_same_game():
    for g in _random_games(1, 300):
        assert parse_game(to_text(g)) is g, to_text(g)
    for a, b in zip(_random_games(2, 40), _random_games(3, 40)):
        assert parse_game(f"({to_text(a)}) + ({to_text(b)})") is add(a, b)
        assert parse_game(f"{to_text(a)} - ({to_text(b)})") is add(a, -b), (to_text(a), to_text(b))


def test_a_translated_negative_is_written_as_the_game_sums_build():
    """The subscript of x + Tiny(x − Z) is written from Z without being built (number translation of ±Z): the same
    text as the form that sums build, on random games, translated twice too."""
    for i, z in enumerate(_random_games(10, 200)):
        x, y = F(i % 9 - 4, 2 ** (i % 4)), F(i % 5 - 2, 4)
        for sign in (1, -1):
            built = number(x) + (z if sign > 0 else -z)
            assert to_text(_Translated(z, sign, x)) == to_text(built)
            assert to_text(_Translated(_Translated(z, sign, x), -1, y)) == to_text(number(y) - built)


def test_x_plus_tiny_of_a_game_is_written_as_cgsuite_writes_it():
    """{x || x | Z} is written x + Tiny(x − Z) when Z's mean is below x, and only then (CGSuite's isNumberTiny);
    {Z | x || x} is x + Miny(Z − x) when Z's mean is above x; each text reads back to the same game. (Tiny({3|1})
    and Miny({5||3|1}), as CGSuite prints them, are in test_partizan_atomic.py.)"""
    counts = {"Tiny": [0, 0], "Miny": [0, 0]}
    zs = [z for z in _random_games(11, 150) if z.number is None]
    for i, z in enumerate(zs):
        x = number(thermograph(z).mean + F(i % 5 - 2, 2))  # Z's mean above, at and below x
        for word, g in (("Tiny", game([x], [game([x], [z])])), ("Miny", game([game([z], [x])], [x]))):
            text = to_text(g)
            assert parse_game(text) is g, text
            if g.nus is not None or len(g.left) != 1 or len(g.right) != 1:
                continue
            num, other = (g.left[0], g.right[0]) if word == "Tiny" else (g.right[0], g.left[0])
            near, far = (other.left, other.right) if word == "Tiny" else (other.right, other.left)
            if num is not x or other.number is not None or near != (x,) or len(far) != 1:
                continue
            below = thermograph(far[0]).mean < x.number
            head = "" if x is ZERO else to_text(x)
            sub = x - far[0] if word == "Tiny" else far[0] - x
            shown = text == f"{head}{word}({to_text(sub)})"
            assert shown == (below if word == "Tiny" else thermograph(far[0]).mean > x.number), text
            counts[word][shown] += 1
    assert min(counts['Tiny'][1], counts['Miny'][1]) >= 10 and min(counts['Tiny'][0], counts['Miny'][0]) >= 1, counts


def test_deep_numbers_are_written_and_measured_without_recursing_through_them():
    """1/2^k is k options deep: its thermograph, a tiny of it and `octal game` on it need no recursion that deep
    (Python's limit is 1,000 frames)."""
    x = F(1, 2 ** 3000)
    assert thermograph(number(x)).temperature == -x and thermograph(number(x)).mean == x
    g = game([ZERO], [game([ZERO], [number(-x)])])
    assert to_text(g) == f"Tiny(1/{2 ** 3000})" and parse_game(to_text(g)) is g
    result = CliRunner().invoke(app, ["game", f"Tiny(1/{2 ** 3000})", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["canonical"] == to_text(g)
    forget()
    assert thermograph(number(F(3, 4))) == thermograph(number(F(3, 4)))  # equal thermographs, not only the same one


def test_a_deep_chain_of_switches_has_the_thermograph_proven_for_it():
    """G_k = {k | G_(k−1)}, G_0 = 0: mean k − 1 + 2^−k, temperature 1 − 2^−k, stops k and k − 1. By induction: above
    its temperature T' = 1 − 2^(1−k), G_(k−1)'s left wall is the mast m' = k − 2 + 2^(1−k), so the scaffolds k − t
    and m' + t meet at (k − m')/2 = 1 − 2^−k ≥ T', at x = k − 1 + 2^−k. At k = 1,100 the walls' points are integers
    over 2^1100, past a float's range, and the game is born on day 1,100, past Python's depth of recursion."""
    g = ZERO
    for k in range(1, 1101):
        g = game([number(k)], [g])
    th = thermograph(g)
    assert (th.mean, th.temperature) == (k - 1 + F(1, 2 ** k), 1 - F(1, 2 ** k))
    assert (left_stop(g), right_stop(g)) == (k, k - 1)


def test_deep_infinitesimals_long_minus_chains_and_deep_sums_end_cleanly():
    """x + n·↑ + *k cooled by 0 (its freeze) is itself, at once: ^1024, which the notation allows, has its
    invariants (the shortcut agrees with cooling by the definition on small ones); a run of 3,001 minus signs is
    counted, not recursed through; and a sum whose ≤ and + would recurse past Python's limit is one line naming why,
    FormTooLarge from the API."""
    for typed in ("*256", "^1024", "^486*3"):  # *1024 below, among the slow tests
        r = CliRunner().invoke(app, ["game", typed, "--json"])
        assert r.exit_code == 0 and json.loads(r.stdout)["freeze"] == typed, r.output
    memo: dict = {}
    for typed in ("*5", "^3*", "1/2^^*3", "v*7", "-2^[3]", "^<3>*"):
        g = parse_game(typed)
        assert cool(g, 0) is g and _raw(g, F(0), memo) is g, typed
    assert parse_game("-" * 3001 + "1") is number(-1) and parse_game("-" * 3000 + "{1|0}") is parse_game("{1|0}")
    limit = sys.getrecursionlimit()  # Python's own, as a fresh `octal` process has it: a search run before in this
    sys.setrecursionlimit(1_000)  # process (misère, graphs) may have raised it
    try:
        forget()  # how deep ≤ and + recurse depends on what their memos hold, as the work they spend does
        with pytest.raises(FormTooLarge, match="nested deeper than Python's recursion allows"):
            game_facts("{^450|v450}")
        forget()
        r = CliRunner().invoke(app, ["game", "{^450|v450}+{^450|v450}"])
        assert r.exit_code == 2 and r.stderr.count("\n") == 1 and "nested deeper" in r.stderr, r.output
    finally:
        sys.setrecursionlimit(limit)


@pytest.mark.slow
def test_the_largest_nimber_the_notation_allows_has_its_invariants():
    """*1024 (3 s: its incentives are *1024 to *2047, each nimber built from the one before)."""
    r = CliRunner().invoke(app, ["game", "*1024", "--json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["freeze"] == "*1024", r.output


@pytest.mark.parametrize("typed, message", [
    ("{3|2|1}", "ambiguous: two separators of 1 bar at the same level at column 5"),
    ("1 2", "a number written after another term at column 3"),
    ("{1|", "a brace is never closed"),
    ("*x", "unexpected 'x' at column 2"),
    ("3/5", "3/5 is not a dyadic rational"),
    ("*99999", "above the largest multiple typed"),
    ("", "no game typed"),
    ("(" * 100 + "1" + ")" * 100, "more than 64 braces or parentheses nested"),
    ("1+", "expected a game, found the end at column 3"),
    ("{1,|2}", "an option expected after ','"),
    ("{1 2}", "braces without a bar"),
    ("x" * 20_000, "at most 10,000 characters"),
    ("9" * 5_000, "a whole number of more than 4,000 digits at column 1"),  # past Python's 4,300: no traceback
    ("²", "unexpected '²' at column 1"),  # str.isdigit() says yes; int() says no
    ("*١", "unexpected '١' at column 2"),  # an Arabic-Indic one, which int() would take for 1
])
def test_a_game_that_cannot_be_read_is_one_line_naming_where(typed, message):
    with pytest.raises(GameSyntaxError, match=message.replace("(", r"\(").replace("*", r"\*")):
        parse_game(typed)
    r = CliRunner().invoke(app, ["game", typed])
    assert r.exit_code == 2 and r.stdout == "" and r.stderr.count("\n") == 1 and message in r.stderr, r.stderr


def test_the_invariants_of_the_literature_s_examples():
    """±1: stops 1 and −1, mean 0, temperature 1; {1|*}: mean 1/2, temperature 1/2; 1/2 has temperature −1/2 and an
    integer −1 (CGSuite's convention); {3||2*|1*} (CGSuite's manual): mean 9/4, temperature 3/4."""
    cases = {"+-1": (1, -1, 0, 1), "{1|*}": (1, 0, F(1, 2), F(1, 2)), "1/2": (F(1, 2), F(1, 2), F(1, 2), F(-1, 2)),
             "3": (3, 3, 3, -1), "*": (0, 0, 0, 0), "^": (0, 0, 0, 0), "{3||2*|1*}": (3, 2, F(9, 4), F(3, 4)),
             "-5/8": (F(-5, 8), F(-5, 8), F(-5, 8), F(-1, 8)), "{2|{1|0}}": (2, 1, F(5, 4), F(3, 4))}
    for typed, want in cases.items():
        f = game_facts(typed)
        assert (f.left_stop, f.right_stop, f.mean, f.temperature) == want, typed


def test_stops_and_thermographs_agree_with_pycgt_on_random_games():
    pycgt, to_pycgt = _pycgt_and_converter()
    games = _random_games(4, 6000, day=4)
    assert len(games) > 1000
    for g in games:
        q, th = to_pycgt(g), thermograph(g)
        ref = pycgt.thermograph(q)
        assert (left_stop(g), right_stop(g)) == (pycgt.left_stop(q), pycgt.right_stop(q)), to_text(g)
        assert (th.mean, th.temperature) == (pycgt.mean(q), pycgt.temperature(q)), to_text(g)
        for t in (F(i, 8) for i in range(0, 40)):
            assert (th.left.at(t), th.right.at(t)) == ref.at(t), (to_text(g), t)
        for wall, theirs, slopes in ((th.left, ref.left, {-1, 0}), (th.right, ref.right, {0, 1})):
            # pycgt's breaks above t = 0; a point only where the slope changes, never twice; the slopes proven
            assert [(t, s) for (t, _), s in zip(wall.points, wall.slopes) if t > 0] == [
                (t, s) for t, _, s in theirs.segments if t > 0], to_text(g)
            assert set(wall.slopes) <= slopes and all(a != b for a, b in zip(wall.slopes, wall.slopes[1:])), wall


def test_ups_and_stars_stops_and_thermographs_read_off_their_values_are_the_definition_s(monkeypatch):
    """x + n·↑ + *k stops at x both ways, and for n = 0, k ≥ 2 has x + *'s thermograph (thermal.py reads both off
    the value, not the options: `octal game *1024` took 14 s through its million options): pycgt's at t ≥ 0, and
    octal's own by the options from t = −1 (the shortcut taken out, the store's thermographs and stops emptied)."""
    pycgt, to_pycgt = _pycgt_and_converter()
    values = [(x, n, k) for x in (0, 3, -2, F(1, 2), F(-3, 4), F(5, 8)) for n in (-2, -1, 0, 1, 2) for k in range(6)]
    read = {}
    for v in values:
        g, th = number_up_star(*v), thermograph(number_up_star(*v))
        q, ref = to_pycgt(g), pycgt.thermograph(to_pycgt(g))
        assert (left_stop(g), right_stop(g)) == (pycgt.left_stop(q), pycgt.right_stop(q)) == (v[0], v[0]), v
        assert (th.mean, th.temperature) == (pycgt.mean(q), pycgt.temperature(q)), v
        assert all((th.left.at(t), th.right.at(t)) == ref.at(t) for t in (F(i, 8) for i in range(0, 24))), v
        read[v] = (th.left.points, th.right.points, th.mean, th.temperature)
    monkeypatch.setattr(thermal, "_star_option", lambda g: None)
    monkeypatch.setattr(thermal, "_stops_need", lambda g: g.left + g.right)
    monkeypatch.setattr(thermal, "_stops", lambda g: (g.number, g.number) if g.number is not None else (
        max(right_stop(x) for x in g.left), min(left_stop(x) for x in g.right)))
    STORE.thermographs.clear()
    STORE.stops.clear()
    for v in values:
        th = thermograph(number_up_star(*v))
        assert (th.left.points, th.right.points, th.mean, th.temperature) == read[v], v
        assert (left_stop(number_up_star(*v)), right_stop(number_up_star(*v))) == (v[0], v[0]), v
    STORE.thermographs.clear()
    STORE.stops.clear()


def test_canonical_forms_are_pycgt_s_option_for_option():
    """Random games built in both libraries from the same trees of options, neither converted from the other:
    octal's canonical form has pycgt's options on each side, all the way down (a reduction that kept the value but
    not the canonical form would pass a comparison of values, or of a form converted and reduced again)."""
    pycgt, _ = _pycgt_and_converter()
    rng = random.Random(11)
    pool = [(ZERO, pycgt.ZERO)]
    for count in (10, 40, 150, 800):
        made = []
        for _ in range(count):
            sides = [rng.sample(pool, rng.randint(0, min(3, len(pool)))) for _ in "LR"]
            made.append((game(*[[o for o, _ in side] for side in sides]),
                         pycgt.game(*[[q for _, q in side] for side in sides])))
        pool += made
    memo: dict = {}

    def same(o, q) -> bool:
        if (o.uid, id(q)) not in memo:
            memo[o.uid, id(q)] = all(
                len(mine) == len(theirs) and all(any(same(x, y) for y in theirs) for x in mine)
                for mine, theirs in ((o.left, q.left), (o.right, q.right)))
        return memo[o.uid, id(q)]

    assert len({o.uid for o, _ in pool}) > 150  # distinct values
    for o, q in pool:
        assert same(o, q), (to_text(o), pycgt.render(q))


def test_the_mean_value_theorem_holds_on_sums_of_copies():
    """n·m(G) − t ≤ RS(n·G) ≤ LS(n·G) ≤ n·m(G) + t with t = max(temperature, 0) (Winning Ways ch. 6): the mean is
    the limit of the stops of n copies over n."""
    for g in _random_games(5, 60)[:60]:
        th = thermograph(g)
        t = max(th.temperature, 0)
        total = ZERO
        for n in range(1, 7):
            total = add(total, g)
            assert n * th.mean - t <= right_stop(total) <= left_stop(total) <= n * th.mean + t, (to_text(g), n)


_GRID = [F(i, 16) for i in range(65)]  # the day-4 games' temperatures are sixteenths at most (eighths, in fact)


def _cooled(g, t: F, memo: dict):
    """G cooled by t by the definition alone (Siegel, Combinatorial Game Theory II.5), no thermograph: a number is
    itself; else G_t = {G^L_t − t | G^R_t + t} up to the least t at which that is infinitely close to a number x (its
    stops agree), and x past it."""
    if g.number is not None:
        return g
    if (g.uid, t) not in memo:
        tau, x = _freezing(g, memo)
        memo[g.uid, t] = number(x) if t > tau else _raw(g, t, memo)
    return memo[g.uid, t]


def _raw(g, t: F, memo: dict):
    return game([add(_cooled(x, t, memo), number(-t)) for x in g.left],
                [add(_cooled(x, t, memo), number(t)) for x in g.right])


def _freezing(g, memo: dict) -> tuple:
    """(τ, x): the least t of the grid at which {G^L_t − t | G^R_t + t} is infinitely close to the number x."""
    if (g.uid, "τ") not in memo:
        memo[g.uid, "τ"] = next((t, left_stop(f)) for t in _GRID
                                if left_stop(f := _raw(g, t, memo)) == right_stop(f))
    return memo[g.uid, "τ"]


def test_the_temperature_is_where_cooling_freezes_the_game():
    """The temperature is where cooling by the definition (above, no thermograph) makes G infinitely close to a
    number, and that number is the mean (Winning Ways ch. 6): for random games born by day 4 that are not numbers."""
    games = [g for g in _random_games(9, 400, day=4) if g.number is None]
    assert len(games) > 150
    memo: dict = {}
    for g in games:
        th = thermograph(g)
        assert _freezing(g, memo) == (th.temperature, th.mean), to_text(g)


def test_octal_game_prints_and_writes_json():
    r = CliRunner().invoke(app, ["game", "{3||2*|1*}", "--json"])
    doc = json.loads(r.stdout)
    assert list(doc) == ["canonical", "outcome", "birthday", "left_stop", "right_stop", "mean", "temperature",
                         "thermograph", "atomic_weight", "no_atomic_weight", "reduced", "freeze", "incentives"]
    assert (doc["canonical"], doc["outcome"], doc["mean"], doc["temperature"]) == ("{3||2*|1*}", "L", "9/4", "3/4")
    assert doc["thermograph"]["left"] == {"points": [["-1", "4"], ["3/4", "9/4"]], "slope": "0"}
    assert (doc["atomic_weight"], doc["reduced"], doc["freeze"], doc["incentives"]) == (
        None, "{3||2|1}", "9/4*", ["{2*|1*||0}"])  # as CGSuite gives them (its own tests)
    assert "not infinitesimal" in doc["no_atomic_weight"]
    up = json.loads(CliRunner().invoke(app, ["game", "{1|^^||^}", "--json"]).stdout)
    assert (up["atomic_weight"], up["no_atomic_weight"], up["reduced"]) == ("2", None, "0")
    text = CliRunner().invoke(app, ["game", "3+-1"]).stdout
    assert "game           {4|2}" in text and "temperature    1" in text and "mean           3" in text
    for typed, canonical in (("-3/8", "-3/8"), ("-{1|0}", "{0|-1}"), ("-(1+*)", "-1*")):  # not taken for an option
        r = CliRunner().invoke(app, ["game", typed, "--json"])
        assert r.exit_code == 0 and json.loads(r.stdout)["canonical"] == canonical, r.output


@pytest.mark.slow
def test_cooling_heating_and_incentives_agree_with_pycgt_and_the_definitions():
    """Away from the temperatures themselves (t = k/256, k odd: no random game's subgame has such a temperature),
    cooling and heating agree with pycgt; at a temperature octal follows Siegel's definition and Winning Ways (±1
    cooled by 1 is *, infinitely close to its mean; pycgt gives the mean itself). Cooling is additive, heating by t
    undoes cooling by t on these games, and the maximal incentives are pycgt's."""
    pycgt, to_pycgt = _pycgt_and_converter()
    games = _random_games(8, 300, day=4)
    for g in games:
        q = to_pycgt(g)
        for t in (F(1, 256), F(129, 256), F(257, 256)):
            assert pycgt.equals(to_pycgt(cool(g, t)), pycgt.cool(q, t)), (to_text(g), t)
        for t in (F(1, 2), F(1)):
            assert pycgt.equals(to_pycgt(heat(g, t)), pycgt.heat(q, pycgt.number(t))), (to_text(g), t)
        mine, theirs = incentives(g), pycgt.incentives(q)
        assert len(mine) == len(theirs) and all(any(pycgt.equals(to_pycgt(x), y) for y in theirs) for x in mine)
    rng = random.Random(9)
    for _ in range(200):
        g, h = rng.choice(games), rng.choice(games)
        t = F(rng.randint(0, 8), 4)
        assert cool(add(g, h), t) is add(cool(g, t), cool(h, t)), (to_text(g), to_text(h), t)
    assert to_text(cool(parse_game("+-1"), 1)) == "*" and to_text(cool(parse_game("+-1"), F(3, 2))) == "0"
    assert to_text(freeze(parse_game("{3||2*|1*}"))) == to_text(cool(parse_game("{3||2*|1*}"), F(3, 4)))
    assert to_text(heat(parse_game("*"), F(3, 4))) == "+-3/4"  # pycgt's doctest
    assert [compare(parse_game(a), parse_game(b)) for a, b in (("1/2", "^"), ("*", "0"), ("v", "0"), ("1", "1"))] == \
        [">", "||", "<", "="]
