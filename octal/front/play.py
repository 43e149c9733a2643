"""A game against the engine in a terminal: heaps drawn as pins, moves typed as `3 2` or `3 2 split 1 4`."""

from __future__ import annotations

import random
import textwrap
from typing import Callable

from ..errors import OctalError
from ..positions.position import HeapValues, Move, heap_moves, move_allowed, normal_solution
from ..rules.code import OctalCode
from ..rules.numbers import ascii_whole
from ..solve import best_try, misere_position

PIN_LIMIT = 60  # longer heaps are drawn as a count
WIDTH = 78  # the rules are wrapped at word boundaries to this width


class Referee:
    """Knows the rules and the winning moves of one game (normal or misère play)."""

    def __init__(self, code: OctalCode, misere: bool, largest: int):
        self.code = code
        self.misere = misere
        self.values = None if misere else HeapValues(code, largest)

    def can_move(self, heaps: list[int]) -> bool:
        """True when some heap has a move (one move per heap is looked at, whatever its size)."""
        return any(next(iter(heap_moves(self.code, h, split_limit=1)), None) is not None for h in heaps)

    def winning(self, heaps: list[int]) -> list[Move]:
        if self.misere:  # the game's misère quotient when it can be had, else exhaustive search
            return misere_position(self.code, tuple(heaps)).winning_moves
        return normal_solution(self.code, tuple(heaps), self.values).winning_moves


MOVE_HELP = ("a move is HEAP REMOVE: '3 2' takes 2 pins from heap 3; a move that splits a heap names the parts left, "
             "'3 2 split 1 4'; 'quit' stops")


def draw(heaps: list[int]) -> str:
    """One line per heap: its number, its size, and a row of pins."""
    lines = []
    for i, h in enumerate(heaps, 1):
        pins = "|" * h if h <= PIN_LIMIT else "|" * 10 + f" … ({h:,} pins) … " + "|" * 10
        lines.append(f"  heap {i:>2} ({h:>3,}): {pins}")
    return "\n".join(lines) if lines else "  (no heaps left)"


def parse_move(text: str, heaps: list[int], code: OctalCode) -> tuple[int, Move]:
    """'3 2' (heap 3, remove 2) or '3 2 split 1 4' → (index, move); OctalError with the reason if illegal."""
    words = text.replace(",", " ").split()
    numbers = [ascii_whole(w) for w in words]
    if len(words) < 2 or numbers[0] is None or numbers[1] is None:
        raise OctalError("type a move as HEAP REMOVE, e.g. '3 2', or '3 2 split 1 4' ('help' explains)")
    i, k = numbers[0], numbers[1]
    if not 1 <= i <= len(heaps):
        raise OctalError(f"there is no heap {i}: heaps are numbered 1 to {len(heaps)}")
    h = heaps[i - 1]
    if k > h:
        raise OctalError(f"heap {i} has only {h} pins")
    leaves: tuple[int, ...] | None = None
    if len(words) > 2:
        if words[2] != "split" or any(x is None for x in numbers[3:]) or len(words) < 5:
            raise OctalError("a split is written '3 2 split 1 4': heap, number removed, 'split', the heaps left")
        leaves = tuple(sorted(numbers[3:]))
        if 0 in leaves:
            raise OctalError("the parts of a split must be non-empty: a part of 0 pins is no heap")
        if sum(leaves) != h - k:
            raise OctalError(f"the heaps left must add up to {h - k}, not {sum(leaves)}")
    if leaves is None:
        simple = Move(h, k, (h - k,) if h > k else ())
        if move_allowed(code, simple):
            return i - 1, simple
        if any(move_allowed(code, Move(h, k, (1,) * (parts - 1) + (h - k - parts + 1,))) for parts in (2, 3)):
            raise OctalError(f"removing {k} from heap {i} must split it: say '{i} {k} split A B'")
    elif move_allowed(code, Move(h, k, leaves)):
        return i - 1, Move(h, k, leaves)
    raise OctalError(f"the rules of {code} do not allow that: {code.describe()}")


def apply(heaps: list[int], index: int, move: Move) -> list[int]:
    return heaps[:index] + [x for x in move.leaves] + heaps[index + 1 :]


def play_game(
    code: OctalCode,
    heaps: list[int],
    misere: bool = False,
    engine_first: bool = False,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    rng: random.Random | None = None,
) -> str:
    """Play to the end; returns 'you' or 'engine'. EOF or 'quit' ends the game early (returns 'quit')."""
    rng = rng or random.Random(0)
    ref = Referee(code, misere, max(heaps) if heaps else 0)
    ref.winning(heaps)  # a position the engine cannot solve is refused before the game starts
    rule = ("misère play: whoever makes the last move loses" if misere
            else "normal play: whoever makes the last move wins")
    say(textwrap.fill(f"{code}: {code.describe()}", WIDTH, break_long_words=False, break_on_hyphens=False))
    say(textwrap.fill(f"{rule}. Type 'help' for how to move, 'quit' to stop.", WIDTH))
    turn = "engine" if engine_first else "you"
    while True:
        say(draw(heaps))
        if not ref.can_move(heaps):
            # the player to move cannot move
            winner = ("you" if turn == "engine" else "engine") if not misere else turn
            why = ("in misère play the player who cannot move wins" if misere
                   else "in normal play the player who cannot move loses")
            say(textwrap.fill(f"{'You win!' if winner == 'you' else 'The engine wins.'} "
                              f"{'You' if turn == 'you' else 'The engine'} cannot move: {why}.", WIDTH))
            return winner
        if turn == "you":
            try:
                text = ask("your move> ")
            except (EOFError, OSError, ValueError):  # end of input, or a closed or broken stdin
                say("bye")
                return "quit"
            if text.strip().lower() in {"quit", "q", "exit"}:
                say("bye")
                return "quit"
            if text.strip().lower() in {"help", "h", "?"}:
                say(MOVE_HELP)
                continue
            try:
                index, move = parse_move(text, heaps, code)
            except OctalError as exc:
                say(f"illegal: {exc}")
                continue
            say(f"you: {move.describe()}")
        else:
            winning = ref.winning(heaps)
            if winning:
                move = winning[0] if len(winning) == 1 else rng.choice(winning)
                index = heaps.index(move.heap)
                note = "a winning move"
            else:
                move = best_try(code, tuple(heaps))
                index = heaps.index(move.heap)
                note = "no winning move exists; playing on"
            say(f"engine: {move.describe()} (heap {index + 1}) — {note}")
        heaps = apply(heaps, index, move)
        turn = "engine" if turn == "you" else "you"
