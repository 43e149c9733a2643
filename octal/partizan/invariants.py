"""What a course or a paper quotes of one short game, gathered: its canonical form, outcome class, birthday, stops,
mean, temperature, thermograph, atomic weight, reduced canonical form, freeze and incentives (`octal game EXPR`,
the API's `game_facts`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .atomic import NotAtomicError, atomic_weight, reduced
from .canonical import Game, outcome
from .cooling import cool, freeze, heat, incentives
from .notation import in_order, number_text, to_text
from .parse import parse_game
from .store import FormTooLarge, work_limit
from .thermal import Thermograph, Wall, left_stop, right_stop, thermograph

MAX_WORK = 2_000_000  # comparisons and sums spent on the invariants of one game typed, at most


@dataclass(frozen=True)
class GameFacts:
    """The invariants of one game (numbers as Fractions; games canonical; `canonical` as CGSuite writes it).
    `atomic_weight` is None where the game has none, and `no_atomic_weight` then says why."""

    game: Game
    canonical: str
    outcome: str
    birthday: int
    left_stop: Fraction
    right_stop: Fraction
    thermograph: Thermograph
    atomic_weight: Game | None
    no_atomic_weight: str | None
    reduced: Game
    freeze: Game
    incentives: tuple[Game, ...]
    cooled: tuple[Fraction, Game] | None = None  # (t, G cooled by t) when asked for
    heated: tuple[Fraction, Game] | None = None  # (t, G heated by t) when asked for

    @property
    def mean(self) -> Fraction:
        return self.thermograph.mean

    @property
    def temperature(self) -> Fraction:
        return self.thermograph.temperature

    def __repr__(self) -> str:
        return (f"GameFacts({self.canonical}: {self.outcome}, mean {number_text(self.mean)}, temperature "
                f"{number_text(self.temperature)})")

    def to_dict(self) -> dict:
        """The `--json` shape: canonical, outcome, birthday, left_stop, right_stop, mean, temperature, thermograph
        (the walls as [t, x] points from t = −1 and the slope past the last), atomic_weight (null where none, and
        no_atomic_weight says why), reduced, freeze, incentives, and cooled / heated ({"by": t, "game": …}) when
        asked for; numbers as text such as "9/4", games as their canonical text."""
        return {
            "canonical": self.canonical, "outcome": self.outcome, "birthday": self.birthday,
            "left_stop": number_text(self.left_stop), "right_stop": number_text(self.right_stop),
            "mean": number_text(self.mean), "temperature": number_text(self.temperature),
            "thermograph": {"left": _points(self.thermograph.left), "right": _points(self.thermograph.right)},
            "atomic_weight": None if self.atomic_weight is None else to_text(self.atomic_weight),
            "no_atomic_weight": self.no_atomic_weight, "reduced": to_text(self.reduced),
            "freeze": to_text(self.freeze), "incentives": [to_text(x) for x in self.incentives],
        } | {key: {"by": number_text(done[0]), "game": to_text(done[1])}
             for key, done in (("cooled", self.cooled), ("heated", self.heated)) if done is not None}


def _points(w: Wall) -> dict:
    return {"points": [[number_text(t), number_text(x)] for t, x in w.points], "slope": number_text(w.slope)}


def game_facts(g: Game | str, cool_by: Fraction | None = None, heat_by: Fraction | None = None) -> GameFacts:
    """The invariants of a canonical game, or of one typed in CGSuite's notation, and G cooled or heated by a number
    when asked (FormTooLarge where they would take more than MAX_WORK steps)."""
    g = parse_game(g) if isinstance(g, str) else g
    try:
        with work_limit(MAX_WORK):
            try:
                weight, why = atomic_weight(g), None
            except NotAtomicError as e:
                weight, why = None, e.why
            return GameFacts(g, to_text(g), outcome(g), g.birthday, left_stop(g), right_stop(g), thermograph(g),
                             weight, why, reduced(g), freeze(g), tuple(in_order(incentives(g))),
                             None if cool_by is None else (Fraction(cool_by), cool(g, cool_by)),
                             None if heat_by is None else (Fraction(heat_by), heat(g, heat_by)))
    except FormTooLarge:
        raise FormTooLarge(f"the invariants of {to_text(g)[:60]} would take more than {MAX_WORK:,} steps "
                           "(comparisons and sums)") from None
