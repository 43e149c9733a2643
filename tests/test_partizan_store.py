"""The store of canonical forms (bounded, emptied by `forget`, answers independent of its size), the class's own
repr, and x + n·↑ + *k recognised when a form is built, its shortcuts held to the general recursion and to a plain
search of game trees."""

from __future__ import annotations

import contextlib
import gc
import itertools
import random
from fractions import Fraction

import pytest
from reference import left_first, random_trees, tree_neg, tree_outcome, tree_sum

from octal import partizan
from octal.errors import InvalidArgumentError
from octal.partizan import atomic, canonical, notation, store, sums, thermal
from octal.partizan.canonical import (
    ONE,
    STAR,
    UP,
    ZERO,
    Game,
    add,
    add_by_options,
    game,
    le,
    le_by_options,
    neg,
    nimber,
    number,
    number_up_star,
    outcome,
    total,
)
from octal.partizan.store import STORE, forget


@contextlib.contextmanager
def bound(entries: int):
    """The store bounded by `entries` inside the block."""
    saved = STORE.max_entries
    STORE.resize(entries)
    try:
        yield
    finally:
        STORE.resize(saved)


def canon(a) -> Game:
    return game([canon(x) for x in a[0]], [canon(x) for x in a[1]])


def tree(g: Game):
    return tuple(tuple(tree(x) for x in side) for side in (g.left, g.right))


XS = (Fraction(0), Fraction(1, 2), Fraction(-3, 4), Fraction(5, 2))
NUS = [(x, n, k) for x in XS for n in range(-4, 5) for k in range(5)]


# --- the store -------------------------------------------------------------------------------------------------


def work(gs: list[Game]) -> None:
    for g, h in itertools.product(gs, repeat=2):
        le(g, h)
        add(g, h)
        assert len(STORE) <= STORE.max_entries and STORE.entries <= STORE.max_entries


def test_the_store_stays_within_its_bound():
    gs = [canon(a) for a in random_trees(3, 12)] + [number_up_star(*u) for u in NUS[::17]]
    forget()
    work(gs)
    assert len(STORE) > 60  # the work fills more than the small bound below
    with bound(60):
        work(gs)
        assert 0 < len(STORE) <= 60


def test_forget_empties_every_memo_and_keeps_live_forms_one_per_value():
    switch = game([ONE], [number(-1)])
    g = UP + STAR + switch
    assert le(ZERO, g) is False and len(STORE) > 0
    forget()
    assert len(STORE) == 0 and STORE.entries == 0
    assert UP + STAR + switch is g  # the interned form outlives the memos: identity is still equality
    forms = len(STORE.forms)
    big = total(canon(a) for a in random_trees(8, 10))
    assert len(STORE.forms) > forms
    del big
    forget()
    gc.collect()
    assert len(STORE.forms) <= forms  # forms held by nobody leave the intern table


def test_a_store_keeps_at_least_one_entry():
    with pytest.raises(InvalidArgumentError):
        STORE.resize(0)


def answers(trees: list) -> tuple:
    gs = [canon(a) for a in trees] + [number_up_star(*u) for u in NUS[::7]]
    return (gs, [[le(g, h) for h in gs] for g in gs], [add(g, h) for g, h in itertools.pairwise(gs)],
            [neg(g) for g in gs], [outcome(g) for g in gs], total(gs[:4] + gs[-4:]),
            [(thermal.stops(g), thermal.mean(g), thermal.temperature(g), thermal.thermograph(g).left.points,
              atomic.far_star(g), atomic.is_all_small(g), atomic.ordinal_sum(g, gs[0])) for g in gs])


def test_answers_do_not_depend_on_the_bound():
    trees = random_trees(5, 16)
    with bound(8):
        small = answers(trees)
        assert len(STORE) <= 8
    forget()
    big = answers(trees)
    assert small[1] == big[1] and small[4] == big[4] and small[6] == big[6]
    for a, b in zip(small[0] + small[2] + small[3] + [small[5]], big[0] + big[2] + big[3] + [big[5]]):
        assert a is b  # equal canonical forms are one object, whatever was forgotten in between


def test_partizan_keeps_no_mutable_state_but_its_store():
    for module in (partizan, atomic, canonical, notation, store, sums, thermal):
        assert [name for name, v in vars(module).items()
                if not name.startswith("__") and isinstance(v, (dict, list, set, bytearray))] == []


# --- the repr ----------------------------------------------------------------------------------------------------


