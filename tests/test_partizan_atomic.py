"""Atomic weights, reduced canonical forms, uptimals and CGSuite's way of writing games, checked against CGSuite's own
expected values and against the theory's identities on random games."""

from __future__ import annotations

import json
import random
from fractions import Fraction as F

import pytest
from typer.testing import CliRunner

from octal.front.cli import app
from octal.front.partizan_plot import wall_points
from octal.partizan.atomic import (
    NotAtomicError,
    atomic_weight,
    far_star,
    is_all_small,
    norton_product,
    ordinal_sum,
    reduced,
)
from octal.partizan.canonical import STAR, UP, ZERO, add, game, le, neg, nimber, number, total, up_nth, up_sum
from octal.partizan.cooling import freeze
from octal.partizan.notation import expansion, to_text
from octal.partizan.parse import parse_game
from octal.partizan.thermal import left_stop, right_stop, temperature, thermograph

# CGSuite's expected values for these games, from its test suite (aaron-siegel/cgsuite,
# lib/core/src/test/scala/org/cgsuite/lang/CanonicalShortGameTestCase.scala): typed, canonical as CGSuite writes it,
# atomic weight (None: "That game is not atomic"), reduced canonical form, freeze, temperature.
CGSUITE = [
    ("0", "0", "0", "0", "0", "-1"),
    ("5", "5", None, "5", "5", "-1"),
    ("-1/2", "-1/2", None, "-1/2", "-1/2", "-1/2"),
    ("25/16", "25/16", None, "25/16", "25/16", "-1/16"),
    ("*8", "*8", "0", "0", "*8", "0"),
    ("9/8+*", "9/8*", None, "9/8", "9/8*", "0"),
    ("^", "^", "1", "0", "^", "0"),
    ("v*", "v*", "-1", "0", "v*", "0"),
    ("6+^*", "6^*", None, "6", "6^*", "0"),
    ("^*6", "^*6", "1", "0", "^*6", "0"),
    ("73/16+v9*8", "73/16v9*8", None, "73/16", "73/16v9*8", "0"),
    ("{0|*||*|||*||||*}", "^[4]", "1", "0", "^[4]", "0"),
    ("{0||0|v*}", "{0|^<2>}", "1", "0", "{0|^<2>}", "0"),
    ("{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}",
     "{0||0,v*|vv|||{0||0,v*|vv|||vv,{0,v*|vv}},{0||0,v*|vv}|{0||0,v*|vv|||vv,{0,v*|vv}||||vv}}", "0", "0", None, "0"),
    ("{0||0|vvv}", "{0||0|v3}", "0", "0", "{0||0|v3}", "0"),
    ("{^^^|vv}", "{^3|vv}", "{1|0}", "0", "{^3|vv}", "0"),
    ("{0||0|-3/2}", "Tiny(3/2)", "0", "0", "Tiny(3/2)", "0"),
    ("{0|||0||-1|-3}", "Tiny({3|1})", "0", "0", "Tiny({3|1})", "0"),
    ("{5||3|1|||0||||0}", "Miny({5||3|1})", "0", "0", "Miny({5||3|1})", "0"),
    ("{1|^^||^}", "{1|^^||^}", "2", "0", "{1|^^||^}", "0"),
    ("{1|^^^||^}", "{1|^3||^}", None, "0", "{1|^3||^}", "0"),
    ("{3||2+*|1+*}", "{3||2*|1*}", None, "{3||2|1}", "9/4*", "3/4"),
    ("{3/2+*|1/2||{0|-3},{-1+*,{-1/2|-1+*}|-5/2}}", "{3/2*|1/2||{0|-3},{-1*,{-1/2|-1*}|-5/2}}", None,
     "{3/2|1/2||{0|-3},{-1/2|-1||-5/2}}", "-5/16*", "21/16"),
]


@pytest.mark.parametrize("typed, canonical, weight, red, frozen, temp", CGSUITE)
def test_the_invariants_cgsuite_gives(typed, canonical, weight, red, frozen, temp):
    g = parse_game(typed)
    assert parse_game(canonical) is g
    assert to_text(g) == canonical
    if weight is None:
        with pytest.raises(NotAtomicError):
            atomic_weight(g)
    else:
        assert atomic_weight(g) is parse_game(weight)
    assert to_text(reduced(g)) == red
    assert freeze(g) is parse_game(frozen if frozen is not None else canonical)
    assert temperature(g) == F(temp)


