"""The Python API refuses wrong types and values as the CLI does: an OctalError subclass, never a TypeError,
AttributeError or IndexError, and never a silent reading (a float vertex truncated, a bool taken for 1)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import octal
from octal import partizan

P4 = octal.named_graph("path:4")
KAYLES = octal.nim_sequence("kayles", 100)

CASES = {
    "owners None": lambda: octal.partisan_node_kayles(P4, None),
    "owners a number": lambda: octal.partisan_node_kayles(P4, 5),
    "max_states text (partizan)": lambda: octal.partisan_node_kayles(P4, "LRLB", max_states="x"),
    "max_states 0 (partizan)": lambda: octal.partisan_node_kayles(P4, "LRLB", max_states=0),
    "max_states text": lambda: octal.solve_graph(P4, max_states="x"),
    "max_states 0": lambda: octal.solve_graph(P4, max_states=0),
    "a graph as a number": lambda: octal.solve_graph(5),
    "graph6 as a number": lambda: octal.graph_from_graph6(123),
    "a family as None": lambda: octal.named_graph(None),
    "heap 1.5": lambda: KAYLES.value(1.5),
    "heap '5'": lambda: KAYLES.value("5"),
    "heap True": lambda: KAYLES.value(True),
    "float vertices": lambda: octal.graph_from_edges([(0, 1.5), (1.5, 2.7)]),
    "a bool vertex": lambda: octal.graph_from_edges([(0, True)]),
    "too few labels": lambda: octal.graph_from_edges([(0, 1), (1, 2)], labels=["x"]),
    "duplicate labels": lambda: octal.graph_from_edges([(0, 1), (1, 2)], labels=["x", "x", "y"]),
    "number(inf)": lambda: partizan.number(float("inf")),
    "nimber(2.5)": lambda: partizan.nimber(2.5),
    "nimber(True)": lambda: partizan.nimber(True),
    "resume another code's sequence": lambda: octal.nim_sequence("0.137", 100, resume=octal.GrundySequence("0.07")),
}


@pytest.mark.parametrize("call", CASES.values(), ids=CASES.keys())
def test_a_wrong_argument_is_an_octal_error(call):
    with pytest.raises(octal.OctalError):
        call()


def test_the_cli_and_the_api_read_graphs_and_owners_alike():
    """Family strings and owner specs, as the CLI takes them, work at the API too."""
    by_name = octal.partisan_node_kayles("path:4", "LRLB")
    by_graph = octal.partisan_node_kayles(P4, ("L", "R", "L", "B"))
    assert by_name.outcome == by_graph.outcome and by_name.value_text == by_graph.value_text
    # Node Kayles on the path P_n is Dawson's Chess (0.137) on n: G(4) = 0
    assert octal.solve_graph("path:4").value == octal.solve_graph(P4).value == 0
    alternate = octal.partisan_node_kayles("path:5", "alternate")
    assert alternate.owners == ("L", "R", "L", "R", "L")
    seeded = octal.partisan_node_kayles("path:5", "random:7").owners
    assert seeded == octal.partisan_node_kayles("path:5", "random:7").owners and set(seeded) <= {"L", "R"}


WRONG = st.one_of(st.booleans(), st.floats(allow_nan=True), st.text(max_size=5), st.lists(st.integers(), max_size=3),
                  st.dictionaries(st.text(max_size=2), st.integers(), max_size=2), st.just(object()))
PUBLIC = [  # each takes the wrong value where a whole number, a code, a graph or an owner spec belongs
    lambda x: octal.nim_sequence("kayles", x),
    lambda x: octal.nim_sequence("kayles", 10, max_n=x),
    lambda x: octal.solve_position("kayles", x) if not isinstance(x, list) else octal.named_graph(x),
    lambda x: octal.solve_position("kayles", [3, x]),
    lambda x: octal.named_graph(x),
    lambda x: octal.graph_from_graph6(x) if not isinstance(x, str) else octal.named_graph(x),
    lambda x: octal.solve_graph(x),
    lambda x: octal.solve_graph(P4, max_states=x),
    lambda x: octal.partisan_node_kayles(P4, x),
    lambda x: octal.misere_quotient("kayles", max_heap=x),
    lambda x: KAYLES.value(x),
    lambda x: partizan.nimber(x),
]


@settings(max_examples=60, deadline=None, derandomize=True)  # the same inputs every run: CI never flakes
@given(st.sampled_from(range(len(PUBLIC))), WRONG)
def test_public_functions_refuse_wrong_types_with_an_octal_error(which, x):
    with pytest.raises(octal.OctalError):
        PUBLIC[which](x)
