"""What a course or a paper quotes of one short game, gathered: its canonical form, outcome class, birthday, stops,
mean, temperature, thermograph, atomic weight, reduced canonical form, freeze and incentives (`octal game EXPR`,
the API's `game_facts`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .atomic import NotAtomicError, atomic_weight, reduced
from .canonical import Game, outcome
from .cooling import compare, cool, freeze, heat, incentives
from .notation import MAX_TEXT, definitions, in_order, number_text, text_within
from .parse import parse_game
from .store import FormTooLarge, work_limit
from .thermal import Thermograph, Wall, left_stop, right_stop, thermograph

MAX_WORK = 2_000_000  # comparisons and sums spent on the invariants of one game typed, at most
INCENTIVES_WORK = 200_000  # steps the incentives may take within MAX_WORK; past it they are not given


@dataclass(frozen=True)
class GameFacts:
    """The invariants of one game (numbers as Fractions; games canonical; `canonical` as CGSuite writes it).
    `atomic_weight` is None where the game has none, and `no_atomic_weight` then says why."""

    game: Game
    canonical: str | None  # None when its text would pass MAX_TEXT characters (to_dict then gives definitions)
    outcome: str
    birthday: int
    left_stop: Fraction
    right_stop: Fraction
    thermograph: Thermograph
    atomic_weight: Game | None
    no_atomic_weight: str | None
    reduced: Game
    freeze: Game
    incentives: tuple[Game, ...] | None  # None when they would take more than INCENTIVES_WORK steps
    cooled: tuple[Fraction, Game] | None = None  # (t, G cooled by t) when asked for
    heated: tuple[Fraction, Game] | None = None  # (t, G heated by t) when asked for
    compared: tuple[Game, str] | None = None  # (H, "<", "=", ">" or "||": G against H) when asked for

    @property
    def mean(self) -> Fraction:
        return self.thermograph.mean

    @property
    def temperature(self) -> Fraction:
        return self.thermograph.temperature

    def __repr__(self) -> str:
        return (f"GameFacts({self.canonical}: {self.outcome}, mean {number_text(self.mean)}, temperature "
                f"{number_text(self.temperature)})")

    def text(self, g: Game | None) -> str | None:
        """A game of these facts as text, None where none or where it would pass MAX_TEXT characters."""
        return None if g is None else text_within(g, MAX_TEXT)

    def to_dict(self) -> dict:
        """The `--json` shape: canonical, outcome, birthday, left_stop, right_stop, mean, temperature, thermograph
        (the walls as [t, x] points from t = −1 and the slope past the last), atomic_weight (null where none, and
        no_atomic_weight says why), reduced, freeze, incentives (null past INCENTIVES_WORK steps); cooled and heated
        ({"by": t, "game": …}) and compared ({"with": H, "relation": "<", "=", ">" or "||"}) when asked for.
        Numbers as text such as "9/4", games as their canonical text (null where longer than MAX_TEXT characters; a
        canonical form so long is then given as shared definitions, "definitions")."""
        return {
            "canonical": self.canonical, "outcome": self.outcome, "birthday": self.birthday,
            "left_stop": number_text(self.left_stop), "right_stop": number_text(self.right_stop),
            "mean": number_text(self.mean), "temperature": number_text(self.temperature),
            "thermograph": {"left": _points(self.thermograph.left), "right": _points(self.thermograph.right)},
            "atomic_weight": self.text(self.atomic_weight), "no_atomic_weight": self.no_atomic_weight,
            "reduced": self.text(self.reduced), "freeze": self.text(self.freeze),
            "incentives": None if self.incentives is None else [self.text(x) for x in self.incentives],
        } | {key: {"by": number_text(done[0]), "game": self.text(done[1])}
             for key, done in (("cooled", self.cooled), ("heated", self.heated)) if done is not None} | (
            {} if self.compared is None else {"compared": {"with": self.text(self.compared[0]),
                                                           "relation": self.compared[1]}}) | (
            {} if self.canonical is not None else {"definitions": definitions(self.game)})


def _points(w: Wall) -> dict:
    return {"points": [[number_text(t), number_text(x)] for t, x in w.points], "slope": number_text(w.slope)}


def _incentives(g: Game) -> tuple[Game, ...] | None:
    """The maximal incentives in CGSuite's order, or None past INCENTIVES_WORK steps (G^L − G for a large G is a
    sum of two large games: the one invariant here whose cost grows with the square of the form)."""
    try:
        with work_limit(INCENTIVES_WORK):
            return tuple(in_order(incentives(g)))
    except FormTooLarge:
        return None


def game_facts(g: Game | str, cool_by: Fraction | None = None, heat_by: Fraction | None = None,
               versus: Game | str | None = None) -> GameFacts:
    """The invariants of a canonical game, or of one typed in CGSuite's notation, and G cooled or heated by a number
    or compared with a game H when asked (FormTooLarge where they would take more than MAX_WORK steps)."""
    g = parse_game(g) if isinstance(g, str) else g
    h = parse_game(versus) if isinstance(versus, str) else versus
    try:
        with work_limit(MAX_WORK):
            try:
                weight, why = atomic_weight(g), None
            except NotAtomicError as e:
                weight, why = None, e.why
            return GameFacts(g, text_within(g, MAX_TEXT), outcome(g), g.birthday, left_stop(g), right_stop(g),
                             thermograph(g),
                             weight, why, reduced(g), freeze(g), _incentives(g),
                             None if cool_by is None else (Fraction(cool_by), cool(g, cool_by)),
                             None if heat_by is None else (Fraction(heat_by), heat(g, heat_by)),
                             None if h is None else (h, compare(g, h)))
    except FormTooLarge:
        raise FormTooLarge(f"the invariants of {text_within(g, 60) or 'that game'} would take more than "
                           f"{MAX_WORK:,} steps (comparisons and sums)") from None
    except RecursionError:  # sums and comparisons recurse through their games' options
        raise FormTooLarge(f"the invariants of {text_within(g, 60) or 'that game'} reach subgames nested deeper "
                           "than Python's recursion allows") from None
