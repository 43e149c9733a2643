"""Partisan Node Kayles (Schaefer 1978): each vertex may be chosen by Left, by Right or by both (owners L, R, B);
a move picks one of the mover's vertices and deletes it with its neighbours; the player who cannot move loses.

A position is worth a partizan value, not a nimber. The remaining graph falls apart into connected components,
and a position is the (disjunctive) sum of its components, so each component is solved once, as a canonical form
(octal.partizan), and the forms are added. True twins (N[u] = N[v]) are merged as in impartial play — choosing
either deletes both, so the merged vertex is owned by the union of their owners (L and R twins make a B vertex).
Joins are not sums here (a move in one side deletes the other, so the options are the sides' options, not their
sums): they are searched like any other component. Owners all B give impartial Node Kayles back, value *G.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, ClassVar

from ..displays import HtmlRepr
from ..errors import InvalidArgumentError, ResourceLimitError
from ..outcomes import PREVIOUS
from ..partizan import ZERO, FormTooLarge, Game, SumSearch, forget, game, le, neg, outcome, total, work_limit
from ..partizan.invariants import GameFacts, game_facts
from ..partizan.notation import definitions, subgames, text_length, text_within
from ..validate import whole_number
from .families import as_graph
from .graph import Graph, bits, components
from .shapes import twin_classes

LEFT, RIGHT, BOTH = "L", "R", "B"
OWNERS = (LEFT, RIGHT, BOTH)
GAME = "partisan-node-kayles"  # the --json "game": kept as scripts read it (the code says partizan)
MAX_STATES = 2_000_000  # component states searched (each builds one canonical form)
# comparisons and sums on the components' own forms: path:600 alternate is refused after ~100 s here
MAX_COMPONENT_WORK = 50_000_000
MAX_FORM_WORK = 20_000_000  # comparisons and sums spent adding the components' forms before the sum is searched
MAX_SUM_STATES = 2_000_000  # positions of the sum searched when its form is too large to build
GROUP_SHARE = 16  # the search of the sum first adds components in groups, each addition within 1/16 of the work
METHOD_FORMS, METHOD_SUM_SEARCH = "canonical forms", "search of the sum"


def parse_owners(spec: str, graph: Graph) -> tuple[str, ...]:
    """Owners from `alternate` (L, R, L, … in vertex order), `random:SEED` (L or R each), `column` (the edge-list
    file's 'v: X' lines), or a string of L/R/B with one letter per vertex."""
    n = graph.n
    if spec == "column":
        if not graph.owners:
            raise InvalidArgumentError("owners 'column': the graph has no owners column (an edge-list file with a "
                                       "'v: L', 'v: R' or 'v: B' line per vertex)")
        return graph.owners
    if spec == "alternate":
        return tuple(LEFT if v % 2 == 0 else RIGHT for v in range(n))
    if spec.startswith("random:"):
        seed = spec[len("random:"):]
        if not seed.isdigit():
            raise InvalidArgumentError(f"owners {spec!r}: the seed of random:SEED is a whole number")
        rng = random.Random(int(seed))
        return tuple(rng.choice((LEFT, RIGHT)) for _ in range(n))
    letters = spec.upper()
    if any(c not in OWNERS for c in letters):
        bad = next(c for c in spec if c.upper() not in OWNERS)
        raise InvalidArgumentError(f"owners {spec!r}: {bad!r} is not an owner (L, R or B), nor is the spec "
                                   f"alternate, random:SEED or column")
    if len(letters) != n:
        raise InvalidArgumentError(f"owners {spec!r}: {len(letters)} letters for {n} vertices (one each)")
    return tuple(letters)


def merged_owner(owners) -> str:
    """The owner of merged true twins: who may choose any one of them."""
    s = set(owners)
    return BOTH if BOTH in s or s == {LEFT, RIGHT} else s.pop()


@dataclass
class PartizanResult(HtmlRepr):
    """Outcome class, canonical value and every winning first move for each side: the `--json` shape."""

    graph: Graph
    owners: tuple[str, ...]
    outcome: str
    value: Game | None  # None when the sum's canonical form was too large to build (the outcome is then searched)
    winning_moves: dict = field(default_factory=dict)  # {"left": [labels], "right": [labels]}
    states: int = 0  # component states solved (each one canonical form)
    components: int = 0
    method: str = METHOD_FORMS
    sum_positions: int = 0  # positions of the sum searched, when its form was too large to build
    game: ClassVar[str] = GAME

    @property
    def value_text(self) -> str | None:
        """The value written out as CGSuite writes it, or None when that text would pass MAX_TEXT characters."""
        return None if self.value is None else text_within(self.value)

    def __repr__(self) -> str:
        v = self.value_text or ("form too large" if self.value is None else f"{subgames(self.value)} subgames")
        return (f"PartizanResult({self.graph.n} vertices: {v}, {self.outcome}, "
                f"{len(self.winning_moves['left'])} winning for Left, {len(self.winning_moves['right'])} for Right)")

    @cached_property
    def facts(self) -> GameFacts | None:
        """The value's invariants (stops, mean, temperature, atomic weight, …), or None when the value was not built
        or they would pass their budget of work."""
        if self.value is None:
            return None
        try:
            return game_facts(self.value)
        except FormTooLarge:
            return None

    @property
    def labels(self) -> tuple:
        """Each vertex's label, in vertex order (its number where the graph has no labels)."""
        return self.graph.labels or tuple(range(self.graph.n))

    def to_dict(self) -> dict:
        form = None if self.value is None else {
            "subgames": subgames(self.value), "birthday": self.value.birthday,
            "characters": text_length(self.value), "definitions": definitions(self.value)}
        return {
            "game": GAME,
            "vertices": self.graph.n,
            "edges": self.graph.edges,
            "owners": "".join(self.owners),
            "owner_of": {str(label): owner for label, owner in zip(self.labels, self.owners)},
            "outcome": self.outcome,
            "value": self.value_text,
            "value_form": form,
            "winning_moves": self.winning_moves,
            "method": self.method,
            "components": self.components,
            "states": self.states,
            "sum_positions": self.sum_positions,
            "invariants": _invariants(self.facts),
        }


def _invariants(facts: GameFacts | None) -> dict | None:
    """`octal game`'s --json fields of the value but its canonical form (written as "value" already)."""
    if facts is None:
        return None
    out = facts.to_dict()
    del out["canonical"]
    return out


class PartizanNodeKayles:
    """Canonical values of vertex subsets of one owned graph, component by component, under a budget of states."""

    def __init__(self, graph: Graph, owners, max_states: int = MAX_STATES,
                 progress: Callable[[int], None] | None = None):
        self.g = graph
        self.closed = tuple(a | (1 << v) for v, a in enumerate(graph.adj))
        self.left_mask = sum(1 << v for v, o in enumerate(owners) if o in (LEFT, BOTH))
        self.right_mask = sum(1 << v for v, o in enumerate(owners) if o in (RIGHT, BOTH))
        self.cache: dict[int, Game] = {}
        self.states = 0
        self.max_states = max_states
        self.progress = progress
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * graph.n + 1_000))

    def parts(self, mask: int) -> list[Game]:
        """The values of the connected components of the subgraph induced by `mask`."""
        return [self.component(c) for c in components(self.g.adj, mask)]

    def component(self, comp: int) -> Game:
        v = self.cache.get(comp)
        if v is None:
            self.states += 1
            if self.states > self.max_states:
                raise ResourceLimitError(f"partizan Node Kayles on this graph needs more than {self.max_states:,} "
                                         f"component states; a larger --max-states may reach it")
            if self.progress is not None and self.states % 10_000 == 0:
                self.progress(self.states)
            v = self.cache[comp] = game(
                [total(self.parts(comp & ~self.closed[u])) for u in bits(comp & self.left_mask)],
                [total(self.parts(comp & ~self.closed[u])) for u in bits(comp & self.right_mask)],
            )
        return v