def test_repr_is_the_class_own():
    assert "__repr__" in vars(Game) and Game.__repr__.__module__ == canonical.__name__
    assert type(UP).__repr__ is Game.__repr__
    assert repr(UP + STAR) == "Game(^*)" and repr(game([ONE], [number(-1)])) == "Game(+-1)"
    assert repr(game([number(2)], [game([ONE], [ZERO])])) == "Game({2||1|0})"


# --- x + n·↑ + *k recognised when built -------------------------------------------------------------------------


def test_a_form_built_from_options_is_recognised():
    half = number("1/2")
    g = game([half, half + STAR, ZERO], [half, number(2)])  # 0 and 2 are dominated
    assert g.nus == (Fraction(1, 2), 1, 1) and g is number_up_star("1/2", 1, 1) and repr(g) == "Game(1/2^*)"
    assert game([ZERO], [STAR]).nus == (0, 1, 0) and number("-3/4").nus == (Fraction(-3, 4), 0, 0)
    assert game([ZERO, STAR, nimber(3)], [ZERO, STAR, nimber(3)]).nus == (0, 0, 2)  # *3 reversible
    assert game([ONE], [number(-1)]).nus is None and game([ZERO], [game([ZERO], [number(-2)])]).nus is None


def test_every_built_x_up_star_is_canonical_and_recognised():
    for x, n, k in NUS:
        g = number_up_star(x, n, k)
        assert g.nus == (x, n, k) and game(g.left, g.right) is g


def test_recognition_finds_every_x_up_star_among_random_forms():
    """A form is x + n·↑ + *k exactly when it equals the form built as one: recognition misses none."""
    for a in random_trees(11, 40, days=4):
        g = canon(a)
        stack = [g]
        while stack:
            x = stack.pop()
            if x.nus is not None:
                assert number_up_star(*x.nus) is x
            elif x.birthday <= 4:
                others = [number_up_star(y, n, k) for y in {Fraction(0), *(z.number for z in x.left + x.right
                                                                          if z.number is not None)}
                          for n in range(-4, 5) for k in range(8)]
                assert all(o is not x for o in others)
            stack.extend(x.left + x.right)


def test_shortcuts_agree_with_the_general_path():
    rng = random.Random(4)
    forms = [number_up_star(*u) for u in NUS]
    others = [canon(a) for a in random_trees(6, 20)]
    for _ in range(4000):
        g, h = rng.choice(forms), rng.choice(forms)
        assert le(g, h) == le_by_options(g, h)
        assert add(g, h) is add_by_options(g, h)
        assert neg(g) is game([neg(x) for x in g.right], [neg(x) for x in g.left])
        o = rng.choice(others)
        assert add(g, o) is add_by_options(g, o) and le(g, o) == le_by_options(g, o)


@pytest.mark.slow
def test_shortcuts_agree_with_the_plain_search():
    forms = [number_up_star(x, n, k) for x in (Fraction(0), Fraction(1, 2), Fraction(-1))
             for n in range(-2, 3) for k in range(3)]
    for g, h in itertools.product(forms, repeat=2):
        a, b = tree(g), tree(h)
        assert le(g, h) == (not left_first(tree_sum(a, tree_neg(b))))
        assert outcome(add(g, h)) == tree_outcome(tree_sum(a, b))
        assert outcome(neg(g)) == tree_outcome(tree_neg(a))


def test_numbers_cost_one_form_whatever_their_size():
    """number(10**7) and 1/2^1200 are one form each (CGSuite's numbers cost O(1)): their options are made when read,
    one level at a time; sums, comparisons and negatives of numbers read the value itself."""
    from fractions import Fraction

    from octal.partizan import ZERO, number
    from octal.partizan.store import STORE

    before = len(STORE.numbers)
    big, tiny = number(10**7), number(Fraction(1, 2**1200))
    assert len(STORE.numbers) <= before + 2 and big.birthday == 10**7 and tiny.birthday == 1201
    assert big + (-big) is ZERO and big <= number(10**7 + 1) and not number(10**7 + 1) <= big
    assert big.left == (number(10**7 - 1),) and big.right == () and tiny.left == (ZERO,)
    assert tiny.right == (number(Fraction(1, 2**1199)),) and len(STORE.numbers) <= before + 10  # a few, not 10⁷
    assert game([ZERO], [number(1)]) is number(Fraction(1, 2))  # a number built from options is the same object
