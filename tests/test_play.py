"""The terminal game, driven by piped input and through a real pseudo-terminal."""

import os
import pty
import select
import sys
import time

from typer.testing import CliRunner

from octal import parse_code
from octal.front.cli import app
from octal.front.play import parse_move, play_game

runner = CliRunner()


def test_piped_game_with_illegal_moves_and_a_win():
    moves = "help\n5 1\n1 3\n1 1 split 1 1\n1 1\n"
    r = runner.invoke(app, ["play", "kayles", "3"], input=moves)
    out = r.output
    assert r.exit_code == 0, out
    assert "heap  1 (  3): |||" in out
    assert "illegal: there is no heap 5" in out
    assert "illegal: the rules of 0.77 do not allow that" in out
    assert "engine: remove 1 from the heap of 1" in out and "no winning move exists" in out
    assert "a move is HEAP REMOVE" in out and "illegal: type a move" not in out  # 'help' is not an illegal move
    assert " ".join(out.split()).endswith(
        "You win! The engine cannot move: in normal play the player who cannot move loses.")


def test_engine_wins_from_an_n_position_when_it_moves_first():
    said = []
    moves = iter(["1 1", "1 1", "1 1", "1 1", "1 1", "1 1"])
    winner = play_game(parse_code("0.77"), [7], engine_first=True, ask=lambda _: next(moves), say=said.append)
    assert winner == "engine"
    assert any("a winning move" in s for s in said)


def test_misere_announces_the_right_winner():
    said = []
    # misère Kayles, one heap of 1: I must take it, and taking the last pin loses
    winner = play_game(parse_code("0.77"), [1], misere=True, ask=lambda _: "1 1", say=said.append)
    assert winner == "engine" and " ".join(said[-1].split()) == (
        "The engine wins. The engine cannot move: in misère play the player who cannot move wins.")


def test_quit_and_end_of_input():
    assert play_game(parse_code("0.77"), [4], ask=lambda _: "quit", say=lambda s: None) == "quit"

    def eof(_):
        raise EOFError

    assert play_game(parse_code("0.77"), [4], ask=eof, say=lambda s: None) == "quit"


def test_parse_move_reasons():
    code = parse_code("0.07")
    for text, fragment in [("x", "type a move"), ("2 2", "no heap 2"), ("1 9", "only 5 pins"),
                           ("1 2 split 1 1", "add up to 3"), ("1 1", "do not allow")]:
        try:
            parse_move(text, [5], code)
        except Exception as exc:
            assert fragment in str(exc), (text, str(exc))
        else:
            raise AssertionError(text)
    assert parse_move("1 2", [5], code)[1].leaves == (3,)
    assert parse_move("1 2 split 1 2", [5], code)[1].leaves == (1, 2)


def test_odd_numbers_and_a_closed_stdin_end_cleanly():
    """Superscript digits and a 5,000-digit heap index are illegal moves, not tracebacks; no stdin at all ends the
    game."""
    code = parse_code("0.77")
    for text in ("1 ²", "² 1", "9" * 5000 + " 1", "1 1 split ³ 1"):
        try:
            parse_move(text, [5], code)
        except Exception as exc:
            assert type(exc).__name__ == "OctalError" and ("type a move" in str(exc) or "split is written" in str(exc))
        else:
            raise AssertionError(text)
    import subprocess

    done = subprocess.run([sys.executable, "-m", "octal.front.cli", "play", "kayles", "3"], stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.rstrip().endswith("bye") and not done.stderr
    closed = subprocess.run([sys.executable, "-c", "import os, sys; os.close(0); sys.stdin = None\n"
                             "from octal.front.cli import main; main(['play', 'kayles', '3'])"],
                            capture_output=True, text=True, timeout=60)
    assert closed.returncode == 0 and closed.stdout.rstrip().endswith("bye"), closed.stderr[-300:]


def test_real_terminal():
    pid, fd = pty.fork()
    if pid == 0:  # the child runs the CLI on the pseudo-terminal
        os.execv(sys.executable, [sys.executable, "-m", "octal.front.cli", "play", "kayles", "3"])
    out = b""

    def read_until(token: bytes, timeout: float = 120) -> None:
        nonlocal out
        start = len(out)
        end = time.time() + timeout
        while token not in out[start:] and time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.5)
            if r:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break

    try:
        read_until(b"your move> ")
        os.write(fd, b"1 1 split 1 1\n")  # leaves 1 + 1: a P-position
        read_until(b"your move> ", 60)
        out_mid = out
        os.write(fd, b"1 1\n")
        read_until(b"You win!", 60)
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)
        os.close(fd)
    assert b"engine: remove 1 from the heap of 1" in out_mid
    assert b"You win!" in out