def grouped(values: list[Game], work: int) -> list[list[int]]:
    """Components gathered into groups whose sum stays within `work` comparisons and sums per addition (smallest
    forms first): the summands of the search of the sum, fewer and each a canonical form."""
    groups: list[tuple[list[int], Game]] = []
    for i in sorted(range(len(values)), key=lambda j: (values[j].birthday, j)):
        if groups:
            members, acc = groups[-1]
            try:
                with work_limit(work):
                    groups[-1] = (members + [i], acc + values[i])
                continue
            except FormTooLarge:
                pass
        groups.append(([i], values[i]))
    return [members for members, _ in groups]


def search_the_sum(values: list[Game], moves: list, left_mask: int, right_mask: int, work: int):
    """(outcome, Left's winning moves, Right's, positions searched) by searching the sum of grouped components."""
    groups = grouped(values, work)
    sums = [total(values[i] for i in members) for members in groups]  # each within its budget when it was built
    of = {i: k for k, members in enumerate(groups) for i in members}
    search = SumSearch(MAX_SUM_STATES)
    kind = search.outcome(sums)
    without: dict[int, list[Game]] = {}

    def after(i: int, x: Game) -> list[Game]:
        """The summands once component i has become x: the other groups, i's group without i, and x."""
        k = of[i]
        if i not in without:
            rest = [values[j] for j in groups[k] if j != i]
            try:
                with work_limit(work):
                    without[i] = [total(rest)]
            except FormTooLarge:
                without[i] = rest
        return sums[:k] + sums[k + 1:] + without[i] + [x]

    left = [u for i, u, x in moves if left_mask >> u & 1 and not search.wins(False, after(i, x))]
    right = [u for i, u, x in moves if right_mask >> u & 1 and not search.wins(True, after(i, x))]
    return kind, left, right, search.count