def test_no_atomic_weight_says_why():
    with pytest.raises(NotAtomicError, match=r"not infinitesimal \(its stops are 3 and 2"):
        atomic_weight(parse_game("{3||2*|1*}"))
    with pytest.raises(NotAtomicError, match="infinitesimal but not atomic"):
        atomic_weight(parse_game("{1|^^^||^}"))  # CGSuite: "That game is not atomic"


def test_ups_weigh_what_winning_ways_says():
    """Winning Ways ch. 8: ↑ and ↑* weigh 1, ⇑* 2, nimbers 0, ↑² (and every higher ↑ⁿ) 0; Norton's n.↑ is n·↑."""
    for text, w in (("^", 1), ("^*", 1), ("^^*", 2), ("*5", 0), ("v3", -3)):
        assert atomic_weight(parse_game(text)) is number(w)
    for n in range(2, 6):
        assert atomic_weight(up_nth(n)) is ZERO
        assert atomic_weight(up_sum(n)) is number(1)
    assert norton_product(number(3), UP) is parse_game("^3")
    assert norton_product(number(-2), UP) is parse_game("vv")
    assert norton_product(number(5), parse_game("{1|0}")) is parse_game("{1|0}+{1|0}+{1|0}+{1|0}+{1|0}")  # doubling
    assert norton_product(number(-3), parse_game("{2|0}")) is neg(parse_game("{2|0}+{2|0}+{2|0}"))
    assert far_star(parse_game("{1|*3}")) == 4 and far_star(parse_game("{1|*}")) == 2


def _all_small(rng: random.Random, depth: int):
    """A random all-small game: 0, or options for both players, each all-small."""
    if depth == 0 or rng.random() < 0.25:
        return rng.choice([ZERO, STAR, UP, neg(UP), nimber(2), add(UP, STAR)])
    return game([_all_small(rng, depth - 1) for _ in range(rng.randint(1, 2))],
                [_all_small(rng, depth - 1) for _ in range(rng.randint(1, 2))])


def test_atomic_weight_is_additive_and_reads_off_the_outcome():
    """On random all-small games: AW(G + H) = AW(G) + AW(H), AW(−G) = −AW(G), and the two-ahead rule (Lessons in
    Play, Theorem 9.?): a weight ≥ 2 means G > 0, ≥ 1 that Left wins moving first; likewise for Right."""
    rng = random.Random(11)
    games = [_all_small(rng, 3) for _ in range(120)]
    assert all(is_all_small(g) for g in games)
    seen = set()
    for g, h in zip(games, games[1:]):
        w = atomic_weight(g)
        assert atomic_weight(add(g, h)) is add(w, atomic_weight(h))
        assert atomic_weight(neg(g)) is neg(w)
        if w.number is not None and w.number.denominator == 1:
            seen.add(int(w.number))
            if w.number >= 2:
                assert le(ZERO, g) and not le(g, ZERO)
            if w.number >= 1:
                assert not le(g, ZERO)
            if w.number <= -2:
                assert le(g, ZERO) and not le(ZERO, g)
            if w.number <= -1:
                assert not le(ZERO, g)
    assert {-2, -1, 0, 1, 2} <= seen


