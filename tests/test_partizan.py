"""Short partizan games in canonical form, against the identities of Winning Ways (ch. 2) and Lessons in Play and
against a plain search of game trees that knows nothing of canonical forms."""

from __future__ import annotations

import functools
import random
from fractions import Fraction

import pytest
from reference import left_first, random_trees, tree_neg, tree_outcome, tree_sum

from octal.errors import InvalidArgumentError, ResourceLimitError
from octal.outcomes import LEFT_WINS, NEXT, PREVIOUS
from octal.partizan import (
    ONE,
    STAR,
    UP,
    ZERO,
    FormTooLarge,
    SumSearch,
    add,
    game,
    le,
    neg,
    nimber,
    number,
    number_up_star,
    outcome,
    to_text,
    total,
    work_limit,
)
from octal.partizan.notation import definitions, text_length

# --- the plain reference: game trees as (left options, right options), outcomes by search --------------------


def tree_le(a, b) -> bool:
    """a ≤ b: Left, moving first in a − b, loses."""
    return not left_first(tree_sum(a, tree_neg(b)))


def canon(a):
    return game([canon(x) for x in a[0]], [canon(x) for x in a[1]])


TREES = random_trees(1, 60)


# --- against the plain search --------------------------------------------------------------------------------


def test_outcome_matches_the_search_of_the_tree():
    for a in TREES:
        assert outcome(canon(a)) == tree_outcome(a)


def test_equal_values_have_the_same_canonical_form():
    """Canonical forms are unique: two trees are equal (a − b a P-position) exactly when their forms are one."""
    pairs = [(a, b) for a in TREES[:30] for b in TREES[30:]]
    equal = 0
    for a, b in pairs:
        same = tree_outcome(tree_sum(a, tree_neg(b))) == PREVIOUS
        equal += same
        assert (canon(a) is canon(b)) == same
    assert equal > 0  # the sample does hold equal pairs of different trees


def test_order_matches_the_search():
    for a in TREES[:25]:
        for b in TREES[25:50]:
            assert le(canon(a), canon(b)) == tree_le(a, b)


def test_sum_and_negative_match_the_trees():
    for a, b in zip(TREES[:20], TREES[20:40]):
        assert add(canon(a), canon(b)) is canon(tree_sum(a, b))
        assert neg(canon(a)) is canon(tree_neg(a))


def test_canonical_forms_have_no_dominated_or_reversible_options():
    for a in TREES:
        g = canon(a)
        for side, better in ((g.left, lambda x, y: le(x, y)), (g.right, lambda x, y: le(y, x))):
            assert not any(i != j and better(x, y) for i, x in enumerate(side) for j, y in enumerate(side))
        assert not any(le(r, g) for x in g.left for r in x.right)  # no reversible Left option
        assert not any(le(g, y) for x in g.right for y in x.left)


# --- the published identities ------------------------------------------------------------------------------


def test_numbers():
    assert game([], []) is ZERO and game([ZERO], []) is ONE and game([], [ZERO]) is number(-1)
    assert game([ZERO], [ONE]) is number("1/2")
    assert number("1/2") + number("1/2") is ONE
    assert game([number("1/2")], [ONE]) is number("3/4")
    assert game([ONE], []) is number(2)
    assert game([number(-5)], [number(7)]) is ZERO  # the simplest number between
    assert game([number("5/4")], [number(2)]) is number("3/2")
    assert to_text(number("-3/4")) == "-3/4"
    with pytest.raises(InvalidArgumentError):
        number("1/3")


def test_nimbers():
    assert game([ZERO], [ZERO]) is STAR and to_text(STAR) == "*"
    assert game([ZERO, STAR], [ZERO, STAR]) is nimber(2)
    assert STAR + STAR is ZERO
    assert nimber(2) + nimber(3) is STAR and nimber(5) + nimber(6) is nimber(3)
    assert outcome(STAR) == NEXT and outcome(ZERO) == PREVIOUS
    assert game([ZERO, STAR, nimber(3)], [ZERO, STAR, nimber(3)]) is nimber(2)  # mex: *3 is reversible through 0... *2


def test_ups():
    assert to_text(UP) == "^" and to_text(neg(UP)) == "v" and game([STAR], [ZERO]) is neg(UP)
    assert UP > ZERO and UP.fuzzy(STAR) and outcome(UP) == LEFT_WINS
    assert UP + UP is game([ZERO], [UP + STAR]) and to_text(UP + UP) == "^^"
    assert UP + STAR is game([ZERO, STAR], [ZERO]) and to_text(UP + STAR) == "^*" and outcome(UP + STAR) == NEXT
    assert UP + UP + STAR is game([ZERO], [UP]) and to_text(UP + UP + STAR) == "^^*" and UP + UP + STAR > ZERO
    assert UP + UP + UP is game([ZERO], [UP + UP + STAR]) and to_text(UP + UP + UP) == "^3"
    assert UP + UP > STAR  # ⇑ > *
    assert UP + neg(UP) is ZERO
    assert to_text(ONE + UP) == "1^" and game([ONE], [ONE + STAR]) is ONE + UP
    assert to_text(number("-5/4") + neg(UP + UP) + nimber(3)) == "-5/4vv*3"


