"""Partisan Node Kayles: canonical values and winning moves against a plain outcome search over vertex sets, owners
all B against impartial Node Kayles and Dawson's Chess, sums against the search of the sum, and the command."""

from __future__ import annotations

import itertools
import json
import random
from functools import lru_cache

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
    partisan_node_kayles,
    read_edge_list,
)
from octal.graphs import partisan as partisan_module
from octal.outcomes import LEFT_WINS, NEXT, PREVIOUS, RIGHT_WINS
from octal.partizan import nimber, outcome

runner = CliRunner()


def run_cli(args: list[str]):
    return runner.invoke(app, args)


def plain_search(graph, owners):
    """(outcome class, Left's winning first moves, Right's) by searching vertex sets: no values, no components."""
    closed = [a | (1 << v) for v, a in enumerate(graph.adj)]
    may = {side: [v for v in range(graph.n) if owners[v] in (side, "B")] for side in "LR"}

    @lru_cache(maxsize=None)
    def wins(mask: int, side: str) -> bool:
        other = "R" if side == "L" else "L"
        return any(not wins(mask & ~closed[v], other) for v in may[side] if mask >> v & 1)

    full = (1 << graph.n) - 1
    lf, rf = wins(full, "L"), wins(full, "R")
    kind = NEXT if lf and rf else LEFT_WINS if lf else RIGHT_WINS if rf else PREVIOUS
    left = [v for v in may["L"] if not wins(full & ~closed[v], "R")]
    right = [v for v in may["R"] if not wins(full & ~closed[v], "L")]
    return kind, left, right


def random_graph(rng: random.Random, n: int):
    p = rng.random()
    return graph_from_edges([(u, v) for u, v in itertools.combinations(range(n), 2) if rng.random() < p], n)


def test_random_graphs_of_up_to_7_vertices_match_the_plain_search():
    rng = random.Random(7)
    kinds = set()
    for _ in range(1500):
        g = random_graph(rng, rng.randint(1, 7))
        owners = "".join(rng.choice("LRB") for _ in range(g.n))
        r = partisan_node_kayles(g, owners)
        kind, left, right = plain_search(g, owners)
        assert (r.outcome, r.winning_moves["left"], r.winning_moves["right"]) == (kind, left, right), (g, owners)
        assert outcome(r.value) == r.outcome
        kinds.add(kind)
    assert kinds == {LEFT_WINS, RIGHT_WINS, NEXT, PREVIOUS}


@pytest.mark.parametrize("spec", ["path:6", "cycle:6", "star:5", "grid:3x2", "complete:4"])
def test_every_owner_assignment_of_small_graphs(spec):
    g = named_graph(spec)
    for owners in itertools.product("LRB", repeat=g.n):
        r = partisan_node_kayles(g, owners)
        assert (r.outcome, r.winning_moves["left"], r.winning_moves["right"]) == plain_search(g, owners)


def test_owners_all_b_give_impartial_node_kayles():
    rng = random.Random(3)
    for _ in range(60):
        g = random_graph(rng, rng.randint(1, 10))
        assert partisan_node_kayles(g, "B" * g.n).value is nimber(NodeKayles(g).value())
    for spec in ("petersen", "grid:3x3", "cycle:11", "tree:14:2"):
        g = named_graph(spec)
        assert partisan_node_kayles(g, "B" * g.n).value is nimber(NodeKayles(g).value())


def test_a_path_with_owners_all_b_is_dawsons_chess():
    dawson = nim_sequence("0.137", 31).values
    for n in range(1, 31):
        assert partisan_node_kayles(named_graph(f"path:{n}"), "B" * n).value is nimber(int(dawson[n]))


def test_twins_of_different_owners_merge_into_a_vertex_both_may_choose():
    g = graph_from_edges([(0, 1), (1, 2), (0, 2), (2, 3)])  # 0 and 1 are true twins
    r = partisan_node_kayles(g, "LRLR")
    assert (r.outcome, r.winning_moves["left"], r.winning_moves["right"]) == plain_search(g, "LRLR")


def union_of_trees(seed: int, count: int = 50, most: int = 8):
    rng = random.Random(seed)
    edges, n = [], 0
    for _ in range(count):
        k = rng.randint(1, most)
        edges += [(n + v, n + rng.randrange(v)) for v in range(1, k)]
        n += k
    return graph_from_edges(edges, n), "".join(rng.choice("LR") for _ in range(n))


def test_a_union_of_trees_by_forms_and_by_the_search_of_the_sum():
    for seed, count, most, work in ((0, 8, 6, 0), (1, 10, 8, 0), (2, 50, 8, 4_000), (3, 50, 8, 64_000)):
        g, owners = union_of_trees(seed, count, most)
        by_forms = partisan_node_kayles(g, owners)
        assert by_forms.method == partisan_module.METHOD_FORMS and by_forms.components == count
        # a budget too small for the whole sum: components are added in groups within work / 16, then searched
        by_search = partisan_node_kayles(g, owners, max_form_work=work)
        assert by_search.method == partisan_module.METHOD_SUM_SEARCH and by_search.value is None
        assert by_search.sum_positions > 0 and by_search.states == by_forms.states
        assert by_search.outcome == by_forms.outcome
        assert by_search.winning_moves == by_forms.winning_moves


def test_a_union_of_50_trees_is_cheap_by_forms():
    g, owners = union_of_trees(4)
    r = partisan_node_kayles(g, owners)
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
    r = partisan_node_kayles(g, parse_owners("column", g))
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


def test_cli_path_40_alternate_answers_with_its_canonical_value():
    out = run_cli(["graph", "path:40", "--game", "partisan", "--owners", "alternate", "--json"])
    assert out.exit_code == 0, out.output
    d = json.loads(out.output)
    assert d["game"] == "partisan-node-kayles" and d["outcome"] == NEXT
    assert set(d["winning_moves"]) == {"left", "right"} and d["winning_moves"]["left"]
    form = d["value_form"]
    assert d["value"] is None and form["subgames"] == 530 and form["birthday"] == 20
    assert form["definitions"][0].startswith("G = {") and len(form["definitions"]) < form["subgames"]
    text = run_cli(["graph", "path:40", "--game", "partisan", "--owners", "alternate"])
    assert "canonical form of 530 subgames" in text.output and "Left first wins by choosing (14)" in text.output


def test_cli_short_value_and_bad_input():
    out = run_cli(["graph", "path:5", "--game", "partisan", "--owners", "LRLRL", "--json"])
    d = json.loads(out.output)
    assert d["value"] == "{2|*}" and d["outcome"] == LEFT_WINS and d["winning_moves"] == {"left": [2], "right": []}
    for args in (["path:5", "--owners", "LRLRL"], ["path:5", "--game", "partisan"],
                 ["path:5", "--game", "partisan", "--owners", "LRQRL"]):
        bad = run_cli(["graph", *args])
        assert bad.exit_code == 2 and bad.output.startswith("error:") and len(bad.output.strip().splitlines()) == 1


def test_components_whose_forms_grow_too_large_are_refused_by_work():
    from octal.errors import ResourceLimitError

    with pytest.raises(ResourceLimitError, match="steps of work"):
        partisan_node_kayles(named_graph("path:40"), parse_owners("alternate", named_graph("path:40")),
                             max_component_work=100_000)
    assert partisan_node_kayles(named_graph("path:12"), "LRLRLRLRLRLR", max_component_work=100_000).value is not None
