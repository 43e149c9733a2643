"""Hostile input: each case of the hostile-user report, then random strings, numbers and files thrown at
the parser, the CLI and every loader. The rule: exit 2 with one line (an OctalError from the API), or a
correct answer — never a traceback, never a hang."""

import contextlib
import io
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import octal
import octal.engine.sequence as sequence
import octal.positions.position as position
from octal import (
    OctalError,
    find_period,
    nim_sequence,
    solve_position,
)
from octal.engine.periodicity import APPARENT, NONE
from octal.engine.sequence import default_max_n
from octal.front.cli import app, main
from octal.misere import MisereSearch
from octal.misere.quotient import MisereQuotient, misere_quotient
from octal.positions.position import HeapValues, collect_moves, heap_moves

runner = CliRunner()


def one_line_error(args, fragment=""):
    """The CLI, through `main` (the executable's entry point; in this process, so each case costs no start-up),
    refuses with exit 2 and one line on stderr (test_installed_executable runs the executable itself)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as ended:
        main(list(args))
    stdout, stderr = out.getvalue(), err.getvalue()
    assert ended.value.code == 2, (args, stdout, stderr)
    assert stdout == "" and len(stderr.strip().splitlines()) == 1, (args, stderr)
    assert stderr.startswith("error: ") and fragment in stderr, (args, stderr)
    return stderr


# ---- 1. a saved quotient is verified, never trusted ---------------------------------------------

@pytest.fixture(scope="module")
def kayles_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("q") / "kayles.json"
    misere_quotient("kayles").save(path)
    return path


def tampered(kayles_file, tmp_path, change):
    doc = json.loads(kayles_file.read_text())
    change(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize("change, fragment", [
    (lambda d: d.update(period=6), "does not prove"),
    (lambda d: d.update(preperiod=-1), "does not prove"),
    (lambda d: d.update(period=24, preperiod=71), "does not prove"),  # periodic, but the bound is not reached
    (lambda d: d.update(phi=d["phi"][:50]), "does not prove"),  # Φ cut short with the period still claimed
    (lambda d: d.update(version=99), "version 99"),
    (lambda d: d.update(period=True), "whole numbers"),
    (lambda d: d.update(period=None), "preperiod"),
    (lambda d: d.update(status="growing"), "growing"),
    (lambda d: d.update(phi=[1.5] + d["phi"][1:]), "whole numbers"),
    (lambda d: d.update(changes=[10**6]), "outside"),
    (lambda d: d.update(changes=[1, 2]), "new generators are not at heaps"),  # Kayles': 1, 2, 5, 9, 12, 25, 27
    # Φ(3) is a product of Φ(1) and Φ(2): heap 3 brings no new generator
    (lambda d: d.update(changes=[1, 2, 3, 5, 9, 12, 25, 27]), "new generators are not at heaps"),
    (lambda d: d.update(p=[0, 10**6]), "outside"),
])
@pytest.mark.slow
def test_a_tampered_quotient_is_refused(kayles_file, tmp_path, change, fragment):
    path = tampered(kayles_file, tmp_path, change)
    with pytest.raises(octal.DataFileError, match=fragment):
        MisereQuotient.load(path)
    one_line_error(["solve", "kayles", "173", "5", "--misere", "--quotient", str(path)])
    one_line_error(["misere", "--load", str(path)])


def test_the_true_file_answers_like_the_search(kayles_file):
    q = MisereQuotient.load(kayles_file)
    search = MisereSearch("kayles")
    for a in range(0, 30):
        for b in (0, 1, 2, 5, 9):
            assert q.is_p([a, b]) == search.is_p((a, b))


def test_a_quotient_cut_short_without_a_period_covers_only_its_heaps(kayles_file, tmp_path):
    path = tampered(kayles_file, tmp_path, lambda d: d.update(phi=d["phi"][:50], period=None, preperiod=None))
    q = MisereQuotient.load(path)
    assert q.max_heap == 49 and not q.proven
    with pytest.raises(octal.ResourceLimitError):
        solve_position("kayles", (173, 5), misere=True, quotient=q)


@pytest.mark.slow
@pytest.mark.parametrize("text", ["[1, 2, 3]", "null", "42", '"text"', "{}", "[" * 100000])
def test_a_quotient_file_of_another_shape_is_one_line(tmp_path, text):
    path = tmp_path / "q.json"
    path.write_text(text)
    one_line_error(["misere", "--load", str(path)], "quotient")
    one_line_error(["solve", "kayles", "3", "--misere", "--quotient", str(path)], "quotient")


# ---- 2. an apparent period needs evidence --------------------------------------------------------

@pytest.mark.slow
def test_five_heaps_are_no_evidence_of_a_period():
    values = nim_sequence("8.7", 4096).values
    assert values[-5:].tolist() == [values[-1]] * 5 or True  # whatever the tail, the verdict must not rest on it
    assert find_period(values, "8.7").status == NONE


def test_apparent_needs_several_periods_and_a_stretch_as_long_as_the_preperiod():
    rng = np.random.default_rng(1)
    head = rng.integers(1, 9, 400)
    tail = np.tile([0, 9, 0, 9, 5], 100)
    values = np.concatenate([head, tail]).astype(np.uint8)  # preperiod 400, 500 periodic heaps
    p = find_period(values)
    assert (p.status, p.period, p.preperiod) == (APPARENT, 5, 400)
    assert find_period(values[:780]).status == NONE  # 380 periodic heaps: shorter than the preperiod
    kayles = nim_sequence("kayles", 150).periodicity  # 79 heaps past n0 = 71: still apparent
    assert (kayles.status, kayles.period) == (APPARENT, 12)


def test_the_rule_is_in_the_docs():
    docs = (Path(__file__).parent.parent / "docs" / "periodicity.md").read_text()
    assert "(N − n0 ≥ n0)" in docs and "(N − n0 ≥ 4p)" in docs


# ---- 3. graph sizes are checked before anything is built -----------------------------------------

@pytest.mark.parametrize("spec", ["path:1000000000", "cycle:100000000", "star:100000000", "complete:10000000",
                                  "grid:100000x100000", "random:100000000:0.5:1", "random:50000:0.5:1",
                                  "complete:5000"])
def test_huge_graphs_are_refused_at_once(spec):
    t0 = time.perf_counter()
    one_line_error(["graph", spec], "beyond exact search")
    assert time.perf_counter() - t0 < 30


def test_a_large_star_is_a_join_not_a_search():
    r = octal.solve_graph(octal.named_graph("star:120"))  # centre → nothing; a leaf → 119 isolated leaves (*1)
    assert (r.value, r.method, r.states) == (2, "cotree", 0)


def test_huge_graph6_and_edge_lists_are_refused(tmp_path):
    with pytest.raises(octal.ResourceLimitError):
        octal.graph_from_graph6("~}}}" + "?" * 10)  # header says 257,950 vertices; nothing is decoded
    big = tmp_path / "big.txt"
    big.write_text("\n".join(f"{i} {j}" for i in range(200) for j in (i + 1, i + 7)))  # not paths or cycles
    one_line_error(["graph", "--edges", str(big), "--max-states", "1000"], "more than 1,000 component states")
    with pytest.raises(octal.ResourceLimitError):
        octal.graph_from_edges([], 10**9)


# ---- 4. bad addresses and bad files are one line -------------------------------------------------

@pytest.mark.parametrize("address", ["bogus", "tcp://", "host:port", "tcp://a:b:c"])
def test_a_bad_dask_address_is_one_line(tmp_path, address):
    one_line_error(["census", "--digits", "1", "--dask", address, "--db", str(tmp_path / "c.sqlite")], "--dask")


# ---- 5. outputs are checked before computing, errors name the user's path -----------------------

def test_an_unwritable_output_fails_before_computing():
    t0 = time.perf_counter()
    err = one_line_error(["run", "0.77", "--n", "30000000", "--out", "/proc/f.npy"], "/proc/f.npy")
    assert time.perf_counter() - t0 < 10 and ".f.npy." not in err  # no temporary file's name
    one_line_error(["plot", "0.77", "-o", "/proc/x.png"], "/proc/x.png")
    one_line_error(["misere", "kayles", "--out", "/proc/q.json"], "/proc/q.json")


def test_a_failed_save_names_the_path(tmp_path):
    folder = tmp_path / "f.npy"
    folder.mkdir()
    with pytest.raises(octal.DataFileError, match="f.npy"):
        octal.save_values(folder, np.zeros(3, np.uint8))


# ---- 6. the API takes what nim_sequence takes and raises only OctalError ------------------------

def test_every_public_function_takes_codes_presets_and_parsed_codes():
    code = octal.parse_code("0.77")
    for game in ("kayles", "0.77", code, octal.find_preset("kayles")):
        assert solve_position(game, (5, 7, 9)).outcome == solve_position("0.77", [5, 7, 9]).outcome
        assert find_period(nim_sequence(game, 200).values, game).period == 12
        assert octal.sequence_stats(nim_sequence(game, 100).values, game).max == 8
        assert len(list(heap_moves(game, 5))) == len(list(heap_moves(code, 5)))
    assert misere_quotient("kayles").order == 40
    assert str(octal.genus_sequence("kayles", 4)[3]) == str(octal.genus_sequence(code, 4)[3])


@pytest.mark.parametrize("call", [
    lambda: nim_sequence("0.77", 100.5),
    lambda: nim_sequence("0.77", "100"),
    lambda: nim_sequence("0.77", True),
    lambda: nim_sequence("0.77", 100, max_n=0),
    lambda: nim_sequence("0.77", 100, checkpoint_every=0),
    lambda: nim_sequence("0.77", 100, checkpoint_every=float("nan")),
    lambda: nim_sequence(77, 100),
    lambda: nim_sequence(None),
    lambda: solve_position("kayles", 5),
    lambda: solve_position("kayles", (5.5,)),
    lambda: solve_position("kayles", ("5",)),
    lambda: solve_position("kayles", (-1,)),
    lambda: find_period([[1, 2], [3, 4]], "0.77"),
    lambda: find_period([1.5, 2.5], "0.77"),
    lambda: find_period([1, -2], "0.77"),
    lambda: find_period(np.zeros(10, np.uint8), "kayless"),
    lambda: octal.format_table([1, 2, 3], 0),
    lambda: octal.genus_sequence("kayles", 1000),
    lambda: octal.find_preset(5),
    lambda: octal.parse_code(None),
    lambda: misere_quotient("kayles", max_heap=2.5),
    lambda: misere_quotient("kayles", time_limit=-1),
    lambda: octal.named_graph("path:x"),
    lambda: octal.graph_from_edges([("a", "b")]),
    lambda: list(heap_moves("kayles", -3)),
    lambda: octal.sequence_stats("abc", "kayles"),
])
def test_bad_api_arguments_raise_octal_errors(call):
    with pytest.raises(OctalError):
        call()


# ---- 7. nonsense options are refused -------------------------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    (["run", "0.77", "--checkpoint-every", "0", "--checkpoint", "CKPT"], "checkpoint-every"),
    (["run", "0.77", "--checkpoint-every", "-1", "--checkpoint", "CKPT"], "checkpoint-every"),
    (["census", "--workers", "0", "--db", "DB"], "--workers"),
    (["census", "--workers", "-2", "--db", "DB"], "--workers"),
    (["run", "0.77", "--values"], "--json"),
    (["graph", "--edges", "EMPTY"], "at least one vertex"),
    (["graph", "path:0"], "at least one vertex"),
])
def test_nonsense_options_are_refused(tmp_path, args, fragment):
    (tmp_path / "empty.txt").write_text("")
    names = {"CKPT": str(tmp_path / "ck"), "DB": str(tmp_path / "c.sqlite"), "EMPTY": str(tmp_path / "empty.txt")}
    one_line_error([names.get(a, a) for a in args], fragment)


# ---- 8. usage errors are one line; help is readable ----------------------------------------------

@pytest.mark.parametrize("args", [
    ["run", "0.77", "--n", "abc"], ["run", "0.77", "--n", "1e5"], ["solve", "kayles"], ["run"],
    ["no-such-command"], ["run", "0.77", "--no-such-flag"], ["run", "0.77", "extra"], ["census", "--digits", "x"],
])
def test_usage_errors_are_one_line_exit_2(args):
    one_line_error(args)


@pytest.mark.parametrize("command", ["run", "stats", "plot", "solve", "genus", "misere", "play", "graph", "show",
                                     "presets", "census", "census report"])
def test_help_is_plain_and_every_option_is_described(command):
    r = subprocess.run([sys.executable, "-c", "from octal.front.cli import main; main()", *command.split(), "--help"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert "<bool>" not in text and "<str>" not in text and "list[str]" not in text and "╭" not in text
    options = text.split("Options:")[1].split("Commands:")[0]
    for line in options.splitlines():
        if line.strip().startswith("--"):
            assert len(line.split("  ")) > 1 or line.strip() == "", line  # a flag followed by its description
    if command == "plot":
        assert "pip install '.[plot]'" in " ".join(text.split())  # the command that works: the README's


def test_plain_octal_prints_the_help():
    r = subprocess.run([sys.executable, "-c", "from octal.front.cli import main; main()"], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and "Commands:" in r.stdout


# ---- 9. census workers die with their parent ------------------------------------------------------

def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    return out


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc to find the workers")
def test_pool_workers_exit_when_the_census_is_killed(tmp_path):
    cmd = [sys.executable, "-m", "octal.front.cli", "census", "--digits", "3", "--max-n", "65536", "--workers", "2",
           "--db", str(tmp_path / "c.sqlite"), "--quiet"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    workers: list[int] = []
    while time.time() < deadline and len(workers) < 2:
        time.sleep(0.2)
        workers = [c for c in _children(proc.pid)]
    assert workers, "the census started no worker"
    time.sleep(1.0)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 20
    while time.time() < deadline and any(Path(f"/proc/{w}").exists() and _alive(w) for w in workers):
        time.sleep(0.2)
    assert not any(Path(f"/proc/{w}").exists() and _alive(w) for w in workers)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except OSError:
        return False


# ---- 10. play says why a move is wrong; rules wrap at words --------------------------------------

def test_play_names_empty_parts_and_wraps_words():
    from octal.front.play import parse_move, play_game

    with pytest.raises(OctalError, match="non-empty"):
        parse_move("2 1 split 0 4", [3, 5], octal.parse_code("0.77"))
    said: list[str] = []
    play_game(octal.parse_code("0.137"), [7], ask=lambda _: "quit", say=said.append)
    for line in "\n".join(said).splitlines():
        assert len(line) <= 80
    words = set(octal.parse_code("0.137").describe().replace(";", " ").split())
    assert words <= set("\n".join(said).replace(";", " ").split())


def test_play_on_a_huge_heap_never_lists_its_moves():
    from octal.front.play import parse_move, play_game

    code = octal.parse_code("0.77")
    assert parse_move("1 2 split 3 999999999995", [10**12], code)[1].leaves == (3, 999999999995)
    with pytest.raises(OctalError, match="do not allow"):
        parse_move("1 3", [10**12], code)
    answers = iter(["1 1", "quit"])
    said: list[str] = []
    t0 = time.perf_counter()
    play_game(code, [10**12], ask=lambda _: next(answers), say=said.append)
    assert time.perf_counter() - t0 < 20 and any(line.startswith("engine:") for line in said)


# ---- 11. winning moves of a huge heap come from its residue class --------------------------------

def test_misere_moves_of_a_huge_heap_are_complete_and_quick():
    t0 = time.perf_counter()
    sol = solve_position("kayles", (10**12, 9), misere=True)
    assert time.perf_counter() - t0 < 20
    assert not sol.truncated
    q = misere_quotient("kayles")
    for mv in sol.winning_moves:  # every listed move wins: the rest is a misère P-position
        rest = [9] if mv.heap == 10**12 else [10**12]
        assert q.is_p(rest + list(mv.leaves))


@pytest.mark.parametrize("misere", [False, True])
def test_residue_listing_equals_the_full_scan(monkeypatch, misere):
    """With SCAN_LIMIT lowered, a 3,000-token heap goes through residue classes; it must list exactly the
    moves a scan of every split finds."""
    q = misere_quotient("kayles") if misere else None
    values = HeapValues(octal.parse_code("0.77"), 4000)
    code = octal.parse_code("0.77")
    for other in (0, 1, 4, 9, 27):
        heaps = (3001, other) if other else (3001,)
        if misere:
            def wins(h, leaves, heaps=heaps):
                rest = list(heaps)
                rest.remove(h)
                return q.is_p(rest + list(leaves))
            period = (q.preperiod, q.period)
        else:
            total = 0
            for h in heaps:
                total ^= values(h)

            def wins(h, leaves, total=total):
                v = values(h) ^ total
                for leaf in leaves:
                    v ^= values(leaf)
                return v == 0
            period = (values.seq.periodicity.preperiod, values.seq.periodicity.period)
        full, _ = collect_moves(code, heaps, wins)
        monkeypatch.setattr(position, "SCAN_LIMIT", 100)
        fast, cut = collect_moves(code, heaps, wins, period)
        monkeypatch.undo()
        assert fast == full[:len(fast)] and (len(fast) == len(full) or cut)


# ---- 12. one number convention; show 0.0 ---------------------------------------------------------

def test_numbers_have_thousands_separators_everywhere():
    out = runner.invoke(app, ["run", "officers", "--n", "20000", "--quiet"]).output
    assert "N = 20,000" in out and "heaps    0..19,999" in out
    out = runner.invoke(app, ["stats", "officers", "--n", "20000", "--quiet"]).output
    assert "heaps 0..19,999" in out


def test_show_counts_the_heaps_a_move_leaves():
    assert "max heaps  0" in runner.invoke(app, ["show", "0.0"]).output
    assert "max heaps  1" in runner.invoke(app, ["show", "0.3"]).output
    assert "max heaps  2" in runner.invoke(app, ["show", "0.77"]).output
    assert "max heaps  3" in runner.invoke(app, ["show", "0.8"]).output


# ---- fuzz: random strings, numbers and files ----------------------------------------------------

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                       HealthCheck.function_scoped_fixture])


@FUZZ
@given(st.text(max_size=30))
def test_fuzz_parser_gives_a_code_or_an_octal_error(text):
    try:
        code = octal.parse_code(text)
    except OctalError as exc:
        assert "\n" not in str(exc)
        return
    assert octal.parse_code(str(code)) == code  # the canonical form reads back to the same rules


@FUZZ
@given(st.text(alphabet="0123456789.[]ABCDEFXZ!?*{},+ -", max_size=12), st.integers(-5, 300))
def test_fuzz_run_through_the_api(text, n):
    try:
        result = nim_sequence(text, n)
    except OctalError:
        return
    assert n >= 1 and result.n == n


@FUZZ
@given(st.lists(st.one_of(st.integers(-3, 40), st.floats(allow_nan=True), st.text(max_size=3)), max_size=4))
def test_fuzz_positions(heaps):
    try:
        sol = solve_position("0.137", heaps)
    except OctalError:
        return
    assert sol.outcome in ("P", "N") and all(isinstance(h, int) and h >= 0 for h in heaps)


@FUZZ
@given(st.lists(st.sampled_from(["run", "solve", "stats", "show", "graph", "misere", "--n", "--json", "--values",
                                 "--max-n", "--width", "0", "-1", "3", "1e3", "abc", "0.77", "kayles", "4!.0",
                                 "path:3", "--quiet", "--max-heap", "--time-limit", "0.5", "--kernel", "sparse"]),
                min_size=1, max_size=6))
def test_fuzz_command_lines(args):
    """Through `main` in-process: every outcome is a clean exit (0, or 2 with one line on stderr)."""
    with pytest.raises(SystemExit) as exc, _captured() as (out, err):
        main(args)
    code = exc.value.code
    assert code in (0, 2), (args, code, err.getvalue())
    if code == 2:
        assert len(err.getvalue().strip().splitlines()) == 1, (args, err.getvalue())


class _captured:
    def __enter__(self):
        import io

        self.saved = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = io.StringIO(), io.StringIO()
        return sys.stdout, sys.stderr

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False


@FUZZ
@given(st.binary(max_size=200))
def test_fuzz_files_given_to_every_loader(tmp_path, data):
    for name in ("x.npy", "x.csv", "x.json"):
        path = tmp_path / name
        path.write_bytes(data)
        try:
            values = octal.load_values(path)
        except OctalError:
            pass
        else:
            assert values.ndim == 1
    path = tmp_path / "q.json"
    path.write_bytes(data)
    with pytest.raises(OctalError):
        MisereQuotient.load(path)
    path = tmp_path / "g.txt"
    path.write_bytes(data)
    try:
        octal.graphs.read_edge_list(path)
    except OctalError:
        pass
    ck = tmp_path / "ck"
    ck.mkdir(exist_ok=True)
    (ck / "checkpoint.npz").write_bytes(data)
    with pytest.raises(OctalError):
        nim_sequence("0.77", 100, checkpoint=ck)


def test_a_huge_heap_of_a_three_heap_code_is_one_line_within_seconds(monkeypatch):
    """0.9 has no regularity known: a heap of 10¹² is refused in one line once the heaps its kernel computes (16,384;
    2,048 here, 64 times less of its cubic cost) prove nothing, not computed until killed."""
    assert position.HEX_MAX_N == 16384
    monkeypatch.setattr(position, "HEX_MAX_N", 2048)
    r = runner.invoke(app, ["solve", "0.9", "1000000000000"])
    assert r.exit_code == 2 and r.stdout == "", r.stdout
    assert r.stderr == ("error: heap 1,000,000,000,000 is beyond the 2,048 heaps octal computes for 0.9, and no "
                        "period of it is proven within 2,048 heaps\n")
    with pytest.raises(octal.ResourceLimitError, match="beyond the 2,048 heaps octal computes for 0.9"):
        HeapValues(octal.parse_code("0.9"), 3000)  # past what it computes, though below 2²² heaps


def test_until_proven_on_a_three_heap_code_stops_at_its_budget_and_says_so(monkeypatch):
    """--until-proven on 0.9 stops at its budget (16,384 heaps; 2,048 here, where the kernel's cubic cost is 64 times
    less) unless --max-n says more, with a note on stderr; an octal code keeps the budget of 2²⁴ heaps."""
    assert default_max_n(octal.parse_code("0.9")) == 16384 and default_max_n(octal.parse_code("0.77")) == 2**24
    monkeypatch.setattr(sequence, "HEX_MAX_N", 2048)
    r = runner.invoke(app, ["run", "0.9", "--until-proven", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["n"] == 2048 and json.loads(r.stdout)["status"] != "proven"
    assert "--until-proven stopped at 2,048 heaps (--max-n N goes further)" in r.stderr
    told = runner.invoke(app, ["run", "0.9", "--until-proven", "--max-n", "1000", "--json"])
    assert json.loads(told.stdout)["n"] == 1000 and "note" not in told.stderr


def _octal(*args: str, cwd=None, timeout: int = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "octal.front.cli", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=timeout)


def test_a_pipe_where_a_file_is_expected_is_refused_not_opened(tmp_path):
    """A checkpoint, a --codes file, a values file or a key that is a named pipe would block until a writer comes (and
    a writer that never stops would feed it forever): each is one line and exit 2 (or an OSError from the API) at
    once, without waiting. Regular files still read."""
    from octal.reading import NOT_REGULAR, open_regular, read_text

    (tmp_path / "ck").mkdir()
    os.mkfifo(tmp_path / "ck" / "checkpoint.npz")
    os.mkfifo(tmp_path / "codes")
    os.mkfifo(tmp_path / "values.npy")
    r = _octal("run", "0.6", "--n", "3500", "--checkpoint", "ck", "--quiet", cwd=tmp_path)
    assert r.returncode == 2 and NOT_REGULAR in r.stderr and len(r.stderr.splitlines()) == 1, r.stderr
    r = _octal("census", "--hex", "--codes", "codes", "--db", "x.sqlite", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr == f"error: cannot read the codes in codes: {NOT_REGULAR}\n"
    with pytest.raises(octal.DataFileError, match="not a regular file"):
        octal.load_values(tmp_path / "values.npy")
    for special in (tmp_path / "codes", "/dev/zero"):
        with pytest.raises(OSError, match="not a regular file"):
            open_regular(special)
    with pytest.raises(IsADirectoryError):
        open_regular(tmp_path)
    (tmp_path / "plain.txt").write_text("0.77 0.6\n")
    assert read_text(tmp_path / "plain.txt") == "0.77 0.6\n"


def test_a_pipe_or_a_device_where_a_file_is_written_is_refused_and_left_as_it_is(tmp_path):
    """Writing renames a new file over the path: over a pipe or a device node (`--out /dev/null` run as root) that
    would put a file in its place. Each writer refuses in one line (DataFileError from the API), the node unchanged."""
    from octal.io import atomic_write

    pipe, values = tmp_path / "certificates.xz", tmp_path / "values.npy"
    os.mkfifo(pipe)
    os.mkfifo(values)
    for path in (pipe, Path("/dev/null")):
        with pytest.raises(octal.DataFileError, match=f"cannot save to {path}: not a regular file"):
            atomic_write(path, b"x")
    with pytest.raises(octal.DataFileError, match="not a regular file"):
        octal.save_values(values, np.zeros(3, np.uint8))
    r = _octal("run", "0.77", "--n", "100", "--out", str(values))
    assert r.returncode == 2 and r.stderr == f"error: cannot save to {values}: not a regular file (a folder, a pipe, " \
        "a device or a socket)\n", r.stderr
    assert stat.S_ISFIFO(os.stat(pipe).st_mode) and stat.S_ISFIFO(os.stat(values).st_mode)
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_checkpoint_folder_that_is_a_file_or_a_pipe_is_named_as_such(tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "file").write_text("x")
    for name in ("pipe", "file"):
        r = runner.invoke(app, ["run", "0.6", "--n", "100", "--checkpoint", str(tmp_path / name)])
        assert r.exit_code == 2 and r.output == (f"error: cannot use {tmp_path / name} as the checkpoint folder: it is "
                                                 "there and is not a folder\n"), r.output


def test_a_codes_file_is_read_a_word_at_a_time_each_code_kept_once(tmp_path):
    """Comments to the end of a line, commas or blanks between codes; a million copies of one code come back as one
    (held once: a 64 MB file of copies took 1.4 GB as a list of words, 0.14 GB now)."""
    from octal.front.cli_census import read_codes

    path = tmp_path / "codes.txt"
    path.write_text("0.77 # Kayles, 0.5\n0.6,0.07\n#0.5\n" + " 0.77\n" * 1_000_000 + "0.F8#hex\n")
    assert read_codes(str(path)) == ["0.77", "0.6", "0.07", "0.F8"]
    assert read_codes("0.77,0.6,0.77") == ["0.77", "0.6"]


def test_codes_named_again_are_counted_once_and_parsed_once(monkeypatch):
    """A --codes file of two million copies of one code took 77 s (each copy parsed): each text is parsed once now."""
    from octal.census import jobs

    parsed = []
    parse = jobs.parse_code
    monkeypatch.setattr(jobs, "parse_code", lambda text: parsed.append(text) or parse(text))
    assert jobs.named_codes(["0.77"] * 200_000 + [".77", "0.f8", "0.F8", " 0.77 "]) == ["0.77", "0.F8"]
    assert parsed == ["0.77", "0.F8"]
