"""Positions: normal play against a plain game-tree search, misère search against an independent one."""

import itertools
import json
from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import partitions
from typer.testing import CliRunner

from octal import parse_code
from octal.front.cli import app
from octal.misere import MisereSearch, genus_sequence, misere_solution
from octal.positions.position import HeapValues, heap_moves, normal_solution
from octal.solve import solve_position

CODES = ["0.77", "0.07", "0.137", "0.6", "4.7", "0.15", "0.75", "0.F"]


def plain_moves(digits, h):
    """Options of one heap from the digits alone (no octal.rules.code, no octal.positions.position)."""
    out = set()
    for k, d in enumerate(digits):
        m = h - k
        if m < 0:
            continue
        if k and d & 1 and m == 0:
            out.add(())
        if k and d & 2 and m >= 1:
            out.add((m,))
        if d & 4:
            out.update((a, m - a) for a in range(1, m // 2 + 1))
        if d & 8:
            out.update((a, b, m - a - b) for a in range(1, m) for b in range(a, m) if m - a - b >= b)
    return out


def digits_of(text):
    head, body = text.split(".")
    return [int(head or "0", 16)] + [int(c, 16) for c in body]


def make_tree_search(text, misere):
    digits = digits_of(text)

    @lru_cache(maxsize=None)
    def wins(pos):  # True when the player to move wins; pos is a sorted tuple, no canonical pruning
        any_move = False
        for i, h in enumerate(pos):
            rest = pos[:i] + pos[i + 1 :]
            for leaves in plain_moves(digits, h):
                any_move = True
                if not wins(tuple(sorted(rest + leaves))):
                    return True
        return misere and not any_move

    return wins


def small_positions(max_total, max_heaps=3):
    for k in range(1, max_heaps + 1):
        for heaps in itertools.combinations_with_replacement(range(1, max_total + 1), k):
            if sum(heaps) <= max_total:
                yield heaps


@pytest.mark.parametrize("text", CODES)
def test_normal_play_matches_game_tree_search(text):
    wins = make_tree_search(text, misere=False)
    code = parse_code(text)
    values = HeapValues(code, 20)
    for heaps in small_positions(14):
        sol = normal_solution(code, heaps, values)
        assert (sol.outcome == "N") == wins(tuple(sorted(heaps))), heaps
        for mv in sol.winning_moves:
            rest = list(heaps)
            rest.remove(mv.heap)
            assert not wins(tuple(sorted(rest + list(mv.leaves))))


@pytest.mark.parametrize("text", CODES)
def test_misere_search_matches_independent_search(text):
    wins = make_tree_search(text, misere=True)
    search = MisereSearch(parse_code(text))
    for heaps in small_positions(13):
        assert search.is_p(heaps) != wins(tuple(sorted(heaps))), heaps


def test_every_misere_kayles_position_up_to_24_tokens():
    wins = make_tree_search("0.77", misere=True)
    search = MisereSearch(parse_code("0.77"))
    for total in range(1, 25):
        for heaps in partitions(total):
            assert search.is_p(heaps) != wins(heaps)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CODES), st.lists(st.integers(0, 12), min_size=1, max_size=4), st.booleans())
def test_p_positions_lose_and_winning_moves_win(text, heaps, misere):
    code = parse_code(text)
    sol = solve_position(code, heaps, misere=misere)
    if sol.outcome == "P":
        assert sol.winning_moves == []
        for h in set(heaps):
            rest = list(heaps)
            rest.remove(h)
            for mv in heap_moves(code, h):
                assert solve_position(code, rest + list(mv.leaves), misere=misere).outcome == "N"
    else:
        no_move = all(next(iter(heap_moves(code, h)), None) is None for h in heaps)
        assert sol.winning_moves or (misere and no_move)  # misère: having no move at all is a win
        for mv in sol.winning_moves:
            rest = list(heaps)
            rest.remove(mv.heap)
            assert solve_position(code, rest + list(mv.leaves), misere=misere).outcome == "P"


def test_misere_nim_follows_boutons_rule():
    search = MisereSearch(parse_code("0.[3]"))
    for heaps in small_positions(9, 3):
        nimsum = 0
        for h in heaps:
            nimsum ^= h
        if all(h <= 1 for h in heaps):
            expect_p = nimsum == 1
        else:
            expect_p = nimsum == 0
        assert search.is_p(heaps) == expect_p, heaps


def test_huge_heap_through_the_period():
    sol = normal_solution(parse_code("0.77"), (10**12,))
    big = 10**12
    g = HeapValues(parse_code("0.77"), 200)(71 + (big - 71) % 12)
    assert sol.outcome == ("N" if g else "P")
    assert sol.winning_moves and sol.truncated
    values = HeapValues(parse_code("0.77"), 200)
    for mv in sol.winning_moves[:50]:
        v = 0
        for leaf in mv.leaves:
            v ^= values(leaf)
        assert v == 0


def test_genus_of_nim_heaps_is_tame_and_kayles_wild_from_5():
    assert all(g.tame for g in genus_sequence(parse_code("0.[3]"), 8))
    gs = genus_sequence(parse_code("0.77"), 12)
    assert [str(g) for g in gs[:6]] == ["0^120", "1^031", "2^20", "3^31", "1^031", "4^146"]
    assert [g.heap for g in gs if not g.tame][0] == 5