def test_switches_and_hot_games():
    pm1 = game([ONE], [number(-1)])
    assert to_text(pm1) == "+-1" and outcome(pm1) == NEXT
    assert pm1 + pm1 is ZERO  # ±1 ± 1 = 0
    assert to_text(game([number(3)], [ONE])) == "{3|1}"  # CGSuite writes ± only for a game equal to its negative
    half = game([ONE], [ZERO])
    assert half + half is ONE  # {1|0} + {1|0} = 1
    assert game([ONE], [ONE]) is ONE + STAR and to_text(ONE + STAR) == "1*"
    pm2 = game([number(2)], [number(-2)])
    assert to_text(pm2 + pm1) == "+-{3|1}"  # ±2 ± 1 = {3|1||-1|-3}, equal to its negative: CGSuite writes ±
    assert to_text(game([number(2)], [half])) == "{2||1|0}"


def test_tiny_and_the_star_options():
    tiny = game([ZERO], [game([ZERO], [number(-2)])])
    assert to_text(tiny) == "Tiny(2)"
    assert ZERO < tiny < UP and outcome(tiny) == LEFT_WINS
    g = game([ONE], [STAR])
    assert to_text(g) == "{1|*}" and outcome(g) == LEFT_WINS and g > ZERO
    assert game([ZERO], [STAR]) is UP and game([ZERO, STAR], [ZERO, STAR]) is nimber(2)


def test_total_adds_numbers_as_numbers():
    assert total([number("1/2"), UP, number("1/4"), neg(UP), STAR]) is number("3/4") + STAR
    assert total([]) is ZERO
    rng = random.Random(3)
    for _ in range(300):  # numbers of every denominator order, integers, negatives, beside other games
        xs = [Fraction(rng.randint(-40, 40), 2 ** rng.randint(0, 7)) for _ in range(rng.randint(0, 6))]
        others = rng.sample([UP, STAR, neg(UP), nimber(2), game([number(1)], [number(-1)])], rng.randint(0, 2))
        parts = [number(x) for x in xs] + others
        rng.shuffle(parts)
        assert total(parts) is total([number(sum(xs))] + others) is functools.reduce(add, parts, ZERO)


# --- long forms, budgets and the search of a sum --------------------------------------------------------------


def test_definitions_write_a_form_of_any_length():
    g = game([number(2)], [game([ONE], [ZERO])])
    assert definitions(g) == ["G = {2|G1}", "G1 = {1|0}"]
    assert definitions(UP) == ["G = ^"]
    for a in TREES:  # the length is counted, not written: within a factor 2 of the text
        n = len(to_text(canon(a)))
        assert n / 2 <= text_length(canon(a)) <= 2 * n


def test_work_limit_stops_growing_forms():
    switches = [game([number(k)], [number(-k)]) for k in range(1, 9)]
    with pytest.raises(FormTooLarge), work_limit(50):
        total(switches + [UP, STAR, nimber(2)])
    assert isinstance(FormTooLarge("x"), ResourceLimitError)


def test_search_of_the_sum_agrees_with_the_forms():
    for seed in range(6):
        gs = [canon(a) for a in random_trees(seed, 4)]
        assert SumSearch(10**6).outcome(gs) == outcome(total(gs))
    with pytest.raises(ResourceLimitError):
        SumSearch(3).outcome([canon(a) for a in random_trees(9, 6)] + [UP, game([ONE], [number(-1)])])


def test_fraction_numbers_round_trip():
    for x in (Fraction(7, 8), Fraction(-9, 16), Fraction(3)):
        assert number(x).number == x and to_text(number(x)) == (str(x))


def test_a_form_that_is_a_number_is_marked_as_one():
    """Every interned form whose options are numbers with L < R is the number itself (a number's form is unique)."""
    for a in TREES:
        g = canon(a)
        stack = [g]
        while stack:
            x = stack.pop()
            options = x.left + x.right
            if options and all(y.number is not None for y in options) and (
                    not (x.left and x.right) or max(y.number for y in x.left) < min(y.number for y in x.right)):
                assert x.number is not None, x
            stack.extend(x.left + x.right)


def test_every_number_up_star_is_recognised_and_written():
    """x + n·↑ + *k built by sums is recognised as (x, n, k) and written as CGSuite writes it."""
    for x in (Fraction(0), Fraction(1), Fraction(-3, 4), Fraction(5, 2)):
        for n in range(-4, 5):
            for k in range(8):
                g = total([number(x)] + [UP if n > 0 else neg(UP)] * abs(n) + [nimber(k)])
                assert g.nus == (x, n, k) and g is number_up_star(x, n, k)
    assert to_text(number_up_star(0, -3, 2)) == "v3*2" and to_text(number("1/2") + UP) == "1/2^"
    assert to_text(number_up_star(0, 40)) == "^40"  # recognised at any birthday


def test_deeper_random_trees_against_the_search():
    """Trees born by day 4: equal values have one form, and ≤ agrees with the search of the difference."""
    trees = random_trees(21, 24, days=4)
    for a in trees[:12]:
        for b in trees[12:]:
            assert (canon(a) is canon(b)) == (tree_outcome(tree_sum(a, tree_neg(b))) == PREVIOUS)
            assert le(canon(a), canon(b)) == tree_le(a, b)


def test_large_and_fine_numbers_build_without_recursion():
    assert number(2000).number == 2000 and to_text(number(-2500)) == "-2500"
    tiny = number(Fraction(1, 2**1200))
    assert tiny.number == Fraction(1, 2**1200) and ZERO < tiny < number(Fraction(1, 2**1199))
