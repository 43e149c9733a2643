"""What a course or a paper quotes of one short game, gathered: its canonical form, outcome class, birthday, stops,
mean, temperature and thermograph (`octal game EXPR`, the API's `game_facts`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .canonical import Game, outcome
from .notation import number_text, to_text
from .parse import parse_game
from .thermal import Thermograph, Wall, left_stop, right_stop, thermograph


@dataclass(frozen=True)
class GameFacts:
    """The invariants of one game (numbers as Fractions; `canonical` as CGSuite writes it)."""

    game: Game
    canonical: str
    outcome: str
    birthday: int
    left_stop: Fraction
    right_stop: Fraction
    thermograph: Thermograph

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
        (numbers as text such as "9/4"; the walls as [t, x] points from t = −1 and the slope past the last)."""
        return {
            "canonical": self.canonical, "outcome": self.outcome, "birthday": self.birthday,
            "left_stop": number_text(self.left_stop), "right_stop": number_text(self.right_stop),
            "mean": number_text(self.mean), "temperature": number_text(self.temperature),
            "thermograph": {"left": _points(self.thermograph.left), "right": _points(self.thermograph.right)},
        }


def _points(w: Wall) -> dict:
    return {"points": [[number_text(t), number_text(x)] for t, x in w.points], "slope": number_text(w.slope)}


def game_facts(g: Game | str) -> GameFacts:
    """The invariants of a canonical game, or of one typed in CGSuite's notation."""
    g = parse_game(g) if isinstance(g, str) else g
    return GameFacts(g, to_text(g), outcome(g), g.birthday, left_stop(g), right_stop(g), thermograph(g))