def test_misere_refuses_what_search_cannot_reach():
    from octal import ResourceLimitError

    with pytest.raises(ResourceLimitError, match="too large"):
        misere_solution(parse_code("0.77"), (30, 30))


runner = CliRunner()


def test_solve_json_shape_and_order():
    r = runner.invoke(app, ["solve", "kayles", "5", "7", "9", "--json"])
    doc = json.loads(r.output)
    assert list(doc)[:6] == ["code", "heaps", "play", "outcome", "winning_moves", "winning_moves_truncated"]
    assert doc["heaps"] == [5, 7, 9] and doc["play"] == "normal" and doc["outcome"] == "N"
    keys = [(m["heap"], m["remove"], m["leaves"]) for m in doc["winning_moves"]]
    assert keys == sorted(keys) and keys[0] == (7, 1, [3, 3])


@pytest.mark.slow
def test_solve_texts_and_errors():
    assert ("remove 2 from the heap of 9, leaving heaps 2 and 5"
            in runner.invoke(app, ["solve", "kayles", "5", "7", "9"]).output)
    r = runner.invoke(app, ["solve", "kayles", "5", "5"])
    assert "every move loses" in r.output and "best try" in r.output
    r = runner.invoke(app, ["solve", "kayles", "1000000000000"])
    assert r.exit_code == 0 and "outcome  N" in r.output
    for args, fragment in [(["solve", "kayles", "5", "-3"], "negative"), (["solve", "kayles", "x"], "whole numbers"),
                           (["solve", "0.6", "30", "30", "--misere"], "too large"),
                           (["solve", "officers", str(10**12)], "no period")]:
        r = runner.invoke(app, args)
        assert r.exit_code == 2 and fragment in r.output and len(r.output.strip().splitlines()) == 1


def test_genus_cli():
    r = runner.invoke(app, ["genus", "kayles", "--n", "12"])
    assert r.exit_code == 0 and "4^146" in r.output and "heap 5 is the first wild one" in r.output


def test_star_one_pairs_cancel_in_misere_play():
    # *1 + *1 = 0 in misère play (the search prunes with it): checked here with the plain search
    wins = make_tree_search("0.07", misere=True)  # in 0.07 heaps of 2 and 3 are both *1
    for heaps in small_positions(10):
        base = wins(tuple(sorted(heaps)))
        assert wins(tuple(sorted(heaps + (2, 3)))) == base
        assert wins(tuple(sorted(heaps + (2, 2)))) == base
    search = MisereSearch(parse_code("0.07"))
    assert search.key((5, 2, 3, 3, 1)) == (2, 5)  # 1 is dead; three *1 heaps leave one, the smallest


def grundy_tree_search(misere):
    """Grundy's game from its rules alone: split one heap into two unequal non-empty heaps."""

    @lru_cache(maxsize=None)
    def wins(pos):
        any_move = False
        for i, h in enumerate(pos):
            rest = pos[:i] + pos[i + 1 :]
            for a in range(1, (h + 1) // 2):
                any_move = True
                if not wins(tuple(sorted(rest + (a, h - a)))):
                    return True
        return misere and not any_move

    return wins


@pytest.mark.parametrize("misere", [False, True])
def test_grundys_game_positions_match_a_tree_search(misere):
    wins = grundy_tree_search(misere)
    for heaps in small_positions(16 if not misere else 14):
        sol = solve_position("grundy", heaps, misere=misere)
        assert (sol.outcome == "N") == wins(tuple(sorted(heaps))), heaps
        for mv in sol.winning_moves:
            assert mv.remove == 0 and len(mv.leaves) == 2 and mv.leaves[0] != mv.leaves[1]
            rest = list(heaps)
            rest.remove(mv.heap)
            assert not wins(tuple(sorted(rest + list(mv.leaves))))


def test_solve_grundy_cli():
    out = runner.invoke(app, ["solve", "grundy", "9", "12"]).output
    assert "4!.0 (Grundy's game)" in out and "G(9)=1 G(12)=1, nim-sum 0" in out and "outcome  P" in out
    out = runner.invoke(app, ["solve", "grundy", "9", "13", "--json"]).output
    doc = json.loads(out)
    assert doc["outcome"] == "N"
    assert all(m["remove"] == 0 and m["leaves"][0] != m["leaves"][1] for m in doc["winning_moves"])
    misere = runner.invoke(app, ["misere", "4!.0", "--max-heap", "20"]).output
    assert "misère quotient of heaps 0..20" in misere and "status     finite" in misere


def test_constrained_moves_are_checked_by_their_mark():
    from octal.positions.position import Move, move_allowed

    grundy = parse_code("4!.0")
    assert move_allowed(grundy, Move(10**12, 0, (1, 10**12 - 1)))
    assert not move_allowed(grundy, Move(10, 0, (5, 5)))
    equal = parse_code("4=.0")
    assert move_allowed(equal, Move(10, 0, (5, 5))) and not move_allowed(equal, Move(10, 0, (4, 6)))
    three = parse_code("0.{3?}")
    assert move_allowed(three, Move(10, 1, (2, 3, 4))) and not move_allowed(three, Move(10, 1, (3, 3, 3)))