def others_sums(values: list[Game]) -> list[Game]:
    """For each summand, the sum of all the others (by prefix and suffix sums: no subtraction of large forms)."""
    prefix, suffix = [ZERO], [ZERO]
    for v in values[:-1]:
        prefix.append(prefix[-1] + v)
    for v in reversed(values[1:]):
        suffix.append(v + suffix[-1])
    return [prefix[i] + suffix[len(values) - 1 - i] for i in range(len(values))]


def partizan_node_kayles(graph: Graph | str, owners, max_states: int | None = None,
                         progress: Callable[[int], None] | None = None,
                         max_form_work: int = MAX_FORM_WORK,
                         max_component_work: int = MAX_COMPONENT_WORK) -> PartizanResult:
    """Outcome, canonical value and winning first moves (as labels) of partizan Node Kayles on `graph` whose vertex
    v may be chosen by owners[v] (L, R or B; a string or any sequence). Adding the components' forms may spend
    `max_form_work` comparisons and sums; past that the sum is searched instead (outcome and moves, no value).
    Solving the components themselves may spend `max_component_work` (ResourceLimitError past it)."""
    graph = as_graph(graph)
    if max_states is not None:
        max_states = whole_number(max_states, "max_states (component states)", 1)
    if isinstance(owners, str):
        owners = parse_owners(owners, graph)  # LRB…, alternate, random:SEED or column, as the CLI reads them
    if not isinstance(owners, (list, tuple)) or not all(isinstance(o, str) for o in owners):
        raise InvalidArgumentError(f"owners: a string (LRB…, alternate, random:SEED, column) or a sequence of L, R "
                                   f"and B, not {type(owners).__name__}")
    owners = tuple(o.upper() for o in owners)
    if len(owners) != graph.n or any(o not in OWNERS for o in owners):
        raise InvalidArgumentError(f"owners: one of L, R, B per vertex ({graph.n} vertices)")
    forget()  # the work of adding forms is then counted from scratch: the same call, the same answer
    quotient, classes = twin_classes(graph)
    q_owners = [merged_owner(owners[v] for v in cls) for cls in classes]
    solver = PartizanNodeKayles(quotient, q_owners, max_states or MAX_STATES, progress)
    full = (1 << quotient.n) - 1
    comps = components(quotient.adj, full)
    try:
        with work_limit(max_component_work):
            values = [solver.component(c) for c in comps]
            # a move at vertex u of component c leaves the other components and the component's option
            moves = []  # (component index, quotient vertex, option value)
            for i, c in enumerate(comps):
                for u in bits(c):
                    moves.append((i, u, total(solver.parts(c & ~solver.closed[u]))))
    except FormTooLarge:
        raise ResourceLimitError(
            f"partizan Node Kayles on this graph needs more than {max_component_work:,} steps of work (comparisons "
            f"and sums of canonical forms) for its components, after {solver.states:,} component states: their "
            "values grow too large to compute here") from None
    result = PartizanResult(graph, owners, PREVIOUS, None, states=solver.states, components=len(comps))
    try:
        with work_limit(max_form_work):
            value = total(values)
            rest = [neg(x) for x in others_sums(values)]
            # Left's move to option X wins when the sum afterwards is ≥ 0, i.e. X ≥ −rest; Right's when X ≤ −rest
            left_wins = [u for i, u, x in moves if solver.left_mask >> u & 1 and le(rest[i], x)]
            right_wins = [u for i, u, x in moves if solver.right_mask >> u & 1 and le(x, rest[i])]
        result.value, result.outcome = value, outcome(value)
    except FormTooLarge:
        result.method = METHOD_SUM_SEARCH
        result.outcome, left_wins, right_wins, searched = search_the_sum(
            values, moves, solver.left_mask, solver.right_mask, max_form_work // GROUP_SHARE)
        result.sum_positions = searched
    # a merged class may hold vertices of either owner: each is a winning move for the sides that own it
    left_set, right_set = set(left_wins), set(right_wins)
    of = {v: c for c, cls in enumerate(classes) for v in cls}
    result.winning_moves = {
        "left": [graph.label(v) for v in range(graph.n) if owners[v] in (LEFT, BOTH) and of[v] in left_set],
        "right": [graph.label(v) for v in range(graph.n) if owners[v] in (RIGHT, BOTH) and of[v] in right_set],
    }
    return result
