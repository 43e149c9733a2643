"""Partizan Node Kayles: canonical values and winning moves against a plain outcome search over vertex sets, owners
all B against impartial Node Kayles and Dawson's Chess, sums against the search of the sum, and the command."""

from __future__ import annotations

import itertools
import json
import random
from functools import cache

import pytest
from typer.testing import CliRunner

from octal import nim_sequence
from octal.errors import InvalidArgumentError
from octal.front.cli import app
from octal.graphs import (
    NodeKayles,
    graph_from_edges,
    named_graph,
    parse_owners,
    partizan_node_kayles,
    read_edge_list,
)
from octal.graphs import partizan as partizan_module
from octal.outcomes import LEFT_WINS, NEXT, PREVIOUS, RIGHT_WINS
from octal.partizan import nimber, outcome

runner = CliRunner()


def run_cli(args: list[str]):
    return runner.invoke(app, args)


def plain_search(graph, owners):
    """(outcome class, Left's winning first moves, Right's) by searching vertex sets: no values, no components."""
    closed = [a | (1 << v) for v, a in enumerate(graph.adj)]
    may = {side: [v for v in range(graph.n) if owners[v] in (side, "B")] for side in "LR"}

    @cache
    def wins(mask: int, side: str) -> bool:
        other = "R" if side == "L" else "L"
        return any(not wins(mask & ~closed[v], other) for v in may[side] if mask >> v & 1)

    full = (1 << graph.n) - 1
    lf, rf = wins(full, "L"), wins(full, "R")
    kind = NEXT if lf and rf else LEFT_WINS if lf else RIGHT_WINS if rf else PREVIOUS
    left = [v for v in may["L"] if not wins(full & ~closed[v], "R")]
    right = [v for v in may["R"] if not wins(full & ~closed[v], "L")]
    return kind, left, right


class CanonicalForms:
    """Short partizan games in canonical form, from the definitions alone (Conway, On Numbers and Games, ch. 10;
    Siegel, Combinatorial Game Theory, II.2): a form is stored once under a number, its options are canonical, the
    dominated ones are removed and the reversible ones bypassed. Independent of octal.partizan."""

    def __init__(self):
        self.options: list[tuple[tuple[int, ...], tuple[int, ...]]] = [((), ())]  # number 0 is { | } = 0
        self.number = {((), ()): 0}
        self._le: dict[tuple[int, int], bool] = {}
        self._sum: dict[tuple[int, int], int] = {}

    def le(self, a: int, b: int) -> bool:
        """a ≤ b: no Left option of a is ≥ b and no Right option of b is ≤ a."""
        r = self._le.get((a, b))
        if r is None:
            r = not any(self.le(b, x) for x in self.options[a][0]) and not any(self.le(x, a) for x in
                                                                               self.options[b][1])
            self._le[a, b] = r
        return r

    def _le_game(self, x: int, left, right) -> bool:
        """x ≤ G for G = {left | right} (canonical options, G itself not yet reduced)."""
        return not any(self._game_le(left, right, y) for y in self.options[x][0]) and not any(
            self.le(y, x) for y in right)

    def _game_le(self, left, right, y: int) -> bool:
        """G ≤ y."""
        return not any(self.le(y, x) for x in left) and not any(self._le_game(z, left, right) for z in
                                                                 self.options[y][1])

    def make(self, left, right) -> int:
        """The canonical form of {left | right}: reversible options bypassed (judged against G as given: bypassing
        keeps its value), dominated ones removed, until neither is left."""
        given = tuple(set(left)), tuple(set(right))
        left, right = set(left), set(right)
        while True:
            left = {x for x in left if not any(y != x and self.le(x, y) for y in left)}
            right = {x for x in right if not any(y != x and self.le(y, x) for y in right)}
            rev = next(((x, xr) for x in left for xr in self.options[x][1] if self._le_game(xr, *given)), None)
            if rev:
                left = (left - {rev[0]}) | set(self.options[rev[1]][0])
                continue
            rev = next(((x, xl) for x in right for xl in self.options[x][0] if self._game_le(*given, xl)), None)
            if rev:
                right = (right - {rev[0]}) | set(self.options[rev[1]][1])
                continue
            break
        key = (tuple(sorted(left)), tuple(sorted(right)))
        if key not in self.number:
            self.number[key] = len(self.options)
            self.options.append(key)
        return self.number[key]

    def add(self, a: int, b: int) -> int:
        """a + b: Left moves in either, Right moves in either."""
        if a == 0 or b == 0:
            return a or b
        a, b = min(a, b), max(a, b)
        if (a, b) not in self._sum:
            (la, ra), (lb, rb) = self.options[a], self.options[b]
            self._sum[a, b] = self.make([self.add(x, b) for x in la] + [self.add(a, x) for x in lb],
                                        [self.add(x, b) for x in ra] + [self.add(a, x) for x in rb])
        return self._sum[a, b]

    def subgames(self, g: int) -> int:
        """Distinct forms among g and its options, their options, …"""
        seen, todo = set(), [g]
        while todo:
            x = todo.pop()
            if x not in seen:
                seen.add(x)
                todo.extend(self.options[x][0] + self.options[x][1])
        return len(seen)

    def birthday(self, g: int) -> int:
        """1 + the latest birthday among g's options; 0 for { | }. Forms are numbered after their options."""
        born: list[int] = []
        for left, right in self.options[: g + 1]:
            born.append(1 + max((born[x] for x in left + right), default=-1))
        return born[g]