def _random_game(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.3:
        return rng.choice([ZERO, STAR, UP, number(1), number(F(-1, 2)), nimber(2), number(2)])
    return game([_random_game(rng, depth - 1) for _ in range(rng.randint(1, 2))],
                [_random_game(rng, depth - 1) for _ in range(rng.randint(1, 2))])


def test_the_reduced_form_is_infinitely_close_and_blind_to_infinitesimals():
    """G − rcf(G) is infinitesimal (both stops 0); adding ↑ or * to G leaves its reduced form; rcf is idempotent."""
    rng = random.Random(4)
    for _ in range(150):
        g = _random_game(rng, 3)
        r = reduced(g)
        d = add(g, neg(r))
        assert (left_stop(d), right_stop(d)) == (0, 0), to_text(g)
        assert reduced(add(g, UP)) is r and reduced(add(g, STAR)) is r and reduced(r) is r


def test_uptimal_expansions_are_read_off_what_sums_build():
    """x + *m + Σ aᵢ·↑ⁱ built by sums has the expansion (x, m, (a₁, …)); ^[n] is ↑ + … + ↑ⁿ; each writes itself
    as CGSuite does and reads back."""
    rng = random.Random(2)
    for _ in range(200):
        x, m = F(rng.randint(-6, 6), rng.choice([1, 2, 4])), rng.randint(0, 3)
        a = [rng.randint(-2, 2) for _ in range(rng.randint(0, 4))]
        while a and a[-1] == 0:
            a.pop()
        g = total([number(x), nimber(m)] + [add(number(0), up_nth(i + 1)) if c > 0 else neg(up_nth(i + 1))
                                            for i, c in enumerate(a) for _ in range(abs(c))])
        assert expansion(g) == (x, m, tuple(a))
        assert parse_game(to_text(g)) is g
    for n in range(1, 7):
        assert up_sum(n) is total([up_nth(k) for k in range(1, n + 1)])
    assert expansion(parse_game("{3||2*|1*}")) is None


def test_the_thermograph_polygon_meets_at_the_mast():
    """The walls drawn run from t = −1 to the temperature, where both reach the mean (3 ± 1: from 5 and 1 at t = −1,
    4 and 2 at t = 0)."""
    ts, left, right = wall_points(thermograph(parse_game("3+-1")))
    assert (ts, left, right) == ([-1, 1], [5, 3], [1, 3])
    th = thermograph(parse_game("3+-1"))
    assert (th.left.at(F(0)), th.right.at(F(0))) == (4, 2)


def test_octal_game_cools_and_heats_by_a_number():
    doc = json.loads(CliRunner().invoke(app, ["game", "+-1", "--cool", "1", "--heat", "1/2", "--json"]).stdout)
    assert doc["cooled"] == {"by": "1", "game": "*"} and doc["heated"] == {"by": "1/2", "game": "+-3/2"}
    text = CliRunner().invoke(app, ["game", "{3||2*|1*}", "--cool", "1/2"]).stdout
    assert "\ncooled         by 1/2: " in text
    long = CliRunner().invoke(app, ["game", "+-1", "--cool", f"1/{2 ** 500}"]).stdout
    assert long.startswith("game           +-1\n")  # a long amount widens no column
    for args in (["--cool", "*"], ["--cool", "-1"], ["--heat", "{1|0}"]):
        r = CliRunner().invoke(app, ["game", "1", *args])
        assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1


def test_octal_game_compares_with_another_game():
    """↑ ‖ * (Winning Ways: ↑ is confused with *), {1|0} ‖ 1/2, 1/2 + 1/2 = 1, ↑ < 1/64 (an infinitesimal), {3|2} > 1
    and {2|1} ‖ 1 (a hot game is confused with the numbers between its stops, 1 included)."""
    for g, h, rel in (("^", "*", "||"), ("{1|0}", "1/2", "||"), ("1/2+1/2", "1", "="), ("^", "1/64", "<"),
                      ("{3|2}", "1", ">"), ("{2|1}", "1", "||")):
        doc = json.loads(CliRunner().invoke(app, ["game", g, "--compare", h, "--json"]).stdout)
        assert doc["compared"] == {"with": to_text(parse_game(h)), "relation": rel}
    assert "compared       less than 1/64" in CliRunner().invoke(app, ["game", "^", "--compare", "1/64"]).stdout


@pytest.mark.parametrize("typed, weight", [("{1/2|^^*3||^*}", "2"), ("{^3*2|||^||*2|-1}", "3/2"),
                                           ("{1/2|^*2||v*2|||vv*}", "-1")])
def test_atomic_means_within_a_remote_star_s_kite(typed, weight):
    """Infinitesimals that are not all-small, with *2 or *3 among their followers: atomic, as G − AW·↑ lies within
    ±(↑* + *N : −1) for every remote star *N (N = 4, 8, 16 agree); a star that is not remote (N = 2, while *2 or *3
    appears) would refuse them, so the kite's N must pass the game's nimbers (the far star), as the definition says."""
    g = parse_game(typed)
    assert not is_all_small(g) and far_star(g) > 2
    assert atomic_weight(g) is parse_game(weight)
    rest = add(g, neg(norton_product(parse_game(weight), UP)))

    def within(n: int) -> bool:
        eps = add(parse_game("^*"), ordinal_sum(nimber(n), number(-1)))
        return le(rest, eps) and le(neg(eps), rest)

    assert within(4) and within(8) and within(16) and not within(2)