def alternating_path_by_definition(n: int):
    """Partizan Node Kayles on a path of n vertices owned L, R, L, …, by the definitions: (forms, the canonical form,
    Left's and Right's options as {vertex: form}). Choosing vertex i removes it and its neighbours, leaving the
    paths before and after it, each alternating; a position is the sum of its paths."""
    forms = CanonicalForms()

    @cache
    def path(m: int, first: int) -> tuple[int, tuple[dict[int, int], dict[int, int]]]:
        moves: tuple[dict[int, int], dict[int, int]] = ({}, {})  # 0 = Left, 1 = Right
        for i in range(m):
            owner = first ^ (i & 1)  # vertex i + 2 has the owner of vertex i
            moves[owner][i] = forms.add(path(max(i - 1, 0), first)[0], path(max(m - i - 2, 0), owner)[0])
        return forms.make(moves[0].values(), moves[1].values()), moves

    g, (left, right) = path(n, 0)
    return forms, g, left, right


def random_graph(rng: random.Random, n: int):
    p = rng.random()
    return graph_from_edges([(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < p], n)


def test_random_graphs_of_up_to_7_vertices_match_the_plain_search():
    rng = random.Random(7)
    kinds = set()
    for _ in range(1500):
        g = random_graph(rng, rng.randint(1, 7))
        owners = "".join(rng.choice("LRB") for _ in range(g.n))
        r = partizan_node_kayles(g, owners)
        kind, left, right = plain_search(g, owners)
        assert (r.outcome, r.winning_moves["left"], r.winning_moves["right"]) == (kind, left, right), (g, owners)
        assert outcome(r.value) == r.outcome
        kinds.add(kind)
    assert kinds == {LEFT_WINS, RIGHT_WINS, NEXT, PREVIOUS}


@pytest.mark.parametrize("spec", ["path:6", "cycle:6", "star:5", "grid:3x2", "complete:4"])
def test_every_owner_assignment_of_small_graphs(spec):
    g = named_graph(spec)
    for owners in itertools.product("LRB", repeat=g.n):
        r = partizan_node_kayles(g, owners)
        assert (r.outcome, r.winning_moves["left"], r.winning_moves["right"]) == plain_search(g, owners)


def test_owners_all_b_give_impartial_node_kayles():
    rng = random.Random(3)
    for _ in range(60):
        g = random_graph(rng, rng.randint(1, 10))
        assert partizan_node_kayles(g, "B" * g.n).value is nimber(NodeKayles(g).value())
    for spec in ("petersen", "grid:3x3", "cycle:11", "tree:14:2"):
        g = named_graph(spec)
        assert partizan_node_kayles(g, "B" * g.n).value is nimber(NodeKayles(g).value())


def test_a_path_with_owners_all_b_is_dawsons_chess():
    dawson = nim_sequence("0.137", 31).values
    for n in range(1, 31):
        assert partizan_node_kayles(named_graph(f"path:{n}"), "B" * n).value is nimber(int(dawson[n]))


def test_twins_of_different_owners_merge_into_a_vertex_both_may_choose():
    g = graph_from_edges([(0, 1), (1, 2), (0, 2), (2, 3)])  # 0 and 1 are true twins
    r = partizan_node_kayles(g, "LRLR")
    assert (r.outcome, r.winning_moves["left"], r.winning_moves["right"]) == plain_search(g, "LRLR")


def union_of_trees(seed: int, count: int = 50, most: int = 8):
    rng = random.Random(seed)
    edges, n = [], 0
    for _ in range(count):
        k = rng.randint(1, most)
        edges += [(n + v, n + rng.randrange(v)) for v in range(1, k)]
        n += k
    return graph_from_edges(edges, n), "".join(rng.choice("LR") for _ in range(n))


@pytest.mark.slow
def test_a_union_of_trees_by_forms_and_by_the_search_of_the_sum():
    for seed, count, most, work in ((0, 8, 6, 0), (1, 10, 8, 0), (2, 50, 8, 4_000), (3, 50, 8, 64_000)):
        g, owners = union_of_trees(seed, count, most)
        by_forms = partizan_node_kayles(g, owners)
        assert by_forms.method == partizan_module.METHOD_FORMS and by_forms.components == count
        # a budget too small for the whole sum: components are added in groups within work / 16, then searched
        by_search = partizan_node_kayles(g, owners, max_form_work=work)
        assert by_search.method == partizan_module.METHOD_SUM_SEARCH and by_search.value is None
        assert by_search.sum_positions > 0 and by_search.states == by_forms.states
        assert by_search.outcome == by_forms.outcome
        assert by_search.winning_moves == by_forms.winning_moves


def test_a_union_of_50_trees_is_cheap_by_forms():
    g, owners = union_of_trees(4)
    r = partizan_node_kayles(g, owners)
    assert r.components == 50 and r.value is not None and r.value_text is not None
    assert r.outcome == outcome(r.value)


def test_owner_specs():
    g = named_graph("path:4")
    assert parse_owners("alternate", g) == ("L", "R", "L", "R")
    assert parse_owners("lrbB", g) == ("L", "R", "B", "B")
    assert parse_owners("random:5", g) == parse_owners("random:5", g)
    assert set(parse_owners("random:5", named_graph("path:40"))) == {"L", "R"}
    for bad in ("LRL", "LRXL", "random:x", "column"):
        with pytest.raises(InvalidArgumentError):
            parse_owners(bad, g)


def test_the_owners_column_of_an_edge_list(tmp_path):
    f = tmp_path / "g.txt"
    f.write_text("a b\nb c\na: L\nb: R\nc: B\n")
    g = read_edge_list(f)
    assert g.owners == ("L", "R", "B") and parse_owners("column", g) == ("L", "R", "B")
    r = partizan_node_kayles(g, parse_owners("column", g))
    assert (r.outcome, r.winning_moves["left"], r.winning_moves["right"]) == (NEXT, ["c"], ["b"])  # c leaves a (1)
    tight = tmp_path / "tight.txt"
    tight.write_text("a b\na:L\nb:r\n")  # 'v:X' without a space is an owner line too
    assert read_edge_list(tight).owners == ("L", "R")
    out = run_cli(["graph", "--edges", str(tight), "--game", "Partisan", "--owners", "column"])
    assert out.exit_code == 0 and "1 edge," in out.output and "value    *" in out.output
    half = tmp_path / "half.txt"
    half.write_text("a b\na: L\n")
    out = run_cli(["graph", "--edges", str(half), "--game", "partisan", "--owners", "column"])
    assert out.exit_code == 2 and "b has none" in out.output and len(out.output.strip().splitlines()) == 1


@pytest.mark.slow
def test_cli_path_30_alternate_answers_with_its_canonical_value():
    """Size, birthday, outcome and winning moves of the canonical form against the one built from the definitions
    (path:30: 144 subgames, 150,637 characters written out; path:40, 8 times the time, is docs/graphs.md's
    example)."""
    forms, g, left, right = alternating_path_by_definition(30)
    zero = 0
    kind = {(True, True): NEXT, (True, False): LEFT_WINS, (False, True): RIGHT_WINS, (False, False): PREVIOUS}[
        any(forms.le(zero, o) for o in left.values()), any(forms.le(o, zero) for o in right.values())]
    winning = {"left": sorted(v for v, o in left.items() if forms.le(zero, o)),  # Left moves to a G^L ≥ 0
               "right": sorted(v for v, o in right.items() if forms.le(o, zero))}
    out = run_cli(["graph", "path:30", "--game", "partisan", "--owners", "alternate", "--json"])
    assert out.exit_code == 0, out.output
    d = json.loads(out.output)
    assert d["game"] == "partisan-node-kayles" and (d["outcome"], d["winning_moves"]) == (kind, winning)
    form = d["value_form"]
    assert d["value"] is None and (form["subgames"], form["birthday"]) == (forms.subgames(g), forms.birthday(g))
    assert form["definitions"][0].startswith("G = {") and len(form["definitions"]) < form["subgames"]
    text = run_cli(["graph", "path:30", "--game", "partisan", "--owners", "alternate"])
    assert f"canonical form of {forms.subgames(g)} subgames" in text.output
    for side in ("left", "right"):  # the count of winning moves in brackets, then the moves
        moves = winning[side]
        assert f"{side.title()} first wins by choosing ({len(moves)}): {' '.join(map(str, moves))}\n" in text.output


def test_cli_short_value_and_bad_input():
    out = run_cli(["graph", "path:5", "--game", "partisan", "--owners", "LRLRL", "--json"])
    d = json.loads(out.output)
    assert d["value"] == "{2|*}" and d["outcome"] == LEFT_WINS and d["winning_moves"] == {"left": [2], "right": []}
    inv = d["invariants"]  # {2|*}: stops 2 and 0, mean and temperature where its walls 2 − t and t meet
    assert (inv["left_stop"], inv["right_stop"], inv["mean"], inv["temperature"]) == ("2", "0", "1", "1")
    assert (inv["atomic_weight"], inv["reduced"], inv["freeze"]) == (None, "{2|0}", "1*")
    assert "canonical" not in inv
    for args in (["path:5", "--owners", "LRLRL"], ["path:5", "--game", "partisan"],
                 ["path:5", "--game", "partisan", "--owners", "LRQRL"]):
        bad = run_cli(["graph", *args])
        assert bad.exit_code == 2 and bad.output.startswith("error:") and len(bad.output.strip().splitlines()) == 1


def test_components_whose_forms_grow_too_large_are_refused_by_work():
    from octal.errors import ResourceLimitError

    with pytest.raises(ResourceLimitError, match="steps of work"):
        partizan_node_kayles(named_graph("path:40"), parse_owners("alternate", named_graph("path:40")),
                             max_component_work=100_000)
    assert partizan_node_kayles(named_graph("path:12"), "LRLRLRLRLRLR", max_component_work=100_000).value is not None
